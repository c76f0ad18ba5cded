/* c4-cleanup.c - systemd-like _cleanup_(f) declarations in the functions
 * that create, get and put */
#include <stdlib.h>
#include <string.h>

#include "c4.h"
#include "track.h"

#define _cleanup_(f) __attribute__((cleanup(f)))
#define _cleanup_free_ _cleanup_(freep)

static inline void freep(void *p)
{
	free(*(void **)p);
}

struct req {
	unsigned n_ref;
	char *path;
};

static void req_free(struct req *r)
{
	track_gone(r);
	free(r->path);
	free(r);
}

struct req *req_new(const char *path)
{
	_cleanup_free_ char *copy = strdup(path);
	struct req *r;

	if (!copy)
		return NULL;
	r = malloc(sizeof(*r));
	if (!r)
		return NULL;
	r->n_ref = 1;
	r->path = copy;
	copy = NULL;
	track_born(r);
	return r;
}

struct req *req_dup(struct req *r)
{
	_cleanup_free_ char *trace = strdup(r->path);

	__sync_add_and_fetch(&r->n_ref, 1);
	(void)trace;
	return r;
}

void req_unref(struct req *r)
{
	_cleanup_free_ char *trace = strdup(r->path);

	if (__sync_sub_and_fetch(&r->n_ref, 1) == 0)
		req_free(r);
	(void)trace;
}

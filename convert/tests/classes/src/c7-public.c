/* c7-public.c - capture_ref() is public; the tree calls it only on handles
 * it has just calloc'ed, at two creation sites */
#include <stdatomic.h>
#include <stdlib.h>

#include "c7.h"
#include "track.h"

struct capture {
	const char *dev;
	atomic_uint refcount;
};

static void capture_close(struct capture *c)
{
	track_gone(c);
	free(c);
}

struct capture *capture_open(const char *dev)
{
	struct capture *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->dev = dev;
	track_born(c);
	return capture_ref(c);
}

struct capture *capture_open_default(void)
{
	struct capture *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->dev = "any";
	track_born(c);
	return capture_ref(c);
}

struct capture *capture_ref(struct capture *c)
{
	atomic_fetch_add(&c->refcount, 1);
	return c;
}

void capture_unref(struct capture *c)
{
	if (atomic_fetch_sub(&c->refcount, 1) != 1)
		return;
	capture_close(c);
}

/* c7-public.c converted by hand: the two creations set 1; capture_ref,
 * public, stays an increment */
#include <stdlib.h>

#include <refcount/refcount.h>

#include "c7.h"
#include "track.h"

struct capture {
	const char *dev;
	refcount_t refcount;
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
	refcount_set(&c->refcount, 1);
	return c;
}

struct capture *capture_open_default(void)
{
	struct capture *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->dev = "any";
	track_born(c);
	refcount_set(&c->refcount, 1);
	return c;
}

struct capture *capture_ref(struct capture *c)
{
	refcount_inc(&c->refcount);
	return c;
}

void capture_unref(struct capture *c)
{
	if (!refcount_dec_and_test(&c->refcount))
		return;
	capture_close(c);
}

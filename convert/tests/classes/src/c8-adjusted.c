/* c8-adjusted.c - the C11 old value adjusted to the new one (- 1, + 1),
 * kept, traced, then tested */
#include <stdatomic.h>
#include <stdlib.h>

#include "c8.h"
#include "track.h"

static trace_fn *hook;

struct layer {
	atomic_int refs;
	float alpha;
};

void layer_set_trace(trace_fn *fn)
{
	hook = fn;
}

static void layer_destroy(struct layer *l)
{
	track_gone(l);
	free(l);
}

struct layer *layer_new(void)
{
	struct layer *l = malloc(sizeof(*l));

	if (!l)
		return NULL;
	atomic_init(&l->refs, 1);
	l->alpha = 1.0f;
	track_born(l);
	return l;
}

void layer_ref(struct layer *l)
{
	int now = atomic_fetch_add(&l->refs, 1) + 1;

	if (hook)
		hook(l, now);
}

void layer_unref(struct layer *l)
{
	int now;

	now = atomic_fetch_sub(&l->refs, 1) - 1;
	if (hook)
		hook(l, now);
	if (now != 0)
		return;
	layer_destroy(l);
}

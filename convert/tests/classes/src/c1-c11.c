/* c1-c11.c - void static helpers over C11 atomics on the field itself; the
 * release is a callback the object carries */
#include <stdatomic.h>
#include <stdlib.h>

#include "c1.h"
#include "track.h"

struct gadget {
	atomic_int refs;
	void (*on_last)(struct gadget *g);
};

static void gadget_count_up(atomic_int *p)
{
	atomic_fetch_add_explicit(p, 1, memory_order_relaxed);
}

static int gadget_count_down(atomic_int *p)
{
	return atomic_fetch_sub_explicit(p, 1, memory_order_acq_rel);
}

static void gadget_free(struct gadget *g)
{
	track_gone(g);
	free(g);
}

struct gadget *gadget_new(void)
{
	struct gadget *g = malloc(sizeof(*g));

	if (!g)
		return NULL;
	atomic_init(&g->refs, 1);
	g->on_last = gadget_free;
	track_born(g);
	return g;
}

void gadget_ref(struct gadget *g)
{
	gadget_count_up(&g->refs);
}

void gadget_unref(struct gadget *g)
{
	if (gadget_count_down(&g->refs) == 1)
		g->on_last(g);
}

/* c5-packed.c - a 15-bit count beside flags in one word, changed by a
 * compare-and-swap loop on a union's word (GClosure-like) */
#include <stdlib.h>

#include "c5.h"
#include "track.h"

struct closure_bits {
	unsigned int ref_count : 15, floating : 1, n_guards : 16;
};

union closure_word {
	struct closure_bits bits;
	unsigned int vint;
};

struct closure {
	struct closure_bits bits;
	void *data;
};

static unsigned int closure_add(struct closure *c, int delta)
{
	union closure_word *w = (union closure_word *)&c->bits;
	union closure_word old, new;

	do {
		old.vint = __atomic_load_n(&w->vint, __ATOMIC_RELAXED);
		new = old;
		new.bits.ref_count += delta;
	} while (!__atomic_compare_exchange_n(&w->vint, &old.vint, new.vint, 0,
					      __ATOMIC_ACQ_REL,
					      __ATOMIC_RELAXED));
	return new.bits.ref_count;
}

static void closure_free(struct closure *c)
{
	track_gone(c);
	free(c);
}

struct closure *closure_new(void)
{
	struct closure *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->bits.ref_count = 1;
	c->bits.floating = 1;
	track_born(c);
	return c;
}

void closure_ref(struct closure *c)
{
	closure_add(c, +1);
}

void closure_unref(struct closure *c)
{
	if (closure_add(c, -1) == 0)
		closure_free(c);
}

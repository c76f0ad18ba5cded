/* c7-zeroed.c - a handle's count stored 0 after malloc, then the public
 * get; the tree calls handle_get() on nothing else */
#include <stdlib.h>

#include "c7.h"
#include "track.h"

struct handle {
	int kind;
	long refs;
};

static void handle_destroy(struct handle *h)
{
	track_gone(h);
	free(h);
}

struct handle *handle_new(int kind)
{
	struct handle *h = malloc(sizeof(*h));

	if (!h)
		return NULL;
	h->kind = kind;
	h->refs = 0;
	track_born(h);
	handle_get(h);
	return h;
}

void handle_get(struct handle *h)
{
	__atomic_fetch_add(&h->refs, 1, __ATOMIC_RELAXED);
}

void handle_put(struct handle *h)
{
	if (__atomic_fetch_sub(&h->refs, 1, __ATOMIC_ACQ_REL) == 1)
		handle_destroy(h);
}

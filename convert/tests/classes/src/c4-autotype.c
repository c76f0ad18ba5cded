/* c4-autotype.c - __auto_type and __typeof__ declarations with a cleanup
 * attribute spelled out, in the functions that create and that get */
#include <stdatomic.h>
#include <stdlib.h>

#include "c4.h"
#include "track.h"

struct item {
	atomic_int refs;
	int value;
};

static void item_destroy(struct item *it)
{
	track_gone(it);
	free(it);
}

static void item_unrefp(struct item **itp)
{
	if (*itp)
		item_unref(*itp);
}

struct item *item_new(void)
{
	__auto_type it = (struct item *)malloc(sizeof(struct item));
	__attribute__((cleanup(item_unrefp), unused)) __typeof__(it) guard =
		NULL;

	if (!it)
		return NULL;
	atomic_store(&it->refs, 1);
	it->value = 42;
	track_born(it);
	return it;
}

void item_ref(struct item *it)
{
	atomic_fetch_add(&it->refs, 1);
}

void item_unref(struct item *it)
{
	if (atomic_fetch_sub(&it->refs, 1) == 1)
		item_destroy(it);
}

int item_peek(struct item *it)
{
	__attribute__((cleanup(item_unrefp))) __typeof__(it) held = it;

	atomic_fetch_add(&held->refs, 1);
	return held->value;
}

/* c1-sync.c - a one-member counter type whose get and creation are void
 * functions over __sync / __atomic builtins */
#include <stdlib.h>

#include "c1.h"
#include "track.h"

typedef struct my_counter {
	volatile int v;
} my_counter_t;

void my_counter_set(my_counter_t *c, int n)
{
	__atomic_store_n(&c->v, n, __ATOMIC_RELEASE);
}

void my_counter_inc(my_counter_t *c)
{
	__sync_fetch_and_add(&c->v, 1);
}

int my_counter_dec(my_counter_t *c)
{
	return __sync_sub_and_fetch(&c->v, 1);
}

struct widget {
	my_counter_t refs;
	int colour;
};

static void widget_destroy(struct widget *w)
{
	track_gone(w);
	free(w);
}

struct widget *widget_new(void)
{
	struct widget *w = malloc(sizeof(*w));

	if (!w)
		return NULL;
	my_counter_set(&w->refs, 1);
	w->colour = 7;
	track_born(w);
	return w;
}

void widget_ref(struct widget *w)
{
	my_counter_inc(&w->refs);
}

void widget_unref(struct widget *w)
{
	if (my_counter_dec(&w->refs) == 0)
		widget_destroy(w);
}

/* c5-comma.c - an atomic count in the middle of a comma list, and a plain
 * single-threaded count of the same name in another struct */
#include <stdlib.h>

#include "c5.h"
#include "track.h"

struct shelf {
	int width, refs, depth;
};

struct book {
	long pages, refs;
};

static void shelf_free(struct shelf *s)
{
	track_gone(s);
	free(s);
}

struct shelf *shelf_new(void)
{
	struct shelf *s = malloc(sizeof(*s));

	if (!s)
		return NULL;
	s->width = 80;
	s->refs = 1;
	s->depth = 30;
	track_born(s);
	return s;
}

void shelf_ref(struct shelf *s)
{
	__atomic_fetch_add(&s->refs, 1, __ATOMIC_RELAXED);
}

void shelf_unref(struct shelf *s)
{
	if (__atomic_fetch_sub(&s->refs, 1, __ATOMIC_ACQ_REL) == 1)
		shelf_free(s);
}

static void book_free(struct book *b)
{
	track_gone(b);
	free(b);
}

struct book *book_new(void)
{
	struct book *b = malloc(sizeof(*b));

	if (!b)
		return NULL;
	b->pages = 100;
	b->refs = 1;
	track_born(b);
	return b;
}

void book_ref(struct book *b)
{
	b->refs++;
}

void book_unref(struct book *b)
{
	if (--b->refs == 0)
		book_free(b);
}

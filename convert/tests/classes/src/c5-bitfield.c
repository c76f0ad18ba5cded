/* c5-bitfield.c - a plain 7-bit count beside a flag in one declaration,
 * under a lock, and an atomic count of the same name in another struct */
#include <pthread.h>
#include <stdlib.h>

#include "c5.h"
#include "track.h"

static pthread_mutex_t tag_lock = PTHREAD_MUTEX_INITIALIZER;

struct tag {
	unsigned ref_cnt : 7, borrowed : 1;
	unsigned char kind;
};

struct label {
	int ref_cnt;
	struct tag *tag;
};

static void tag_free(struct tag *t)
{
	track_gone(t);
	free(t);
}

struct tag *tag_new(void)
{
	struct tag *t = malloc(sizeof(*t));

	if (!t)
		return NULL;
	t->ref_cnt = 1;
	t->borrowed = 0;
	t->kind = 3;
	track_born(t);
	return t;
}

void tag_ref(struct tag *t)
{
	pthread_mutex_lock(&tag_lock);
	t->ref_cnt++;
	pthread_mutex_unlock(&tag_lock);
}

void tag_unref(struct tag *t)
{
	int last;

	pthread_mutex_lock(&tag_lock);
	last = --t->ref_cnt == 0;
	pthread_mutex_unlock(&tag_lock);
	if (last)
		tag_free(t);
}

static void label_free(struct label *l)
{
	tag_unref(l->tag);
	track_gone(l);
	free(l);
}

struct label *label_new(void)
{
	struct label *l = malloc(sizeof(*l));

	if (!l)
		return NULL;
	l->tag = tag_new();
	l->ref_cnt = 1;
	track_born(l);
	return l;
}

void label_ref(struct label *l)
{
	__sync_fetch_and_add(&l->ref_cnt, 1);
}

void label_unref(struct label *l)
{
	if (__sync_fetch_and_sub(&l->ref_cnt, 1) == 1)
		label_free(l);
}

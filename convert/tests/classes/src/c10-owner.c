/* c10-owner.c - a count with an owner pointer: at 0 a blob stays alive
 * while its store owns it, and the store's lookup takes it from 0 again */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "c10.h"
#include "track.h"

struct oref {
	atomic_int count;
	void *owner;
};

#define OREF_INIT(o) (atomic_init(&(o)->rc.count, 1), (o)->rc.owner = NULL)
#define OREF_INC(o) atomic_fetch_add(&(o)->rc.count, 1)
#define OREF_DEC(o, destroy)                                                   \
	do {                                                                   \
		if (atomic_fetch_sub(&(o)->rc.count, 1) == 1 &&                \
		    (o)->rc.owner == NULL)                                     \
			destroy(o);                                            \
	} while (0)

struct blob {
	struct oref rc;
	int size;
};

struct store {
	pthread_mutex_t lock;
	struct blob *only;
};

static void blob_free(struct blob *b)
{
	track_gone(b);
	free(b);
}

struct blob *blob_new(void)
{
	struct blob *b = malloc(sizeof(*b));

	if (!b)
		return NULL;
	OREF_INIT(b);
	b->size = 0;
	track_born(b);
	return b;
}

void blob_ref(struct blob *b)
{
	OREF_INC(b);
}

void blob_unref(struct blob *b)
{
	OREF_DEC(b, blob_free);
}

struct store *store_new(void)
{
	struct store *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	pthread_mutex_init(&st->lock, NULL);
	track_born(st);
	return st;
}

/* the store takes ownership, not a reference */
void store_add(struct store *st, struct blob *b)
{
	pthread_mutex_lock(&st->lock);
	b->rc.owner = st;
	st->only = b;
	pthread_mutex_unlock(&st->lock);
}

struct blob *store_find(struct store *st)
{
	struct blob *b;

	pthread_mutex_lock(&st->lock);
	b = st->only;
	if (b)
		OREF_INC(b);
	pthread_mutex_unlock(&st->lock);
	return b;
}

void store_destroy(struct store *st)
{
	struct blob *b = st->only;

	if (b) {
		b->rc.owner = NULL;
		if (atomic_load(&b->rc.count) == 0)
			blob_free(b);
	}
	track_gone(st);
	pthread_mutex_destroy(&st->lock);
	free(st);
}

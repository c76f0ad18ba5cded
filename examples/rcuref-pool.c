// SPDX-License-Identifier: MIT
/*
 * rcuref-pool.c - file_ref_t on type-stable memory
 *
 * The memory rule of <refcount/rcuref.h>, met by way (b): sessions come
 * from a pool whose memory is never given back, so a lookup may hold a
 * stale pointer, and a get through it may land on a released session or on
 * the same memory reused for another one; it never touches unmapped
 * memory.  Hence file_ref_get() writes nothing when it fails, and a lookup
 * checks, after its get, that the session is still the one it was looking
 * for (its id), and puts it back if not.  No liburcu, no lock on the
 * lookup path.
 *
 * Build: cc -std=gnu11 rcuref-pool.c $(pkg-config --cflags --libs refcount)
 */
#include <pthread.h>
#include <stdio.h>

#include <refcount/file_ref.h>

#define NSESSIONS 4

struct session {
	file_ref_t ref;
	atomic_uint id; /* 0: free */
	struct session *next_free; /* under pool_lock */
};

static struct session pool[NSESSIONS]; /* never freed */
static struct session *free_list;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(struct session *) table[NSESSIONS]; /* one slot per id */

static void pool_init(void)
{
	for (int i = 0; i < NSESSIONS; i++) {
		pool[i].next_free = free_list;
		free_list = &pool[i];
	}
}

static struct session *session_create(unsigned int id)
{
	struct session *s;

	pthread_mutex_lock(&pool_lock);
	s = free_list;
	if (s)
		free_list = s->next_free;
	pthread_mutex_unlock(&pool_lock);
	if (!s)
		return NULL;
	atomic_store(&s->id, id);
	file_ref_init(&s->ref, 1); /* the table's reference */
	atomic_store(&table[id % NSESSIONS], s);
	return s;
}

/* The one release: unpublish, then back to the pool (not to free()). */
static void session_release(struct session *s)
{
	struct session *expect = s;

	atomic_compare_exchange_strong(&table[atomic_load(&s->id) % NSESSIONS],
				       &expect, NULL);
	printf("released session %u\n", atomic_load(&s->id));
	atomic_store(&s->id, 0);
	pthread_mutex_lock(&pool_lock);
	s->next_free = free_list;
	free_list = s;
	pthread_mutex_unlock(&pool_lock);
}

static void session_put(struct session *s)
{
	if (file_ref_put(&s->ref))
		session_release(s);
}

/* Take a reference on s if it is the session with this id, or NULL. */
static struct session *session_get_id(struct session *s, unsigned int id)
{
	if (!s || !file_ref_get(&s->ref))
		return NULL;
	if (atomic_load(&s->id) != id) { /* the memory was reused */
		session_put(s);
		return NULL;
	}
	return s;
}

/* A referenced session with this id, or NULL. */
static struct session *session_lookup(unsigned int id)
{
	return session_get_id(atomic_load(&table[id % NSESSIONS]), id);
}

int main(void)
{
	struct session *a, *found, *stale, *b;

	pool_init();
	a = session_create(1);
	found = session_lookup(1);
	printf("found %u, refcount %lu\n", atomic_load(&found->id),
	       file_ref_read(&found->ref));
	session_put(found);
	stale = a; /* a pointer a lookup loaded before the release */
	session_put(a); /* the last put: back to the pool */
	printf("get through the stale pointer: %s\n",
	       file_ref_get(&stale->ref) ? "taken" : "fails, still dead");
	b = session_create(2); /* reuses the same memory */
	printf("session 2 reuses session 1's memory: %s\n",
	       b == stale ? "yes" : "no");
	printf("get of 1 through the stale pointer: %p, session 2 refcount "
	       "%lu\n",
	       (void *)session_get_id(stale, 1), file_ref_read(&b->ref));
	if (file_ref_put_close(&b->ref)) /* the likely-last put: one CAS */
		session_release(b);
	return 0;
}

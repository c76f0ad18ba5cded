// SPDX-License-Identifier: MIT
/*
 * rcuref-locked.c - rcuref_t under a reader-writer lock
 *
 * The memory rule of <refcount/rcuref.h>, met by way (c), without liburcu:
 * lookups and puts run under the read side of the table's lock, so many
 * of them run at once, and each get is one atomic add.  The put that
 * returns true takes the write side to unlink the session, which waits
 * for every get and put still in flight (the last put's compare-and-swap
 * included), and frees it at once.  The read side is the userspace
 * counterpart of the kernel's non-preemptible put.
 *
 * Build: cc -std=gnu11 rcuref-locked.c $(pkg-config --cflags --libs refcount)
 */
#define RCUREF_NO_URCU /* the lock meets the memory rule */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <refcount/rcuref.h>

#define NBUCKETS 64

struct session {
	rcuref_t ref;
	struct session *next; /* under table_lock */
	unsigned int id;
};

static struct session *table[NBUCKETS];
static pthread_rwlock_t table_lock = PTHREAD_RWLOCK_INITIALIZER;

static struct session *session_create(unsigned int id)
{
	struct session *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	rcuref_init(&s->ref, 1); /* the table's reference */
	s->id = id;
	pthread_rwlock_wrlock(&table_lock);
	s->next = table[id % NBUCKETS];
	table[id % NBUCKETS] = s;
	pthread_rwlock_unlock(&table_lock);
	return s;
}

static struct session *session_lookup(unsigned int id)
{
	struct session *s;

	pthread_rwlock_rdlock(&table_lock);
	for (s = table[id % NBUCKETS]; s; s = s->next)
		if (s->id == id && rcuref_get(&s->ref))
			break;
	pthread_rwlock_unlock(&table_lock);
	return s;
}

static void session_put(struct session *s)
{
	struct session **pp;
	bool last;

	pthread_rwlock_rdlock(&table_lock);
	last = rcuref_put(&s->ref);
	pthread_rwlock_unlock(&table_lock);
	if (!last)
		return;
	/* the write side: no get or put of s is in flight any more */
	pthread_rwlock_wrlock(&table_lock);
	for (pp = &table[s->id % NBUCKETS]; *pp != s; pp = &(*pp)->next)
		;
	*pp = s->next;
	pthread_rwlock_unlock(&table_lock);
	printf("released session %u\n", s->id);
	free(s);
}

static void *reader(void *arg)
{
	(void)arg;
	for (int i = 0; i < 100000; i++) {
		struct session *s = session_lookup(7);

		if (s)
			session_put(s);
	}
	return NULL;
}

int main(void)
{
	struct session *s = session_create(42), *found;
	pthread_t tid[2];

	if (!s)
		return 1;
	found = session_lookup(42);
	printf("found %u, refcount %u\n", found->id, rcuref_read(&found->ref));
	session_put(found);
	session_put(s);
	printf("lookup after release: %p\n", (void *)session_lookup(42));

	s = session_create(7); /* the race: readers while the last put runs */
	for (int i = 0; i < 2; i++)
		pthread_create(&tid[i], NULL, reader, NULL);
	session_put(s);
	for (int i = 0; i < 2; i++)
		pthread_join(tid[i], NULL);
	printf("after the race: lookup %p\n", (void *)session_lookup(7));
	return 0;
}

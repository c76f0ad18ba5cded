// SPDX-License-Identifier: MIT
/*
 * rcuref-urcu.c - the lookup table of example-lookup.c with rcuref_t and
 * liburcu
 *
 * The memory rule of <refcount/rcuref.h>, met with liburcu (way (a)):
 * lookups walk the hash chains inside a read-side critical section, without
 * the table lock, and take a reference with rcuref_get(), one atomic add
 * that fails on a released session.  rcuref_put() runs its own read-side
 * section; the put that returns true unlinks the session under the table
 * lock (which only writers take) and frees it with call_rcu(), after every
 * reader that could still see it has left its critical section.
 *
 * Against example-lookup.c: struct kref becomes rcuref_t,
 * kref_get_unless_zero() becomes rcuref_get(), kref_put_mutex() becomes
 * rcuref_put() + unlink + call_rcu(), the lookup drops the lock for
 * rcu_read_lock(), and every thread registers with liburcu.
 *
 * Build: cc -std=gnu11 rcuref-urcu.c $(pkg-config --cflags --libs refcount-rcu)
 */
#define _LGPL_SOURCE /* liburcu's read lock inline */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <refcount/rcuref.h>

#define NBUCKETS 64

struct session {
	rcuref_t ref;
	struct session *next; /* hash chain: rcu_assign_pointer() */
	unsigned int id;
	char user[32];
	struct rcu_head rcu;
};

static struct session *table[NBUCKETS];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER; /* writers */

static atomic_int nr_freed;

static void session_free(struct rcu_head *head)
{
	free(caa_container_of(head, struct session, rcu));
	atomic_fetch_add(&nr_freed, 1);
}

/* The one release: unlink under the writers' lock, free after readers. */
static void session_release(struct session *s)
{
	struct session **pp = &table[s->id % NBUCKETS];

	pthread_mutex_lock(&table_lock);
	while (*pp != s)
		pp = &(*pp)->next;
	rcu_assign_pointer(*pp, s->next);
	pthread_mutex_unlock(&table_lock);
	printf("released session %u (%s)\n", s->id, s->user);
	call_rcu(&s->rcu, session_free);
}

static struct session *session_create(unsigned int id, const char *user)
{
	struct session *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	rcuref_init(&s->ref, 1); /* the table's reference */
	s->id = id;
	snprintf(s->user, sizeof(s->user), "%s", user);
	pthread_mutex_lock(&table_lock);
	s->next = table[id % NBUCKETS];
	rcu_assign_pointer(table[id % NBUCKETS], s);
	pthread_mutex_unlock(&table_lock);
	return s;
}

/* Returns a referenced session, or NULL if absent or released. */
static struct session *session_lookup(unsigned int id)
{
	struct session *s;

	rcu_read_lock();
	for (s = rcu_dereference(table[id % NBUCKETS]); s;
	     s = rcu_dereference(s->next))
		if (s->id == id && rcuref_get(&s->ref))
			break;
	rcu_read_unlock();
	return s;
}

static void session_put(struct session *s)
{
	if (rcuref_put(&s->ref))
		session_release(s);
}

/* Readers on other threads, racing the final put. */
static void *reader(void *arg)
{
	unsigned long *found = arg;

	rcu_register_thread();
	for (int i = 0; i < 100000; i++) {
		struct session *s = session_lookup(7);

		if (s) {
			++*found;
			session_put(s);
		}
	}
	rcu_unregister_thread();
	return NULL;
}

int main(void)
{
	struct session *s, *found;
	unsigned long hits[2] = { 0, 0 };
	pthread_t tid[2];

	rcu_register_thread();
	s = session_create(42, "alice");
	if (!s)
		return 1;
	found = session_lookup(42); /* 2 references: table + lookup */
	printf("found %s, refcount %u\n", found->user,
	       rcuref_read(&found->ref));
	session_put(found); /* 1 */
	session_put(s); /* 0: unlinked, freed after a grace period */
	printf("lookup after release: %p\n", (void *)session_lookup(42));
	rcu_barrier(); /* wait for the call_rcu() callbacks */
	printf("freed after a grace period: %d\n", atomic_load(&nr_freed));

	/* The race: two readers while the table's reference is dropped. */
	s = session_create(7, "bob");
	for (int i = 0; i < 2; i++)
		pthread_create(&tid[i], NULL, reader, &hits[i]);
	session_put(s);
	for (int i = 0; i < 2; i++)
		pthread_join(tid[i], NULL);
	rcu_barrier();
	printf("after the race: lookup %p, freed %d\n",
	       (void *)session_lookup(7), atomic_load(&nr_freed));
	rcu_unregister_thread();
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * example-lookup.c - objects with a kref in a lookup table
 *
 * The pattern refcount_t exists for: a table lookup takes a reference with
 * kref_get_unless_zero() under the table lock, and the last kref_put_mutex()
 * removes the object from the table under the same lock before freeing it.
 * A lookup can never revive an object whose count already reached 0.
 *
 * Build: cc -std=gnu11 example-lookup.c $(pkg-config --cflags --libs refcount)
 *
 * README.md quotes this file; make check-examples checks that the quote is
 * this code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <refcount/kref.h>

#define NBUCKETS 64

struct session {
	struct kref ref;
	struct session *next; /* hash chain, under table_lock */
	unsigned int id;
	char user[32];
};

static struct session *table[NBUCKETS];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

#define to_session(k)                                                          \
	((struct session *)((char *)(k)-offsetof(struct session, ref)))

/* Called with table_lock held by kref_put_mutex(): unlink, unlock, free. */
static void session_release(struct kref *kref)
{
	struct session *s = to_session(kref);
	struct session **pp = &table[s->id % NBUCKETS];

	while (*pp != s)
		pp = &(*pp)->next;
	*pp = s->next;
	pthread_mutex_unlock(&table_lock);
	printf("released session %u (%s)\n", s->id, s->user);
	free(s);
}

static struct session *session_create(unsigned int id, const char *user)
{
	struct session *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	kref_init(&s->ref); /* the table's reference */
	s->id = id;
	snprintf(s->user, sizeof(s->user), "%s", user);
	pthread_mutex_lock(&table_lock);
	s->next = table[id % NBUCKETS];
	table[id % NBUCKETS] = s;
	pthread_mutex_unlock(&table_lock);
	return s;
}

/* Returns a referenced session, or NULL if absent or being destroyed. */
static struct session *session_lookup(unsigned int id)
{
	struct session *s;

	pthread_mutex_lock(&table_lock);
	for (s = table[id % NBUCKETS]; s; s = s->next)
		if (s->id == id && kref_get_unless_zero(&s->ref))
			break;
	pthread_mutex_unlock(&table_lock);
	return s;
}

static void session_put(struct session *s)
{
	kref_put_mutex(&s->ref, session_release, &table_lock);
}

int main(void)
{
	struct session *s, *found;

	s = session_create(42, "alice");
	if (!s)
		return 1;
	found = session_lookup(42); /* count 2: table + lookup */
	printf("found %s, refcount %u\n", found->user, kref_read(&found->ref));
	session_put(found); /* count 1 */
	session_put(s); /* count 0: unlinked and freed under table_lock */
	printf("lookup after release: %p\n", (void *)session_lookup(42));
	return 0;
}

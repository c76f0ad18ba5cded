// SPDX-License-Identifier: MIT
/*
 * example-tracker.c - the lookup table of example-lookup.c, with trackers
 *
 * The same sessions in a kref lookup table, with one deliberate leak (a
 * request that returns without its put) and one double put.  Each kref
 * call became its _tracked form with two more arguments, the dir and the
 * tracker, and the unit is built with REFCOUNT_TRACKER: the report at
 * ref_tracker_dir_exit() names the get that leaked, with file:line, and
 * the double put is caught with the stacks of the get and of both puts.
 *
 * Build: cc -std=gnu11 -g -DREFCOUNT_TRACKER example-tracker.c \
 *        $(pkg-config --cflags --libs refcount)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <refcount/ref_tracker.h>

#define NBUCKETS 64

struct session {
	struct kref ref;
	struct session *next; /* hash chain, under table_lock */
	struct ref_tracker *table_ref; /* the table's own reference */
	unsigned int id;
	char user[32];
};

static struct session *table[NBUCKETS];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
/* One dir for the references to every session. */
static struct ref_tracker_dir sessions;

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
	kref_init(&s->ref);
	ref_tracker_alloc(&sessions, &s->table_ref);
	s->id = id;
	snprintf(s->user, sizeof(s->user), "%s", user);
	pthread_mutex_lock(&table_lock);
	s->next = table[id % NBUCKETS];
	table[id % NBUCKETS] = s;
	pthread_mutex_unlock(&table_lock);
	return s;
}

/* A referenced session, or NULL; the reference is tracked in *trackerp. */
static struct session *session_lookup(unsigned int id,
				      struct ref_tracker **trackerp)
{
	struct session *s;

	pthread_mutex_lock(&table_lock);
	for (s = table[id % NBUCKETS]; s; s = s->next)
		if (s->id == id &&
		    kref_get_unless_zero_tracked(&s->ref, &sessions, trackerp))
			break;
	pthread_mutex_unlock(&table_lock);
	return s;
}

static void session_put(struct session *s, struct ref_tracker **trackerp)
{
	kref_put_mutex_tracked(&s->ref, session_release, &table_lock, &sessions,
			       trackerp);
}

/* A request that drops its reference, as it should. */
static void handle_request(unsigned int id)
{
	struct ref_tracker *t;
	struct session *s = session_lookup(id, &t);

	if (!s)
		return;
	printf("request for %s\n", s->user);
	session_put(s, &t);
}

/* The bug: an early return without the put. */
static void handle_request_leaky(unsigned int id)
{
	struct ref_tracker *t;
	struct session *s = session_lookup(id, &t);

	if (!s)
		return;
	if (!strcmp(s->user, "bob")) {
		printf("request for %s: refused\n", s->user);
		return; /* leaks the reference taken by session_lookup() */
	}
	session_put(s, &t);
}

/* The other bug: an error path that puts a second time. */
static void handle_request_twice(unsigned int id)
{
	struct ref_tracker *t;
	struct session *s = session_lookup(id, &t);

	if (!s)
		return;
	session_put(s, &t);
	printf("request for %s: error path\n", s->user);
	session_put(s, &t); /* caught: reported, and not done */
}

static void session_remove(struct session *s)
{
	session_put(s, &s->table_ref);
}

int main(void)
{
	struct session *alice, *bob;

	setvbuf(stdout, NULL, _IONBF, 0); /* in order with the reports */
	ref_tracker_dir_init(&sessions, 16, "session");
	alice = session_create(1, "alice");
	bob = session_create(2, "bob");
	if (!alice || !bob)
		return 1;
	handle_request(1);
	handle_request_leaky(2);
	handle_request_twice(1);
	session_remove(alice);
	session_remove(bob); /* bob stays: the leaked reference holds it */
	if (ref_tracker_dir_exit(&sessions))
		printf("ref_tracker_dir_exit: leaks reported\n");
	return 0;
}

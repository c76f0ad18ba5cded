// SPDX-License-Identifier: MIT
/*
 * tests/lifetime.c - objects shared by threads: released exactly once, never
 * used after release
 *
 * Usage: lifetime-<breed> THREADS ROUNDS
 *
 * Two lookup tables of slots, one under a mutex, one under a spinlock.  Each
 * thread, ROUNDS times, either looks an object up (creating it if the slot
 * is empty) and keeps the reference, or drops one of the references it
 * keeps.  A lookup takes the table lock and kref_get_unless_zero(); the
 * table holds no reference, so an object lives while someone holds one.
 * Drops race the lookups: kref_put_mutex() / kref_put_lock(), whose release
 * runs with the table lock held and unpublishes the object, or plain
 * kref_put(), whose release takes the lock itself, so that a lookup can find
 * an object at 0 and must back off.
 *
 * Checks: every use sees a live object (magic, payload pattern, a count
 * of at least 1); every object is released exactly once (a counter per
 * object id, kept outside the object); a released object is poisoned and
 * kept in a quarantine, and when it leaves the quarantine its poison must be
 * intact (nobody wrote to it after release) before it is freed, so that
 * ASan catches later accesses; every holder writes its own field of the
 * object without atomics and the release reads them all, so ThreadSanitizer
 * checks that the final put orders every holder's accesses before the
 * release.  No report may be raised, and at the end the tables are empty.
 *
 * Bounded by ROUNDS, not by time.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <refcount/kref.h>

#include "helpers.h"

#define MAX_THREADS 16
#define NSLOTS 4
#define HELD 4
#define QUARANTINE 256
#define PAYLOAD 48
#define MAGIC_LIVE 0x4c495645u
#define MAGIC_DEAD 0x44454144u
#define POISON 0x6b /* the kernel's POISON_FREE */

struct table;

struct obj {
	unsigned int magic;
	unsigned int id;
	struct kref ref;
	struct table *table;
	unsigned int slot;
	unsigned long touched[MAX_THREADS]; /* each thread writes its own */
	unsigned char payload[PAYLOAD];
};

struct table {
	bool spin;
	pthread_mutex_t mutex;
	pthread_spinlock_t lock;
	struct obj *slot[NSLOTS];
};

static struct table tables[2];
static atomic_uint next_id;
static atomic_uchar *released; /* per object id */
static unsigned int max_objects;
static atomic_ulong stat_dying, stat_created, stat_lookups, stat_revived;

static pthread_barrier_t start_line;

static pthread_mutex_t quarantine_lock = PTHREAD_MUTEX_INITIALIZER;
static struct obj *quarantine[QUARANTINE];
static unsigned int quarantine_next;

#define fail(...)                                                              \
	do {                                                                   \
		fprintf(stderr, "lifetime-%s: FAIL: ", REFCOUNT_BREED_NAME);   \
		fprintf(stderr, __VA_ARGS__);                                  \
		fputc('\n', stderr);                                           \
		abort();                                                       \
	} while (0)

static void table_lock(struct table *t)
{
	if (t->spin)
		pthread_spin_lock(&t->lock);
	else
		pthread_mutex_lock(&t->mutex);
}

static void table_unlock(struct table *t)
{
	if (t->spin)
		pthread_spin_unlock(&t->lock);
	else
		pthread_mutex_unlock(&t->mutex);
}

static unsigned char pattern(unsigned int id)
{
	return (unsigned char)(id * 7 + 1) | 1; /* never POISON (even) */
}

static void check_live(struct obj *o, const char *when)
{
	unsigned int n = kref_read(&o->ref);

	if (o->magic != MAGIC_LIVE)
		fail("%s: object %u is not live (magic %#x)", when, o->id,
		     o->magic);
	if (!n || (int)n < 0)
		fail("%s: object %u held with count %#x", when, o->id, n);
	for (int i = 0; i < PAYLOAD; i++)
		if (o->payload[i] != pattern(o->id))
			fail("%s: object %u payload corrupt", when, o->id);
}

static void check_poison(struct obj *o)
{
	if (o->magic != MAGIC_DEAD)
		fail("object %u written after release (magic %#x)", o->id,
		     o->magic);
	for (int i = 0; i < PAYLOAD; i++)
		if (o->payload[i] != POISON)
			fail("object %u payload written after release", o->id);
}

/* Poison, count, and park a released object; free the oldest parked one. */
static void bury(struct obj *o)
{
	unsigned long sum = 0;
	struct obj *old;

	/* Read every holder's field: ordered by the final put. */
	for (int i = 0; i < MAX_THREADS; i++)
		sum += o->touched[i];
	if (kref_read(&o->ref) != 0)
		fail("object %u released at count %u", o->id,
		     kref_read(&o->ref));
	if (atomic_fetch_add(&released[o->id], 1))
		fail("object %u released twice", o->id);
	o->magic = MAGIC_DEAD;
	memset(o->payload, POISON, PAYLOAD);
	o->touched[0] = sum;

	pthread_mutex_lock(&quarantine_lock);
	old = quarantine[quarantine_next];
	quarantine[quarantine_next] = o;
	quarantine_next = (quarantine_next + 1) % QUARANTINE;
	pthread_mutex_unlock(&quarantine_lock);
	if (old) {
		check_poison(old);
		free(old);
	}
}

static void unpublish(struct obj *o)
{
	struct table *t = o->table;

	if (t->slot[o->slot] != o)
		fail("object %u released but not in its slot", o->id);
	t->slot[o->slot] = NULL;
}

/* kref_put_mutex()/kref_put_lock() release: called with the lock held. */
static void release_locked(struct kref *k)
{
	struct obj *o = (struct obj *)((char *)k - offsetof(struct obj, ref));
	struct table *t = o->table;

	unpublish(o);
	table_unlock(t);
	bury(o);
}

/* kref_put() release: the count is 0 and lookups may still find it. */
static void release_unlocked(struct kref *k)
{
	struct obj *o = (struct obj *)((char *)k - offsetof(struct obj, ref));
	struct table *t = o->table;

	table_lock(t);
	unpublish(o);
	table_unlock(t);
	bury(o);
}

static struct obj *obj_new(struct table *t, unsigned int slot)
{
	unsigned int id = atomic_fetch_add(&next_id, 1);
	struct obj *o;

	if (id >= max_objects)
		fail("more than %u objects", max_objects);
	o = calloc(1, sizeof(*o));
	if (!o)
		abort();
	o->magic = MAGIC_LIVE;
	o->id = id;
	o->table = t;
	o->slot = slot;
	memset(o->payload, pattern(id), PAYLOAD);
	kref_init(&o->ref);
	atomic_fetch_add(&stat_created, 1);
	return o;
}

/* Look up (or create) the object in @slot of @t and take a reference. */
static struct obj *lookup(struct table *t, unsigned int slot)
{
	struct obj *o;

	table_lock(t);
	o = t->slot[slot];
	if (!o) {
		o = t->slot[slot] = obj_new(t, slot);
	} else if (!kref_get_unless_zero(&o->ref)) {
		/* Count 0: its kref_put() release is on its way. */
		atomic_fetch_add(&stat_dying, 1);
		o = NULL;
	}
	table_unlock(t);
	if (o)
		atomic_fetch_add(&stat_lookups, 1);
	return o;
}

static void put(struct obj *o, unsigned int how)
{
	struct table *t = o->table;

	switch (how % 3) {
	case 0: {
		bool last = kref_read(&o->ref) == 1;
		int freed;

		if (t->spin)
			freed = kref_put_lock(&o->ref, release_locked,
					      &t->lock);
		else
			freed = kref_put_mutex(&o->ref, release_locked,
					       &t->mutex);
		/* Ours was the last reference, but a lookup got in first. */
		if (last && !freed)
			atomic_fetch_add(&stat_revived, 1);
		break;
	}
	case 1:
		kref_put(&o->ref, release_unlocked);
		break;
	case 2:
		/* A second reference, taken and dropped while holding one. */
		kref_get(&o->ref);
		check_live(o, "after kref_get");
		kref_put(&o->ref, release_unlocked);
		kref_put(&o->ref, release_unlocked);
		break;
	}
}

struct worker {
	pthread_t thread;
	unsigned int idx;
	unsigned long rounds;
	uint64_t rng;
};

static uint64_t next_rand(uint64_t *s)
{
	/* xorshift64* */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static void *work(void *p)
{
	struct worker *w = p;
	struct obj *held[HELD] = { NULL };

	pthread_barrier_wait(&start_line);
	for (unsigned long i = 0; i < w->rounds; i++) {
		uint64_t r = next_rand(&w->rng) >> 16;
		unsigned int h = r % HELD;

		r /= HELD;
		if (!held[h]) {
			struct table *t = &tables[r & 1];

			held[h] = lookup(t, (unsigned int)(r >> 1) % NSLOTS);
			if (held[h])
				check_live(held[h], "after lookup");
		} else {
			check_live(held[h], "before put");
			held[h]->touched[w->idx]++;
			put(held[h], (unsigned int)r);
			held[h] = NULL;
		}
	}
	for (int h = 0; h < HELD; h++)
		if (held[h])
			put(held[h], (unsigned int)h);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned int nthreads = argc > 1 ? (unsigned int)atoi(argv[1]) : 4;
	unsigned long rounds = argc > 2 ? strtoul(argv[2], NULL, 0) : 100000;
	struct worker w[MAX_THREADS];
	struct report_counts before;
	const char *why;

	if (!nthreads || nthreads > MAX_THREADS)
		fail("THREADS must be 1..%d", MAX_THREADS);
	/* Every lookup may create at most one object. */
	max_objects = (unsigned int)(nthreads * rounds + 1);
	released = calloc(max_objects, sizeof(*released));
	if (!released)
		abort();

	/* Any report at all is a failure: the default handler would print. */
	quiet_install();
	report_counts_snap(&before);

	tables[0].spin = false;
	errorcheck_mutex_init(&tables[0].mutex);
	tables[1].spin = true;
	pthread_spin_init(&tables[1].lock, PTHREAD_PROCESS_PRIVATE);

	pthread_barrier_init(&start_line, NULL, nthreads);
	for (unsigned int i = 0; i < nthreads; i++) {
		w[i].idx = i;
		w[i].rounds = rounds;
		w[i].rng = 0x9e3779b97f4a7c15ull * (i + 1);
		if (pthread_create(&w[i].thread, NULL, work, &w[i]))
			fail("pthread_create");
	}
	for (unsigned int i = 0; i < nthreads; i++)
		pthread_join(w[i].thread, NULL);

	for (int t = 0; t < 2; t++)
		for (int s = 0; s < NSLOTS; s++)
			if (tables[t].slot[s])
				fail("object %u still published at the end",
				     tables[t].slot[s]->id);
	for (unsigned int id = 0; id < atomic_load(&next_id); id++)
		if (atomic_load(&released[id]) != 1)
			fail("object %u released %u times", id,
			     atomic_load(&released[id]));
	for (int q = 0; q < QUARANTINE; q++)
		if (quarantine[q]) {
			check_poison(quarantine[q]);
			free(quarantine[q]);
		}
	if (!report_counts_delta_ok(&before, NO_REPORT, 0, &why))
		fail("%s", why);
	printf("lifetime-%s: %u threads x %lu rounds: %lu objects, "
	       "%lu lookups, %lu found dying, %lu final puts beaten by a "
	       "lookup; each released once\n",
	       REFCOUNT_BREED_NAME, nthreads, rounds,
	       atomic_load(&stat_created), atomic_load(&stat_lookups),
	       atomic_load(&stat_dying), atomic_load(&stat_revived));
	free(released);
	return 0;
}

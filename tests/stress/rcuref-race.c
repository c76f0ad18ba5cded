// SPDX-License-Identifier: MIT
/*
 * rcuref-race.c - the deconstruction race of rcuref_t and file_ref_t
 *
 * One published object at a time, in one slot.  Every thread loops: look
 * the object up, take a reference with the one-instruction try-get, touch
 * the object, drop the reference.  The creator's own reference is dropped
 * right after publishing, so the count keeps falling to NOREF while the
 * object is still found, and a get often lands between a put's decrement to
 * NOREF and its compare-and-swap to DEAD: the "deconstruction race" of
 * lib/rcuref.c.  The put that returns true unpublishes the object and
 * releases it; then any thread publishes a new one.
 *
 * Modes (how the memory rule of <refcount/rcuref.h> is met):
 *   urcu    rcuref_t; lookups in a liburcu read-side critical section,
 *           then rcuref_put_rcusafe() in it or rcuref_put() (its own
 *           read section) after it, in turn; free with call_rcu()
 *   rwlock  rcuref_t with RCUREF_NO_URCU; lookups and puts under a
 *           pthread rwlock's read side, free() after taking its write side
 *   pool    file_ref_t in a type-stable pool (memory never freed); a get
 *           on a recycled object is put back
 *
 * Checks: every object (every incarnation, in the pool) is released exactly
 * once (an atomic flag, exchanged) and at the end every created object was
 * released; a reference is only ever taken on a live object; no report;
 * and, from the RCUREF_DEBUG counters, every get was one atomic
 * read-modify-write: no loop, no retry, whatever the contention.  ASan
 * sees any use after free (the urcu and rwlock modes free for real), TSan
 * any missing ordering (rwlock and pool: TSan does not model liburcu's
 * barriers).  Prints the revivals (put compare-and-swaps that a get beat).
 *
 * The last put yields (sched_yield(), through the library's test hook)
 * between its decrement to NOREF and its compare-and-swap, so the race is
 * hit thousands of times per run, with a preemption in the window.  The
 * control, mode mutant-rwlock, drops the lookups' references outside the
 * read lock: a put then outlives the object, and ASan must report it.
 *
 * Usage: rcuref-race MODE [OPS_PER_THREAD [THREADS]]   (defaults 10^6, 4)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef RACE_URCU
#define _LGPL_SOURCE
#else
#define RCUREF_NO_URCU
#endif
#include <refcount/file_ref.h>
#include <refcount/rcuref.h>
#include <refcount/report.h>
#ifdef RACE_URCU
#include <urcu/urcu-memb.h>
#endif

#define MAX_THREADS 16
#define POOL 8
enum { LIVE = 0x11fe, GONE = 0xdead };

struct obj {
	rcuref_t ref;
	file_ref_t fref;
	atomic_int state;
	atomic_int released;
	atomic_ulong gen;
#ifdef RACE_URCU
	struct rcu_head rcu;
#endif
};

enum mode { M_URCU, M_RWLOCK, M_POOL, M_MUTANT };
static enum mode mode;
static unsigned long ops = 1000000;
static _Atomic(struct obj *) slot;
static atomic_ulong created, releases, revivals, recycled, gets, get_rmw;
static pthread_rwlock_t table_lock = PTHREAD_RWLOCK_INITIALIZER;
static pthread_barrier_t start_line; /* every thread starts at once */

/* The type-stable pool: objects go back to a free list, never to free(). */
static struct obj pool[POOL];
static struct obj *free_list[POOL];
static int nr_free;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *what)
{
	fprintf(stderr, "rcuref-race: %s\n", what);
	abort();
}

static struct obj *obj_new(void)
{
	struct obj *o = NULL;

	if (mode != M_POOL) {
		o = calloc(1, sizeof(*o));
		if (!o)
			fail("out of memory");
	} else {
		pthread_mutex_lock(&pool_lock);
		if (nr_free)
			o = free_list[--nr_free];
		pthread_mutex_unlock(&pool_lock);
		if (!o)
			return NULL;
	}
	/*
	 * State first: in the pool a stale lookup may get the new count as
	 * soon as it is stored, and must then see LIVE (the fence orders the
	 * relaxed init after these stores, for the get that reads it).
	 */
	atomic_store(&o->released, 0);
	atomic_store(&o->state, LIVE);
	atomic_fetch_add(&o->gen, 1);
#ifndef __REFCOUNT_TSAN /* gcc refuses fences under TSan */
	atomic_thread_fence(memory_order_release);
#endif
	if (mode == M_POOL)
		file_ref_init(&o->fref, 1);
	else
		rcuref_init(&o->ref, 1);
	atomic_fetch_add(&created, 1);
	return o;
}

#ifdef RACE_URCU
static void obj_free_rcu(struct rcu_head *head)
{
	free((char *)head - offsetof(struct obj, rcu));
}
#endif

/* The one release of an object: unpublish it, then free it by the rule. */
static void obj_release(struct obj *o)
{
	struct obj *expect = o;

	if (atomic_exchange(&o->released, 1))
		fail("an object was released twice");
	atomic_store(&o->state, GONE);
	atomic_fetch_add(&releases, 1);
	switch (mode) {
	case M_URCU:
#ifdef RACE_URCU
		atomic_compare_exchange_strong(&slot, &expect, NULL);
		urcu_memb_call_rcu(&o->rcu, obj_free_rcu);
#endif
		break;
	case M_RWLOCK:
	case M_MUTANT:
		/* the write side waits for every get and put in flight */
		pthread_rwlock_wrlock(&table_lock);
		atomic_compare_exchange_strong(&slot, &expect, NULL);
		pthread_rwlock_unlock(&table_lock);
		free(o);
		break;
	case M_POOL:
		atomic_compare_exchange_strong(&slot, &expect, NULL);
		pthread_mutex_lock(&pool_lock);
		free_list[nr_free++] = o;
		pthread_mutex_unlock(&pool_lock);
		break;
	}
}

/* A put by the rule of the mode: under the read lock for rwlock. */
static bool obj_put(struct obj *o, bool locked)
{
	bool last;

	if (mode == M_POOL)
		return file_ref_put(&o->fref);
	if (mode != M_RWLOCK || locked)
		return rcuref_put(&o->ref);
	pthread_rwlock_rdlock(&table_lock);
	last = rcuref_put(&o->ref);
	pthread_rwlock_unlock(&table_lock);
	return last;
}

/*
 * Publish a new object when the slot is empty.  Return it, with the
 * creator's reference, which the caller drops a few lookups later.
 */
static struct obj *maybe_publish(void)
{
	struct obj *expect = NULL, *o;

	if (atomic_load(&slot))
		return NULL;
	o = obj_new();
	if (!o)
		return NULL;
	if (atomic_compare_exchange_strong(&slot, &expect, o))
		return o;
	/*
	 * Lost the race to publish: the object was never shared, except in
	 * the pool, where a stale lookup may hold the recycled memory.
	 */
	if (obj_put(o, false))
		obj_release(o);
	else if (mode != M_POOL)
		fail("an unshared object's only put was not the last");
	return NULL;
}

#ifdef RACE_URCU
static _Thread_local unsigned int rcusafe_turn;
#endif

static void one_lookup(void)
{
	struct obj *o;
	bool got, last;

	switch (mode) {
	case M_URCU:
#ifdef RACE_URCU
		urcu_memb_read_lock();
		o = atomic_load_explicit(&slot, memory_order_consume);
		got = o && rcuref_get(&o->ref);
		if (!got) {
			urcu_memb_read_unlock();
			return;
		}
		if (atomic_load(&o->state) != LIVE)
			fail("a reference on a released object");
		/* every other put inside the section (RCUREF_DEBUG checks it) */
		if (++rcusafe_turn & 1) {
			last = rcuref_put_rcusafe(&o->ref);
			urcu_memb_read_unlock();
		} else {
			urcu_memb_read_unlock();
			last = rcuref_put(&o->ref);
		}
		break;
#else
		return;
#endif
	case M_RWLOCK:
	case M_MUTANT: /* the put outside the read lock: must be caught */
		pthread_rwlock_rdlock(&table_lock);
		o = atomic_load_explicit(&slot, memory_order_acquire);
		got = o && rcuref_get(&o->ref);
		pthread_rwlock_unlock(&table_lock);
		if (!got)
			return;
		if (atomic_load(&o->state) != LIVE)
			fail("a reference on a released object");
		last = obj_put(o, false);
		break;
	case M_POOL:
	default:
		o = atomic_load_explicit(&slot, memory_order_acquire);
		if (!o || !file_ref_get(&o->fref))
			return;
		/* type-stable: it may be another incarnation, or unpublished */
		if (atomic_load(&o->state) != LIVE)
			fail("a reference on a released object");
		if (atomic_load(&slot) != o)
			atomic_fetch_add(&recycled, 1);
		last = file_ref_put(&o->fref);
		break;
	}
	if (last)
		obj_release(o);
}

static void noref_yield(void)
{
	sched_yield();
}

static void *worker(void *arg)
{
	struct rcuref_debug_stats st;
	struct obj *held = NULL;
	unsigned long held_since = 0;

	(void)arg;
#ifdef RACE_URCU
	urcu_memb_register_thread();
#endif
	pthread_barrier_wait(&start_line);
	for (unsigned long i = 0; i < ops; i++) {
		if (!held && !(i & 7)) {
			held = maybe_publish();
			held_since = i;
		}
		one_lookup();
		if (held && i - held_since >= 16) {
			if (obj_put(held, false))
				obj_release(held);
			held = NULL;
		}
	}
	if (held && obj_put(held, false))
		obj_release(held);
#ifdef RACE_URCU
	urcu_memb_unregister_thread();
#endif
	rcuref_debug_read(&st);
	atomic_fetch_add(&gets, st.gets);
	atomic_fetch_add(&get_rmw, st.get_rmw);
	atomic_fetch_add(&revivals, st.put_cas_fail);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t tid[MAX_THREADS];
	int threads = 4;
	if (argc < 2)
		fail("usage: rcuref-race urcu|rwlock|pool|mutant-rwlock [OPS "
		     "[THREADS]]");
	if (!strcmp(argv[1], "urcu"))
		mode = M_URCU;
	else if (!strcmp(argv[1], "rwlock"))
		mode = M_RWLOCK;
	else if (!strcmp(argv[1], "pool"))
		mode = M_POOL;
	else if (!strcmp(argv[1], "mutant-rwlock"))
		mode = M_MUTANT;
	else
		fail("unknown mode");
#ifndef RACE_URCU
	if (mode == M_URCU)
		fail("built without liburcu (RACE_URCU)");
#endif
	if (argc > 2)
		ops = strtoul(argv[2], NULL, 0);
	if (argc > 3)
		threads = atoi(argv[3]);
	if (threads < 1 || threads > MAX_THREADS)
		fail("THREADS must be 1..16");
	for (int i = 0; i < POOL; i++)
		free_list[nr_free++] = &pool[i];
	/* a preemption between the last decrement and its compare-and-swap */
	atomic_store(&__rcuref_noref_hook, noref_yield);

	pthread_barrier_init(&start_line, NULL, (unsigned int)threads);
	for (int i = 0; i < threads; i++)
		if (pthread_create(&tid[i], NULL, worker, NULL))
			fail("pthread_create");
	for (int i = 0; i < threads; i++)
		pthread_join(tid[i], NULL);

	if (atomic_load(&slot))
		fail("an object is still published after every put");
#ifdef RACE_URCU
	urcu_memb_barrier(); /* every call_rcu() has freed its object */
#endif
	printf("rcuref-race %s: %d threads x %lu lookups: %lu objects, "
	       "%lu releases, %lu revivals (a get beat the last put's "
	       "compare-and-swap), %lu recycled, %lu gets in %lu atomics\n",
	       argv[1], threads, ops, (unsigned long)created,
	       (unsigned long)releases, (unsigned long)revivals,
	       (unsigned long)recycled, (unsigned long)gets,
	       (unsigned long)get_rmw);
	if (releases != created)
		fail("not every object was released exactly once");
	if (gets != get_rmw)
		fail("a get executed more than one atomic read-modify-write");
	for (int t = 0; t < REFCOUNT_NR_SATURATION_TYPES; t++)
		if (refcount_report_count(t))
			fail("a report on a correct usage");
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * lab/bench/lookup-table.c - examples/example-lookup.c's table, timed: kref under a
 * mutex (examples/example-lookup.c) against rcuref_t with liburcu
 * (examples/rcuref-urcu.c)
 *
 * NSESSIONS sessions live in a 64-bucket hash table for the whole run; each
 * thread looks up a pseudo-random id, takes a reference, reads the session
 * and drops the reference, OPS times.  kref: lookup under table_lock with
 * kref_get_unless_zero(), put with kref_put_mutex().  rcuref: lookup inside
 * rcu_read_lock() with rcuref_get(), put with rcuref_put() (its own read
 * section), no lock.  Rounds alternate the two; the report is the median
 * and the [min-max] of the per-round ratio of their times, per thread
 * count.  Nothing is released during the timed part (the table holds its
 * reference), as in a cache that lives longer than its lookups.
 *
 * Usage: lookup-table [OPS [ROUNDS [MAX_THREADS]]]   (defaults 10^6, 7, 2)
 */
#define _GNU_SOURCE
#define _LGPL_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <refcount/kref.h>
#include <refcount/rcuref.h>

#define NBUCKETS 64
#define NSESSIONS 256
#define MAX_THREADS 16
#define MAX_ROUNDS 64

struct ksession {
	struct kref ref;
	struct ksession *next;
	unsigned int id;
};

struct rsession {
	rcuref_t ref;
	struct rsession *next;
	unsigned int id;
};

static struct ksession *ktable[NBUCKETS];
static struct rsession *rtable[NBUCKETS];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long ops = 1000000;
static pthread_barrier_t start;

static void krelease(struct kref *k)
{
	(void)k;
	pthread_mutex_unlock(&table_lock);
	fprintf(stderr, "lookup-table: a kref session was released\n");
	abort();
}

static struct ksession *klookup(unsigned int id)
{
	struct ksession *s;

	pthread_mutex_lock(&table_lock);
	for (s = ktable[id % NBUCKETS]; s; s = s->next)
		if (s->id == id && kref_get_unless_zero(&s->ref))
			break;
	pthread_mutex_unlock(&table_lock);
	return s;
}

static struct rsession *rlookup(unsigned int id)
{
	struct rsession *s;

	rcu_read_lock();
	for (s = rcu_dereference(rtable[id % NBUCKETS]); s;
	     s = rcu_dereference(s->next))
		if (s->id == id && rcuref_get(&s->ref))
			break;
	rcu_read_unlock();
	return s;
}

struct worker {
	pthread_t th;
	bool rcu;
	unsigned int seed;
	unsigned long sum;
};

static void *run(void *arg)
{
	struct worker *w = arg;
	unsigned int x = w->seed;

	if (w->rcu)
		rcu_register_thread();
	pthread_barrier_wait(&start);
	for (unsigned long i = 0; i < ops; i++) {
		unsigned int id;

		x = x * 1103515245u + 12345u;
		id = (x >> 8) % NSESSIONS;
		if (w->rcu) {
			struct rsession *s = rlookup(id);

			w->sum += s->id;
			if (rcuref_put(&s->ref))
				abort(); /* the table holds a reference */
		} else {
			struct ksession *s = klookup(id);

			w->sum += s->id;
			kref_put_mutex(&s->ref, krelease, &table_lock);
		}
	}
	if (w->rcu)
		rcu_unregister_thread();
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Wall time of @threads threads doing ops lookups each. */
static double timed(bool rcu, int threads)
{
	struct worker w[MAX_THREADS];
	double t0;

	pthread_barrier_init(&start, NULL, (unsigned int)threads + 1);
	for (int t = 0; t < threads; t++) {
		w[t] = (struct worker){ .rcu = rcu, .seed = 7u + (unsigned)t };
		if (pthread_create(&w[t].th, NULL, run, &w[t]))
			abort();
	}
	pthread_barrier_wait(&start);
	t0 = now();
	for (int t = 0; t < threads; t++)
		pthread_join(w[t].th, NULL);
	pthread_barrier_destroy(&start);
	return now() - t0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int rounds = 7, max_threads = 2;

	if (argc > 1)
		ops = strtoul(argv[1], NULL, 0);
	if (argc > 2)
		rounds = atoi(argv[2]);
	if (argc > 3)
		max_threads = atoi(argv[3]);
	if (rounds < 1 || rounds > MAX_ROUNDS || max_threads < 1 ||
	    max_threads > MAX_THREADS)
		return 2;
	for (unsigned int id = 0; id < NSESSIONS; id++) {
		struct ksession *k = calloc(1, sizeof(*k));
		struct rsession *r = calloc(1, sizeof(*r));

		if (!k || !r)
			return 1;
		kref_init(&k->ref);
		rcuref_init(&r->ref, 1);
		k->id = r->id = id;
		k->next = ktable[id % NBUCKETS];
		ktable[id % NBUCKETS] = k;
		r->next = rtable[id % NBUCKETS];
		rcu_assign_pointer(rtable[id % NBUCKETS], r);
	}
	printf("lookup-table: %d sessions in %d buckets, %lu lookup+put per "
	       "thread, %d rounds\n"
	       "  threads   kref+mutex ns/op   rcuref+urcu ns/op   "
	       "rcuref speed-up, median [min-max]\n",
	       NSESSIONS, NBUCKETS, ops, rounds);
	for (int threads = 1; threads <= max_threads; threads *= 2) {
		double k[MAX_ROUNDS], r[MAX_ROUNDS], q[MAX_ROUNDS];
		double per = 1e9 / ((double)ops * threads);

		for (int i = 0; i < rounds; i++) {
			k[i] = timed(false, threads);
			r[i] = timed(true, threads);
			q[i] = k[i] / r[i];
		}
		qsort(k, (size_t)rounds, sizeof(double), cmp);
		qsort(r, (size_t)rounds, sizeof(double), cmp);
		qsort(q, (size_t)rounds, sizeof(double), cmp);
		printf("  %7d   %16.1f   %17.1f   %.2fx [%.2f-%.2f]\n", threads,
		       k[rounds / 2] * per, r[rounds / 2] * per, q[rounds / 2],
		       q[0], q[rounds - 1]);
	}
	return 0;
}

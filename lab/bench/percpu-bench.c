// SPDX-License-Identifier: MIT
/*
 * lab/bench/percpu-bench.c - percpu_ref's kill latency and bytes per object
 *
 * Not part of refcount-bench (whose rows time percpu_ref's get, put and
 * tryget, lab/bench/peer-percpu.c): `make bench-percpu` builds and runs it.  It
 * reports, on the fast path this process chose:
 *
 *   - the bytes per object: the struct percpu_ref embedded in it, one
 *     8-byte pool slot per possible CPU, and the struct percpu_ref_data from
 *     malloc() (with malloc's own overhead, malloc_usable_size() + 8);
 *   - the kill latency: percpu_ref_kill() of a ref on which one more
 *     reference is held (so the time is the switch: mode bits, membarrier,
 *     the sum, no release), N times, with no other thread running ("idle")
 *     and with a sibling thread pinned to another CPU taking and dropping
 *     references on the same object in a loop ("busy": the membarrier must
 *     interrupt it).  Median, 90th percentile and maximum.
 *
 * Method: clock_gettime(CLOCK_MONOTONIC) around each kill.  The busy figure
 * needs two CPUs; with one it is skipped.
 *
 * Usage: percpu-bench [--quick]
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <refcount/percpu_ref.h>

#define TARGET_US 50.0

static struct percpu_ref *shared;
static int stop;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void never(struct percpu_ref *ref)
{
	(void)ref;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The sibling: get/put pairs on whatever ref is current, until stopped. */
static void *sibling(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		struct percpu_ref *r =
			__atomic_load_n(&shared, __ATOMIC_ACQUIRE);

		if (r && percpu_ref_tryget_live(r))
			percpu_ref_put(r);
	}
	return NULL;
}

static void pin(pthread_t t, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(t, sizeof(set), &set);
}

/* @n kills; @busy: with the sibling running on another CPU. */
static void kills(const char *what, int n, int busy)
{
	double *us = calloc((size_t)n, sizeof(*us));
	struct percpu_ref *refs = calloc((size_t)n, sizeof(*refs));
	pthread_t t;

	if (!us || !refs) {
		fprintf(stderr, "percpu-bench: out of memory\n");
		exit(1);
	}
	stop = 0;
	if (busy && pthread_create(&t, NULL, sibling, NULL)) {
		fprintf(stderr, "percpu-bench: pthread_create failed\n");
		exit(1);
	}
	if (busy)
		pin(t, 1);
	for (int i = 0; i < n; i++) {
		double t0;

		if (percpu_ref_init(&refs[i], never, 0)) {
			fprintf(stderr, "percpu-bench: out of memory\n");
			exit(1);
		}
		percpu_ref_get(&refs[i]); /* held: the kill releases nothing */
		__atomic_store_n(&shared, &refs[i], __ATOMIC_RELEASE);
		for (volatile int s = 0; s < 2000; s++) /* the sibling runs */
			;
		t0 = now_ns();
		percpu_ref_kill(&refs[i]);
		us[i] = (now_ns() - t0) / 1e3;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	if (busy)
		pthread_join(t, NULL);
	__atomic_store_n(&shared, NULL, __ATOMIC_RELEASE);
	for (int i = 0; i < n; i++) {
		percpu_ref_put(&refs[i]);
		percpu_ref_exit(&refs[i]);
	}
	qsort(us, (size_t)n, sizeof(*us), cmp);
	printf("  kill latency, %-46s median %7.2f us, p90 %7.2f us, max "
	       "%8.2f us (%d kills); target <= %.0f us: %s\n",
	       what, us[n / 2], us[n * 9 / 10], us[n - 1], n, TARGET_US,
	       us[n / 2] <= TARGET_US ? "met" : "missed");
	free(us);
	free(refs);
}

int main(int argc, char **argv)
{
	int quick = argc > 1 && !strcmp(argv[1], "--quick");
	int n = quick ? 200 : 5000;
	struct percpu_ref r;
	size_t data;

	if (argc > 1 && !quick) {
		fprintf(stderr, "usage: percpu-bench [--quick]\n");
		return 2;
	}
	pin(pthread_self(), 0);
	if (percpu_ref_init(&r, never, 0))
		return 1;
	data = malloc_usable_size(r.data) + sizeof(size_t);
	printf("percpu-bench: fast path %s, %u per-CPU slots, %ld CPUs "
	       "online\n",
	       percpu_ref_fast_path(), percpu_ref_nr_slots(),
	       sysconf(_SC_NPROCESSORS_ONLN));
	printf("  bytes per object: %zu inline + %u slots x 8 in the pool + "
	       "%zu data (malloc) = %zu\n",
	       sizeof(struct percpu_ref), percpu_ref_nr_slots(), data,
	       sizeof(struct percpu_ref) + 8 * percpu_ref_nr_slots() + data);
	percpu_ref_exit(&r);
	kills("idle (no other thread)", n, 0);
	if (sysconf(_SC_NPROCESSORS_ONLN) > 1)
		kills("busy (a sibling getting and putting on CPU 1)", n, 1);
	else
		printf("  kill latency, busy: skipped (one CPU)\n");
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * tests/stress/tracker-threads.c - many threads on one tracker dir
 *
 * Run under TSan (tests/stress.mk, check-tracker-tsan): THREADS threads
 * each take and drop tracked references to one shared kref, through the
 * tracked wrappers and through ref_tracker_alloc()/_free() directly, from
 * two call sites (so the depot is probed and inserted concurrently), while
 * a reader thread keeps taking reports of the dir.  At the end the dir
 * must be balanced and the count back to its start.
 *
 * Usage: tracker-threads-<breed> [threads] [rounds per thread]
 */
#define REFCOUNT_TRACKER
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <refcount/impl/tracker-internal.h>
#include <refcount/ref_tracker.h>

#define MAX_THREADS 64
#define HELD 4 /* references each thread holds at once */

static struct kref ref;
static struct ref_tracker_dir dir;
static long rounds;
static atomic_bool done;

static void never_released(struct kref *k)
{
	(void)k;
	fprintf(stderr, "tracker-threads: the count reached 0\n");
	abort();
}

static __attribute__((noinline)) void get_here(struct ref_tracker **t)
{
	kref_get_tracked(&ref, &dir, t);
}

static __attribute__((noinline)) void get_there(struct ref_tracker **t)
{
	if (!kref_get_unless_zero_tracked(&ref, &dir, t))
		abort();
}

static void *worker(void *arg)
{
	struct ref_tracker *held[HELD];
	long id = (long)(intptr_t)arg;

	for (long r = 0; r < rounds; r++) {
		for (int i = 0; i < HELD; i++) {
			if ((r + i + id) & 1)
				get_here(&held[i]);
			else
				get_there(&held[i]);
		}
		for (int i = 0; i < HELD; i++)
			kref_put_tracked(&ref, never_released, &dir, &held[i]);
		/* The plain API, and a get without a tracker. */
		if (ref_tracker_alloc(&dir, &held[0]) ||
		    ref_tracker_free(&dir, &held[0]))
			abort();
		ref_tracker_alloc(&dir, NULL);
		ref_tracker_free(&dir, NULL);
	}
	return NULL;
}

static void *reader(void *arg)
{
	static char buf[1 << 16];

	(void)arg;
	while (!atomic_load(&done))
		ref_tracker_dir_snprint(&dir, buf, sizeof(buf));
	return NULL;
}

int main(int argc, char **argv)
{
	long threads = argc > 1 ? atol(argv[1]) : 8;
	pthread_t tid[MAX_THREADS], rd;
	struct __ref_tracker_dir_stats s;

	rounds = argc > 2 ? atol(argv[2]) : 2000;
	if (threads < 1 || threads > MAX_THREADS)
		return 2;
	kref_init(&ref);
	ref_tracker_dir_init(&dir, 16, "shared");
	pthread_create(&rd, NULL, reader, NULL);
	for (long i = 0; i < threads; i++)
		pthread_create(&tid[i], NULL, worker, (void *)(intptr_t)i);
	for (long i = 0; i < threads; i++)
		pthread_join(tid[i], NULL);
	atomic_store(&done, true);
	pthread_join(rd, NULL);
	__ref_tracker_dir_stats(&dir, &s);
	if (kref_read(&ref) != 1 || s.live || s.quarantined != 16) {
		fprintf(stderr,
			"tracker-threads: count %u, live %lu, "
			"quarantined %lu\n",
			kref_read(&ref), s.live, s.quarantined);
		return 1;
	}
	if (ref_tracker_dir_exit(&dir))
		return 1;
	printf("tracker-threads: %ld threads x %ld rounds: balanced\n", threads,
	       rounds);
	return 0;
}

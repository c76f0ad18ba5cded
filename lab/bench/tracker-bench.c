// SPDX-License-Identifier: MIT
/*
 * lab/bench/tracker-bench.c - what the ref_tracker costs
 *
 * Not part of refcount-bench (whose output and JSON keys stay as they are):
 * `make tracker-bench` builds and runs it.  It reports, single-threaded:
 *
 *   - a tracked get+put pair (kref_get_tracked() + kref_put_tracked(): two
 *     stack captures, two depot look-ups, the dir's lock twice), per capture
 *     backend, against the untracked kref_get() + kref_put() pair; the
 *     calls are made DEPTH frames down, so that each capture walks a stack
 *     of about a dozen frames, as a real program's would; and one capture
 *     alone, without the depot and the lock;
 *   - the bytes per live tracked reference: the dir's chunks over its live
 *     trackers (every tracker the dir holds, and the malloc() overhead of
 *     its chunks as glibc's mallinfo2() sees it), and the depot's fixed size.
 *
 * Method: clock_gettime(CLOCK_MONOTONIC) around a loop of N pairs, repeated
 * ROUNDS times after one warm-up round; the median is printed with the
 * min-max.  Built with -fno-omit-frame-pointer, so the frame-pointer walk
 * sees every frame.
 *
 * Usage: tracker-bench [--quick] [--backend=fp|libunwind|backtrace]
 */
#define _GNU_SOURCE
#define REFCOUNT_TRACKER
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <refcount/impl/stackdepot.h>
#include <refcount/impl/tracker-internal.h>
#include <refcount/ref_tracker.h>

#define DEPTH 10
#define ROUNDS 7
#define LIVE 100000

static struct kref ref;
static struct ref_tracker_dir dir;
static long pairs;

static void never(struct kref *k)
{
	(void)k;
	abort();
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static __attribute__((noinline)) void loop_tracked(void)
{
	struct ref_tracker *t;

	for (long i = 0; i < pairs; i++) {
		kref_get_tracked(&ref, &dir, &t);
		kref_put_tracked(&ref, never, &dir, &t);
	}
}

/* One capture alone, for comparison: what a pair pays twice. */
static __attribute__((noinline)) void loop_capture(void)
{
	uintptr_t e[REF_TRACKER_STACK_ENTRIES];

	for (long i = 0; i < pairs; i++) {
		__refcount_stack_capture(e, REF_TRACKER_STACK_ENTRIES, 0);
		__asm__ volatile("" ::: "memory");
	}
}

/*
 * A chain of dependent loads that hit L1, as a frame-pointer walk is: what
 * one frame costs at least.  Reported per load.
 */
static void *chase_ring[16];
static __attribute__((noinline)) void loop_chase(void)
{
	void **p = chase_ring;

	for (long i = 0; i < pairs; i++)
		p = *p;
	__asm__ volatile("" ::"r"(p) : "memory");
}

static __attribute__((noinline)) void loop_plain(void)
{
	for (long i = 0; i < pairs; i++) {
		kref_get(&ref);
		kref_put(&ref, never);
		__asm__ volatile("" ::: "memory");
	}
}

/* Call @fn @depth frames further down. */
static __attribute__((noinline)) void down(int depth, void (*fn)(void))
{
	if (depth)
		down(depth - 1, fn);
	else
		fn();
	__asm__ volatile("" ::: "memory");
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* ns per pair: median, min, max over ROUNDS rounds. */
static void measure(void (*fn)(void), double out[3])
{
	double r[ROUNDS];

	down(DEPTH, fn); /* warm-up */
	for (int i = 0; i < ROUNDS; i++) {
		double t0 = now_ns();

		down(DEPTH, fn);
		r[i] = (now_ns() - t0) / (double)pairs;
	}
	qsort(r, ROUNDS, sizeof(r[0]), cmp);
	out[0] = r[ROUNDS / 2];
	out[1] = r[0];
	out[2] = r[ROUNDS - 1];
}

static unsigned int nframes;

static unsigned int frames_captured(void)
{
	uintptr_t e[REF_TRACKER_STACK_ENTRIES];

	return __refcount_stack_capture(e, REF_TRACKER_STACK_ENTRIES, 0);
}

static __attribute__((noinline)) void count_frames(void)
{
	nframes = frames_captured();
	printf("  frames per capture: %u (of at most %d)\n", nframes,
	       REF_TRACKER_STACK_ENTRIES);
}

int main(int argc, char **argv)
{
	static struct ref_tracker *live[LIVE];
	static const struct {
		const char *arg;
		enum refcount_stack_backend b;
	} backends[] = { { "fp", REFCOUNT_STACK_FP },
			 { "libunwind", REFCOUNT_STACK_LIBUNWIND },
			 { "backtrace", REFCOUNT_STACK_BACKTRACE } };
	struct __ref_tracker_dir_stats s;
	struct mallinfo2 m0, m1;
	bool quick = false;
	const char *only = NULL;
	double plain[3], r[3], chase;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			quick = true;
		else if (!strncmp(argv[i], "--backend=", 10))
			only = argv[i] + 10;
	}
	pairs = quick ? 20000 : 1000000;
	kref_init(&ref);
	ref_tracker_dir_init(&dir, 16, "bench");
	printf("tracker-bench: chosen capture backend: %s\n",
	       __refcount_stack_backend_name(__refcount_stack_select()));
	printf("tracker-bench: single thread, %ld pairs x %d rounds, median "
	       "[min-max], %d frames down\n",
	       pairs, ROUNDS, DEPTH);
	for (int i = 0; i < 16; i++)
		chase_ring[i] = &chase_ring[(i + 1) % 16];
	measure(loop_chase, r);
	chase = r[0];
	printf("%-34s %8.2f ns [%.2f-%.2f]\n", "L1 load-to-use (pointer chase)",
	       r[0], r[1], r[2]);
	measure(loop_plain, plain);
	printf("%-34s %8.1f ns [%.1f-%.1f]\n",
	       "kref_get + kref_put (untracked)", plain[0], plain[1], plain[2]);
	for (unsigned int b = 0; b < sizeof(backends) / sizeof(backends[0]);
	     b++) {
		char name[64];

		if (only && strcmp(only, backends[b].arg))
			continue;
		if (!__refcount_stack_force(backends[b].b)) {
			printf("%s: not available (libunwind.so.8 not found)\n",
			       __refcount_stack_backend_name(backends[b].b));
			continue;
		}
		snprintf(name, sizeof(name), "tracked pair, %s",
			 __refcount_stack_backend_name(backends[b].b));
		measure(loop_tracked, r);
		printf("%-34s %8.1f ns [%.1f-%.1f]\n", name, r[0], r[1], r[2]);
		measure(loop_capture, r);
		printf("  one capture alone                %8.1f ns "
		       "[%.1f-%.1f]\n",
		       r[0], r[1], r[2]);
		down(DEPTH, count_frames);
		if (backends[b].b == REFCOUNT_STACK_FP)
			printf("  floor of a pair: 2 captures x %u frames x "
			       "%.2f ns = %.1f ns\n",
			       nframes, chase, 2.0 * nframes * chase);
	}

	m0 = mallinfo2();
	for (long i = 0; i < LIVE; i++)
		kref_get_tracked(&ref, &dir, &live[i]);
	m1 = mallinfo2();
	__ref_tracker_dir_stats(&dir, &s);
	printf("bytes per live tracked reference: %.2f (chunks), %.2f "
	       "(malloc, mallinfo2), %lu live\n",
	       (double)s.bytes / (double)s.live,
	       (double)(m1.uordblks - m0.uordblks) / (double)LIVE, s.live);
	printf("stack depot: %zu bytes fixed (untouched pages cost nothing), "
	       "%lu stacks held, %lu dropped\n",
	       __refcount_stack_depot_bytes(), __refcount_stack_depot_count(),
	       __refcount_stack_dropped());
	for (long i = 0; i < LIVE; i++)
		kref_put_tracked(&ref, never, &dir, &live[i]);
	return ref_tracker_dir_exit(&dir) ? 1 : 0;
}

// SPDX-License-Identifier: MIT
/*
 * lab/bench/nonatomic-cost.c - what a converted single-threaded get/put costs
 *
 * `make bench-nonatomic` (tests/integration.mk).  One thread, one object, a
 * get and a put per iteration through out-of-line functions, as a
 * library's public API calls them (json_object_get/json_object_put): the
 * plain int a build without threads had (++ and --), the nonatomic breed,
 * and the saturating breed (what an atomic build converts to).  Prints the
 * median of ROUNDS rounds in ns per get+put pair, and each row's ratio to
 * the plain int.  A benchmark: it reports figures, it asserts nothing but
 * that the count ends where it started.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define REFCOUNT_BREED REFCOUNT_BREED_NONATOMIC
#include <refcount/refcount.h>

#include "nonatomic-cost.h"

/* Out of line and opaque to interprocedural analysis, as a library call. */
#if defined(__clang__)
#define OOL __attribute__((noinline))
#else
#define OOL __attribute__((noipa))
#endif

#define PAIRS 100000000ull
#define ROUNDS 5

struct obj_int {
	int n;
};

OOL static void int_get(struct obj_int *o)
{
	o->n++;
}

OOL static int int_put(struct obj_int *o)
{
	return --o->n == 0;
}

OOL static void na_get(refcount_t *r)
{
	refcount_inc(r);
}

OOL static int na_put(refcount_t *r)
{
	return refcount_dec_and_test(r);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* One row: ROUNDS timed rounds of PAIRS pairs; the median in ns/pair. */
#define ROW(get, put, obj)                                                     \
	({                                                                     \
		double t[ROUNDS];                                              \
		for (int k = 0; k < ROUNDS; k++) {                             \
			double t0 = now();                                     \
			for (unsigned long long i = 0; i < PAIRS; i++) {       \
				get(obj);                                      \
				if (put(obj))                                  \
					abort();                               \
			}                                                      \
			t[k] = (now() - t0) * 1e9 / PAIRS;                     \
		}                                                              \
		qsort(t, ROUNDS, sizeof(t[0]), cmp);                           \
		t[ROUNDS / 2];                                                 \
	})

int main(void)
{
	struct obj_int oi = { 1 };
	refcount_t na = REFCOUNT_INIT(1);
	refcount_t *sat = nonatomic_cost_sat_new();
	double ti = ROW(int_get, int_put, &oi);
	double tn = ROW(na_get, na_put, &na);
	double ts = ROW(nonatomic_cost_sat_get, nonatomic_cost_sat_put, sat);

	if (oi.n != 1 || refcount_read(&na) != 1 || refcount_read(sat) != 1)
		abort();
	printf("one thread, get+put through out-of-line functions, median of "
	       "%d rounds of %llu pairs\n",
	       ROUNDS, PAIRS);
	printf("%-28s %6.2f ns  1.00x\n", "int ++/-- (threading off)", ti);
	printf("%-28s %6.2f ns  %.2fx\n", "refcount nonatomic", tn, tn / ti);
	printf("%-28s %6.2f ns  %.2fx\n", "refcount saturating", ts, ts / ti);
	return 0;
}

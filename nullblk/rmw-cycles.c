// SPDX-License-Identifier: MIT
/*
 * rmw-cycles.c: a quick in-process estimate of what one refcount
 * read-modify-write costs in each breed, uncontended, for nullblk-bench's
 * analytic bound when refcount-bench's build/bench.json is not there.
 *
 * Built once per breed (-DREFCOUNT_BREED=... -DNB_BREED=x: defines
 * nb_cycles_pair_x) and once with -DNB_CYCLES_MAIN (the program).  The
 * figure is TSC cycles per refcount_inc + refcount_dec_and_test pair on a
 * private counter (never reaching zero), breeds interleaved over rounds,
 * the median round; printed as JSON.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
static inline uint64_t cycles(void)
{
	return __rdtsc();
}
#else
static inline uint64_t cycles(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

#define NB_CAT2(a, b) a##b
#define NB_CAT(a, b) NB_CAT2(a, b)

#ifndef NB_CYCLES_MAIN
#include <refcount/refcount.h>

double NB_CAT(nb_cycles_pair_, NB_BREED)(unsigned long n);

double NB_CAT(nb_cycles_pair_, NB_BREED)(unsigned long n)
{
	static refcount_t r = REFCOUNT_INIT(1);
	uint64_t t0 = cycles();

	for (unsigned long i = 0; i < n; i++) {
		refcount_inc(&r);
		if (refcount_dec_and_test(&r))
			return -1;	/* cannot happen: r stays >= 1 */
	}
	return (double)(cycles() - t0) / (double)n;
}
#else
#include <stdlib.h>

double nb_cycles_pair_atomic(unsigned long n);
double nb_cycles_pair_fast(unsigned long n);
double nb_cycles_pair_full(unsigned long n);
double nb_cycles_pair_saturating(unsigned long n);

static double tsc_hz(void)
{
	struct timespec a, b;
	uint64_t c0, c1;

	clock_gettime(CLOCK_MONOTONIC, &a);
	c0 = cycles();
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((double)(b.tv_sec - a.tv_sec) +
		       (double)(b.tv_nsec - a.tv_nsec) / 1e9 < 0.05);
	c1 = cycles();
	return (double)(c1 - c0) / ((double)(b.tv_sec - a.tv_sec) +
				    (double)(b.tv_nsec - a.tv_nsec) / 1e9);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

#define ROUNDS 21
#define NB_NR_BREEDS 4

int main(void)
{
	static const char *const names[NB_NR_BREEDS] = { "atomic", "fast",
							 "full", "saturating" };
	double (*const fn[NB_NR_BREEDS])(unsigned long) = {
		nb_cycles_pair_atomic, nb_cycles_pair_fast,
		nb_cycles_pair_full, nb_cycles_pair_saturating
	};
	double c[NB_NR_BREEDS][ROUNDS];

	/* breeds interleaved, round after round; the median of each */
	for (int r = 0; r < ROUNDS; r++)
		for (int b = 0; b < NB_NR_BREEDS; b++)
			c[b][r] = fn[b](200000) / 2;
	printf("{\n  \"source\": \"nullblk-rmw-cycles (in-process estimate, "
	       "uncontended inc + dec_and_test pairs, "
	       "median of %d rounds)\",\n", ROUNDS);
	printf("  \"tsc_hz\": %.0f,\n  \"cycles_per_op\": {", tsc_hz());
	for (int b = 0; b < NB_NR_BREEDS; b++) {
		qsort(c[b], ROUNDS, sizeof(double), cmp_double);
		printf("%s\"%s\": %.3f", b ? ", " : "", names[b],
		       c[b][ROUNDS / 2]);
	}
	printf("}\n}\n");
	return 0;
}
#endif

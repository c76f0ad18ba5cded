/* SPDX-License-Identifier: MIT */
/*
 * convert/lab/projects/cost.h - the timing loop of check-convert's
 * programs: `cost N` runs N iterations of a body in COST_SLICES slices and
 * prints the median slice's ns per iteration (convert/lab/convcost.py
 * pairs it with the other build's).
 */
#ifndef CONVERT_COST_H
#define CONVERT_COST_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define COST_SLICES 15

static inline double cost_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

/* CPU time: what a loop costs, whatever else shares the CPU */
static inline double cost_cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cost_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* for (long i...) BODY, timed: prints the median slice's ns per iteration */
#define COST_LOOP(n, i, body)                                            \
	do {                                                             \
		double s_[COST_SLICES];                                  \
		long m_ = (n) / COST_SLICES > 0 ? (n) / COST_SLICES : 1; \
		for (int k_ = 0; k_ < COST_SLICES; k_++) {               \
			double t_ = cost_now();                          \
			for (long i = 0; i < m_; i++)                    \
				body;                                    \
			s_[k_] = (cost_now() - t_) / m_;                 \
		}                                                        \
		qsort(s_, COST_SLICES, sizeof(s_[0]), cost_cmp);         \
		printf("%.3f\n", s_[COST_SLICES / 2]);                   \
	} while (0)

/* The misuse replay's 2^32 gets (leaked), with each half's CPU ns per get
 * on stderr: the count wraps, or saturates, half way */
#define MISUSE_GETS_2_32(get)                                            \
	do {                                                             \
		unsigned long long i_ = 0;                               \
		double t_ = cost_cpu_now();                              \
		for (; i_ < (1ull << 31); i_++)                          \
			get;                                             \
		fprintf(stderr, "ns per get: %.2f for the first 2^31\n", \
			(cost_cpu_now() - t_) / (1ull << 31));           \
		t_ = cost_cpu_now();                                     \
		for (; i_ < (1ull << 32); i_++)                          \
			get;                                             \
		fprintf(stderr, "ns per get: %.2f for the next 2^31\n",  \
			(cost_cpu_now() - t_) / (1ull << 31));           \
	} while (0)

#endif /* CONVERT_COST_H */

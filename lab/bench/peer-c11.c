/* SPDX-License-Identifier: MIT */
/*
 * lab/bench/peer-c11.c - the atomic_t row: a plain C11 counter
 *
 * The kernel's atomic_inc() (unordered) and atomic_dec_and_test() (fully
 * ordered), and atomic_inc_not_zero() as its try_cmpxchg loop.  The baseline
 * every ratio is taken against.
 */
#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

static inline bool c11_inc_not_zero(atomic_int *r)
{
	int c = atomic_load_explicit(r, memory_order_relaxed);

	do {
		if (c == 0)
			return false;
	} while (!atomic_compare_exchange_weak(r, &c, c + 1));
	return true;
}

/* The same loop, counting its failed compare-and-swaps. */
static inline bool c11_inc_not_zero_counted(atomic_int *r, uint64_t *n)
{
	int c = atomic_load_explicit(r, memory_order_relaxed);

	do {
		if (c == 0)
			return false;
	} while (!atomic_compare_exchange_weak(r, &c, c + 1) && ++*n);
	return true;
}

#define BENCH_SFX c11
#define BENCH_NAME "atomic_t"
#define BENCH_KIND BENCH_ROW_BASELINE
#define BENCH_API "C11 atomic_fetch_add (relaxed), atomic_fetch_sub() == 1"
#define BENCH_LOOKUP_NOTE                                                      \
	"atomic_t: a compare-exchange loop, as atomic_inc_not_zero()"
#define BENCH_T atomic_int
#define BENCH_SET(r, v) atomic_store_explicit(r, (int)(v), memory_order_relaxed)
#define BENCH_READ(r) ((long long)atomic_load_explicit(r, memory_order_relaxed))
#define BENCH_INC(r)                                                           \
	((void)atomic_fetch_add_explicit(r, 1, memory_order_relaxed))
#define BENCH_DEC(r)                                                           \
	((void)atomic_fetch_sub_explicit(r, 1, memory_order_relaxed))
#define BENCH_DEC_AND_TEST(r) (atomic_fetch_sub(r, 1) == 1)
#define BENCH_INC_NOT_ZERO(r) c11_inc_not_zero(r)
#define BENCH_INC_NOT_ZERO_RETRIES(r, n) c11_inc_not_zero_counted(r, n)
#define BENCH_MAX INT_MAX
#define BENCH_IS_SATURATED(r) false
#define BENCH_FORKED true

#include "loops.h"

/* The code size baseline: a call site with nothing in it (the ret). */
static __attribute__((noinline, used)) void bench_cs_empty(void *r)
{
	(void)r;
}

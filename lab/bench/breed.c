/* SPDX-License-Identifier: MIT */
/*
 * lab/bench/breed.c - the refcount-bench row of one breed
 *
 * Built once per breed of include/refcount/breed/registry.h, with
 * -DREFCOUNT_BREED=REFCOUNT_BREED_<BREED> and -DBENCH_SFX=<breed>, so that
 * every breed's row links into one program as bench_impl_<breed>.
 */
#include <refcount/refcount.h>

#include <stdint.h>

/*
 * For the retry count only: the compare-and-swap loop every breed's
 * refcount_inc_not_zero() runs (add-unless-zero: load, then CAS until it
 * sticks), with the failures counted.  A copy of the loop's shape, not the
 * breed's own code (whose checks after the loop do not change the count).
 */
static inline bool breed_inc_not_zero_counted(refcount_t *r, uint64_t *n)
{
	int old = __atomic_load_n(&r->refs, __ATOMIC_RELAXED);

	/* The breed's word (<refcount/types.h>): its count is WORD(word). */
	do {
		if (!__REFCOUNT_WORD(old))
			return false;
	} while (!__atomic_compare_exchange_n(
			 &r->refs, &old,
			 __REFCOUNT_WORD(
				 __refcount_wrap_add(__REFCOUNT_WORD(old), 1)),
			 true, __ATOMIC_RELAXED, __ATOMIC_RELAXED) &&
		 ++*n);
	return true;
}

#define BENCH_NAME "refcount-" REFCOUNT_BREED_NAME
#define BENCH_KIND BENCH_ROW_BREED
/* The targets are about the breed <refcount/refcount.h> selects by default. */
#define BENCH_TARGET (REFCOUNT_BREED == REFCOUNT_BREED_SATURATING)
#define BENCH_API "refcount_inc, refcount_dec_and_test, refcount_inc_not_zero"
#define BENCH_LOOKUP_NOTE NULL
#define BENCH_T refcount_t
#define BENCH_SET(r, v) refcount_set(r, (int)(v))
#define BENCH_READ(r) ((long long)(int)refcount_read(r))
#define BENCH_INC(r) refcount_inc(r)
#define BENCH_DEC(r) refcount_dec(r)
#define BENCH_DEC_AND_TEST(r) refcount_dec_and_test(r)
#define BENCH_INC_NOT_ZERO(r) refcount_inc_not_zero(r)
#define BENCH_INC_NOT_ZERO_RETRIES(r, n) breed_inc_not_zero_counted(r, n)
#define BENCH_MAX ((int)REFCOUNT_MAX)
#define BENCH_IS_SATURATED(r)                                                  \
	(refcount_read(r) == (unsigned int)REFCOUNT_SATURATED)
#define BENCH_REFCOUNT_PROBE
#define BENCH_FORKED false

#include "loops.h"

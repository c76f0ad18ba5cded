/* SPDX-License-Identifier: MIT */
/*
 * lab/bench/loops.h - the timed loops of one refcount-bench row (a template)
 *
 * Include once per row, after defining:
 *
 *   BENCH_SFX                  token naming the row's symbols (fast, glib)
 *   BENCH_NAME, BENCH_API      the row's name and operations, as strings
 *   BENCH_KIND                 BENCH_ROW_BASELINE, _BREED or _PEER
 *   BENCH_LOOKUP_NOTE          how inc_not_zero is made, or NULL
 *   BENCH_T                    the counter type (fits in BENCH_SLOT bytes)
 *   BENCH_SET(r, v)            store v (or, for a counter that stores 0
 *                              as a dead word: BENCH_DEAD_WORD, that word,
 *                              BENCH_INIT(r, v) and BENCH_COUNT_T, its type)
 *   BENCH_READ(r)              the value, as long long
 *   BENCH_INC(r)               take a reference
 *   BENCH_DEC_AND_TEST(r)      drop one; true when it was the last
 *   BENCH_INC_NOT_ZERO(r)      take one unless the count is 0; true if taken
 *   BENCH_MAX                  the largest legal count
 *   BENCH_IS_SATURATED(r)      the counter sits at its saturation value
 *   BENCH_FORKED               true: probe in a child (the row may abort)
 * and optionally BENCH_DEC(r), a decrement whose result is not tested,
 * BENCH_TARGET, true for the row the targets are about (default false),
 * BENCH_TRYGET_TARGET, true for the row the rcuref_t claims are about,
 * BENCH_PERCPU_TARGET, true for the row the percpu_ref claims are about,
 * BENCH_FINAL_PUT(r), for a row whose last reference is dropped by another
 * call than its puts (percpu_ref's kill): the timing loop's last
 * operation, true when it released, and
 * BENCH_INC_NOT_ZERO_RETRIES(r, n), BENCH_INC_NOT_ZERO that adds its failed
 * compare-and-swaps to the uint64_t *n (for the untimed retry count).
 *
 * A row of this library defines BENCH_REFCOUNT_PROBE: its probe is the
 * scenario, reported when refcount_report_count() moved.  Another library
 * that reports misuse defines BENCH_OWN_PROBE and then, after this file,
 * BN(probe): it runs BN(scenario) and says whether the library reported.
 * Otherwise the probe is the scenario alone, and only an abort (seen by the
 * driver, which forks) or the final value can tell.
 *
 * Every loop below has its operations inlined; the driver reaches a loop
 * through one function pointer.  Each loop checks the counter's answers
 * (only the last dec_and_test may return true) and stops the program with
 * bench_fail() if they are wrong.
 */
#include <stddef.h>

#include "bench.h"

#define BENCH_CAT_(a, b) a##_##b
#define BENCH_CAT(a, b) BENCH_CAT_(a, b)
#define BN(x) BENCH_CAT(x, BENCH_SFX)
#define BENCH_STR_(x) #x
#define BENCH_STR(x) BENCH_STR_(x)

#ifndef BENCH_TARGET
#define BENCH_TARGET false
#endif
#ifndef BENCH_TRYGET_TARGET
#define BENCH_TRYGET_TARGET false
#endif
#ifndef BENCH_PERCPU_TARGET
#define BENCH_PERCPU_TARGET false
#endif

/*
 * The loops around the operations are never unrolled, so that every row
 * runs the same loop (clang unrolls atomic_t's branch-free increments by 8
 * otherwise).  Atomic operations are never merged or vectorised.
 */
#ifndef BENCH_NO_UNROLL
#if defined(__clang__)
#define BENCH_NO_UNROLL _Pragma("clang loop unroll(disable)")
#elif defined(__GNUC__)
#define BENCH_NO_UNROLL _Pragma("GCC unroll 1")
#else
#define BENCH_NO_UNROLL
#endif
#endif

#ifdef BENCH_DEAD_WORD
/*
 * BENCH_SET of the peers that store a count of 0 as their dead word
 * (rcuref_t, file_ref_t): BENCH_INIT(r, v) for a count v of type
 * BENCH_COUNT_T, the word BENCH_DEAD_WORD for 0.
 */
static inline void BN(set_or_dead)(BENCH_T *r, BENCH_COUNT_T v)
{
	if (v)
		BENCH_INIT(r, v);
	else
		atomic_store_explicit(&r->refcnt, BENCH_DEAD_WORD,
				      memory_order_relaxed);
}
#define BENCH_SET(r, v) BN(set_or_dead)(r, (BENCH_COUNT_T)(v))
#endif

/*
 * LKDTM's ATOMIC_TIMING and REFCOUNT_TIMING (drivers/misc/lkdtm/refcount.c)
 * with INT_MAX replaced by @n: from 1, n - 1 increments up to n, then
 * dec_and_test from n down; only the very last may return true.  Chunked so
 * that the progress bar can move: one predicted branch per BENCH_CHUNK ops.
 */
#ifdef BENCH_FINAL_PUT
#define BENCH_DOWN_TO 1
#else
#define BENCH_DOWN_TO 0
#endif
static uint64_t BN(timing)(void *slot, uint64_t n, struct bench_progress *p)
{
	BENCH_T *r = slot;
	uint64_t i, stop, t0, t1;

	BENCH_SET(r, 1);
	t0 = bench_now();
	for (i = 1; i < n;) {
		stop = n - i > BENCH_CHUNK ? i + BENCH_CHUNK : n;
		BENCH_NO_UNROLL
		for (; i < stop; i++)
			BENCH_INC(r);
		bench_tick(p, i);
	}
	for (i = n; i > BENCH_DOWN_TO;) {
		stop = i - BENCH_DOWN_TO > BENCH_CHUNK ? i - BENCH_CHUNK :
							 BENCH_DOWN_TO;
		BENCH_NO_UNROLL
		for (; i > stop; i--)
			if (BENCH_DEC_AND_TEST(r))
				goto out;
		bench_tick(p, 2 * n - i);
	}
#ifdef BENCH_FINAL_PUT
	if (!BENCH_FINAL_PUT(r))
		i = 0;
#endif
out:
	t1 = bench_now();
	if (i != 1 || BENCH_READ(r) != 0)
		bench_fail("%s: out of sync up/down cycle: %llu", BENCH_NAME,
			   (unsigned long long)i);
	return t1 - t0;
}

static void BN(init)(void *slot, int v)
{
	BENCH_SET((BENCH_T *)slot, v);
}

static long long BN(read)(void *slot)
{
	return BENCH_READ((BENCH_T *)slot);
}

/* A get/put pair on a counter that some owner holds at 1 or more. */
static inline __attribute__((always_inline)) void BN(pair)(BENCH_T *r)
{
	BENCH_INC(r);
	if (BENCH_DEC_AND_TEST(r))
		bench_fail("%s: a get/put pair dropped the last reference",
			   BENCH_NAME);
}

/* The lookup pattern: take a reference only if the object is live. */
static inline __attribute__((always_inline)) void BN(lookup_pair)(BENCH_T *r)
{
	if (!BENCH_INC_NOT_ZERO(r))
		bench_fail("%s: inc_not_zero found a held counter at 0",
			   BENCH_NAME);
	if (BENCH_DEC_AND_TEST(r))
		bench_fail("%s: a lookup dropped the last reference",
			   BENCH_NAME);
}

static void BN(getput)(void *slot, uint64_t pairs)
{
	BENCH_NO_UNROLL
	for (uint64_t i = 0; i < pairs; i++)
		BN(pair)(slot);
}

static void BN(lookup)(void *slot, uint64_t pairs)
{
	BENCH_NO_UNROLL
	for (uint64_t i = 0; i < pairs; i++)
		BN(lookup_pair)(slot);
}

#define BENCH_OBJ(base, idx) ((BENCH_T *)((base) + (size_t)(idx)*BENCH_SLOT))

/*
 * The many-objects loops: @passes times, @op on each object of @order.  One
 * definition for both patterns; a macro, so that @op inlines as in the loops
 * above.
 */
#define BENCH_OBJS_LOOP(name, op)                                              \
	static void BN(name)(char *base, const uint32_t *order, uint32_t n,    \
			     uint32_t passes)                                  \
	{                                                                      \
		for (uint32_t p = 0; p < passes; p++)                          \
			BENCH_NO_UNROLL                                        \
		for (uint32_t i = 0; i < n; i++)                               \
			op(BENCH_OBJ(base, order[i]));                         \
	}

BENCH_OBJS_LOOP(objs_getput, BN(pair))
BENCH_OBJS_LOOP(objs_lookup, BN(lookup_pair))

/*
 * One misuse on a scratch counter.  ->safe: the counter ended saturated, or
 * refused to move, and an underflowing dec_and_test did not say "free it".
 */
static void BN(scenario)(enum bench_violation v, struct bench_probe *o)
{
	BENCH_T c;
	long long before;
	bool freed = false;

	o->applies = true;
	switch (v) {
	case BENCH_OVERFLOW:
		BENCH_SET(&c, BENCH_MAX);
		before = BENCH_READ(&c);
		BENCH_INC(&c);
		break;
	case BENCH_DEC_TO_ZERO:
#ifdef BENCH_DEC
		BENCH_SET(&c, 1);
		before = BENCH_READ(&c);
		BENCH_DEC(&c);
		break;
#else
		o->applies = false;
		return;
#endif
	case BENCH_INC_FROM_ZERO:
		BENCH_SET(&c, 0);
		before = BENCH_READ(&c);
		BENCH_INC(&c);
		break;
	case BENCH_UNDERFLOW:
	default:
		BENCH_SET(&c, 0);
		before = BENCH_READ(&c);
		freed = BENCH_DEC_AND_TEST(&c);
		break;
	}
	o->safe =
		!freed && (BENCH_IS_SATURATED(&c) || BENCH_READ(&c) == before);
}

/*
 * Call sites for the code size table: lab/bench/codesize.sh reads their sizes
 * from this object with nm -S.
 */
static __attribute__((noinline, used)) void BN(bench_cs_inc)(BENCH_T *r)
{
	BENCH_INC(r);
}

static __attribute__((noinline, used)) bool
BN(bench_cs_dec_and_test)(BENCH_T *r)
{
	return BENCH_DEC_AND_TEST(r);
}

#ifdef BENCH_INC_NOT_ZERO_RETRIES
/* The lookup pattern, untimed, counting the try-get's retries. */
static uint64_t BN(lookup_retries)(void *slot, uint64_t pairs)
{
	BENCH_T *r = slot;
	uint64_t n = 0;

	BENCH_NO_UNROLL
	for (uint64_t i = 0; i < pairs; i++) {
		if (!BENCH_INC_NOT_ZERO_RETRIES(r, &n))
			bench_fail("%s: inc_not_zero found a held counter at 0",
				   BENCH_NAME);
		if (BENCH_DEC_AND_TEST(r))
			bench_fail("%s: a lookup dropped the last reference",
				   BENCH_NAME);
	}
	return n;
}
#define BENCH_RETRIES_FN BN(lookup_retries)
#else
#define BENCH_RETRIES_FN NULL
#endif

#ifdef BENCH_REFCOUNT_PROBE
/* A row of this library: every report moves refcount_report_count(). */
static unsigned long BN(reports)(void)
{
	unsigned long n = 0;

	for (int t = 0; t < REFCOUNT_NR_SATURATION_TYPES; t++)
		n += refcount_report_count((enum refcount_saturation_type)t);
	return n;
}

static void BN(quiet)(const struct refcount_report *rep)
{
	(void)rep;
}

/* Reported: refcount_report_count() grew while the scenario ran. */
static void BN(probe)(enum bench_violation v, struct bench_probe *out)
{
	refcount_report_fn prev = refcount_set_report_handler(BN(quiet));
	unsigned long before = BN(reports)();

	BN(scenario)(v, out);
	out->reported = BN(reports)() != before;
	refcount_set_report_handler(prev);
}
#elif defined(BENCH_OWN_PROBE)
static void BN(probe)(enum bench_violation v, struct bench_probe *out);
#else
static void BN(probe)(enum bench_violation v, struct bench_probe *out)
{
	BN(scenario)(v, out);
}
#endif

const struct bench_impl BN(bench_impl) = {
	.name = BENCH_NAME,
	.kind = BENCH_KIND,
	.target = BENCH_TARGET,
	.tryget_target = BENCH_TRYGET_TARGET,
	.percpu_target = BENCH_PERCPU_TARGET,
	.key = BENCH_STR(BENCH_SFX),
	.api = BENCH_API,
	.lookup_note = BENCH_LOOKUP_NOTE,
	.timing = BN(timing),
	.init = BN(init),
	.read = BN(read),
	.getput = BN(getput),
	.lookup = BN(lookup),
	.objs_getput = BN(objs_getput),
	.objs_lookup = BN(objs_lookup),
	.probe = BN(probe),
	.forked = BENCH_FORKED,
	.lookup_retries = BENCH_RETRIES_FN,
};

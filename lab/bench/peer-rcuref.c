/* SPDX-License-Identifier: MIT */
/*
 * lab/bench/peer-rcuref.c - the rcuref row: <refcount/rcuref.h>
 *
 * rcuref_get() is the lookup pattern's try-get in one atomic add; both
 * patterns use it (there is no other get), so the get/put and the lookup
 * columns time the same operations.  rcuref_put() is one atomic subtract,
 * and a compare-and-swap for the last reference.  Built with RCUREF_NO_URCU:
 * the row times the counter, as the other rows do, not the liburcu read
 * section a lookup would add (docs/rcuref.md, 'Bench').  A count of 0 is
 * stored as RCUREF_DEAD, the value a released counter keeps.
 *
 * Kind BENCH_ROW_PEER: not a refcount_t breed; the rcuref_t claims find it
 * by its tryget_target field (lab/bench/targets.c).
 */
#define RCUREF_NO_URCU
#include <refcount/rcuref.h>
#include <refcount/report.h>

#define BENCH_SFX rcuref
#define BENCH_NAME "rcuref"
#define BENCH_KIND BENCH_ROW_PEER
/* The rcuref_t claims (lab/bench/claims.txt) are about this row. */
#define BENCH_TRYGET_TARGET true
#define BENCH_API "rcuref_get, rcuref_put (RCUREF_NO_URCU)"
#define BENCH_LOOKUP_NOTE "rcuref: rcuref_get(), one atomic add, no loop"
#define BENCH_T rcuref_t
#define BENCH_COUNT_T unsigned int
#define BENCH_INIT(r, v) rcuref_init(r, v)
#define BENCH_DEAD_WORD __RCUREF_VAL(RCUREF_DEAD)
#define BENCH_READ(r) ((long long)rcuref_read(r))
#define BENCH_INC(r) ((void)!rcuref_get(r))
#define BENCH_DEC_AND_TEST(r) rcuref_put(r)
#define BENCH_INC_NOT_ZERO(r) rcuref_get(r)
/* no loop: the real get, which never retries */
#define BENCH_INC_NOT_ZERO_RETRIES(r, n) ((void)(n), rcuref_get(r))
#define BENCH_MAX (RCUREF_MAXREF + 1U)
#define BENCH_IS_SATURATED(r)                                                  \
	((unsigned int)atomic_load(&(r)->refcnt) == RCUREF_SATURATED)
#define BENCH_REFCOUNT_PROBE
#define BENCH_FORKED false

#include "loops.h"

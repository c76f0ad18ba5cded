/* SPDX-License-Identifier: MIT */
/*
 * refcount/breed/nonatomic.h - the saturating breed for one thread, no atomics
 *
 * Included by <refcount/refcount.h> when REFCOUNT_BREED is
 * REFCOUNT_BREED_NONATOMIC.  The saturating breed's checks and saturation
 * (its column of the misuse table, immortal counters included), with plain
 * loads and stores instead of atomic read-modify-writes: for builds whose
 * counters were never shared between threads (json-c built with
 * ENABLE_THREADING=OFF, GLib's grefcount, a single-threaded event loop), so
 * that converting them adds the checks and not the cost of a locked
 * instruction.  Reports name the breed "nonatomic".
 *
 * Misuse: sharing such a counter between threads loses counts (a data race);
 * the breed cannot detect it.  refcount_dec_if_one(), refcount_dec_not_one()
 * and the lock helpers stay out of line, with their compare-and-swap.
 *
 * This library's addition: the kernel has no single-threaded refcount_t.
 */
#ifndef REFCOUNT_BREED_NONATOMIC_H
#define REFCOUNT_BREED_NONATOMIC_H

#ifndef REFCOUNT_H
#error "include <refcount/refcount.h>, not <refcount/breed/nonatomic.h>"
#endif

/* The word is INT_MIN - count (<refcount/types.h>, __REFCOUNT_WORD). */
#define __REFCOUNT_BREED_ENCODED 1
/* REFCOUNT_IMMORTAL is a no-op here: its cold path keeps it. */
#define __REFCOUNT_KEEPS_IMMORTAL 1
/* Plain loads and stores (refcount_long_t's operations too). */
#define __REFCOUNT_PLAIN 1
/* The kernel's design since v5.5 (with saturating.h). */
#define __REFCOUNT_SATURATING_DESIGN 1
/* refcount_dec_not_one() tests REFCOUNT_SATURATED, as from v5.5. */
#define __REFCOUNT_DEC_NOT_ONE_SATURATED REFCOUNT_SATURATED

/* The operations: impl/saturating-ops.h on the int, without atomics. */
#define __RC_T refcount_t
#define __RC_V int
#define __RC_UV unsigned int
#define __RC_F(op) __refcount_##op
#define __RC_WARN(r, t) __refcount_nonatomic_warn_saturate(r, t)
#define __RC_IMMORTAL(v) __REFCOUNT_IMMORTAL_VALUE(v)
#define __RC_ATOMIC 0
#include <refcount/impl/saturating-ops.h>

#endif /* REFCOUNT_BREED_NONATOMIC_H */

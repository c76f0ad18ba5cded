/* SPDX-License-Identifier: MIT */
/*
 * refcount/breed/saturating.h - the saturating breed (the default)
 *
 * Included by <refcount/refcount.h> when REFCOUNT_BREED is
 * REFCOUNT_BREED_SATURATING or unset.  Follows include/linux/refcount.h and
 * lib/refcount.c from v5.5 (Will Deacon, "Rework REFCOUNT_FULL using
 * atomic_fetch_* operations") to current mainline: one atomic fetch-and-add or
 * fetch-and-sub, then a check on the old value.  A bad result is overwritten
 * with REFCOUNT_SATURATED (INT_MIN / 2) out of line by refcount_warn_saturate().
 * The word holds INT_MIN - count, so that on x86 each get and put is one
 * locked add or sub and a branch on its flags (<refcount/arch/x86-saturating.h>;
 * docs/design.md, 'The increment and the flags').
 *
 * What it detects is its column of the misuse table in <refcount/refcount.h>:
 * every detected misuse ends SATURATED, a leak, never a premature free.
 */
#ifndef REFCOUNT_BREED_SATURATING_H
#define REFCOUNT_BREED_SATURATING_H

#ifndef REFCOUNT_H
#error "include <refcount/refcount.h>, not <refcount/breed/saturating.h>"
#endif

/* The word is INT_MIN - count (<refcount/types.h>, __REFCOUNT_WORD). */
#define __REFCOUNT_BREED_ENCODED 1
/* REFCOUNT_IMMORTAL is a no-op here: its cold path keeps it. */
#define __REFCOUNT_KEEPS_IMMORTAL 1
/* The kernel's design since v5.5 (with nonatomic.h). */
#define __REFCOUNT_SATURATING_DESIGN 1
/* refcount_dec_not_one() tests REFCOUNT_SATURATED, as from v5.5. */
#define __REFCOUNT_DEC_NOT_ONE_SATURATED REFCOUNT_SATURATED

#if (defined(__x86_64__) || defined(__i386__)) && !defined(__REFCOUNT_TSAN) && \
	!defined(REFCOUNT_SATURATING_NO_ASM)
#include <refcount/arch/x86-saturating.h>
#define __RC_ASM 1
#endif

/* The operations: impl/saturating-ops.h on the int, with atomics. */
#define __RC_T refcount_t
#define __RC_V int
#define __RC_UV unsigned int
#define __RC_F(op) __refcount_##op
#define __RC_WARN(r, t) refcount_warn_saturate(r, t)
#define __RC_IMMORTAL(v) __REFCOUNT_IMMORTAL_VALUE(v)
#define __RC_ATOMIC 1
#include <refcount/impl/saturating-ops.h>

#endif /* REFCOUNT_BREED_SATURATING_H */

/* SPDX-License-Identifier: MIT */
/*
 * refcount/breed/full.h - the full breed: 2017 generic REFCOUNT_FULL
 *
 * Included by <refcount/refcount.h> when REFCOUNT_BREED is
 * REFCOUNT_BREED_FULL.  Follows lib/refcount.c of v4.13..v5.4 (Peter
 * Zijlstra's original refcount_t, later the *_checked() functions), with the
 * v5.1 acquire ordering of dec_and_test/sub_and_test (commit 47b8f3ab9c49).
 * Every operation is an out-of-line compare-and-swap loop, as it was in the
 * kernel; that is what made it cost 1.76x atomic_t in 2017.
 *
 * The counter is treated as unsigned.  It saturates at UINT_MAX and a
 * saturated counter never moves again; an increment from 0 or a step below
 * 0 is refused, leaving the value alone.  What it detects, and what it
 * prints, is its column of the misuse table in <refcount/refcount.h>.
 *
 * Note the kernel's own quirk, kept here: landing exactly on UINT_MAX by a
 * legal increment counts as saturation.
 */
#ifndef REFCOUNT_BREED_FULL_H
#define REFCOUNT_BREED_FULL_H

#ifndef REFCOUNT_H
#error "include <refcount/refcount.h>, not <refcount/breed/full.h>"
#endif

/*
 * The full breed's out-of-line operations (src/full-ops.c).  Each follows the
 * lib/refcount.c function of the same name, adds the @oldp of the 2020 API
 * (the value seen by the final compare-and-swap, or by the early return), and
 * takes @acquire to give the compare-and-swap ACQUIRE ordering on success for
 * the 2025 _acquire forms (RELAXED otherwise).  Use the refcount_*() names
 * from <refcount/refcount.h> instead.
 */
bool __refcount_full_add_not_zero(int i, refcount_t *r, int *oldp,
				  bool acquire);
bool __refcount_full_inc_not_zero(refcount_t *r, int *oldp, bool acquire);
void __refcount_full_add(int i, refcount_t *r, int *oldp);
void __refcount_full_inc(refcount_t *r, int *oldp);
bool __refcount_full_sub_and_test(int i, refcount_t *r, int *oldp);
void __refcount_full_dec(refcount_t *r, int *oldp);

/* The __refcount_*() forms below are documented in <refcount/refcount.h>. */

static __refcount_inline __refcount_must_check bool
__refcount_add_not_zero(int i, refcount_t *r, int *oldp)
{
	return __refcount_call(__refcount_full_add_not_zero(i, r, oldp, false));
}

static __refcount_inline __refcount_must_check bool
__refcount_add_not_zero_acquire(int i, refcount_t *r, int *oldp)
{
	if (!__refcount_call(__refcount_full_add_not_zero(i, r, oldp, true)))
		return false;
	__refcount_tsan_acquire(r);
	return true;
}

#define __REFCOUNT_HAVE_INC_NOT_ZERO 1
static __refcount_inline __refcount_must_check bool
__refcount_inc_not_zero(refcount_t *r, int *oldp)
{
	return __refcount_call(__refcount_full_inc_not_zero(r, oldp, false));
}

#define __REFCOUNT_HAVE_INC_NOT_ZERO_ACQUIRE 1
static __refcount_inline __refcount_must_check bool
__refcount_inc_not_zero_acquire(refcount_t *r, int *oldp)
{
	if (!__refcount_call(__refcount_full_inc_not_zero(r, oldp, true)))
		return false;
	__refcount_tsan_acquire(r);
	return true;
}

static __refcount_inline void __refcount_add(int i, refcount_t *r, int *oldp)
{
	__refcount_call_void(__refcount_full_add(i, r, oldp));
}

#define __REFCOUNT_HAVE_INC 1
static __refcount_inline void __refcount_inc(refcount_t *r, int *oldp)
{
	__refcount_call_void(__refcount_full_inc(r, oldp));
}

static __refcount_inline __refcount_must_check bool
__refcount_sub_and_test(int i, refcount_t *r, int *oldp)
{
	return __refcount_tsan_last_put(
		r, __refcount_call(__refcount_full_sub_and_test(i, r, oldp)));
}

static __refcount_inline void __refcount_dec(refcount_t *r, int *oldp)
{
	__refcount_tsan_release(r);
	__refcount_call_void(__refcount_full_dec(r, oldp));
}

#endif /* REFCOUNT_BREED_FULL_H */

/* SPDX-License-Identifier: MIT */
/*
 * refcount/breed/atomic.h - the atomic breed: the 2017 unchecked fallback
 *
 * Included by <refcount/refcount.h> when REFCOUNT_BREED is
 * REFCOUNT_BREED_ATOMIC.  Follows the `#else` branch of include/linux/refcount.h
 * in v4.13..v5.4 (Kees Cook, "locking/refcount: Create unchecked atomic_t
 * implementation"): every operation is the plain atomic_t operation.
 *
 * Detects nothing.  It is the baseline the other breeds are measured against:
 * an increment past INT_MAX wraps to INT_MIN, a decrement below 0 goes
 * negative, an increment from 0 succeeds.  (The out-of-line helpers
 * refcount_dec_if_one(), refcount_dec_not_one() and the lock helpers are the
 * 2017 checked lib/refcount.c ones in every breed, as in the kernel.)
 *
 * Memory ordering is atomic_t's where that is at least the refcount_t
 * contract: inc/add relaxed, and the value-returning operations (the
 * *_and_test and *_not_zero forms) sequentially consistent, which is stronger.
 * refcount_dec() is RELEASE (atomic_dec() was unordered; on x86 both are the
 * same locked instruction).
 *
 * C11 defines wrap-around for atomic signed arithmetic, so the wrap is
 * well-defined, not undefined behaviour.
 */
#ifndef REFCOUNT_BREED_ATOMIC_H
#define REFCOUNT_BREED_ATOMIC_H

#ifndef REFCOUNT_H
#error "include <refcount/refcount.h>, not <refcount/breed/atomic.h>"
#endif

/* atomic_add_unless(v, i, 0), fully ordered on success. */
static __refcount_inline __refcount_must_check bool
__refcount_add_not_zero(int i, refcount_t *r, int *oldp)
{
	int old = __refcount_add_unless_zero(&r->refs, i, __ATOMIC_SEQ_CST);

	if (oldp)
		*oldp = old;
	return old;
}

static __refcount_inline __refcount_must_check bool
__refcount_add_not_zero_acquire(int i, refcount_t *r, int *oldp)
{
	return __refcount_add_not_zero(i, r, oldp);
}

static __refcount_inline void __refcount_add(int i, refcount_t *r, int *oldp)
{
	int old = __atomic_fetch_add(&r->refs, i, __ATOMIC_RELAXED);

	if (oldp)
		*oldp = old;
}

static __refcount_inline __refcount_must_check bool
__refcount_sub_and_test(int i, refcount_t *r, int *oldp)
{
	int old = __atomic_fetch_sub(&r->refs, i, __ATOMIC_SEQ_CST);

	if (oldp)
		*oldp = old;
	return old == i;
}

static __refcount_inline void __refcount_dec(refcount_t *r, int *oldp)
{
	int old = __atomic_fetch_sub(&r->refs, 1, __ATOMIC_RELEASE);

	if (oldp)
		*oldp = old;
}

#endif /* REFCOUNT_BREED_ATOMIC_H */

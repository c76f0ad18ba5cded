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
 *
 * What it detects is its column of the misuse table in <refcount/refcount.h>:
 * every detected misuse ends SATURATED, a leak, never a premature free.
 */
#ifndef REFCOUNT_BREED_SATURATING_H
#define REFCOUNT_BREED_SATURATING_H

#ifndef REFCOUNT_H
#error "include <refcount/refcount.h>, not <refcount/breed/saturating.h>"
#endif

/* REFCOUNT_IMMORTAL is a no-op here: its cold path keeps it. */
#define __REFCOUNT_KEEPS_IMMORTAL 1

/**
 * __refcount_add_not_zero_limited_acquire() - add unless 0 or over a limit
 * @i: the value to add (a count of references)
 * @r: the refcount
 * @oldp: if not NULL, receives the value seen before the operation
 * @limit: the largest count this call may produce (inclusive); INT_MAX means
 *	no limit
 *
 * Follows the 2025 kernel (Suren Baghdasaryan), for objects whose memory may
 * be reused for another object of the same type (SLAB_TYPESAFE_BY_RCU).
 * Saturating breed only.
 *
 * Memory ordering: ACQUIRE on success (the compare-and-swap), nothing on
 * failure.  Context: any thread; lock-free.
 *
 * Return: false if the count was 0 or if @i would take it past @limit (then
 * nothing changes and nothing is reported); true otherwise.  As in the kernel,
 * "past @limit" is tested as `i > limit - old` in wrapping arithmetic, so a
 * saturated counter (old < 0) also returns false, without a report.
 *
 * Misuse: a result that overflows saturates and reports ADD_NOT_ZERO_OVF.
 */
static __refcount_inline __refcount_must_check bool
__refcount_add_not_zero_limited_acquire(int i, refcount_t *r, int *oldp,
					int limit)
{
	int old = __atomic_load_n(&r->refs, __ATOMIC_RELAXED);

	do {
		if (!old)
			break;
		if (i > __refcount_wrap_sub(limit, old)) {
			if (oldp)
				*oldp = old;
			/* Refused, but an immortal counter is always taken. */
			return __refcount_unlikely(
				__REFCOUNT_IMMORTAL_VALUE(old));
		}
	} while (!__atomic_compare_exchange_n(
		&r->refs, &old, __refcount_wrap_add(old, i), true,
		__ATOMIC_ACQUIRE, __ATOMIC_RELAXED));

	if (oldp)
		*oldp = old;
	if (__refcount_unlikely(old < 0 || __refcount_wrap_add(old, i) < 0))
		__refcount_call_void(
			refcount_warn_saturate(r, REFCOUNT_ADD_NOT_ZERO_OVF));
	return old;
}

/**
 * __refcount_inc_not_zero_limited_acquire() - increment unless 0 or at a limit
 * @r: the refcount
 * @oldp: if not NULL, receives the value seen before the operation
 * @limit: the largest count this call may produce (inclusive)
 *
 * __refcount_add_not_zero_limited_acquire() with @i = 1.  Saturating breed
 * only.  Return: as there.
 */
static __refcount_inline __refcount_must_check bool
__refcount_inc_not_zero_limited_acquire(refcount_t *r, int *oldp, int limit)
{
	return __refcount_add_not_zero_limited_acquire(1, r, oldp, limit);
}

/* The __refcount_*() forms below are documented in <refcount/refcount.h>. */

static __refcount_inline __refcount_must_check bool
__refcount_add_not_zero(int i, refcount_t *r, int *oldp)
{
	int old = __refcount_add_unless_zero(&r->refs, i, __ATOMIC_RELAXED);

	if (oldp)
		*oldp = old;
	if (__refcount_unlikely(old < 0 || __refcount_wrap_add(old, i) < 0))
		__refcount_call_void(
			refcount_warn_saturate(r, REFCOUNT_ADD_NOT_ZERO_OVF));
	return old;
}

static __refcount_inline __refcount_must_check bool
__refcount_add_not_zero_acquire(int i, refcount_t *r, int *oldp)
{
	return __refcount_add_not_zero_limited_acquire(i, r, oldp, INT_MAX);
}

static __refcount_inline void __refcount_add(int i, refcount_t *r, int *oldp)
{
	int old = __atomic_fetch_add(&r->refs, i, __ATOMIC_RELAXED);

	if (oldp)
		*oldp = old;
	if (__refcount_unlikely(!old))
		__refcount_call_void(
			refcount_warn_saturate(r, REFCOUNT_ADD_UAF));
	else if (__refcount_unlikely(old < 0 ||
				     __refcount_wrap_add(old, i) < 0))
		__refcount_call_void(
			refcount_warn_saturate(r, REFCOUNT_ADD_OVF));
}

#if (defined(__x86_64__) || defined(__i386__)) && !defined(__REFCOUNT_TSAN) && \
	!defined(REFCOUNT_SATURATING_NO_ASM)
#include <refcount/arch/x86-saturating.h>
#endif

static __refcount_inline __refcount_must_check bool
__refcount_sub_and_test(int i, refcount_t *r, int *oldp)
{
	int old;

#ifdef __REFCOUNT_SAT_HAVE_ASM
	if (__refcount_likely(!oldp && __builtin_constant_p(i) && i > 0))
		return __refcount_sat_asm_sub_and_test(i, r);
#endif
	old = __atomic_fetch_sub(&r->refs, i, __ATOMIC_RELEASE);

	if (oldp)
		*oldp = old;
	if (old > 0 && old == i) {
		__refcount_acquire_after_dec(r);
		return true;
	}
	if (__refcount_unlikely(old <= 0 || __refcount_wrap_sub(old, i) < 0))
		__refcount_call_void(
			refcount_warn_saturate(r, REFCOUNT_SUB_UAF));
	return false;
}

static __refcount_inline void __refcount_dec(refcount_t *r, int *oldp)
{
	int old;

#ifdef __REFCOUNT_SAT_HAVE_ASM
	if (__refcount_likely(!oldp)) {
		__refcount_sat_asm_dec(r);
		return;
	}
#endif
	old = __atomic_fetch_sub(&r->refs, 1, __ATOMIC_RELEASE);

	if (oldp)
		*oldp = old;
	if (__refcount_unlikely(old <= 1))
		__refcount_call_void(
			refcount_warn_saturate(r, REFCOUNT_DEC_LEAK));
}

#endif /* REFCOUNT_BREED_SATURATING_H */

/* SPDX-License-Identifier: MIT */
/*
 * refcount/refcount_long.h - refcount_long_t: refcount_t as wide as a long
 *
 * DOC: refcount_long_t
 *
 * The operations of <refcount/refcount.h> on a refcount_long_t
 * (<refcount/types.h>), named refcount_long_<op>: the same arguments (with
 * long counts), return values, memory ordering and reports, and the
 * saturating design (one fetch-and-add, a check of the old value, a cold
 * path that stores REFCOUNT_LONG_SATURATED and reports, or puts
 * REFCOUNT_LONG_IMMORTAL back).  In a unit of the nonatomic breed they are
 * that breed's (plain loads and stores, reported as "nonatomic"); in every
 * other breed's unit they are the saturating breed's, since the 2017 designs
 * never had a wider count.
 *
 * Included by <refcount/refcount.h>; below C11 (REFCOUNT_EXTERN) the same
 * names are exported functions of librefcount, as refcount_t's are.
 *
 * Why this name: the kernel's refcount_t is 32 bits, and its one 64-bit
 * reference count, file_ref_t, is an atomic_long_t; this type is to
 * refcount_t what atomic_long_t is to atomic_t: a long, as wide as size_t
 * and a pointer on every Linux ABI, so that a size_t or long field converts
 * without a union and without changing the structure's layout.
 */
#ifndef REFCOUNT_REFCOUNT_LONG_H
#define REFCOUNT_REFCOUNT_LONG_H

#include <refcount/refcount.h>

#ifndef REFCOUNT_EXTERN

__REFCOUNT_BEGIN_DECLS

#ifdef __REFCOUNT_PLAIN
#define __REFCOUNT_LONG_BREED REFCOUNT_BREED_NAME
#define __RC_ATOMIC 0
#else
#define __REFCOUNT_LONG_BREED __REFCOUNT_ROW_saturating(__REFCOUNT_F_NAME)
#define __RC_ATOMIC 1
#endif

/* The __refcount_long_*() forms: impl/saturating-ops.h on the long. */
#define __RC_T refcount_long_t
#define __RC_V long
#define __RC_UV unsigned long
#define __RC_F(op) __refcount_long_##op
#define __RC_WARN(r, t)                                                        \
	__refcount_long_warn_saturate(r, t, __REFCOUNT_LONG_BREED)
#define __RC_IMMORTAL(v) __REFCOUNT_LONG_IMMORTAL_VALUE(v)
#include <refcount/impl/saturating-ops.h>

static __refcount_inline __refcount_must_check bool
__refcount_long_inc_not_zero(refcount_long_t *r, long *oldp)
{
	return __refcount_long_add_not_zero(1, r, oldp);
}

static __refcount_inline __refcount_must_check bool
__refcount_long_inc_not_zero_acquire(refcount_long_t *r, long *oldp)
{
	return __refcount_long_add_not_zero_acquire(1, r, oldp);
}

static __refcount_inline void __refcount_long_inc(refcount_long_t *r,
						  long *oldp)
{
	__refcount_long_add(1, r, oldp);
}

static __refcount_inline __refcount_must_check bool
__refcount_long_dec_and_test(refcount_long_t *r, long *oldp)
{
	return __refcount_long_sub_and_test(1, r, oldp);
}

/* Out of line (src/long.c): refcount_long_dec_not_one(). */
bool __refcount_long_dec_not_one(refcount_long_t *r, const char *breed);

#ifndef __REFCOUNT_NO_INLINE_OPS

/**
 * refcount_long_set() - set a refcount_long_t's value
 * @r: the refcount
 * @n: the new count: 0 to REFCOUNT_LONG_MAX, REFCOUNT_LONG_SATURATED or
 *	REFCOUNT_LONG_IMMORTAL
 *
 * Similar to atomic_long_set(), as refcount_set() is to atomic_set(): one
 * store, no check.  The creation of an object that was calloc()ed: set 1
 * right after the allocation.
 *
 * Memory ordering: none (relaxed).  Context: a counter no other thread can
 * see yet.  Misuse: none detected.
 *
 * This library's addition, refcount_set() on a long.
 */
static __refcount_inline __refcount_nonnull void
refcount_long_set(refcount_long_t *r, long n)
{
	__atomic_store_n(&r->refs, __REFCOUNT_LONG_WORD(n), __ATOMIC_RELAXED);
}

/**
 * refcount_long_set_release() - set a refcount_long_t with release ordering
 * @r: the refcount
 * @n: the new count, as for refcount_long_set()
 *
 * Similar to atomic_long_set_release(), as refcount_set_release().
 *
 * Memory ordering: RELEASE.  Context: the initialising thread.  Misuse:
 * none detected.
 *
 * This library's addition, refcount_set_release() on a long.
 */
static __refcount_inline __refcount_nonnull void
refcount_long_set_release(refcount_long_t *r, long n)
{
	__atomic_store_n(&r->refs, __REFCOUNT_LONG_WORD(n), __ATOMIC_RELEASE);
}

/**
 * refcount_long_read() - get a refcount_long_t's value
 * @r: the refcount
 *
 * Similar to atomic_long_read(), but unsigned, as refcount_read() is.
 *
 * Memory ordering: none (relaxed).  Context: any thread.
 *
 * Return: the count, as an unsigned long: compare it with
 * (unsigned long)REFCOUNT_LONG_SATURATED.  Misuse: none detected.
 *
 * This library's addition, refcount_read() on a long.
 */
static __refcount_inline __refcount_nonnull unsigned long
refcount_long_read(const refcount_long_t *r)
{
	long w = __atomic_load_n(&r->refs, __ATOMIC_RELAXED);

	return (unsigned long)__REFCOUNT_LONG_READ(w);
}

/**
 * refcount_long_set_immortal() - make a refcount_long_t immortal
 * @r: the refcount
 *
 * Similar to refcount_set_immortal(): every later operation is a silent
 * no-op (puts return false, try-gets true), decided in the cold path.
 *
 * Memory ordering: none (relaxed).  Context: before the object is shared.
 * Misuse: none detected.
 *
 * This library's addition (CPython 3.12's immortal objects).
 */
static __refcount_inline __refcount_nonnull void
refcount_long_set_immortal(refcount_long_t *r)
{
	__atomic_store_n(&r->refs, __REFCOUNT_LONG_WORD(REFCOUNT_LONG_IMMORTAL),
			 __ATOMIC_RELAXED);
}

/**
 * refcount_long_is_immortal() - is a refcount_long_t immortal?
 * @r: the refcount
 *
 * Similar to refcount_is_immortal(): true within -(LONG_MIN / 8) of
 * REFCOUNT_LONG_IMMORTAL.
 *
 * Memory ordering: none (relaxed).  Context: any thread.
 *
 * Return: true if @r was made immortal.  Misuse: none detected.
 *
 * This library's addition.
 */
static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_long_is_immortal(const refcount_long_t *r)
{
	return __REFCOUNT_LONG_IMMORTAL_VALUE(__REFCOUNT_LONG_WORD(
		__atomic_load_n(&r->refs, __ATOMIC_RELAXED)));
}

/**
 * refcount_long_add_not_zero() - add a value to a refcount_long_t unless it is 0
 * @i: the number of references to add, > 0
 * @r: the refcount
 *
 * Similar to atomic_long_add_unless(@r, @i, 0), with refcount_add_not_zero()'s
 * checks.
 *
 * Memory ordering: none (relaxed; a control dependency).  Context: any
 * thread; lock-free.
 *
 * Return: false if the count was 0, true otherwise (also after saturating,
 * and on an immortal counter).
 *
 * Misuse: as refcount_add_not_zero() (REFCOUNT_ADD_NOT_ZERO_OVF).
 *
 * This library's addition, refcount_add_not_zero() on a long.
 */
static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_long_add_not_zero(long i, refcount_long_t *r)
{
	return __refcount_long_add_not_zero(i, r, NULL);
}

/**
 * refcount_long_inc_not_zero() - increment a refcount_long_t unless it is 0
 * @r: the refcount
 *
 * Similar to atomic_long_inc_not_zero(), as refcount_inc_not_zero(): the
 * try-get of a lookup.
 *
 * Memory ordering: none (relaxed).  Context: any thread; lock-free.
 *
 * Return: false if the count was 0, true otherwise.
 *
 * Misuse: as refcount_inc_not_zero().
 *
 * This library's addition, refcount_inc_not_zero() on a long.
 */
static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_long_inc_not_zero(refcount_long_t *r)
{
	return __refcount_long_inc_not_zero(r, NULL);
}

/**
 * refcount_long_add_not_zero_acquire() - add unless 0, with acquire ordering
 * @i: the number of references to add, > 0
 * @r: the refcount
 *
 * Similar to refcount_add_not_zero_acquire() on a long: a sum past
 * LONG_MAX, or a saturated counter, is refused.
 *
 * Memory ordering: ACQUIRE on success.  Context: any thread; lock-free.
 *
 * Return: false if the count was 0, would pass LONG_MAX or is saturated;
 * true otherwise (and on an immortal counter).  Misuse: none reported.
 *
 * This library's addition.
 */
static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_long_add_not_zero_acquire(long i, refcount_long_t *r)
{
	return __refcount_long_add_not_zero_acquire(i, r, NULL);
}

/**
 * refcount_long_inc_not_zero_acquire() - increment unless 0, with acquire ordering
 * @r: the refcount
 *
 * Similar to refcount_inc_not_zero_acquire() on a long.
 *
 * Memory ordering: ACQUIRE on success.  Context: any thread; lock-free.
 *
 * Return: as refcount_long_add_not_zero_acquire().  Misuse: none reported.
 *
 * This library's addition.
 */
static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_long_inc_not_zero_acquire(refcount_long_t *r)
{
	return __refcount_long_inc_not_zero_acquire(r, NULL);
}

/**
 * refcount_long_add() - add a value to a refcount_long_t
 * @i: the number of references to add, > 0
 * @r: the refcount
 *
 * Similar to atomic_long_add(), but an add to 0, past REFCOUNT_LONG_MAX or
 * to a saturated counter is reported and leaks, as refcount_add().
 *
 * Memory ordering: none (relaxed).  Context: any thread; lock-free; the
 * caller holds a reference.
 *
 * Misuse: REFCOUNT_ADD_UAF (on 0), REFCOUNT_ADD_OVF (overflow, saturated).
 *
 * This library's addition, refcount_add() on a long.
 */
static __refcount_inline __refcount_nonnull void
refcount_long_add(long i, refcount_long_t *r)
{
	__refcount_long_add(i, r, NULL);
}

/**
 * refcount_long_inc() - increment a refcount_long_t
 * @r: the refcount
 *
 * Similar to atomic_long_inc(), with refcount_inc()'s checks.
 *
 * Memory ordering: none (relaxed).  Context: any thread; lock-free; the
 * caller holds a reference.
 *
 * Misuse: as refcount_long_add().
 *
 * This library's addition, refcount_inc() on a long.
 */
static __refcount_inline __refcount_nonnull void
refcount_long_inc(refcount_long_t *r)
{
	__refcount_long_inc(r, NULL);
}

/**
 * refcount_long_sub_and_test() - subtract from a refcount_long_t and test if it is 0
 * @i: the number of references to drop, > 0
 * @r: the refcount
 *
 * Similar to atomic_long_sub_and_test(), but a result below 0, or a
 * saturated counter, is reported and returns false, as
 * refcount_sub_and_test().
 *
 * Memory ordering: RELEASE, and ACQUIRE when it returns true.  Context: any
 * thread; lock-free.
 *
 * Return: true if this call took the count to 0 (free the object).
 *
 * Misuse: REFCOUNT_SUB_UAF.
 *
 * This library's addition, refcount_sub_and_test() on a long.
 */
static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_long_sub_and_test(long i, refcount_long_t *r)
{
	return __refcount_long_sub_and_test(i, r, NULL);
}

/**
 * refcount_long_dec_and_test() - decrement a refcount_long_t and test if it is 0
 * @r: the refcount
 *
 * Similar to atomic_long_dec_and_test(), with refcount_dec_and_test()'s
 * checks: the put.
 *
 * Memory ordering: RELEASE, and ACQUIRE when it returns true.  Context: any
 * thread; lock-free.
 *
 * Return: true if this call took the count from 1 to 0 (free the object).
 *
 * Misuse: REFCOUNT_SUB_UAF.
 *
 * This library's addition, refcount_dec_and_test() on a long.
 */
static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_long_dec_and_test(refcount_long_t *r)
{
	return __refcount_long_dec_and_test(r, NULL);
}

/**
 * refcount_long_dec() - decrement a refcount_long_t that must not reach 0
 * @r: the refcount
 *
 * Similar to atomic_long_dec(), but RELEASE, and reaching 0 or going below
 * is reported, as refcount_dec().
 *
 * Memory ordering: RELEASE.  Context: any thread; lock-free; the caller's
 * reference is not the last.
 *
 * Misuse: REFCOUNT_DEC_LEAK.
 *
 * This library's addition, refcount_dec() on a long.
 */
static __refcount_inline __refcount_nonnull void
refcount_long_dec(refcount_long_t *r)
{
	__refcount_long_dec(r, NULL);
}

/**
 * refcount_long_dec_if_one() - decrement a refcount_long_t if it is 1
 * @r: the refcount
 *
 * Similar to atomic_long_cmpxchg_release(@r, 1, 0) == 1, as
 * refcount_dec_if_one().
 *
 * Memory ordering: RELEASE on success, nothing on failure.  Context: any
 * thread; lock-free.
 *
 * Return: true if it took the count from 1 to 0.  Misuse: none detected.
 *
 * This library's addition, refcount_dec_if_one() on a long.
 */
static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_long_dec_if_one(refcount_long_t *r)
{
	long one = __REFCOUNT_LONG_WORD(1);

	return __atomic_compare_exchange_n(&r->refs, &one,
					   __REFCOUNT_LONG_WORD(0), false,
					   __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

/**
 * refcount_long_dec_not_one() - decrement a refcount_long_t unless it is 1
 * @r: the refcount
 *
 * Similar to atomic_long_add_unless(@r, -1, 1), with refcount_dec_not_one()'s
 * checks (the saturating breed's: REFCOUNT_LONG_SATURATED and immortal
 * counters are left alone).
 *
 * Memory ordering: RELEASE on success.  Context: any thread; lock-free; out
 * of line.
 *
 * Return: false if the count is 1; true otherwise (decremented, or left
 * alone).
 *
 * Misuse: on 0 it reports REFCOUNT_SUB_UAF without saturating.
 *
 * This library's addition, refcount_dec_not_one() on a long.
 */
static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_long_dec_not_one(refcount_long_t *r)
{
	return __refcount_call(
		__refcount_long_dec_not_one(r, __REFCOUNT_LONG_BREED));
}

#endif /* __REFCOUNT_NO_INLINE_OPS */

__REFCOUNT_END_DECLS

#endif /* REFCOUNT_EXTERN */

#endif /* REFCOUNT_REFCOUNT_LONG_H */

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
 * Each refcount_long_<op>() is documented by refcount_<op>()'s kernel-doc
 * in <refcount/refcount.h>; its man page, refcount_long_<op>(3), points to
 * refcount_<op>(3).  What differs: REFCOUNT_LONG_MAX, REFCOUNT_LONG_SATURATED
 * and REFCOUNT_LONG_IMMORTAL (<refcount/types.h>) stand for REFCOUNT_MAX,
 * REFCOUNT_SATURATED and REFCOUNT_IMMORTAL, counts are long, and
 * refcount_long_read() returns an unsigned long.
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

static __refcount_inline __refcount_nonnull void
refcount_long_set(refcount_long_t *r, long n)
{
	__atomic_store_n(&r->refs, __REFCOUNT_LONG_SET(n), __ATOMIC_RELAXED);
}

static __refcount_inline __refcount_nonnull void
refcount_long_set_release(refcount_long_t *r, long n)
{
	__atomic_store_n(&r->refs, __REFCOUNT_LONG_SET(n), __ATOMIC_RELEASE);
}

static __refcount_inline __refcount_nonnull unsigned long
refcount_long_read(const refcount_long_t *r)
{
	long w = __atomic_load_n(&r->refs, __ATOMIC_RELAXED);

	return (unsigned long)__REFCOUNT_LONG_READ(w);
}

static __refcount_inline __refcount_nonnull void
refcount_long_set_immortal(refcount_long_t *r)
{
	__atomic_store_n(&r->refs, __REFCOUNT_LONG_WORD(REFCOUNT_LONG_IMMORTAL),
			 __ATOMIC_RELAXED);
}

static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_long_is_immortal(const refcount_long_t *r)
{
	return __REFCOUNT_LONG_IMMORTAL_VALUE(__REFCOUNT_LONG_WORD(
		__atomic_load_n(&r->refs, __ATOMIC_RELAXED)));
}

static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_long_add_not_zero(long i, refcount_long_t *r)
{
	return __refcount_long_add_not_zero(i, r, NULL);
}

static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_long_inc_not_zero(refcount_long_t *r)
{
	return __refcount_long_inc_not_zero(r, NULL);
}

static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_long_add_not_zero_acquire(long i, refcount_long_t *r)
{
	return __refcount_long_add_not_zero_acquire(i, r, NULL);
}

static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_long_inc_not_zero_acquire(refcount_long_t *r)
{
	return __refcount_long_inc_not_zero_acquire(r, NULL);
}

static __refcount_inline __refcount_nonnull void
refcount_long_add(long i, refcount_long_t *r)
{
	__refcount_long_add(i, r, NULL);
}

static __refcount_inline __refcount_nonnull void
refcount_long_inc(refcount_long_t *r)
{
	__refcount_long_inc(r, NULL);
}

static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_long_sub_and_test(long i, refcount_long_t *r)
{
	return __refcount_long_sub_and_test(i, r, NULL);
}

static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_long_dec_and_test(refcount_long_t *r)
{
	return __refcount_long_dec_and_test(r, NULL);
}

static __refcount_inline __refcount_nonnull void
refcount_long_dec(refcount_long_t *r)
{
	__refcount_long_dec(r, NULL);
}

static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_long_dec_if_one(refcount_long_t *r)
{
	long one = __REFCOUNT_LONG_WORD(1);

	return __atomic_compare_exchange_n(&r->refs, &one,
					   __REFCOUNT_LONG_WORD(0), false,
					   __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

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

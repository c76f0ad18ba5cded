// SPDX-License-Identifier: MIT
/*
 * extern.c - the operations of the default breed as exported functions,
 * under their own names, for C90 and C99 units and -DREFCOUNT_EXTERN
 * (<refcount/impl/extern.h> declares them)
 *
 * Each is the inline operation of <refcount/breed/saturating.h>, compiled
 * here once.  The cold path is told the caller of the exported function
 * (this function's return address), so that a report names the user's line,
 * as it does for the inline operations.
 */
#include <refcount/report.h>

/* Before the breed header: its cold calls name our caller. */
#define refcount_warn_saturate(r, t)                                           \
	__refcount_saturate_at(r, t, "saturating", __builtin_return_address(0))
#define __refcount_long_warn_saturate(r, t, breed)                             \
	__refcount_long_saturate_at(r, t, breed, __builtin_return_address(0))

#undef REFCOUNT_BREED /* the default breed, whatever -D says */
#define __REFCOUNT_NO_INLINE_OPS 1
#include <refcount/refcount.h>
#include <refcount/impl/extern.h>

void refcount_set(refcount_t *r, int n)
{
	__atomic_store_n(&r->refs, __REFCOUNT_SET_WORD(n), __ATOMIC_RELAXED);
}

void refcount_set_release(refcount_t *r, int n)
{
	__atomic_store_n(&r->refs, __REFCOUNT_SET_WORD(n), __ATOMIC_RELEASE);
}

unsigned int refcount_read(const refcount_t *r)
{
	int w = __atomic_load_n(&r->refs, __ATOMIC_RELAXED);

	return (unsigned int)__REFCOUNT_READ(w);
}

void refcount_set_immortal(refcount_t *r)
{
	__atomic_store_n(&r->refs, __REFCOUNT_WORD(REFCOUNT_IMMORTAL),
			 __ATOMIC_RELAXED);
}

int refcount_is_immortal(const refcount_t *r)
{
	return __REFCOUNT_IMMORTAL_VALUE(
		__REFCOUNT_WORD(__atomic_load_n(&r->refs, __ATOMIC_RELAXED)));
}

int refcount_add_not_zero(int i, refcount_t *r)
{
	return __refcount_add_not_zero(i, r, NULL);
}

int refcount_inc_not_zero(refcount_t *r)
{
	return __refcount_inc_not_zero(r, NULL);
}

int refcount_add_not_zero_acquire(int i, refcount_t *r)
{
	return __refcount_add_not_zero_acquire(i, r, NULL);
}

int refcount_inc_not_zero_acquire(refcount_t *r)
{
	return __refcount_inc_not_zero_acquire(r, NULL);
}

void refcount_add(int i, refcount_t *r)
{
	__refcount_add(i, r, NULL);
}

void refcount_inc(refcount_t *r)
{
	__refcount_inc(r, NULL);
}

int refcount_sub_and_test(int i, refcount_t *r)
{
	return __refcount_sub_and_test(i, r, NULL);
}

int refcount_dec_and_test(refcount_t *r)
{
	return __refcount_dec_and_test(r, NULL);
}

void refcount_dec(refcount_t *r)
{
	__refcount_dec(r, NULL);
}

int refcount_dec_if_one(refcount_t *r)
{
	return __REFCOUNT_SYM(dec_if_one)(r);
}

int refcount_dec_not_one(refcount_t *r)
{
	return __REFCOUNT_SYM(dec_not_one_at)(r, __builtin_return_address(0));
}

int refcount_dec_and_mutex_lock(refcount_t *r, pthread_mutex_t *lock)
{
	return __REFCOUNT_SYM(dec_and_mutex_lock_at)(
		r, lock, __builtin_return_address(0));
}

int refcount_dec_and_lock(refcount_t *r, pthread_spinlock_t *lock)
{
	return __REFCOUNT_SYM(dec_and_lock_at)(r, lock,
					       __builtin_return_address(0));
}

void refcount_long_set(refcount_long_t *r, long n)
{
	__atomic_store_n(&r->refs, __REFCOUNT_LONG_SET(n), __ATOMIC_RELAXED);
}

void refcount_long_set_release(refcount_long_t *r, long n)
{
	__atomic_store_n(&r->refs, __REFCOUNT_LONG_SET(n), __ATOMIC_RELEASE);
}

unsigned long refcount_long_read(const refcount_long_t *r)
{
	long w = __atomic_load_n(&r->refs, __ATOMIC_RELAXED);

	return (unsigned long)__REFCOUNT_LONG_READ(w);
}

void refcount_long_set_immortal(refcount_long_t *r)
{
	__atomic_store_n(&r->refs, __REFCOUNT_LONG_WORD(REFCOUNT_LONG_IMMORTAL),
			 __ATOMIC_RELAXED);
}

int refcount_long_is_immortal(const refcount_long_t *r)
{
	return __REFCOUNT_LONG_IMMORTAL_VALUE(__REFCOUNT_LONG_WORD(
		__atomic_load_n(&r->refs, __ATOMIC_RELAXED)));
}

int refcount_long_add_not_zero(long i, refcount_long_t *r)
{
	return __refcount_long_add_not_zero(i, r, NULL);
}

int refcount_long_inc_not_zero(refcount_long_t *r)
{
	return __refcount_long_inc_not_zero(r, NULL);
}

int refcount_long_add_not_zero_acquire(long i, refcount_long_t *r)
{
	return __refcount_long_add_not_zero_acquire(i, r, NULL);
}

int refcount_long_inc_not_zero_acquire(refcount_long_t *r)
{
	return __refcount_long_inc_not_zero_acquire(r, NULL);
}

void refcount_long_add(long i, refcount_long_t *r)
{
	__refcount_long_add(i, r, NULL);
}

void refcount_long_inc(refcount_long_t *r)
{
	__refcount_long_inc(r, NULL);
}

int refcount_long_sub_and_test(long i, refcount_long_t *r)
{
	return __refcount_long_sub_and_test(i, r, NULL);
}

int refcount_long_dec_and_test(refcount_long_t *r)
{
	return __refcount_long_dec_and_test(r, NULL);
}

void refcount_long_dec(refcount_long_t *r)
{
	__refcount_long_dec(r, NULL);
}

int refcount_long_dec_if_one(refcount_long_t *r)
{
	long one = __REFCOUNT_LONG_WORD(1);

	return __atomic_compare_exchange_n(&r->refs, &one,
					   __REFCOUNT_LONG_WORD(0), false,
					   __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

int refcount_long_dec_not_one(refcount_long_t *r)
{
	return __refcount_long_dec_not_one(r, "saturating");
}

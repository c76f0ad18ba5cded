// SPDX-License-Identifier: MIT
/*
 * dec-and-lock.c - refcount_dec_if_one(), refcount_dec_not_one() and the
 * lock helpers: the out-of-line refcount_t operations, built once per breed
 *
 * Built once for each breed with -DREFCOUNT_BREED=REFCOUNT_BREED_<BREED>
 * (liburcu-style flavours): every function here is named
 * __refcount_<breed>_<op> through __REFCOUNT_SYM(), and the lock helpers call
 * that breed's inline refcount_dec_and_test().
 *
 * Follows lib/refcount.c: refcount_dec_if_one(), refcount_dec_not_one(),
 * refcount_dec_and_mutex_lock() and refcount_dec_and_lock() were out of line
 * and checked in every kernel breed.  Before v5.5 refcount_dec_not_one()
 * treated UINT_MAX as saturated even where the breed saturated at INT_MIN / 2;
 * from v5.5 it tests REFCOUNT_SATURATED.  Each breed here gets its kernel's
 * test.
 */
#include <refcount/breed/registry.h>
#if REFCOUNT_BREED != REFCOUNT_BREED_FAST || defined(REFCOUNT_HAVE_BREED_FAST)
#include <refcount/refcount.h>

#ifdef __REFCOUNT_DEC_NOT_ONE_SATURATED
#define DEC_NOT_ONE_SATURATED ((unsigned int)__REFCOUNT_DEC_NOT_ONE_SATURATED)
#else
#define DEC_NOT_ONE_SATURATED UINT_MAX
#endif

bool __REFCOUNT_SYM(dec_if_one)(refcount_t *r)
{
	int val = __REFCOUNT_WORD(1);

	return __atomic_compare_exchange_n(&r->refs, &val, __REFCOUNT_WORD(0),
					   false, __ATOMIC_RELEASE,
					   __ATOMIC_RELAXED);
}

/* @ip: the caller to name in a report (the user's, not a lock helper's). */
static bool dec_not_one(refcount_t *r, const void *ip)
{
	int w = __atomic_load_n(&r->refs, __ATOMIC_RELAXED);
	unsigned int new, val;

	do {
		val = (unsigned int)__REFCOUNT_WORD(w);
		if (__refcount_unlikely(val == DEC_NOT_ONE_SATURATED))
			return true;
#ifdef __REFCOUNT_KEEPS_IMMORTAL
		if (__refcount_unlikely(__REFCOUNT_IMMORTAL_VALUE(val)))
			return true;
#endif
		if (val == 1)
			return false;
		new = val - 1;
		if (__refcount_unlikely(new > val)) {
			/* Its own WARN_ONCE: no saturation, no store. */
			__refcount_report(r, REFCOUNT_SUB_UAF,
					  __REFCOUNT_MSG_UNDERFLOW, ip,
					  REFCOUNT_BREED_NAME);
			return true;
		}
	} while (!__atomic_compare_exchange_n(
		&r->refs, &w, __REFCOUNT_WORD(new), true, __ATOMIC_RELEASE,
		__ATOMIC_RELAXED));
	return true;
}

bool __REFCOUNT_SYM(dec_not_one)(refcount_t *r)
{
	return dec_not_one(r, __builtin_return_address(0));
}

bool __REFCOUNT_SYM(dec_not_one_at)(refcount_t *r, const void *ip)
{
	return dec_not_one(r, ip);
}

bool __REFCOUNT_SYM(dec_and_mutex_lock_at)(refcount_t *r, pthread_mutex_t *lock,
					   const void *ip)
{
	if (dec_not_one(r, ip))
		return false;

	pthread_mutex_lock(lock);
	if (!refcount_dec_and_test(r)) {
		pthread_mutex_unlock(lock);
		return false;
	}
	return true;
}

bool __REFCOUNT_SYM(dec_and_lock_at)(refcount_t *r, pthread_spinlock_t *lock,
				     const void *ip)
{
	if (dec_not_one(r, ip))
		return false;

	pthread_spin_lock(lock);
	if (!refcount_dec_and_test(r)) {
		pthread_spin_unlock(lock);
		return false;
	}
	return true;
}

bool __REFCOUNT_SYM(dec_and_mutex_lock)(refcount_t *r, pthread_mutex_t *lock)
{
	return __REFCOUNT_SYM(dec_and_mutex_lock_at)(
		r, lock, __builtin_return_address(0));
}

bool __REFCOUNT_SYM(dec_and_lock)(refcount_t *r, pthread_spinlock_t *lock)
{
	return __REFCOUNT_SYM(dec_and_lock_at)(r, lock,
					       __builtin_return_address(0));
}

#endif

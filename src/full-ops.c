// SPDX-License-Identifier: MIT
/*
 * full-ops.c - the full breed: 2017 REFCOUNT_FULL, out of line
 *
 * Follows lib/refcount.c of v4.13..v5.4: compare-and-swap loops on the count
 * read as unsigned, saturating at UINT_MAX, refusing to move a saturated
 * counter, refusing to increment from 0 or to go below 0.  Increments are
 * relaxed, decrements release, and a decrement to 0 is followed by an
 * acquire fence (v5.1, commit 47b8f3ab9c49).
 *
 * Each public entry point passes its caller's address down so that a report
 * names the line that misused the counter.
 */
#undef REFCOUNT_BREED /* this file is the full breed, whatever -D says */
#define REFCOUNT_BREED REFCOUNT_BREED_FULL
#include <refcount/refcount.h>

#define CALLER __builtin_return_address(0)

static inline bool cas(refcount_t *r, unsigned int *val, unsigned int new,
		       int mo)
{
	return __atomic_compare_exchange_n(&r->refs, (int *)val, (int)new, true,
					   mo, __ATOMIC_RELAXED);
}

static inline unsigned int load(refcount_t *r)
{
	return (unsigned int)__atomic_load_n(&r->refs, __ATOMIC_RELAXED);
}

/*
 * refcount_add_not_zero(): false on 0; a saturated counter stays put (and
 * returns true); an overflow saturates.  Landing exactly on UINT_MAX counts
 * as saturation, as in the kernel.
 */
static bool add_not_zero(int i, refcount_t *r, int *oldp, bool acquire,
			 enum refcount_saturation_type t, const void *ip)
{
	unsigned int new = 0, val = load(r);

	do {
		if (!val)
			break;
		if (__refcount_unlikely(val == UINT_MAX)) {
			if (oldp)
				*oldp = (int)val;
			__refcount_report(r, t, __REFCOUNT_MSG_SILENT, ip,
					  REFCOUNT_BREED_NAME);
			return true;
		}
		new = val + (unsigned int)i;
		if (new < val)
			new = UINT_MAX;
	} while (!cas(r, &val, new,
		      acquire ? __ATOMIC_ACQUIRE : __ATOMIC_RELAXED));

	if (oldp)
		*oldp = (int)val;
	if (!val)
		return false;
	if (__refcount_unlikely(new == UINT_MAX))
		__refcount_report(r, t, __REFCOUNT_MSG_SATURATED, ip,
				  REFCOUNT_BREED_NAME);
	return true;
}

/* refcount_inc_not_zero(): its own loop in lib/refcount.c. */
static bool inc_not_zero(refcount_t *r, int *oldp, bool acquire,
			 enum refcount_saturation_type t, const void *ip)
{
	unsigned int new = 0, val = load(r);

	do {
		new = val + 1;
		if (!val)
			break;
		if (__refcount_unlikely(!new)) {
			if (oldp)
				*oldp = (int)val;
			__refcount_report(r, t, __REFCOUNT_MSG_SILENT, ip,
					  REFCOUNT_BREED_NAME);
			return true;
		}
	} while (!cas(r, &val, new,
		      acquire ? __ATOMIC_ACQUIRE : __ATOMIC_RELAXED));

	if (oldp)
		*oldp = (int)val;
	if (!val)
		return false;
	if (__refcount_unlikely(new == UINT_MAX))
		__refcount_report(r, t, __REFCOUNT_MSG_SATURATED, ip,
				  REFCOUNT_BREED_NAME);
	return true;
}

/*
 * refcount_sub_and_test(): a saturated counter stays put and returns false;
 * an underflow is refused (value unchanged) and reported.
 */
static bool sub_and_test(int i, refcount_t *r, int *oldp,
			 enum refcount_saturation_type t, const void *ip)
{
	unsigned int new = 0, val = load(r);

	do {
		if (__refcount_unlikely(val == UINT_MAX)) {
			if (oldp)
				*oldp = (int)val;
			__refcount_report(r, t, __REFCOUNT_MSG_SILENT, ip,
					  REFCOUNT_BREED_NAME);
			return false;
		}
		new = val - (unsigned int)i;
		if (__refcount_unlikely(new > val)) {
			if (oldp)
				*oldp = (int)val;
			__refcount_report(r, t, __REFCOUNT_MSG_UNDERFLOW, ip,
					  REFCOUNT_BREED_NAME);
			return false;
		}
	} while (!cas(r, &val, new, __ATOMIC_RELEASE));

	if (oldp)
		*oldp = (int)val;
	if (!new) {
		__refcount_acquire_after_dec(r);
		return true;
	}
	return false;
}

bool __refcount_full_add_not_zero(int i, refcount_t *r, int *oldp, bool acquire)
{
	return add_not_zero(i, r, oldp, acquire, REFCOUNT_ADD_NOT_ZERO_OVF,
			    CALLER);
}

bool __refcount_full_inc_not_zero(refcount_t *r, int *oldp, bool acquire)
{
	return inc_not_zero(r, oldp, acquire, REFCOUNT_ADD_NOT_ZERO_OVF,
			    CALLER);
}

void __refcount_full_add(int i, refcount_t *r, int *oldp)
{
	if (!add_not_zero(i, r, oldp, false, REFCOUNT_ADD_OVF, CALLER))
		__refcount_report(r, REFCOUNT_ADD_UAF, __REFCOUNT_MSG_ADD_ON_0,
				  CALLER, REFCOUNT_BREED_NAME);
}

void __refcount_full_inc(refcount_t *r, int *oldp)
{
	if (!inc_not_zero(r, oldp, false, REFCOUNT_ADD_OVF, CALLER))
		__refcount_report(r, REFCOUNT_ADD_UAF, __REFCOUNT_MSG_INC_ON_0,
				  CALLER, REFCOUNT_BREED_NAME);
}

bool __refcount_full_sub_and_test(int i, refcount_t *r, int *oldp)
{
	return sub_and_test(i, r, oldp, REFCOUNT_SUB_UAF, CALLER);
}

/* refcount_dec(): lets the value reach 0, but warns that it leaks. */
void __refcount_full_dec(refcount_t *r, int *oldp)
{
	if (sub_and_test(1, r, oldp, REFCOUNT_DEC_LEAK, CALLER))
		__refcount_report(r, REFCOUNT_DEC_LEAK,
				  __REFCOUNT_MSG_DEC_HIT_0, CALLER,
				  REFCOUNT_BREED_NAME);
}

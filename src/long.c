// SPDX-License-Identifier: MIT
/*
 * long.c - refcount_long_t's out-of-line code: the cold path that saturates
 * (or keeps an immortal count) and reports, and refcount_long_dec_not_one()
 *
 * The refcount_t versions are refcount_warn_saturate() (src/report.c) and
 * src/dec-and-lock.c's dec_not_one(); these are the same on a long, with
 * REFCOUNT_LONG_SATURATED and REFCOUNT_LONG_IMMORTAL.
 */
#include <stdbool.h>

#include <refcount/refcount_long.h>
#include <refcount/report.h>

void __refcount_long_saturate_at(refcount_long_t *r,
				 enum refcount_saturation_type t,
				 const char *breed, const void *ip)
{
	/* Immortal, maybe moved by a racing operation: put it back, silently. */
	if (__REFCOUNT_LONG_IMMORTAL_VALUE(__REFCOUNT_LONG_WORD(
		    __atomic_load_n(&r->refs, __ATOMIC_RELAXED)))) {
		__atomic_store_n(&r->refs,
				 __REFCOUNT_LONG_WORD(REFCOUNT_LONG_IMMORTAL),
				 __ATOMIC_RELAXED);
		return;
	}
	__atomic_store_n(&r->refs,
			 __REFCOUNT_LONG_WORD(REFCOUNT_LONG_SATURATED),
			 __ATOMIC_RELAXED);
	__refcount_report((refcount_t *)(void *)r, t, __refcount_modern_msg(t),
			  ip, breed);
}

void __refcount_long_warn_saturate(refcount_long_t *r,
				   enum refcount_saturation_type t,
				   const char *breed)
{
	__refcount_long_saturate_at(r, t, breed, __builtin_return_address(0));
}

bool __refcount_long_dec_not_one(refcount_long_t *r, const char *breed)
{
	long w = __atomic_load_n(&r->refs, __ATOMIC_RELAXED);
	unsigned long new, val;

	do {
		val = (unsigned long)__REFCOUNT_LONG_WORD(w);
		if (__refcount_unlikely(val ==
					(unsigned long)REFCOUNT_LONG_SATURATED))
			return true;
		if (__refcount_unlikely(__REFCOUNT_LONG_IMMORTAL_VALUE(val)))
			return true;
		if (val == 1)
			return false;
		new = val - 1;
		if (__refcount_unlikely(new > val)) {
			/* Its own WARN_ONCE: no saturation, no store. */
			__refcount_report((refcount_t *)(void *)r,
					  REFCOUNT_SUB_UAF,
					  __REFCOUNT_MSG_UNDERFLOW,
					  __builtin_return_address(0), breed);
			return true;
		}
	} while (!__atomic_compare_exchange_n(
		&r->refs, &w, __REFCOUNT_LONG_WORD(new), true, __ATOMIC_RELEASE,
		__ATOMIC_RELAXED));
	return true;
}

// SPDX-License-Identifier: MIT
/*
 * tests/immortal-hot.c - the inline operations whose instructions must not
 * change for REFCOUNT_IMMORTAL
 *
 * Compiled (not run) per breed by tests/integration.mk, check-immortal, which
 * disassembles these functions and fails if any of them holds one of the
 * constants of the immortal test (the zone's bounds): immortality is decided
 * in the cold path alone.  With -DHOT_MUTANT each function tests
 * refcount_is_immortal() first, inline, as CPython does: that must be
 * caught.
 */
#include <refcount/refcount.h>

#ifdef HOT_MUTANT
#define MUTANT_CHECK(r, ret)                                                   \
	do {                                                                   \
		if (refcount_is_immortal(r))                                   \
			return ret;                                            \
	} while (0)
#else
#define MUTANT_CHECK(r, ret) ((void)0)
#endif

void hot_inc(refcount_t *r);
void hot_inc(refcount_t *r)
{
	MUTANT_CHECK(r, );
	refcount_inc(r);
}

void hot_add(refcount_t *r);
void hot_add(refcount_t *r)
{
	MUTANT_CHECK(r, );
	refcount_add(3, r);
}

void hot_dec(refcount_t *r);
void hot_dec(refcount_t *r)
{
	MUTANT_CHECK(r, );
	refcount_dec(r);
}

bool hot_dec_and_test(refcount_t *r);
bool hot_dec_and_test(refcount_t *r)
{
	MUTANT_CHECK(r, false);
	return refcount_dec_and_test(r);
}

bool hot_sub_and_test(refcount_t *r);
bool hot_sub_and_test(refcount_t *r)
{
	MUTANT_CHECK(r, false);
	return refcount_sub_and_test(2, r);
}

bool hot_inc_not_zero(refcount_t *r);
bool hot_inc_not_zero(refcount_t *r)
{
	MUTANT_CHECK(r, true);
	return refcount_inc_not_zero(r);
}

/* SPDX-License-Identifier: MIT */
/*
 * tests/lkdtm-scenarios.h - the 17 behavioural LKDTM refcount scenarios
 *
 * A port of drivers/misc/lkdtm/refcount.c (docs/kernel-semantics.md, 'LKDTM
 * tests', rows 1-17) for
 * the breed of the including translation unit: include <refcount/refcount.h>
 * (with REFCOUNT_BREED set) first.  The expectations are in lkdtm-table.h.
 *
 * Each scenario runs on a counter the caller owns (so that a report handler
 * can check it is handed that counter) and records the final value, the
 * return value of the last operation, and whether LKDTM's own "Weird:" /
 * "Good:" checks of the legal steps held.
 */
#ifndef TESTS_LKDTM_SCENARIOS_H
#define TESTS_LKDTM_SCENARIOS_H

#ifndef REFCOUNT_H
#error "include <refcount/refcount.h> first"
#endif

#include "lkdtm-table.h"

static inline void lkdtm_expect_value(refcount_t *r, unsigned int want,
				      const char *what,
				      struct lkdtm_result *res)
{
	if (refcount_read(r) != want && !res->weird)
		res->weird = what;
}

static inline void lkdtm_scenario(enum lkdtm_id id, refcount_t *r,
				  struct lkdtm_result *res)
{
	res->ret = RET_VOID;
	res->weird = NULL;

	switch (id) {
	case LKDTM_INC_OVERFLOW:
		refcount_set(r, (int)(REFCOUNT_MAX - 1));
		refcount_dec(r);
		refcount_inc(r);
		lkdtm_expect_value(r, REFCOUNT_MAX - 1, "good dec+inc", res);
		refcount_inc(r);
		lkdtm_expect_value(r, REFCOUNT_MAX, "inc to MAX", res);
		refcount_inc(r);
		break;
	case LKDTM_ADD_OVERFLOW:
		refcount_set(r, (int)(REFCOUNT_MAX - 1));
		refcount_dec(r);
		refcount_dec(r);
		refcount_dec(r);
		refcount_dec(r);
		refcount_add(4, r);
		lkdtm_expect_value(r, REFCOUNT_MAX - 1, "good 4x dec+add(4)",
				   res);
		refcount_add(4, r);
		break;
	case LKDTM_INC_NOT_ZERO_OVERFLOW:
		refcount_set(r, (int)REFCOUNT_MAX);
		res->ret = refcount_inc_not_zero(r);
		break;
	case LKDTM_ADD_NOT_ZERO_OVERFLOW:
		refcount_set(r, (int)REFCOUNT_MAX);
		res->ret = refcount_add_not_zero(6, r);
		break;
	case LKDTM_DEC_ZERO:
		refcount_set(r, 2);
		refcount_dec(r);
		lkdtm_expect_value(r, 1, "good dec", res);
		refcount_dec(r);
		break;
	case LKDTM_DEC_NEGATIVE:
		refcount_set(r, 0);
		refcount_dec(r);
		break;
	case LKDTM_DEC_AND_TEST_NEGATIVE:
		refcount_set(r, 0);
		res->ret = refcount_dec_and_test(r);
		break;
	case LKDTM_SUB_AND_TEST_NEGATIVE:
		refcount_set(r, 3);
		res->ret = refcount_sub_and_test(5, r);
		break;
	case LKDTM_INC_ZERO:
		refcount_set(r, 0);
		if (refcount_inc_not_zero(r))
			res->weird = "inc_not_zero on 0 returned true";
		lkdtm_expect_value(r, 0, "inc_not_zero moved 0", res);
		refcount_inc(r);
		break;
	case LKDTM_ADD_ZERO:
		refcount_set(r, 0);
		if (refcount_add_not_zero(3, r))
			res->weird = "add_not_zero on 0 returned true";
		lkdtm_expect_value(r, 0, "add_not_zero moved 0", res);
		refcount_add(3, r);
		break;
	case LKDTM_INC_SATURATED:
		refcount_set(r, (int)REFCOUNT_SATURATED);
		refcount_inc(r);
		break;
	case LKDTM_DEC_SATURATED:
		refcount_set(r, (int)REFCOUNT_SATURATED);
		refcount_dec(r);
		break;
	case LKDTM_ADD_SATURATED:
		refcount_set(r, (int)REFCOUNT_SATURATED);
		refcount_add(8, r);
		break;
	case LKDTM_INC_NOT_ZERO_SATURATED:
		refcount_set(r, (int)REFCOUNT_SATURATED);
		res->ret = refcount_inc_not_zero(r);
		break;
	case LKDTM_ADD_NOT_ZERO_SATURATED:
		refcount_set(r, (int)REFCOUNT_SATURATED);
		res->ret = refcount_add_not_zero(7, r);
		break;
	case LKDTM_DEC_AND_TEST_SATURATED:
		refcount_set(r, (int)REFCOUNT_SATURATED);
		res->ret = refcount_dec_and_test(r);
		break;
	case LKDTM_SUB_AND_TEST_SATURATED:
		refcount_set(r, (int)REFCOUNT_SATURATED);
		res->ret = refcount_sub_and_test(8, r);
		break;
	case NR_LKDTM:
		break;
	}
	res->final = refcount_read(r);
}

#endif /* TESTS_LKDTM_SCENARIOS_H */

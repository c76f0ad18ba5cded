/* SPDX-License-Identifier: MIT */
/*
 * lab/bench/peer-ck.c - the ck row: Concurrency Kit's ck_pr
 *
 * ck_pr_inc_int() and ck_pr_dec_int_zero() are bare locked instructions
 * (`lock incl`, `lock decl; setz`): the fastest a C programmer can get from
 * a library, with no checks.  ck has no inc_not_zero: the lookup pattern
 * uses ck_pr_cas_int_value().
 */
#include <ck_pr.h>
#include <limits.h>
#include <stdbool.h>

static inline bool ck_dec_and_test(int *r)
{
	bool zero;

	ck_pr_dec_int_zero(r, &zero);
	return zero;
}

static inline bool ck_inc_not_zero(int *r)
{
	int c = ck_pr_load_int(r);

	do {
		if (c == 0)
			return false;
	} while (!ck_pr_cas_int_value(r, c, c + 1, &c));
	return true;
}

#define BENCH_SFX ck
#define BENCH_NAME "ck"
#define BENCH_KIND BENCH_ROW_PEER
#define BENCH_API "ck_pr_inc_int, ck_pr_dec_int_zero, ck_pr_dec_int"
#define BENCH_LOOKUP_NOTE "ck: no inc_not_zero; built from ck_pr_cas_int_value"
#define BENCH_T int
#define BENCH_SET(r, v) ck_pr_store_int(r, (int)(v))
#define BENCH_READ(r) ((long long)ck_pr_load_int(r))
#define BENCH_INC(r) ck_pr_inc_int(r)
#define BENCH_DEC(r) ck_pr_dec_int(r)
#define BENCH_DEC_AND_TEST(r) ck_dec_and_test(r)
#define BENCH_INC_NOT_ZERO(r) ck_inc_not_zero(r)
#define BENCH_MAX INT_MAX
#define BENCH_IS_SATURATED(r) false
#define BENCH_FORKED true

#include "loops.h"

/* SPDX-License-Identifier: MIT */
/*
 * tests/lkdtm-table.h - the expected outcome of the 17 behavioural LKDTM
 * refcount scenarios (drivers/misc/lkdtm/refcount.c; docs/kernel-semantics.md,
 * 'LKDTM tests', rows 1-17) in each breed.
 *
 * This table is the single source of truth: tests/lkdtm.c asserts it for the
 * breed it is built for, tests/mixed.c for all four breeds in one process,
 * tests/install-probe.c against an installed copy, and docs/breeds.md is
 * generated from it (tests/gen-breeds-md.c; `make check` fails if the
 * committed docs/breeds.md differs).
 *
 * Breed-independent: no <refcount/refcount.h> here.
 */
#ifndef TESTS_LKDTM_TABLE_H
#define TESTS_LKDTM_TABLE_H

/* The tables are laid out by hand. */
/* clang-format off */

#include <limits.h>
#include <stdio.h>

#include <refcount/report.h>

#include "helpers.h"

/* Values as refcount_read() returns them (unsigned int). */
#define V_SAT_INT 0xc0000000u /* INT_MIN / 2: saturating, fast */
#define V_SAT_FULL 0xffffffffu /* UINT_MAX: full */
#define V_INT_MIN 0x80000000u /* INT_MAX + 1, wrapped (atomic) */

/* "The operation returns nothing" in the ret column. */
#define RET_VOID (-1)

/* The default handler's first line starts with one of these. */
#define MSG_SATURATED "refcount_t: saturated; leaking memory."
#define MSG_ADD_ON_0 "refcount_t: addition on 0; use-after-free."
#define MSG_INC_ON_0 "refcount_t: increment on 0; use-after-free."
#define MSG_UNDERFLOW "refcount_t: underflow; use-after-free."
#define MSG_DEC_HIT_0 "refcount_t: decrement hit 0; leaking memory."
#define MSG_X86_OVERFLOW "refcount_t overflow at "
#define MSG_X86_HIT_ZERO "refcount_t hit zero at "

/* What the LKDTM checker helper for a scenario is. */
enum lkdtm_check {
	CHECK_OVERFLOW,
	CHECK_ZERO,
	CHECK_NEGATIVE,
	CHECK_FROM_ZERO,
	CHECK_SATURATED,
};

/*
 * struct lkdtm_expect - one breed's outcome of one scenario
 * @final: refcount_read() at the end
 * @ret: the return value of the scenario's last operation (0, 1, RET_VOID)
 * @type: the report type it causes (exactly one report), or NO_REPORT
 * @msg: what the default handler prints (the start of its line), or NULL if
 *	it prints nothing (a silent report, or no report)
 * @known: 1 (E()); 0 for a breed the table has no entry for
 */
struct lkdtm_expect {
	unsigned int final;
	int ret;
	int type;
	const char *msg;
	int known; /* 0: the table has no entry for this breed */
};

struct lkdtm_case {
	const char *name;
	const char *steps;
	enum lkdtm_check check;
	int check_start; /* CHECK_NEGATIVE's start value */
	struct lkdtm_expect e[NR_BREEDS];
};

#define ANZ REFCOUNT_ADD_NOT_ZERO_OVF
#define AOVF REFCOUNT_ADD_OVF
#define AUAF REFCOUNT_ADD_UAF
#define SUAF REFCOUNT_SUB_UAF
#define DLEAK REFCOUNT_DEC_LEAK

/*
 * The scenarios, in LKDTM's order:
 * X(ident, steps, checker, checker start, [B_<BREED>] = E(...), ...)
 * with one entry per breed, keyed by enum breed_idx, so that a new breed
 * adds entries and changes no macro (an entry left out is not .known, and
 * lkdtm_mismatch() says so).  The nonatomic breed's outcome is the
 * saturating one's (the same checks and saturation, without atomics):
 * LKDTM_SATURATING() fills both.
 */
#define E(final, ret, type, msg) { final, ret, type, msg, 1 }
#define LKDTM_SATURATING(...) [B_SATURATING] = __VA_ARGS__, [B_NONATOMIC] = __VA_ARGS__
#define LKDTM_CASES(X)                                                         \
	X(INC_OVERFLOW, "MAX-1; dec; inc; inc (to MAX); inc",                  \
	  CHECK_OVERFLOW, 0,                                                   \
	  [B_ATOMIC] = E(V_INT_MIN, RET_VOID, NO_REPORT, NULL),                \
	  [B_FAST] = E(V_SAT_INT, RET_VOID, AOVF, MSG_X86_OVERFLOW),           \
	  [B_FULL] = E(V_SAT_FULL, RET_VOID, AOVF, MSG_SATURATED),             \
	  LKDTM_SATURATING(E(V_SAT_INT, RET_VOID, AOVF, MSG_SATURATED)))       \
	X(ADD_OVERFLOW, "MAX-1; 4x dec; add(4); add(4)", CHECK_OVERFLOW, 0,    \
	  [B_ATOMIC] = E(V_INT_MIN + 2, RET_VOID, NO_REPORT, NULL),            \
	  [B_FAST] = E(V_SAT_INT, RET_VOID, AOVF, MSG_X86_OVERFLOW),           \
	  [B_FULL] = E(V_SAT_FULL, RET_VOID, AOVF, MSG_SATURATED),             \
	  LKDTM_SATURATING(E(V_SAT_INT, RET_VOID, AOVF, MSG_SATURATED)))       \
	X(INC_NOT_ZERO_OVERFLOW, "MAX; inc_not_zero", CHECK_OVERFLOW, 0,       \
	  [B_ATOMIC] = E(V_INT_MIN, 1, NO_REPORT, NULL),                       \
	  [B_FAST] = E(V_SAT_INT, 1, ANZ, MSG_X86_OVERFLOW),                   \
	  [B_FULL] = E(V_SAT_FULL, 1, ANZ, MSG_SATURATED),                     \
	  LKDTM_SATURATING(E(V_SAT_INT, 1, ANZ, MSG_SATURATED)))               \
	X(ADD_NOT_ZERO_OVERFLOW, "MAX; add_not_zero(6)", CHECK_OVERFLOW, 0,    \
	  [B_ATOMIC] = E(V_INT_MIN + 5, 1, NO_REPORT, NULL),                   \
	  [B_FAST] = E(V_SAT_INT, 1, ANZ, MSG_X86_OVERFLOW),                   \
	  [B_FULL] = E(V_SAT_FULL, 1, ANZ, MSG_SATURATED),                     \
	  LKDTM_SATURATING(E(V_SAT_INT, 1, ANZ, MSG_SATURATED)))               \
	X(DEC_ZERO, "2; dec; dec", CHECK_ZERO, 0,                              \
	  [B_ATOMIC] = E(0, RET_VOID, NO_REPORT, NULL),                        \
	  [B_FAST] = E(V_SAT_INT, RET_VOID, DLEAK, MSG_X86_HIT_ZERO),          \
	  [B_FULL] = E(0, RET_VOID, DLEAK, MSG_DEC_HIT_0),                     \
	  LKDTM_SATURATING(E(V_SAT_INT, RET_VOID, DLEAK, MSG_DEC_HIT_0)))      \
	X(DEC_NEGATIVE, "0; dec", CHECK_NEGATIVE, 0,                           \
	  [B_ATOMIC] = E(0xffffffffu, RET_VOID, NO_REPORT, NULL),              \
	  [B_FAST] = E(V_SAT_INT, RET_VOID, DLEAK, NULL),                      \
	  [B_FULL] = E(0, RET_VOID, DLEAK, MSG_UNDERFLOW),                     \
	  LKDTM_SATURATING(E(V_SAT_INT, RET_VOID, DLEAK, MSG_DEC_HIT_0)))      \
	X(DEC_AND_TEST_NEGATIVE, "0; dec_and_test", CHECK_NEGATIVE, 0,         \
	  [B_ATOMIC] = E(0xffffffffu, 0, NO_REPORT, NULL),                     \
	  [B_FAST] = E(V_SAT_INT, 0, SUAF, NULL),                              \
	  [B_FULL] = E(0, 0, SUAF, MSG_UNDERFLOW),                             \
	  LKDTM_SATURATING(E(V_SAT_INT, 0, SUAF, MSG_UNDERFLOW)))              \
	X(SUB_AND_TEST_NEGATIVE, "3; sub_and_test(5)", CHECK_NEGATIVE, 3,      \
	  [B_ATOMIC] = E(0xfffffffeu, 0, NO_REPORT, NULL),                     \
	  [B_FAST] = E(V_SAT_INT, 0, SUAF, NULL),                              \
	  [B_FULL] = E(3, 0, SUAF, MSG_UNDERFLOW),                             \
	  LKDTM_SATURATING(E(V_SAT_INT, 0, SUAF, MSG_UNDERFLOW)))              \
	X(INC_ZERO, "0; inc_not_zero (false); inc", CHECK_FROM_ZERO, 0,        \
	  [B_ATOMIC] = E(1, RET_VOID, NO_REPORT, NULL),                        \
	  [B_FAST] = E(1, RET_VOID, NO_REPORT, NULL),                          \
	  [B_FULL] = E(0, RET_VOID, AUAF, MSG_INC_ON_0),                       \
	  LKDTM_SATURATING(E(V_SAT_INT, RET_VOID, AUAF, MSG_ADD_ON_0)))        \
	X(ADD_ZERO, "0; add_not_zero(3) (false); add(3)",                      \
	  CHECK_FROM_ZERO, 0,                                                  \
	  [B_ATOMIC] = E(3, RET_VOID, NO_REPORT, NULL),                        \
	  [B_FAST] = E(3, RET_VOID, NO_REPORT, NULL),                          \
	  [B_FULL] = E(0, RET_VOID, AUAF, MSG_ADD_ON_0),                       \
	  LKDTM_SATURATING(E(V_SAT_INT, RET_VOID, AUAF, MSG_ADD_ON_0)))        \
	X(INC_SATURATED, "SATURATED; inc", CHECK_SATURATED, 0,                 \
	  [B_ATOMIC] = E(V_SAT_INT + 1, RET_VOID, NO_REPORT, NULL),            \
	  [B_FAST] = E(V_SAT_INT, RET_VOID, AOVF, NULL),                       \
	  [B_FULL] = E(V_SAT_FULL, RET_VOID, AOVF, NULL),                      \
	  LKDTM_SATURATING(E(V_SAT_INT, RET_VOID, AOVF, MSG_SATURATED)))       \
	X(DEC_SATURATED, "SATURATED; dec", CHECK_SATURATED, 0,                 \
	  [B_ATOMIC] = E(V_SAT_INT - 1, RET_VOID, NO_REPORT, NULL),            \
	  [B_FAST] = E(V_SAT_INT, RET_VOID, DLEAK, NULL),                      \
	  [B_FULL] = E(V_SAT_FULL, RET_VOID, DLEAK, NULL),                     \
	  LKDTM_SATURATING(E(V_SAT_INT, RET_VOID, DLEAK, MSG_DEC_HIT_0)))      \
	X(ADD_SATURATED, "SATURATED; add(8)", CHECK_SATURATED, 0,              \
	  [B_ATOMIC] = E(V_SAT_INT + 8, RET_VOID, NO_REPORT, NULL),            \
	  [B_FAST] = E(V_SAT_INT, RET_VOID, AOVF, NULL),                       \
	  [B_FULL] = E(V_SAT_FULL, RET_VOID, AOVF, NULL),                      \
	  LKDTM_SATURATING(E(V_SAT_INT, RET_VOID, AOVF, MSG_SATURATED)))       \
	X(INC_NOT_ZERO_SATURATED, "SATURATED; inc_not_zero",                   \
	  CHECK_SATURATED, 0,                                                  \
	  [B_ATOMIC] = E(V_SAT_INT + 1, 1, NO_REPORT, NULL),                   \
	  [B_FAST] = E(V_SAT_INT, 1, ANZ, MSG_X86_OVERFLOW),                               \
	  [B_FULL] = E(V_SAT_FULL, 1, ANZ, NULL),                              \
	  LKDTM_SATURATING(E(V_SAT_INT, 1, ANZ, MSG_SATURATED)))               \
	X(ADD_NOT_ZERO_SATURATED, "SATURATED; add_not_zero(7)",                \
	  CHECK_SATURATED, 0,                                                  \
	  [B_ATOMIC] = E(V_SAT_INT + 7, 1, NO_REPORT, NULL),                   \
	  [B_FAST] = E(V_SAT_INT, 1, ANZ, MSG_X86_OVERFLOW),                               \
	  [B_FULL] = E(V_SAT_FULL, 1, ANZ, NULL),                              \
	  LKDTM_SATURATING(E(V_SAT_INT, 1, ANZ, MSG_SATURATED)))               \
	X(DEC_AND_TEST_SATURATED, "SATURATED; dec_and_test",                   \
	  CHECK_SATURATED, 0,                                                  \
	  [B_ATOMIC] = E(V_SAT_INT - 1, 0, NO_REPORT, NULL),                   \
	  [B_FAST] = E(V_SAT_INT, 0, SUAF, NULL),                              \
	  [B_FULL] = E(V_SAT_FULL, 0, SUAF, NULL),                             \
	  LKDTM_SATURATING(E(V_SAT_INT, 0, SUAF, MSG_UNDERFLOW)))              \
	X(SUB_AND_TEST_SATURATED, "SATURATED; sub_and_test(8)",                \
	  CHECK_SATURATED, 0,                                                  \
	  [B_ATOMIC] = E(V_SAT_INT - 8, 0, NO_REPORT, NULL),                   \
	  [B_FAST] = E(V_SAT_INT, 0, SUAF, NULL),                              \
	  [B_FULL] = E(V_SAT_FULL, 0, SUAF, NULL),                             \
	  LKDTM_SATURATING(E(V_SAT_INT, 0, SUAF, MSG_UNDERFLOW)))

#define LKDTM_ENUM(id, ...) LKDTM_##id,
enum lkdtm_id { LKDTM_CASES(LKDTM_ENUM) NR_LKDTM };
#undef LKDTM_ENUM

#define LKDTM_ENTRY(id, steps_, check_, start_, ...)                           \
	[LKDTM_##id] = { .name = "REFCOUNT_" #id,                               \
			 .steps = steps_,                                      \
			 .check = check_,                                      \
			 .check_start = start_,                                \
			 .e = { __VA_ARGS__ } },
static const struct lkdtm_case lkdtm_cases[NR_LKDTM] = {
	LKDTM_CASES(LKDTM_ENTRY)
};
#undef LKDTM_ENTRY

/* What running a scenario gave (tests/lkdtm-scenarios.h). */
struct lkdtm_result {
	unsigned int final;
	int ret;
	const char *weird; /* NULL if the legal steps behaved */
};

/* Which kernel each breed reproduces (docs/kernel-semantics.md). */
static const char *const breed_kernel[NR_BREEDS] = {
	[B_ATOMIC] = "v4.13..v5.4 unchecked `atomic_t` fallback",
	[B_FAST] = "v4.14..v5.4 x86 `ARCH_HAS_REFCOUNT`",
	[B_FULL] = "v4.13..v5.4 `REFCOUNT_FULL`",
	[B_SATURATING] = "v5.5 to today, the default",
	[B_NONATOMIC] = "v5.5's design without atomics, for one thread",
};

static const unsigned int breed_max[NR_BREEDS] = {
	[B_ATOMIC] = INT_MAX,
	[B_FAST] = INT_MAX,
	[B_FULL] = UINT_MAX - 1,
	[B_SATURATING] = INT_MAX,
	[B_NONATOMIC] = INT_MAX,
};

static const unsigned int breed_saturated[NR_BREEDS] = {
	[B_ATOMIC] = V_SAT_INT,
	[B_FAST] = V_SAT_INT,
	[B_FULL] = V_SAT_FULL,
	[B_SATURATING] = V_SAT_INT,
	[B_NONATOMIC] = V_SAT_INT,
};

/*
 * lkdtm_mismatch() - how a run of scenario @id in breed @b differs from the
 * table: NULL if it does not (final value, return value, legal steps, and
 * exactly the expected report since @before), else a description in a
 * static buffer.
 */
static inline const char *lkdtm_mismatch(enum lkdtm_id id, enum breed_idx b,
					 const struct lkdtm_result *res,
					 const struct report_counts *before)
{
	static _Thread_local char buf[256];
	const struct lkdtm_case *c = &lkdtm_cases[id];
	const struct lkdtm_expect *e = &c->e[b];
	const char *why;

	if (!e->known)
		snprintf(buf, sizeof(buf), "%s/%s: the table has no entry",
			 breed_names[b], c->name);
	else if (res->weird)
		snprintf(buf, sizeof(buf), "%s/%s: a legal step misbehaved: %s",
			 breed_names[b], c->name, res->weird);
	else if (res->final != e->final)
		snprintf(buf, sizeof(buf), "%s/%s: final value %#x, expected %#x",
			 breed_names[b], c->name, res->final, e->final);
	else if (res->ret != e->ret)
		snprintf(buf, sizeof(buf), "%s/%s: returned %d, expected %d",
			 breed_names[b], c->name, res->ret, e->ret);
	else if (!report_counts_delta_ok(before, e->type, 1, &why))
		snprintf(buf, sizeof(buf), "%s/%s: %s", breed_names[b], c->name,
			 why);
	else
		return NULL;
	return buf;
}

/*
 * lkdtm_checker_line() - what LKDTM's checker helper prints for @val
 * (drivers/misc/lkdtm/refcount.c; docs/kernel-semantics.md, 'LKDTM tests'),
 * with the breed's MAX and
 * SATURATED.  For docs/breeds.md.
 */
static inline void lkdtm_checker_line(char *buf, size_t len,
				      const struct lkdtm_case *c,
				      enum breed_idx b, unsigned int val)
{
	unsigned int max = breed_max[b], sat = breed_saturated[b];
	int v = (int)val;

	switch (c->check) {
	case CHECK_OVERFLOW:
		if (val == sat)
			snprintf(buf, len, "Overflow detected: saturated");
		else if (val == max)
			snprintf(buf, len,
				 "Overflow detected: unsafely reset to max");
		else
			snprintf(buf, len, "Fail: refcount wrapped to %d", v);
		break;
	case CHECK_ZERO:
		if (val == sat)
			snprintf(buf, len, "Zero detected: saturated");
		else if (val == max)
			snprintf(buf, len,
				 "Zero detected: unsafely reset to max");
		else if (!val)
			snprintf(buf, len,
				 "Still at zero: refcount_inc/add() must not "
				 "inc-from-0");
		else
			snprintf(buf, len, "Fail: refcount went crazy: %d", v);
		break;
	case CHECK_NEGATIVE:
		if (v == c->check_start)
			snprintf(buf, len,
				 "Still at %d: refcount_inc/add() must not "
				 "inc-from-0",
				 c->check_start);
		else if (val == sat)
			snprintf(buf, len, "Negative detected: saturated");
		else if (val == max)
			snprintf(buf, len,
				 "Negative detected: unsafely reset to max");
		else
			snprintf(buf, len, "Fail: refcount went crazy: %d", v);
		break;
	case CHECK_FROM_ZERO:
		if (!val)
			snprintf(buf, len, "Zero detected: stayed at zero");
		else if (val == sat)
			snprintf(buf, len, "Zero detected: saturated");
		else if (val == max)
			snprintf(buf, len,
				 "Zero detected: unsafely reset to max");
		else
			snprintf(buf, len,
				 "Fail: zero not detected, incremented to %d",
				 v);
		break;
	case CHECK_SATURATED:
		if (val == sat)
			snprintf(buf, len,
				 "Saturation detected: still saturated");
		else if (val == max)
			snprintf(buf, len,
				 "Saturation detected: unsafely reset to max");
		else
			snprintf(buf, len, "Fail: refcount went crazy: %d", v);
		break;
	}
}

/* clang-format on */

#endif /* TESTS_LKDTM_TABLE_H */

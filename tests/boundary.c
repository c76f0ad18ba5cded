// SPDX-License-Identifier: MIT
/*
 * tests/boundary.c - every operation at the boundary values, for one breed
 *
 * Each operation starts from 0, 1, MAX-1, MAX and SATURATED (the breed's own
 * REFCOUNT_MAX and REFCOUNT_SATURATED; for the full breed MAX-1, MAX and
 * SATURATED are UINT_MAX-2, UINT_MAX-1 and UINT_MAX), plus a few values
 * where the breeds disagree (INT_MAX, INT_MIN, UINT_MAX).  The table holds
 * what each breed must do: the final value, the return value and the report.
 * Operations that have a __refcount_*(..., oldp) form run twice, once in
 * each form (in the fast breed the plain form is the x86 asm, the oldp form
 * C), and the oldp form must hand back the starting value: the value the
 * set stored (set_stores()).
 *
 * The expectations follow docs/kernel-semantics.md, 'The saturating breed',
 * 'The full breed', 'The fast breed' and 'The atomic breed', and for
 * dec_if_one/dec_not_one/the lock helpers lib/refcount.c as 'Common to every
 * breed' and 'The saturating breed' give it (the 2017 breeds test UINT_MAX,
 * the saturating one REFCOUNT_SATURATED).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include <refcount/refcount.h>

#include "helpers.h"

/*
 * The counter under test: refcount_t, or with BOUNDARY_LONG
 * (tests/boundary-long.c, which includes this file) refcount_long_t, whose
 * operations have the saturating breed's semantics in every unit (the
 * nonatomic breed's column is the saturating one's): the same rows, at the
 * long's MAX, SATURATED, IMMORTAL, LONG_MAX, LONG_MIN and ULONG_MAX.  The
 * lock helpers are refcount_t's alone.
 */
#ifdef BOUNDARY_LONG
#define BT_T refcount_long_t
#define BT_V long
#define BT_UV unsigned long
#define BT(op) refcount_long_##op
#define BT_(op) __refcount_long_##op
#define BT_MAX REFCOUNT_LONG_MAX
#define BT_SATURATED REFCOUNT_LONG_SATURATED
#define BT_IMMORTAL REFCOUNT_LONG_IMMORTAL
#define BT_ZONE ((long)((unsigned long)LONG_MIN >> 3))
#define BT_VMAX LONG_MAX
#define BT_VMIN LONG_MIN
#define BT_UVMAX ULONG_MAX
#define BT_SUITE boundary_long
#define BT_NAME "refcount_long_"
#define BT_NAME_ "__refcount_long_"
#define BT_COLUMN B_SATURATING
#define BT_X "%#lx"
#define BT_D "%ld"
#else
#define BT_T refcount_t
#define BT_V int
#define BT_UV unsigned int
#define BT(op) refcount_##op
#define BT_(op) __refcount_##op
#define BT_MAX REFCOUNT_MAX
#define BT_SATURATED REFCOUNT_SATURATED
#define BT_IMMORTAL REFCOUNT_IMMORTAL
#define BT_ZONE 0x10000000
#define BT_VMAX INT_MAX
#define BT_VMIN INT_MIN
#define BT_UVMAX UINT_MAX
#define BT_SUITE boundary
#define BT_NAME "refcount_"
#define BT_NAME_ "__refcount_"
#define BT_COLUMN THIS_BREED
#define BT_X "%#x"
#define BT_D "%d"
#define BT_LOCKS 1
#endif

enum op {
	OP_INC,
	OP_ADD, /* add(2) */
	OP_INC_NZ,
	OP_ADD_NZ, /* add_not_zero(2) */
	OP_INC_NZ_ACQ,
	OP_ADD_NZ_ACQ, /* add_not_zero_acquire(2) */
	OP_DEC,
	OP_DEC_AND_TEST,
	OP_SUB_AND_TEST, /* sub_and_test(2) */
	OP_DEC_IF_ONE,
	OP_DEC_NOT_ONE,
	OP_DEC_AND_MUTEX_LOCK,
	OP_DEC_AND_LOCK,
	NR_OPS
};

static const char *const op_names[NR_OPS] = {
	"inc",
	"add(2)",
	"inc_not_zero",
	"add_not_zero(2)",
	"inc_not_zero_acquire",
	"add_not_zero_acquire(2)",
	"dec",
	"dec_and_test",
	"sub_and_test(2)",
	"dec_if_one",
	"dec_not_one",
	"dec_and_mutex_lock",
	"dec_and_lock",
};

/* Ops with a __refcount_*(..., oldp) form. */
static bool has_oldp(enum op op)
{
	return op <= OP_SUB_AND_TEST;
}

enum point {
	P_0,
	P_1,
	P_2,
	P_MAXM1,
	P_MAX,
	P_SAT,
	P_INT_MAX,
	P_INT_MIN,
	P_UINT_MAX,
	P_IMMORTAL
};

static const char *const point_names[] = {
	"0",	     "1",	"2",	   "MAX-1",    "MAX",
	"SATURATED", "INT_MAX", "INT_MIN", "UINT_MAX", "IMMORTAL",
};

/*
 * The saturating design's set stores a negative count outside the immortal
 * band (2^28 either side of IMMORTAL) as SATURATED: the kernel stores it,
 * and its next checking operation saturates it as this one's does
 * (docs/kernel-semantics.md, 'The saturating breed'; docs/design.md, 'The
 * increment and the flags': the count -MAX is never stored).  The other
 * breeds store @v.
 */
#if defined(__REFCOUNT_SATURATING_DESIGN) || defined(BOUNDARY_LONG)
#define BT_SETS_SATURATED 1
#endif
static BT_UV set_stores(BT_UV v)
{
#ifdef BT_SETS_SATURATED
	if ((BT_V)v < 0 &&
	    v - (BT_UV)(BT_IMMORTAL - BT_ZONE) >= 2 * (BT_UV)BT_ZONE)
		return (BT_UV)BT_SATURATED;
#endif
	return v;
}

static BT_UV point_value(enum point p)
{
	switch (p) {
	case P_0:
		return 0;
	case P_1:
		return 1;
	case P_2:
		return 2;
	case P_MAXM1:
		return (BT_UV)BT_MAX - 1;
	case P_MAX:
		return (BT_UV)BT_MAX;
	case P_SAT:
		return (BT_UV)BT_SATURATED;
	case P_INT_MAX:
		return (BT_UV)BT_VMAX;
	case P_INT_MIN:
		return (BT_UV)BT_VMIN;
	case P_UINT_MAX:
		return BT_UVMAX;
	case P_IMMORTAL:
		return (BT_UV)BT_IMMORTAL;
	}
	return 0;
}

/*
 * One breed's expectation.  The final value is the breed's SATURATED
 * (sat = true) or the start plus @delta (wrapping: an atomic INT_MAX + 1 is
 * INT_MIN).  ret: RV (void op), RF (false), RT (true).
 */
struct cell {
	bool sat;
	int delta;
	int ret;
	int type;
	bool known; /* false: the table has no entry for this breed */
};

#define RV (-1)
#define RF 0
#define RT 1
#define NONE NO_REPORT
#define ANZ REFCOUNT_ADD_NOT_ZERO_OVF
#define AOVF REFCOUNT_ADD_OVF
#define AUAF REFCOUNT_ADD_UAF
#define SUAF REFCOUNT_SUB_UAF
#define DLEAK REFCOUNT_DEC_LEAK

#define SAT(ret, type)                                                         \
	{                                                                      \
		true, 0, ret, type, true                                       \
	}
#define REL(d, ret, type)                                                      \
	{                                                                      \
		false, d, ret, type, true                                      \
	}

struct row {
	enum op op;
	enum point p;
	struct cell c[NR_BREEDS]; /* keyed by enum breed_idx */
};

/*
 * The columns are keyed by breed ([B_ATOMIC] = ...), so that a new breed
 * adds entries and changes no macro; a breed left without one has a cell
 * that is not .known, which the test reports.  The nonatomic breed's
 * column is the saturating one's by definition (the same checks on one
 * thread): SATURATING(s) fills both.
 */
#define ALL(x)                                                                 \
	{                                                                      \
		[0 ... NR_BREEDS - 1] = x                                      \
	}
#define SATURATING(...)                                                        \
	[B_SATURATING] = __VA_ARGS__, [B_NONATOMIC] = __VA_ARGS__
/* The checking breeds agree, atomic wraps silently by @d. */
#define CHECKED(d, ret, chk)                                                   \
	{                                                                      \
		[B_ATOMIC] = REL(d, ret, NONE), [B_FAST] = chk,                \
		[B_FULL] = chk, SATURATING(chk)                                \
	}

/*
 * REFCOUNT_IMMORTAL: a silent no-op where the breed keeps it (fast,
 * saturating), an ordinary step of @d in the atomic and full breeds.
 */
#define IMM(d, ret)                                                            \
	{                                                                      \
		[B_ATOMIC] = REL(d, ret, NONE), [B_FAST] = REL(0, ret, NONE),  \
		[B_FULL] = REL(d, ret, NONE), SATURATING(REL(0, ret, NONE))    \
	}

static const struct row rows[] = {
	/* Immortal: every operation, no change and no report. */
	{ OP_INC, P_IMMORTAL, IMM(1, RV) },
	{ OP_ADD, P_IMMORTAL, IMM(2, RV) },
	{ OP_INC_NZ, P_IMMORTAL, IMM(1, RT) },
	{ OP_ADD_NZ, P_IMMORTAL, IMM(2, RT) },
	{ OP_INC_NZ_ACQ, P_IMMORTAL, IMM(1, RT) },
	{ OP_ADD_NZ_ACQ, P_IMMORTAL, IMM(2, RT) },
	{ OP_DEC, P_IMMORTAL, IMM(-1, RV) },
	{ OP_DEC_AND_TEST, P_IMMORTAL, IMM(-1, RF) },
	{ OP_SUB_AND_TEST, P_IMMORTAL, IMM(-2, RF) },
	{ OP_DEC_IF_ONE, P_IMMORTAL, ALL(REL(0, RF, NONE)) },
	{ OP_DEC_NOT_ONE, P_IMMORTAL, IMM(-1, RT) },
	{ OP_DEC_AND_MUTEX_LOCK, P_IMMORTAL, IMM(-1, RF) },
	{ OP_DEC_AND_LOCK, P_IMMORTAL, IMM(-1, RF) },

	/* inc: the full breed refuses 0, fast and atomic take it. */
	{ OP_INC,
	  P_0,
	  { [B_ATOMIC] = REL(1, RV, NONE),
	    [B_FAST] = REL(1, RV, NONE),
	    [B_FULL] = REL(0, RV, AUAF),
	    SATURATING(SAT(RV, AUAF)) } },
	{ OP_INC, P_1, ALL(REL(1, RV, NONE)) },
	{ OP_INC, P_MAXM1, ALL(REL(1, RV, NONE)) },
	{ OP_INC, P_MAX, CHECKED(1, RV, SAT(RV, AOVF)) },
	{ OP_INC, P_SAT, CHECKED(1, RV, SAT(RV, AOVF)) },
	/* Full: INT_MAX is an ordinary count. */
	{ OP_INC,
	  P_INT_MAX,
	  { [B_ATOMIC] = REL(1, RV, NONE),
	    [B_FAST] = SAT(RV, AOVF),
	    [B_FULL] = REL(1, RV, NONE),
	    SATURATING(SAT(RV, AOVF)) } },

	{ OP_ADD,
	  P_0,
	  { [B_ATOMIC] = REL(2, RV, NONE),
	    [B_FAST] = REL(2, RV, NONE),
	    [B_FULL] = REL(0, RV, AUAF),
	    SATURATING(SAT(RV, AUAF)) } },
	{ OP_ADD, P_1, ALL(REL(2, RV, NONE)) },
	{ OP_ADD, P_MAXM1, CHECKED(2, RV, SAT(RV, AOVF)) },
	{ OP_ADD, P_MAX, CHECKED(2, RV, SAT(RV, AOVF)) },
	{ OP_ADD, P_SAT, CHECKED(2, RV, SAT(RV, AOVF)) },
	/* The saturating design's set stores INT_MIN as SATURATED. */
	{ OP_ADD,
	  P_INT_MIN,
	  { [B_ATOMIC] = REL(2, RV, NONE),
	    [B_FAST] = SAT(RV, AOVF),
	    [B_FULL] = REL(2, RV, NONE),
	    SATURATING(SAT(RV, AOVF)) } },

	/* inc_not_zero: true even when it saturates. */
	{ OP_INC_NZ, P_0, ALL(REL(0, RF, NONE)) },
	{ OP_INC_NZ, P_1, ALL(REL(1, RT, NONE)) },
	{ OP_INC_NZ, P_MAXM1, ALL(REL(1, RT, NONE)) },
	{ OP_INC_NZ, P_MAX, CHECKED(1, RT, SAT(RT, ANZ)) },
	{ OP_INC_NZ, P_SAT, CHECKED(1, RT, SAT(RT, ANZ)) },
	{ OP_INC_NZ,
	  P_INT_MAX,
	  { [B_ATOMIC] = REL(1, RT, NONE),
	    [B_FAST] = SAT(RT, ANZ),
	    [B_FULL] = REL(1, RT, NONE),
	    SATURATING(SAT(RT, ANZ)) } },

	{ OP_ADD_NZ, P_0, ALL(REL(0, RF, NONE)) },
	{ OP_ADD_NZ, P_1, ALL(REL(2, RT, NONE)) },
	{ OP_ADD_NZ, P_MAXM1, CHECKED(2, RT, SAT(RT, ANZ)) },
	{ OP_ADD_NZ, P_MAX, CHECKED(2, RT, SAT(RT, ANZ)) },
	{ OP_ADD_NZ, P_SAT, CHECKED(2, RT, SAT(RT, ANZ)) },

	/*
	 * The 2025 _acquire forms: in the saturating breed the limited
	 * variant with limit INT_MAX, which refuses (false, no change, no
	 * report) an add past INT_MAX and a saturated counter
	 * (docs/kernel-semantics.md, 'The saturating breed').
	 * Other breeds: as the plain forms.
	 */
	{ OP_INC_NZ_ACQ, P_0, ALL(REL(0, RF, NONE)) },
	{ OP_INC_NZ_ACQ, P_1, ALL(REL(1, RT, NONE)) },
	{ OP_INC_NZ_ACQ, P_MAXM1, ALL(REL(1, RT, NONE)) },
	{ OP_INC_NZ_ACQ,
	  P_MAX,
	  { [B_ATOMIC] = REL(1, RT, NONE),
	    [B_FAST] = SAT(RT, ANZ),
	    [B_FULL] = SAT(RT, ANZ),
	    SATURATING(REL(0, RF, NONE)) } },
	{ OP_INC_NZ_ACQ,
	  P_SAT,
	  { [B_ATOMIC] = REL(1, RT, NONE),
	    [B_FAST] = SAT(RT, ANZ),
	    [B_FULL] = SAT(RT, ANZ),
	    SATURATING(REL(0, RF, NONE)) } },

	{ OP_ADD_NZ_ACQ, P_0, ALL(REL(0, RF, NONE)) },
	{ OP_ADD_NZ_ACQ, P_1, ALL(REL(2, RT, NONE)) },
	{ OP_ADD_NZ_ACQ,
	  P_MAXM1,
	  { [B_ATOMIC] = REL(2, RT, NONE),
	    [B_FAST] = SAT(RT, ANZ),
	    [B_FULL] = SAT(RT, ANZ),
	    SATURATING(REL(0, RF, NONE)) } },
	{ OP_ADD_NZ_ACQ,
	  P_MAX,
	  { [B_ATOMIC] = REL(2, RT, NONE),
	    [B_FAST] = SAT(RT, ANZ),
	    [B_FULL] = SAT(RT, ANZ),
	    SATURATING(REL(0, RF, NONE)) } },
	{ OP_ADD_NZ_ACQ,
	  P_SAT,
	  { [B_ATOMIC] = REL(2, RT, NONE),
	    [B_FAST] = SAT(RT, ANZ),
	    [B_FULL] = SAT(RT, ANZ),
	    SATURATING(REL(0, RF, NONE)) } },

	/* dec: full lets 1 -> 0 happen (and warns), refuses 0 -> -1. */
	{ OP_DEC,
	  P_0,
	  { [B_ATOMIC] = REL(-1, RV, NONE),
	    [B_FAST] = SAT(RV, DLEAK),
	    [B_FULL] = REL(0, RV, DLEAK),
	    SATURATING(SAT(RV, DLEAK)) } },
	{ OP_DEC,
	  P_1,
	  { [B_ATOMIC] = REL(-1, RV, NONE),
	    [B_FAST] = SAT(RV, DLEAK),
	    [B_FULL] = REL(-1, RV, DLEAK),
	    SATURATING(SAT(RV, DLEAK)) } },
	{ OP_DEC, P_MAXM1, ALL(REL(-1, RV, NONE)) },
	{ OP_DEC, P_MAX, ALL(REL(-1, RV, NONE)) },
	{ OP_DEC, P_SAT, CHECKED(-1, RV, SAT(RV, DLEAK)) },
	/*
	 * INT_MIN - 1 = INT_MAX: fast's `lock decl` sets OF but neither ZF
	 * nor SF, so it does not trap; full counts are unsigned.  The
	 * saturating design's set stores INT_MIN as SATURATED (set_stores()).
	 */
	{ OP_DEC,
	  P_INT_MIN,
	  { [B_ATOMIC] = REL(-1, RV, NONE),
	    [B_FAST] = REL(-1, RV, NONE),
	    [B_FULL] = REL(-1, RV, NONE),
	    SATURATING(SAT(RV, DLEAK)) } },

	{ OP_DEC_AND_TEST,
	  P_0,
	  { [B_ATOMIC] = REL(-1, RF, NONE),
	    [B_FAST] = SAT(RF, SUAF),
	    [B_FULL] = REL(0, RF, SUAF),
	    SATURATING(SAT(RF, SUAF)) } },
	{ OP_DEC_AND_TEST, P_1, ALL(REL(-1, RT, NONE)) },
	{ OP_DEC_AND_TEST, P_MAXM1, ALL(REL(-1, RF, NONE)) },
	{ OP_DEC_AND_TEST, P_MAX, ALL(REL(-1, RF, NONE)) },
	{ OP_DEC_AND_TEST, P_SAT, CHECKED(-1, RF, SAT(RF, SUAF)) },
	{ OP_DEC_AND_TEST,
	  P_UINT_MAX,
	  { [B_ATOMIC] = REL(-1, RF, NONE),
	    [B_FAST] = SAT(RF, SUAF),
	    [B_FULL] = SAT(RF, SUAF),
	    SATURATING(SAT(RF, SUAF)) } },

	{ OP_SUB_AND_TEST,
	  P_0,
	  { [B_ATOMIC] = REL(-2, RF, NONE),
	    [B_FAST] = SAT(RF, SUAF),
	    [B_FULL] = REL(0, RF, SUAF),
	    SATURATING(SAT(RF, SUAF)) } },
	{ OP_SUB_AND_TEST,
	  P_1,
	  { [B_ATOMIC] = REL(-2, RF, NONE),
	    [B_FAST] = SAT(RF, SUAF),
	    [B_FULL] = REL(0, RF, SUAF),
	    SATURATING(SAT(RF, SUAF)) } },
	{ OP_SUB_AND_TEST, P_2, ALL(REL(-2, RT, NONE)) },
	{ OP_SUB_AND_TEST, P_MAXM1, ALL(REL(-2, RF, NONE)) },
	{ OP_SUB_AND_TEST, P_MAX, ALL(REL(-2, RF, NONE)) },
	{ OP_SUB_AND_TEST, P_SAT, CHECKED(-2, RF, SAT(RF, SUAF)) },
	/*
	 * INT_MIN - 2 is positive: no SF, so fast's `lock subl; js` goes on;
	 * the saturating design stores SATURATED (see OP_DEC at INT_MIN).
	 */
	{ OP_SUB_AND_TEST,
	  P_INT_MIN,
	  { [B_ATOMIC] = REL(-2, RF, NONE),
	    [B_FAST] = REL(-2, RF, NONE),
	    [B_FULL] = REL(-2, RF, NONE),
	    SATURATING(SAT(RF, SUAF)) } },

	/* dec_if_one: one CAS 1 -> 0, nothing detected, every breed. */
	{ OP_DEC_IF_ONE, P_0, ALL(REL(0, RF, NONE)) },
	{ OP_DEC_IF_ONE, P_1, ALL(REL(-1, RT, NONE)) },
	{ OP_DEC_IF_ONE, P_MAXM1, ALL(REL(0, RF, NONE)) },
	{ OP_DEC_IF_ONE, P_MAX, ALL(REL(0, RF, NONE)) },
	{ OP_DEC_IF_ONE, P_SAT, ALL(REL(0, RF, NONE)) },

	/*
	 * dec_not_one: checked in every breed; on 0 it reports "underflow"
	 * without saturating.  "Saturated" is UINT_MAX for the 2017 breeds
	 * (so fast and atomic step on from INT_MIN / 2) and
	 * REFCOUNT_SATURATED for the saturating breed, whose set stores
	 * UINT_MAX (-1) as SATURATED: the kernel would step on to -2.
	 */
	{ OP_DEC_NOT_ONE, P_0, ALL(REL(0, RT, SUAF)) },
	{ OP_DEC_NOT_ONE, P_1, ALL(REL(0, RF, NONE)) },
	{ OP_DEC_NOT_ONE, P_MAXM1, ALL(REL(-1, RT, NONE)) },
	{ OP_DEC_NOT_ONE, P_MAX, ALL(REL(-1, RT, NONE)) },
	{ OP_DEC_NOT_ONE,
	  P_SAT,
	  { [B_ATOMIC] = REL(-1, RT, NONE),
	    [B_FAST] = REL(-1, RT, NONE),
	    [B_FULL] = REL(0, RT, NONE),
	    SATURATING(REL(0, RT, NONE)) } },
	{ OP_DEC_NOT_ONE,
	  P_UINT_MAX,
	  { [B_ATOMIC] = REL(0, RT, NONE),
	    [B_FAST] = REL(0, RT, NONE),
	    [B_FULL] = REL(0, RT, NONE),
	    SATURATING(SAT(RT, NONE)) } },

	/* The lock helpers: true (lock held) only on 1 -> 0. */
	{ OP_DEC_AND_MUTEX_LOCK, P_0, ALL(REL(0, RF, SUAF)) },
	{ OP_DEC_AND_MUTEX_LOCK, P_1, ALL(REL(-1, RT, NONE)) },
	{ OP_DEC_AND_MUTEX_LOCK, P_MAXM1, ALL(REL(-1, RF, NONE)) },
	{ OP_DEC_AND_MUTEX_LOCK, P_MAX, ALL(REL(-1, RF, NONE)) },
	{ OP_DEC_AND_MUTEX_LOCK,
	  P_SAT,
	  { [B_ATOMIC] = REL(-1, RF, NONE),
	    [B_FAST] = REL(-1, RF, NONE),
	    [B_FULL] = REL(0, RF, NONE),
	    SATURATING(REL(0, RF, NONE)) } },
	{ OP_DEC_AND_LOCK, P_0, ALL(REL(0, RF, SUAF)) },
	{ OP_DEC_AND_LOCK, P_1, ALL(REL(-1, RT, NONE)) },
	{ OP_DEC_AND_LOCK, P_MAXM1, ALL(REL(-1, RF, NONE)) },
	{ OP_DEC_AND_LOCK, P_MAX, ALL(REL(-1, RF, NONE)) },
	{ OP_DEC_AND_LOCK,
	  P_SAT,
	  { [B_ATOMIC] = REL(-1, RF, NONE),
	    [B_FAST] = REL(-1, RF, NONE),
	    [B_FULL] = REL(0, RF, NONE),
	    SATURATING(REL(0, RF, NONE)) } },
};

#define NR_ROWS (sizeof(rows) / sizeof(rows[0]))

static pthread_mutex_t mutex;
static pthread_spinlock_t spin;

/* The plain form of an operation, or its __refcount_*() form with @oldp. */
#define FORM(name, ...)                                                        \
	(oldp ? BT_(name)(__VA_ARGS__, oldp) : BT(name)(__VA_ARGS__))

/* Run @op on @r; with @oldp, the __refcount_*() form. */
static int run_op(enum op op, BT_T *r, BT_V *oldp)
{
	switch (op) {
	case OP_INC:
		FORM(inc, r);
		return RV;
	case OP_ADD:
		FORM(add, 2, r);
		return RV;
	case OP_INC_NZ:
		return FORM(inc_not_zero, r);
	case OP_ADD_NZ:
		return FORM(add_not_zero, 2, r);
	case OP_INC_NZ_ACQ:
		return FORM(inc_not_zero_acquire, r);
	case OP_ADD_NZ_ACQ:
		return FORM(add_not_zero_acquire, 2, r);
	case OP_DEC:
		FORM(dec, r);
		return RV;
	case OP_DEC_AND_TEST:
		return FORM(dec_and_test, r);
	case OP_SUB_AND_TEST:
		return FORM(sub_and_test, 2, r);
	case OP_DEC_IF_ONE:
		return BT(dec_if_one)(r);
	case OP_DEC_NOT_ONE:
		return BT(dec_not_one)(r);
#ifdef BT_LOCKS
	case OP_DEC_AND_MUTEX_LOCK:
		return refcount_dec_and_mutex_lock(r, &mutex);
	case OP_DEC_AND_LOCK:
		return refcount_dec_and_lock(r, &spin);
#else
	case OP_DEC_AND_MUTEX_LOCK:
	case OP_DEC_AND_LOCK:
#endif
	case NR_OPS:
		break;
	}
	return RV;
}

/* After a lock helper: held by us iff it returned true; release it. */
static void check_lock(const char *what, enum op op, int ret)
{
	if (op == OP_DEC_AND_MUTEX_LOCK) {
		int busy = trylock_from_other_thread(&mutex);

		cr_assert_eq(busy, ret ? EBUSY : 0, "%s: lock %s", what,
			     ret ? "not held" : "left held");
		/* Error-checking mutex: only the owner may unlock. */
		if (ret)
			cr_assert_eq(pthread_mutex_unlock(&mutex), 0,
				     "%s: lock not held by the caller", what);
	} else if (op == OP_DEC_AND_LOCK) {
		int busy = spin_trylock_from_other_thread(&spin);

		cr_assert_eq(busy, ret ? EBUSY : 0, "%s: lock %s", what,
			     ret ? "not held" : "left held");
		if (ret)
			pthread_spin_unlock(&spin);
	}
}

static void check_row(const struct row *row, bool with_oldp)
{
	const struct cell *c = &row->c[BT_COLUMN];
	BT_UV start = point_value(row->p), stored = set_stores(start), want;
	BT_V oldp = 0x5a5a5a5a;
	struct report_counts before;
	BT_T r;
	const char *why;
	char what[96];
	int ret;

	snprintf(what, sizeof(what), "%s%s at %s (" BT_X ")",
		 with_oldp ? BT_NAME_ : BT_NAME, op_names[row->op],
		 point_names[row->p], start);
	cr_assert(c->known, "%s: the table has no entry for this breed", what);
	want = c->sat ? (BT_UV)BT_SATURATED : stored + (BT_UV)(BT_V)c->delta;

	BT(set)(&r, (BT_V)start);
	report_counts_snap(&before);
	ret = run_op(row->op, &r, with_oldp ? &oldp : NULL);

	cr_assert_eq(BT(read)(&r), want, "%s: value " BT_X ", expected " BT_X,
		     what, BT(read)(&r), want);
	cr_assert_eq(ret, c->ret, "%s: returned %d, expected %d", what, ret,
		     c->ret);
	if (with_oldp)
		cr_assert_eq(oldp, (BT_V)stored,
			     "%s: *oldp = " BT_D ", expected " BT_D, what, oldp,
			     (BT_V)stored);
	cr_assert(report_counts_delta_ok(&before, c->type, 1, &why), "%s: %s",
		  what, why);
	if (c->type != NO_REPORT)
		cr_assert_eq(quiet_last_counter(), (void *)&r,
			     "%s: handler got another counter", what);
	check_lock(what, row->op, ret);
}

static void setup(void)
{
	quiet_install();
	errorcheck_mutex_init(&mutex);
	pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
}

/* One test per operation, over its rows. */
static void check_op(enum op op)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < NR_ROWS; i++) {
		if (rows[i].op != op)
			continue;
#ifndef BT_LOCKS
		if (op == OP_DEC_AND_MUTEX_LOCK || op == OP_DEC_AND_LOCK)
			continue;
#endif
		check_row(&rows[i], false);
		if (has_oldp(op))
			check_row(&rows[i], true);
		n++;
	}
	cr_assert_geq(n, 5, "%s: only %u boundary values", op_names[op], n);
}

#define OP_TEST(name, op)                                                      \
	Test(BT_SUITE, name, .init = setup)                                    \
	{                                                                      \
		check_op(op);                                                  \
	}
OP_TEST(inc, OP_INC)
OP_TEST(add, OP_ADD)
OP_TEST(inc_not_zero, OP_INC_NZ)
OP_TEST(add_not_zero, OP_ADD_NZ)
OP_TEST(inc_not_zero_acquire, OP_INC_NZ_ACQ)
OP_TEST(add_not_zero_acquire, OP_ADD_NZ_ACQ)
OP_TEST(dec, OP_DEC)
OP_TEST(dec_and_test, OP_DEC_AND_TEST)
OP_TEST(sub_and_test, OP_SUB_AND_TEST)
OP_TEST(dec_if_one, OP_DEC_IF_ONE)
OP_TEST(dec_not_one, OP_DEC_NOT_ONE)
#ifdef BT_LOCKS
OP_TEST(dec_and_mutex_lock, OP_DEC_AND_MUTEX_LOCK)
OP_TEST(dec_and_lock, OP_DEC_AND_LOCK)
#endif

/*
 * Immortal: the initializer and the setter give REFCOUNT_IMMORTAL, which is
 * neither SATURATED nor MAX nor 0; refcount_is_immortal() allows for the
 * drift of racing operations (2^28 either way), and no more.
 */
Test(BT_SUITE, immortal)
{
#ifdef BOUNDARY_LONG
	BT_T r = REFCOUNT_LONG_INIT_IMMORTAL;
#else
	BT_T r = REFCOUNT_INIT_IMMORTAL;
#endif
	static const BT_V not_immortal[] = {
		0,
		1,
		BT_VMAX,
		BT_VMIN,
		-1,
		BT_SATURATED,
		BT_MAX,
		BT_IMMORTAL - BT_ZONE - 1,
		BT_IMMORTAL + BT_ZONE,
	};

	cr_assert_eq(BT(read)(&r), (BT_UV)BT_IMMORTAL);
	cr_assert(BT(is_immortal)(&r));
	cr_assert_neq((BT_UV)BT_IMMORTAL, (BT_UV)BT_SATURATED);
	BT(set)(&r, 1);
	cr_assert(!BT(is_immortal)(&r));
	BT(set_immortal)(&r);
	cr_assert_eq(BT(read)(&r), (BT_UV)BT_IMMORTAL);
	BT(set)(&r, BT_IMMORTAL + BT_ZONE - 1);
	cr_assert(BT(is_immortal)(&r));
	BT(set)(&r, BT_IMMORTAL - BT_ZONE);
	cr_assert(BT(is_immortal)(&r));
	for (unsigned int i = 0;
	     i < sizeof(not_immortal) / sizeof(not_immortal[0]); i++) {
		BT(set)(&r, not_immortal[i]);
		cr_assert(!BT(is_immortal)(&r), BT_X " is not immortal",
			  (BT_UV)not_immortal[i]);
	}
}

/*
 * set/read round-trip every boundary value (and its neighbour), set_release
 * and the static initializer too; in the saturating design a negative
 * value outside the immortal band reads SATURATED (set_stores()).
 */
Test(BT_SUITE, set_read)
{
	BT_T r;

	BT(set)(&r, BT_SATURATED);
	cr_assert_eq(BT(read)(&r), (BT_UV)BT_SATURATED);
	for (int p = P_0; p <= P_IMMORTAL; p++) {
		BT_UV v = point_value(p);

		BT(set)(&r, (BT_V)v);
		cr_assert_eq(BT(read)(&r), set_stores(v), "%s reads " BT_X,
			     point_names[p], BT(read)(&r));
		BT(set_release)(&r, (BT_V)(v ^ 1));
		cr_assert_eq(BT(read)(&r), set_stores(v ^ 1),
			     "%s ^ 1 reads " BT_X, point_names[p],
			     BT(read)(&r));
	}
}

/*
 * Every negative value a set can be given, around -MAX, SATURATED and the
 * edges of the immortal band: the initializer, the set and the set_release
 * store the same word, and only the immortal band keeps its value.  A put
 * of one on each is then the kernel's put on a negative count: saturated
 * and reported, or, on REFCOUNT_IMMORTAL, a silent no-op.
 */
#ifdef BT_SETS_SATURATED
#ifdef BOUNDARY_LONG
#define BT_INIT(n) REFCOUNT_LONG_INIT(n)
#else
#define BT_INIT(n) REFCOUNT_INIT(n)
#endif
/* clang-format off */
#define BT_NEGATIVES(X)                                                        \
	X(BT_VMIN) X(BT_VMIN + 1) X(BT_VMIN + 2) X(-1) X(-2)                   \
	X(BT_SATURATED - 1) X(BT_SATURATED + 1) X(BT_IMMORTAL)                 \
	X(BT_IMMORTAL - BT_ZONE) X(BT_IMMORTAL - BT_ZONE - 1)                  \
	X(BT_IMMORTAL + BT_ZONE - 1) X(BT_IMMORTAL + BT_ZONE)
/* clang-format on */
#define BT_STATIC(n) BT_INIT(n),
#define BT_VALUE(n) (n),
Test(BT_SUITE, set_negative, .init = setup)
{
	static const BT_T init[] = { BT_NEGATIVES(BT_STATIC) };
	static const BT_V vals[] = { BT_NEGATIVES(BT_VALUE) };
	struct report_counts before;
	const char *why;

	for (unsigned int k = 0; k < sizeof(vals) / sizeof(vals[0]); k++) {
		BT_UV want = set_stores((BT_UV)vals[k]);
		bool sat = want == (BT_UV)BT_SATURATED;
		BT_T r = init[k], s, t;

		BT(set)(&s, vals[k]);
		BT(set_release)(&t, vals[k]);
		cr_assert_eq(BT(read)(&r), want,
			     BT_X " initialised reads " BT_X, (BT_UV)vals[k],
			     BT(read)(&r));
		cr_assert_eq(r.refs, s.refs, BT_X ": set", (BT_UV)vals[k]);
		cr_assert_eq(r.refs, t.refs, BT_X ": set_release",
			     (BT_UV)vals[k]);
		cr_assert_eq(BT(is_immortal)(&r), !sat, BT_X, (BT_UV)vals[k]);
		if (!sat && vals[k] != BT_IMMORTAL)
			continue; /* an edge of the band: a put may leave it */
		report_counts_snap(&before);
		cr_assert(!BT(dec_and_test)(&r));
		cr_assert_eq(BT(read)(&r), want);
		cr_assert(report_counts_delta_ok(
				  &before, sat ? REFCOUNT_SUB_UAF : NO_REPORT,
				  sat, &why),
			  BT_X ": %s", (BT_UV)vals[k], why);
	}
}
#endif

/*
 * sub_and_test(0) on 0: the current kernel's `old > 0 &&` guard makes the
 * saturating breed refuse it (docs/kernel-semantics.md, 'The saturating
 * breed'); the 2017 breeds return true (full:
 * 0 - 0 does not underflow and the result is 0; fast: `lock subl` sets ZF;
 * atomic: old == i).
 */
Test(BT_SUITE, sub_and_test_0_at_0, .init = setup)
{
	static const struct cell want[NR_BREEDS] = {
		[B_ATOMIC] = REL(0, RT, NONE),
		[B_FAST] = REL(0, RT, NONE),
		[B_FULL] = REL(0, RT, NONE),
		SATURATING(SAT(RF, SUAF))
	};
	const struct cell *c = &want[BT_COLUMN];
	struct report_counts before;
	const char *why;

	cr_assert(c->known, "the table has no entry for this breed");
	for (int form = 0; form < 2; form++) {
		BT_T r;
		BT_V oldp = -7;
		bool ret;

		BT(set)(&r, 0);
		report_counts_snap(&before);
		ret = form ? BT_(sub_and_test)(0, &r, &oldp) :
			     BT(sub_and_test)(0, &r);
		cr_assert_eq(ret, c->ret, "form %d", form);
		cr_assert_eq(BT(read)(&r), c->sat ? (BT_UV)BT_SATURATED : 0u);
		cr_assert(report_counts_delta_ok(&before, c->type, 1, &why),
			  "%s", why);
		if (form)
			cr_assert_eq(oldp, 0);
	}
}

/*
 * Each operation inlined into a cold function: the compiler emits that into
 * .text.unlikely, and an asm stub pushed into the same section would sit on
 * the common case's path (every good get and put reported).  Good steps on
 * a count of 5: none reports, each gives its usual result.
 */
static __attribute__((cold, noinline)) int cold_steps(BT_T *r)
{
	int bad = 0;

	BT(inc)(r);
	BT(add)(2, r);
	bad |= !BT(inc_not_zero)(r) << 0;
	bad |= !BT(add_not_zero)(2, r) << 1;
	bad |= BT(dec_and_test)(r) << 2;
	bad |= BT(sub_and_test)(2, r) << 3;
	BT(dec)(r);
	return bad;
}

Test(BT_SUITE, cold_caller, .init = setup)
{
	struct report_counts before;
	const char *why;
	BT_T r;

	BT(set)(&r, 5);
	report_counts_snap(&before);
	cr_assert_eq(cold_steps(&r), 0);
	cr_assert_eq(BT(read)(&r), 7u);
	cr_assert(report_counts_delta_ok(&before, NO_REPORT, 0, &why), "%s",
		  why);
}

#if defined(__REFCOUNT_SATURATING_DESIGN) || defined(BOUNDARY_LONG)
/*
 * __refcount_add_not_zero_limited_acquire(): false, unchanged and silent
 * when @i would pass @limit, or on 0 (the 2025 kernel;
 * docs/kernel-semantics.md, 'The saturating breed').
 */
Test(BT_SUITE, add_not_zero_limited_acquire, .init = setup)
{
	static const struct {
		BT_V start, i, limit;
		int ret;
		BT_V final;
	} cases[] = {
		{ 0, 1, 10, 0, 0 },  { 1, 1, 10, 1, 2 },
		{ 9, 1, 10, 1, 10 }, { 10, 1, 10, 0, 10 },
		{ 8, 3, 10, 0, 8 },  { 7, 3, 10, 1, 10 },
		{ 5, 1, 5, 0, 5 },   { BT_VMAX - 1, 1, BT_VMAX, 1, BT_VMAX },
	};
	struct report_counts before;
	const char *why;

	report_counts_snap(&before);
	for (unsigned int k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		BT_T r;
		BT_V oldp = -7;
		int ret;

		BT(set)(&r, cases[k].start);
		ret = BT_(add_not_zero_limited_acquire)(cases[k].i, &r, &oldp,
							cases[k].limit);
		cr_assert_eq(ret, cases[k].ret, "case %u", k);
		cr_assert_eq((BT_V)BT(read)(&r), cases[k].final, "case %u", k);
		cr_assert_eq(oldp, cases[k].start, "case %u", k);
	}
	{
		BT_T three;

		BT(set)(&three, 3);
		cr_assert(BT_(inc_not_zero_limited_acquire)(&three, NULL, 4));
	}
	cr_assert(report_counts_delta_ok(&before, NO_REPORT, 0, &why), "%s",
		  why);
}
#endif

#if defined(__REFCOUNT_SATURATING_DESIGN) || defined(BOUNDARY_LONG)
/*
 * Zeroed memory: the saturating design's word 0, the count MIN
 * (docs/design.md, 'The increment and the flags').  It reads 0; every
 * try-get refuses it silently and leaves it; a get saturates and reports an
 * add to 0; a put is the hole: silent, to MAX, false.
 */
Test(BT_SUITE, zeroed_memory, .init = setup)
{
	struct report_counts before;
	const char *why;
	BT_V oldp = 7;
	BT_T r;

	memset(&r, 0, sizeof(r));
	cr_assert_eq(BT(read)(&r), 0);
	report_counts_snap(&before);
	cr_assert(!BT(inc_not_zero)(&r));
	cr_assert(!BT(add_not_zero)(2, &r));
	cr_assert(!BT(inc_not_zero_acquire)(&r));
	cr_assert(!BT(add_not_zero_acquire)(2, &r));
	cr_assert(!BT_(add_not_zero)(2, &r, &oldp));
	cr_assert_eq(oldp, BT_VMIN);
	cr_assert(!BT_(add_not_zero_limited_acquire)(1, &r, NULL, BT_VMAX));
	cr_assert_eq(BT(read)(&r), 0, "a try-get moved it");
	cr_assert(report_counts_delta_ok(&before, NO_REPORT, 0, &why), "%s",
		  why);

	cr_assert(!BT(dec_and_test)(&r));
	cr_assert_eq(BT(read)(&r), (BT_UV)BT_VMAX);
	cr_assert(report_counts_delta_ok(&before, NO_REPORT, 0, &why), "%s",
		  why);

	memset(&r, 0, sizeof(r));
	report_counts_snap(&before);
	BT(inc)(&r);
	cr_assert_eq(BT(read)(&r), (BT_UV)BT_SATURATED);
	cr_assert(report_counts_delta_ok(&before, REFCOUNT_ADD_UAF, 1, &why),
		  "%s", why);
}
#endif

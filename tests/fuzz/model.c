// SPDX-License-Identifier: MIT
/*
 * model.c - the sequential reference model (see model.h)
 *
 * One function per breed, each a transcription of its breed's table in
 * docs/kernel-semantics.md.  All arithmetic is on uint32_t (wrapping, as the
 * kernel's -fno-strict-overflow int arithmetic); "s()" is the signed view
 * those tables' "< 0" tests mean.
 *
 * Where the kernel leaves a detail to the implementation, the model follows
 * the library's documented contract (include/refcount/report.h and the
 * breed headers), and says so:
 *  - the report type of the 2017 breeds, which had no types: the type
 *    follows the operation (inc/add -> ADD_OVF or ADD_UAF, *_not_zero ->
 *    ADD_NOT_ZERO_OVF, sub/dec_and_test/dec_not_one -> SUB_UAF, dec ->
 *    DEC_LEAK);
 *  - silent cases (fast: SF only; full: no-op on a saturated counter) are
 *    still counted as reports;
 *  - the _acquire forms of the 2017 breeds (a 2025 API) behave as the plain
 *    _not_zero forms.
 */
#include "model.h"

static int32_t s(uint32_t v)
{
	return (int32_t)v;
}

uint32_t model_max(enum model_breed b)
{
	return b == MODEL_FULL ? MODEL_UINT_MAX - 1 : MODEL_INT_MAX;
}

uint32_t model_saturated(enum model_breed b)
{
	return b == MODEL_FULL ? MODEL_UINT_MAX : MODEL_INT_MIN_HALF;
}

/*
 * The saturating design's word 0 is the count INT_MIN and zeroed memory;
 * refcount_read() gives 0 for it (docs/design.md, 'The increment and the
 * flags').
 */
uint32_t model_read(enum model_breed b, uint32_t v)
{
	if ((b == MODEL_SATURATING || b == MODEL_NONATOMIC) && v == 0x80000000u)
		return 0;
	return v;
}

/*
 * What a set stores.  The kernel stores any value; the saturating design's
 * set stores a negative count outside the immortal band as INT_MIN / 2,
 * which the kernel's next checking operation on that count stores anyway,
 * with the same report.  Only the value read straight after the set (and
 * what dec_not_one, dec_if_one and the limited try-get, which report
 * nothing on a negative count, leave) tells them apart.  The reason: the
 * count -INT_MAX is then never stored, so the x86 put is `lock incl; js`,
 * one branch (docs/design.md, 'The increment and the flags';
 * docs/kernel-semantics.md, 'The saturating breed').
 */
static bool immortal(uint32_t v);

uint32_t model_set(enum model_breed b, uint32_t v)
{
	if ((b == MODEL_SATURATING || b == MODEL_NONATOMIC) && s(v) < 0 &&
	    !immortal(v))
		return MODEL_INT_MIN_HALF;
	return v;
}

static void report(struct model_result *res, enum model_report t)
{
	res->reports[t]++;
}

/*
 * The library's immortal counters (REFCOUNT_IMMORTAL, <refcount/types.h>):
 * a value within 2^28 of 0xa0000000, which the cold path of the breeds that
 * keep it (saturating, fast) puts back, silently, instead of saturating.
 */
static bool immortal(uint32_t v)
{
	return v - 0x90000000u < 0x20000000u;
}

/* 'The saturating breed': saturate = store INT_MIN / 2, then report. */
static void saturate(struct model_counter *c, struct model_result *res,
		     enum model_report t)
{
	if (immortal(c->v)) {
		c->v = MODEL_IMMORTAL;
		return;
	}
	c->v = MODEL_INT_MIN_HALF;
	report(res, t);
}

/*
 * refcount_dec_if_one() and refcount_dec_not_one(): lib/refcount.c, the same
 * in every breed except for the value dec_not_one treats as saturated:
 * UINT_MAX before v5.5, also in the fast and atomic breeds
 * (docs/kernel-semantics.md, 'Common to every breed'), REFCOUNT_SATURATED
 * from v5.5 ('The saturating breed').
 */
static bool dec_if_one(struct model_counter *c)
{
	if (c->v != 1)
		return false;
	c->v = 0;
	return true;
}

static bool dec_not_one(enum model_breed b, struct model_counter *c,
			struct model_result *res)
{
	uint32_t sat =
		b == MODEL_SATURATING || b == MODEL_NONATOMIC ?
			MODEL_INT_MIN_HALF :
			MODEL_UINT_MAX;

	if (c->v == sat)
		return true;
	if (immortal(c->v) && b != MODEL_ATOMIC && b != MODEL_FULL)
		return true;
	if (c->v == 1)
		return false;
	if (c->v == 0) {
		/* its own WARN_ONCE "underflow", no saturation, no store */
		report(res, MODEL_SUB_UAF);
		return true;
	}
	c->v--;
	return true;
}

/* 'The atomic breed': every operation is the plain atomic_t one. */
static bool atomic_op(struct model_counter *c, enum model_op op, int32_t i)
{
	uint32_t old = c->v;

	switch (op) {
	case MOP_ADD_NOT_ZERO:
	case MOP_ADD_NOT_ZERO_ACQUIRE:
		/* atomic_add_unless(&refs, i, 0) */
		if (!old)
			return false;
		c->v = old + (uint32_t)i;
		return true;
	case MOP_ADD:
		c->v = old + (uint32_t)i;
		return true;
	case MOP_SUB_AND_TEST:
		c->v = old - (uint32_t)i;
		return c->v == 0;
	case MOP_DEC:
		c->v = old - 1;
		return true;
	default:
		return false;
	}
}

/*
 * 'The fast breed': the locked instruction, then a trap if the result is
 * negative (refcount_dec: zero or negative); the trap stores INT_MIN / 2.
 * add_not_zero is the C cmpxchg loop of the table.
 */
static bool fast_op(struct model_counter *c, enum model_op op, int32_t i,
		    struct model_result *res)
{
	uint32_t old = c->v, new;

	switch (op) {
	case MOP_ADD_NOT_ZERO:
	case MOP_ADD_NOT_ZERO_ACQUIRE:
		if (!old)
			return false;
		new = old + (uint32_t)i;
		if (s(old) < 0 || old == MODEL_INT_MAX || s(new) < s(old)) {
			saturate(c, res, MODEL_ADD_NOT_ZERO_OVF);
			return true; /* "returns (c != 0), so true after a trap" */
		}
		c->v = new;
		return true;
	case MOP_ADD:
		c->v = old + (uint32_t)i;
		if (s(c->v) < 0)
			saturate(c, res, MODEL_ADD_OVF);
		return true;
	case MOP_SUB_AND_TEST:
		c->v = old - (uint32_t)i;
		if (s(c->v) < 0) {
			saturate(c, res, MODEL_SUB_UAF);
			return false;
		}
		return c->v == 0;
	case MOP_DEC:
		c->v = old - 1;
		if (s(c->v) <= 0)
			saturate(c, res, MODEL_DEC_LEAK);
		return true;
	default:
		return false;
	}
}

/*
 * 'The full breed': unsigned, saturates at UINT_MAX, a saturated counter
 * never moves, 0 refuses increments, underflow refuses to move.
 */
static bool full_add_not_zero(struct model_counter *c, uint32_t i,
			      struct model_result *res, enum model_report t)
{
	uint32_t new;

	if (!c->v)
		return false;
	if (c->v == MODEL_UINT_MAX) {
		report(res, t); /* silent, counted */
		return true;
	}
	new = c->v + i;
	if (new < c->v)
		new = MODEL_UINT_MAX;
	c->v = new;
	if (new == MODEL_UINT_MAX) /* landing exactly on it counts too */
		report(res, t);
	return true;
}

static bool full_inc_not_zero(struct model_counter *c, struct model_result *res,
			      enum model_report t)
{
	uint32_t new = c->v + 1;

	if (!c->v)
		return false;
	if (!new) {
		report(res, t); /* saturated: no write, silent, counted */
		return true;
	}
	c->v = new;
	if (new == MODEL_UINT_MAX)
		report(res, t);
	return true;
}

static bool full_sub_and_test(struct model_counter *c, uint32_t i,
			      struct model_result *res, enum model_report t)
{
	uint32_t new;

	if (c->v == MODEL_UINT_MAX) {
		report(res, t); /* saturated: no write, silent, counted */
		return false;
	}
	new = c->v - i;
	if (new > c->v) {
		report(res, t); /* underflow: refused */
		return false;
	}
	c->v = new;
	return !new;
}

static bool full_op(struct model_counter *c, enum model_op op, int32_t i,
		    struct model_result *res)
{
	switch (op) {
	case MOP_INC_NOT_ZERO:
	case MOP_INC_NOT_ZERO_ACQUIRE:
		return full_inc_not_zero(c, res, MODEL_ADD_NOT_ZERO_OVF);
	case MOP_ADD_NOT_ZERO:
	case MOP_ADD_NOT_ZERO_ACQUIRE:
		return full_add_not_zero(c, (uint32_t)i, res,
					 MODEL_ADD_NOT_ZERO_OVF);
	case MOP_INC:
		if (!full_inc_not_zero(c, res, MODEL_ADD_OVF))
			report(res, MODEL_ADD_UAF); /* "increment on 0" */
		return true;
	case MOP_ADD:
		if (!full_add_not_zero(c, (uint32_t)i, res, MODEL_ADD_OVF))
			report(res, MODEL_ADD_UAF); /* "addition on 0" */
		return true;
	case MOP_DEC_AND_TEST:
		i = 1;
		/* fall through */
	case MOP_SUB_AND_TEST:
		return full_sub_and_test(c, (uint32_t)i, res, MODEL_SUB_UAF);
	case MOP_DEC:
		/* the value does become 0, with "decrement hit 0" */
		if (full_sub_and_test(c, 1, res, MODEL_DEC_LEAK))
			report(res, MODEL_DEC_LEAK);
		return true;
	default:
		return false;
	}
}

/* 'The saturating breed': fetch-then-check; every violation ends SATURATED. */
/*
 * The saturating design's word is INT_MIN - count, and its one hole is the
 * word 0, the count INT_MIN (zeroed memory; docs/design.md, 'The increment
 * and the flags'): a try-get refuses it as it refuses 0, an add to it
 * reports ADD_UAF, and a put on it sets no flag and moves on (to INT_MAX
 * for a dec: a leak, never a free).  A set never stores it (model_set()),
 * so the fuzzer's sequences do not reach it; the boundary test's
 * zeroed_memory does.
 */
#define HOLE 0x80000000u

static bool saturating_op(struct model_counter *c, enum model_op op, int32_t i,
			  int32_t limit, struct model_result *res)
{
	uint32_t old = c->v, new;

	if (old == HOLE &&
	    (op == MOP_ADD_NOT_ZERO || op == MOP_ADD_NOT_ZERO_ACQUIRE ||
	     op == MOP_ADD_NOT_ZERO_LIMITED_ACQUIRE))
		return false; /* refused, unchanged, silent: the hole */
	switch (op) {
	case MOP_ADD_NOT_ZERO_ACQUIRE:
		limit = (int32_t)MODEL_INT_MAX;
		/* fall through */
	case MOP_ADD_NOT_ZERO_LIMITED_ACQUIRE:
		/* "if i > limit - old: return false, no change, no warning" */
		if (old && i > s((uint32_t)limit - old))
			return immortal(old); /* refused, but immortal is taken */
		/* fall through */
	case MOP_ADD_NOT_ZERO:
		/* the CAS loop stops at 0 without writing */
		new = old + (uint32_t)i;
		if (old)
			c->v = new;
		/*
		 * "if old < 0 or old + i < 0 -> saturate", after the loop,
		 * so also on 0 with a negative i.
		 */
		if (s(old) < 0 || s(new) < 0)
			saturate(c, res, MODEL_ADD_NOT_ZERO_OVF);
		return old != 0; /* even when it saturated */
	case MOP_ADD:
		new = old + (uint32_t)i;
		c->v = new;
		if (!old || old == HOLE) /* the hole: an add to 0 */
			saturate(c, res, MODEL_ADD_UAF);
		else if (s(old) < 0 || s(new) < 0)
			saturate(c, res, MODEL_ADD_OVF);
		return true;
	case MOP_SUB_AND_TEST:
		new = old - (uint32_t)i;
		c->v = new;
		if (s(old) > 0 && s(old) == i)
			return true;
		if ((s(old) <= 0 || s(new) < 0) && !(old == HOLE && i > 0))
			saturate(c, res, MODEL_SUB_UAF);
		return false;
	case MOP_DEC:
		c->v = old - 1;
		if (s(old) <= 1 && old != HOLE)
			saturate(c, res, MODEL_DEC_LEAK);
		return true;
	default:
		return false;
	}
}

/*
 * The one-reference operations as the batch ones with i = 1, as the kernel
 * defines them ('The saturating breed': inc_not_zero is add_not_zero(1, r),
 * inc is add(1, r), dec_and_test is sub_and_test(1, r); 'The atomic breed'
 * and 'The fast breed' give inc/incl the same rows as add).  Not for the
 * full breed, whose inc_not_zero is its own loop.
 */
static enum model_op by_one(enum model_op op, int32_t *i)
{
	static const enum model_op batch[] = {
		[MOP_INC] = MOP_ADD,
		[MOP_INC_NOT_ZERO] = MOP_ADD_NOT_ZERO,
		[MOP_INC_NOT_ZERO_ACQUIRE] = MOP_ADD_NOT_ZERO_ACQUIRE,
		[MOP_DEC_AND_TEST] = MOP_SUB_AND_TEST,
	};

	if (op < sizeof(batch) / sizeof(batch[0]) && batch[op]) {
		*i = 1;
		return batch[op];
	}
	return op;
}

static bool breed_op(enum model_breed b, struct model_counter *c,
		     enum model_op op, int32_t i, int32_t limit,
		     struct model_result *res)
{
	if (b != MODEL_FULL)
		op = by_one(op, &i);
	switch (b) {
	case MODEL_ATOMIC:
		return atomic_op(c, op, i);
	case MODEL_FAST:
		return fast_op(c, op, i, res);
	case MODEL_FULL:
		return full_op(c, op, i, res);
	case MODEL_SATURATING:
	case MODEL_NONATOMIC: /* the saturating breed, on one thread */
		return saturating_op(c, op, i, limit, res);
	}
	return false;
}

struct model_result model_apply(enum model_breed b, struct model_counter *c,
				enum model_op op, int32_t i, int32_t limit)
{
	struct model_result res = { .old = s(c->v) };

	switch (op) {
	case MOP_SET:
		c->v = model_set(b, (uint32_t)i);
		res.ret = true;
		break;
	case MOP_DEC_IF_ONE:
		res.ret = dec_if_one(c);
		break;
	case MOP_DEC_NOT_ONE:
		res.ret = dec_not_one(b, c, &res);
		break;
	case MOP_DEC_AND_LOCK:
		/* dec_not_one fast path, else lock + dec_and_test */
		if (dec_not_one(b, c, &res)) {
			res.ret = false;
			break;
		}
		res.ret = breed_op(b, c, MOP_DEC_AND_TEST, 1, 0, &res);
		res.locked = res.ret;
		break;
	default:
		res.ret = breed_op(b, c, op, i, limit, &res);
		break;
	}
	return res;
}

// SPDX-License-Identifier: MIT
/*
 * fuzz.c - differential fuzzer: one breed of librefcount against model.c
 *
 * Built once per breed (-DREFCOUNT_BREED=REFCOUNT_BREED_<X>), as a libFuzzer
 * target (clang -fsanitize=fuzzer) for `make fuzz`, and with replay.c's main
 * for the corpus replay in `make check`.
 *
 * An input is a sequence of operations on NCTR counters (struct kref, so the
 * kref functions work on the same counters):
 *
 *	byte 0..NCTR-1	initial value of each counter (index into vals[])
 *	then per operation:
 *	  op byte	bits 0-5: operation (mod NR_OPS), bit 6: use the
 *			__refcount_*(..., oldp) form
 *	  arg byte	bits 0-1: counter, bits 2-7: index into vals[]; an
 *			index >= NR_VALS takes the next 4 bytes (little endian)
 *	  limit byte	(limited_acquire only) index into vals[]
 *
 * fuzz_sweep() feeds every operation, in both forms, every value of vals[]
 * as the counter and every value as the argument (and as the limit of the
 * limited forms): the tables of docs/kernel-semantics.md, exhaustively, for
 * the replay in `make check`.
 *
 * After every operation it compares, against the model: every counter's
 * value, the return value, *oldp, whether the lock is held, kref releases,
 * and the change of refcount_report_count() for each of the five types,
 * together with what a counting report handler saw.  The first difference
 * aborts with a description (libFuzzer keeps the input as crash-*).
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <refcount/kref.h>
#include <refcount/refcount.h>

#include "model.h"

#define MODEL_OF(name, NAME, ...) MODEL_##NAME
#define MODEL_BREED REFCOUNT_BREED_ROW(MODEL_OF)

#define NCTR 4

/* Counts and arguments near 0, 1, MAX, SATURATED and UINT_MAX ('Constants'). */
static const int32_t vals[] = {
	0,
	1,
	2,
	3,
	4,
	5,
	6,
	7,
	8,
	16,
	-1, /* UINT_MAX: the full breed's SATURATED */
	-2, /* UINT_MAX - 1: the full breed's MAX */
	-3,
	-8,
	INT_MAX,
	INT_MAX - 1,
	INT_MAX - 2,
	INT_MAX - 8,
	INT_MIN, /* INT_MAX + 1 */
	INT_MIN + 1,
	INT_MIN + 8,
	INT_MIN / 2, /* SATURATED */
	INT_MIN / 2 + 1,
	INT_MIN / 2 - 1,
	INT_MIN / 2 + 8,
	INT_MIN / 2 - 8,
	1 << 30,
	(1 << 30) + 1,
	(1 << 30) - 1,
	0x3fffffff + 0x20000000,
	0x10000,
	0xffff,
	-0x60000000, /* REFCOUNT_IMMORTAL */
	-0x60000000 + 1,
	-0x60000000 - 1,
	-0x70000000, /* the immortal zone's edges */
	-0x70000000 - 1,
	-0x50000000 - 1,
	-0x50000000,
};
#define NR_VALS ((int)(sizeof(vals) / sizeof(vals[0])))

enum fuzz_op {
	OP_SET,
	OP_SET_RELEASE,
	OP_INC,
	OP_ADD,
	OP_INC_NOT_ZERO,
	OP_ADD_NOT_ZERO,
	OP_INC_NOT_ZERO_ACQUIRE,
	OP_ADD_NOT_ZERO_ACQUIRE,
	OP_INC_NOT_ZERO_LIMITED_ACQUIRE,
	OP_ADD_NOT_ZERO_LIMITED_ACQUIRE,
	OP_DEC,
	OP_DEC_AND_TEST,
	OP_SUB_AND_TEST,
	OP_DEC_IF_ONE,
	OP_DEC_NOT_ONE,
	OP_DEC_AND_MUTEX_LOCK,
	OP_DEC_AND_LOCK,
	OP_KREF_INIT,
	OP_KREF_GET,
	OP_KREF_PUT,
	OP_KREF_PUT_MUTEX,
	OP_KREF_PUT_LOCK,
	OP_KREF_GET_UNLESS_ZERO,
	NR_OPS
};

static const char *const op_names[NR_OPS] = {
	"refcount_set",
	"refcount_set_release",
	"refcount_inc",
	"refcount_add",
	"refcount_inc_not_zero",
	"refcount_add_not_zero",
	"refcount_inc_not_zero_acquire",
	"refcount_add_not_zero_acquire",
	"__refcount_inc_not_zero_limited_acquire",
	"__refcount_add_not_zero_limited_acquire",
	"refcount_dec",
	"refcount_dec_and_test",
	"refcount_sub_and_test",
	"refcount_dec_if_one",
	"refcount_dec_not_one",
	"refcount_dec_and_mutex_lock",
	"refcount_dec_and_lock",
	"kref_init",
	"kref_get",
	"kref_put",
	"kref_put_mutex",
	"kref_put_lock",
	"kref_get_unless_zero",
};

static struct kref ctr[NCTR];
static pthread_mutex_t mutex;
static pthread_spinlock_t spin;
static unsigned int released[NCTR]; /* kref release calls per counter */
static unsigned long handled[REFCOUNT_NR_SATURATION_TYPES];
static refcount_t *handled_last;

static void count_report(const struct refcount_report *rep)
{
	handled[rep->type]++;
	handled_last = rep->counter;
}

static struct {
	const uint8_t *p;
	size_t n;
} in;

static int get_byte(uint8_t *b)
{
	if (!in.n)
		return 0;
	*b = *in.p++;
	in.n--;
	return 1;
}

static int32_t get_val(unsigned int idx)
{
	uint32_t v = 0;
	uint8_t b;

	if (idx < NR_VALS)
		return vals[idx];
	for (int k = 0; k < 4 && get_byte(&b); k++)
		v |= (uint32_t)b << (8 * k);
	return (int32_t)v;
}

static int ctr_index(struct kref *k)
{
	return (int)(k - ctr);
}

static void release(struct kref *k)
{
	released[ctr_index(k)]++;
}

static void release_mutex(struct kref *k)
{
	released[ctr_index(k)]++;
	/* kref_put_mutex: called with the mutex held; must unlock it */
	if (pthread_mutex_unlock(&mutex)) {
		fprintf(stderr, "kref_put_mutex: release without the lock\n");
		abort();
	}
}

static void release_spin(struct kref *k)
{
	released[ctr_index(k)]++;
	if (pthread_spin_trylock(&spin) != EBUSY) {
		fprintf(stderr, "kref_put_lock: release without the lock\n");
		abort();
	}
	pthread_spin_unlock(&spin);
}

/* Whether the lock is held (by us: single-threaded), and release it. */
static bool mutex_held(void)
{
	if (pthread_mutex_trylock(&mutex) == 0) {
		pthread_mutex_unlock(&mutex);
		return false;
	}
	return pthread_mutex_unlock(&mutex) == 0;
}

static bool spin_held(void)
{
	if (pthread_spin_trylock(&spin) == 0) {
		pthread_spin_unlock(&spin);
		return false;
	}
	pthread_spin_unlock(&spin);
	return true;
}

struct outcome {
	bool ret;
	bool has_old; /* the operation wrote *oldp */
	int old;
	bool locked;
};

static enum model_op model_op_of(enum fuzz_op op)
{
	static const enum model_op map[NR_OPS] = {
		[OP_SET] = MOP_SET,
		[OP_SET_RELEASE] = MOP_SET,
		[OP_INC] = MOP_INC,
		[OP_ADD] = MOP_ADD,
		[OP_INC_NOT_ZERO] = MOP_INC_NOT_ZERO,
		[OP_ADD_NOT_ZERO] = MOP_ADD_NOT_ZERO,
		[OP_INC_NOT_ZERO_ACQUIRE] = MOP_INC_NOT_ZERO_ACQUIRE,
		[OP_ADD_NOT_ZERO_ACQUIRE] = MOP_ADD_NOT_ZERO_ACQUIRE,
		[OP_INC_NOT_ZERO_LIMITED_ACQUIRE] =
			MOP_ADD_NOT_ZERO_LIMITED_ACQUIRE,
		[OP_ADD_NOT_ZERO_LIMITED_ACQUIRE] =
			MOP_ADD_NOT_ZERO_LIMITED_ACQUIRE,
		[OP_DEC] = MOP_DEC,
		[OP_DEC_AND_TEST] = MOP_DEC_AND_TEST,
		[OP_SUB_AND_TEST] = MOP_SUB_AND_TEST,
		[OP_DEC_IF_ONE] = MOP_DEC_IF_ONE,
		[OP_DEC_NOT_ONE] = MOP_DEC_NOT_ONE,
		[OP_DEC_AND_MUTEX_LOCK] = MOP_DEC_AND_LOCK,
		[OP_DEC_AND_LOCK] = MOP_DEC_AND_LOCK,
		/* kref is refcount_t (docs/kernel-semantics.md, 'kref') */
		[OP_KREF_INIT] = MOP_SET,
		[OP_KREF_GET] = MOP_INC,
		[OP_KREF_PUT] = MOP_DEC_AND_TEST,
		[OP_KREF_PUT_MUTEX] = MOP_DEC_AND_LOCK,
		[OP_KREF_PUT_LOCK] = MOP_DEC_AND_LOCK,
		[OP_KREF_GET_UNLESS_ZERO] = MOP_INC_NOT_ZERO,
	};
	return map[op];
}

/* Run one operation on the library. */
static struct outcome run(enum fuzz_op op, bool use_oldp, struct kref *k, int i,
			  int limit)
{
	refcount_t *r = &k->refcount;
	struct outcome o = { .ret = true, .old = 0x5a5a5a5a };
	int *oldp = use_oldp ? &o.old : NULL;

	(void)limit; /* the saturating breed's limited forms only */
	/* the operations with a __refcount_*(..., oldp) form */
	o.has_old = use_oldp && ((op >= OP_INC && op <= OP_SUB_AND_TEST));
	switch (op) {
	case OP_SET:
		refcount_set(r, i);
		break;
	case OP_SET_RELEASE:
		refcount_set_release(r, i);
		break;
	case OP_INC:
		__refcount_inc(r, oldp);
		break;
	case OP_ADD:
		__refcount_add(i, r, oldp);
		break;
	case OP_INC_NOT_ZERO:
		o.ret = __refcount_inc_not_zero(r, oldp);
		break;
	case OP_ADD_NOT_ZERO:
		o.ret = __refcount_add_not_zero(i, r, oldp);
		break;
	case OP_INC_NOT_ZERO_ACQUIRE:
		o.ret = __refcount_inc_not_zero_acquire(r, oldp);
		break;
	case OP_ADD_NOT_ZERO_ACQUIRE:
		o.ret = __refcount_add_not_zero_acquire(i, r, oldp);
		break;
#ifdef __REFCOUNT_SATURATING_DESIGN
	case OP_INC_NOT_ZERO_LIMITED_ACQUIRE:
		o.ret = __refcount_inc_not_zero_limited_acquire(r, oldp, limit);
		break;
	case OP_ADD_NOT_ZERO_LIMITED_ACQUIRE:
		o.ret = __refcount_add_not_zero_limited_acquire(i, r, oldp,
								limit);
		break;
#endif
	case OP_DEC:
		__refcount_dec(r, oldp);
		break;
	case OP_DEC_AND_TEST:
		o.ret = __refcount_dec_and_test(r, oldp);
		break;
	case OP_SUB_AND_TEST:
		o.ret = __refcount_sub_and_test(i, r, oldp);
		break;
	case OP_DEC_IF_ONE:
		o.ret = refcount_dec_if_one(r);
		break;
	case OP_DEC_NOT_ONE:
		o.ret = refcount_dec_not_one(r);
		break;
	case OP_DEC_AND_MUTEX_LOCK:
		o.ret = refcount_dec_and_mutex_lock(r, &mutex);
		o.locked = mutex_held();
		break;
	case OP_DEC_AND_LOCK:
		o.ret = refcount_dec_and_lock(r, &spin);
		o.locked = spin_held();
		break;
	case OP_KREF_INIT:
		kref_init(k);
		break;
	case OP_KREF_GET:
		kref_get(k);
		break;
	case OP_KREF_PUT:
		o.ret = kref_put(k, release);
		break;
	case OP_KREF_PUT_MUTEX:
		/* release_mutex() checks that it runs with the lock held */
		o.ret = kref_put_mutex(k, release_mutex, &mutex);
		o.locked = mutex_held();
		break;
	case OP_KREF_PUT_LOCK:
		o.ret = kref_put_lock(k, release_spin, &spin);
		o.locked = spin_held();
		break;
	case OP_KREF_GET_UNLESS_ZERO:
		o.ret = kref_get_unless_zero(k);
		break;
	default:
		break;
	}
	return o;
}

static void diverge(const char *what, enum fuzz_op op, int c, int i,
		    uint32_t before, long long expect, long long got)
{
	fprintf(stderr,
		"DIVERGENCE (%s breed): %s(i=%d) on counter %d holding %#x: "
		"%s: model %lld (%#llx), library %lld (%#llx)\n",
		REFCOUNT_BREED_NAME, op_names[op], i, c, before, what, expect,
		(unsigned long long)expect, got, (unsigned long long)got);
	abort();
}

static void step(enum fuzz_op op, bool use_oldp, int c, int32_t i,
		 int32_t limit, struct model_counter *m)
{
	unsigned long before_counts[REFCOUNT_NR_SATURATION_TYPES];
	unsigned long before_handled[REFCOUNT_NR_SATURATION_TYPES];
	unsigned int before_released = released[c];
	uint32_t before = m[c].v;
	struct model_result want;
	struct outcome got;
	enum model_op mop = model_op_of(op);

#ifndef __REFCOUNT_SATURATING_DESIGN
	/* the limited helpers are the saturating (and nonatomic) breed's only */
	if (op == OP_INC_NOT_ZERO_LIMITED_ACQUIRE ||
	    op == OP_ADD_NOT_ZERO_LIMITED_ACQUIRE)
		return;
#endif
	if (op == OP_INC_NOT_ZERO_LIMITED_ACQUIRE)
		i = 1;
	if (op == OP_KREF_INIT)
		i = 1;
	for (int t = 0; t < REFCOUNT_NR_SATURATION_TYPES; t++) {
		before_counts[t] = refcount_report_count(t);
		before_handled[t] = handled[t];
	}
	handled_last = NULL;

	got = run(op, use_oldp, &ctr[c], i, limit);
	want = model_apply(MODEL_BREED, &m[c], mop, i, limit);

	for (int k = 0; k < NCTR; k++)
		if (refcount_read(&ctr[k].refcount) !=
		    model_read(MODEL_BREED, m[k].v))
			diverge(k == c ? "final value" :
					 "other counter's value",
				op, c, i, before,
				model_read(MODEL_BREED, m[k].v),
				refcount_read(&ctr[k].refcount));
	if (got.ret != want.ret)
		diverge("return value", op, c, i, before, want.ret, got.ret);
	if (got.has_old && got.old != want.old)
		diverge("*oldp", op, c, i, before, want.old, got.old);
	if ((op == OP_DEC_AND_MUTEX_LOCK || op == OP_DEC_AND_LOCK) &&
	    got.locked != want.locked)
		diverge("lock held on return", op, c, i, before, want.locked,
			got.locked);
	if ((op == OP_KREF_PUT_MUTEX || op == OP_KREF_PUT_LOCK) && got.locked)
		diverge("lock still held after the put", op, c, i, before, 0,
			1);
	if (op >= OP_KREF_PUT && op <= OP_KREF_PUT_LOCK &&
	    released[c] - before_released != (unsigned int)want.ret)
		diverge("kref release calls", op, c, i, before, want.ret,
			released[c] - before_released);
	for (int t = 0; t < REFCOUNT_NR_SATURATION_TYPES; t++) {
		unsigned long d = refcount_report_count(t) - before_counts[t];

		if (d != want.reports[t])
			diverge(t == 0 ? "reports of ADD_NOT_ZERO_OVF" :
				t == 1 ? "reports of ADD_OVF" :
				t == 2 ? "reports of ADD_UAF" :
				t == 3 ? "reports of SUB_UAF" :
					 "reports of DEC_LEAK",
				op, c, i, before, want.reports[t], d);
		if (handled[t] - before_handled[t] != d)
			diverge("handler calls vs refcount_report_count()", op,
				c, i, before, d,
				handled[t] - before_handled[t]);
		if (d && handled_last != &ctr[c].refcount)
			diverge("counter passed to the handler", op, c, i,
				before, c, handled_last ? 0 : -1);
	}
}

static void setup(void)
{
	static bool done;
	pthread_mutexattr_t a;

	if (done)
		return;
	done = true;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(&mutex, &a);
	pthread_mutexattr_destroy(&a);
	pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
	refcount_set_report_handler(count_report);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct model_counter m[NCTR];
	uint8_t opb, argb, limb;

	setup();
	in.p = data;
	in.n = size;
	for (int k = 0; k < NCTR; k++) {
		uint8_t b = 1;

		get_byte(&b);
		m[k].v = model_set(MODEL_BREED, (uint32_t)vals[b % NR_VALS]);
		refcount_set(&ctr[k].refcount, (int)m[k].v);
		released[k] = 0;
	}
	while (get_byte(&opb) && get_byte(&argb)) {
		enum fuzz_op op = (enum fuzz_op)((opb & 0x3f) % NR_OPS);
		int32_t i = get_val(argb >> 2), limit = INT_MAX;

		if (op == OP_INC_NOT_ZERO_LIMITED_ACQUIRE ||
		    op == OP_ADD_NOT_ZERO_LIMITED_ACQUIRE)
			limit = get_byte(&limb) ? get_val(limb % NR_VALS) :
						  INT_MAX;
		step(op, opb & 0x40, argb & (NCTR - 1), i, limit, m);
	}
	return 0;
}

unsigned long fuzz_sweep(void);

unsigned long fuzz_sweep(void)
{
	unsigned long n = 0;
	uint8_t in[NCTR + 3] = { 0, 1, 1, 1 };

	for (int v = 0; v < NR_VALS; v++)
		for (int op = 0; op < NR_OPS; op++)
			for (int a = 0; a < NR_VALS; a++)
				for (int l = 0; l < NR_VALS; l++) {
					bool lim =
						op == OP_INC_NOT_ZERO_LIMITED_ACQUIRE ||
						op == OP_ADD_NOT_ZERO_LIMITED_ACQUIRE;

					if (l && !lim)
						break;
					in[0] = (uint8_t)v;
					in[NCTR + 1] = (uint8_t)(a << 2);
					in[NCTR + 2] = (uint8_t)l;
					for (int old = 0; old < 2; old++) {
						in[NCTR] = (uint8_t)(op |
								     old << 6);
						LLVMFuzzerTestOneInput(
							in, sizeof(in));
						n++;
					}
				}
	return n;
}

// SPDX-License-Identifier: MIT
/*
 * rcuref-fuzz.c - differential fuzzer: rcuref_t and file_ref_t against
 * rcuref-model.c
 *
 * A libFuzzer target (`make fuzz-rcuref`) and, with replay.c's main, the
 * corpus replay of `make check` (check-fuzz-replay).  An input is a
 * sequence of operations on two rcuref_t and two file_ref_t counters:
 *
 *	byte 0..3	initial value of each counter (index into vals[])
 *	then per operation:
 *	  op byte	bits 0-1: counter (0, 1: rcuref_t; 2, 3: file_ref_t),
 *			bits 2-7: operation (mod NR_OPS)
 *	  arg byte	(init only) index into vals[], the count to set
 *
 * fuzz_sweep() runs every operation from every value of vals[] (the zone
 * edges) on both types: the zone tables, exhaustively.  After every
 * operation it compares the stored value, the return value and the change
 * of refcount_report_count() per type; the first difference aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define RCUREF_NO_URCU
#include <refcount/file_ref.h>
#include <refcount/rcuref.h>
#include <refcount/report.h>

#include "rcuref-model.h"

enum op { OP_GET, OP_PUT, OP_PUT_ALT, OP_INC, OP_READ, OP_INIT, NR_OPS };
static const char *const op_names[NR_OPS] = {
	"get", "put", "put_rcusafe/put_close", "inc", "read", "init",
};

/* Fractions of the width: value = num/64 of 2^W, plus a small offset. */
struct val {
	unsigned int num;
	int off;
};
static const struct val vals[] = {
	{ 0, 0 },   { 0, 1 },	{ 0, 2 },   { 0, 7 },	{ 32, -2 }, { 32, -1 },
	{ 32, 0 },  { 32, 1 },	{ 40, -1 }, { 40, 0 },	{ 40, 1 },  { 48, -2 },
	{ 48, -1 }, { 48, 0 },	{ 48, 1 },  { 56, -1 }, { 56, 0 },  { 56, 1 },
	{ 64, -3 }, { 64, -2 }, { 64, -1 }, { 16, 0 },	{ 24, 5 },  { 60, 9 },
};
#define NR_VALS (sizeof(vals) / sizeof(vals[0]))

static uint64_t val_of(unsigned int bits, unsigned int idx)
{
	const struct val *v = &vals[idx % NR_VALS];
	uint64_t unit = 1ULL << (bits - 6); /* 2^W / 64 */
	uint64_t m = bits == 64 ? ~0ULL : (1ULL << bits) - 1;

	return (unit * v->num + (uint64_t)(int64_t)v->off) & m;
}

static rcuref_t rc[2];
static file_ref_t fr[2];
static struct rmodel model[4];

static void silent(const struct refcount_report *rep)
{
	(void)rep;
}

static uint64_t lib_value(int c)
{
	if (c < 2)
		return (uint32_t)atomic_load(&rc[c].refcnt);
	return (unsigned long)atomic_load(&fr[c - 2].refcnt);
}

static void lib_set(int c, uint64_t v)
{
	if (c < 2)
		atomic_store(&rc[c].refcnt, (int)(uint32_t)v);
	else
		atomic_store(&fr[c - 2].refcnt, (long)(unsigned long)v);
}

static uint64_t lib_step(int c, enum op op, uint64_t arg)
{
	rcuref_t *r = &rc[c & 1];
	file_ref_t *f = &fr[c & 1];

	switch (op) {
	case OP_GET:
		return c < 2 ? rcuref_get(r) : file_ref_get(f);
	case OP_PUT:
		return c < 2 ? rcuref_put(r) : file_ref_put(f);
	case OP_PUT_ALT:
		return c < 2 ? rcuref_put_rcusafe(r) : file_ref_put_close(f);
	case OP_INC:
		if (c >= 2)
			file_ref_inc(f);
		return 0;
	case OP_READ:
		return c < 2 ? rcuref_read(r) : file_ref_read(f);
	case OP_INIT:
	default:
		if (c < 2)
			rcuref_init(r, (unsigned int)arg);
		else
			file_ref_init(f, (unsigned long)arg);
		return 0;
	}
}

static enum rmodel_op model_op(int c, enum op op)
{
	switch (op) {
	case OP_GET:
		return RMODEL_GET;
	case OP_PUT:
		return RMODEL_PUT;
	case OP_PUT_ALT:
		return c < 2 ? RMODEL_PUT : RMODEL_PUT_CLOSE;
	case OP_INC:
		return RMODEL_INC;
	case OP_READ:
		return RMODEL_READ;
	case OP_INIT:
	default:
		return RMODEL_INIT;
	}
}

static void diverge(int c, enum op op, uint64_t start, const char *what,
		    uint64_t lib, uint64_t want)
{
	fprintf(stderr,
		"rcuref-fuzz: %s %s from %#llx: %s is %#llx, the model says "
		"%#llx\n",
		c < 2 ? "rcuref_t" : "file_ref_t", op_names[op],
		(unsigned long long)start, what, (unsigned long long)lib,
		(unsigned long long)want);
	abort();
}

static void one_op(int c, enum op op, uint64_t arg)
{
	unsigned long before[REFCOUNT_NR_SATURATION_TYPES];
	uint64_t start = lib_value(c), ret;
	struct rmodel_result want;

	if (op == OP_INC && c < 2)
		return; /* rcuref_t has no inc */
	for (int t = 0; t < REFCOUNT_NR_SATURATION_TYPES; t++)
		before[t] = refcount_report_count(t);
	ret = lib_step(c, op, arg);
	want = rmodel_step(&model[c], model_op(c, op), arg);
	if (lib_value(c) != model[c].v)
		diverge(c, op, start, "the value", lib_value(c), model[c].v);
	if (ret != want.ret)
		diverge(c, op, start, "the return value", ret, want.ret);
	for (int t = 0; t < REFCOUNT_NR_SATURATION_TYPES; t++) {
		unsigned long d = refcount_report_count(t) - before[t];

		if (d != (t == want.report))
			diverge(c, op, start, "a report count (type)", t,
				(uint64_t)want.report);
	}
}

static void start(const uint8_t *init)
{
	refcount_set_report_handler(silent);
	for (int c = 0; c < 4; c++) {
		model[c].kind = c < 2 ? RMODEL_RCUREF : RMODEL_FILE_REF;
		model[c].bits = c < 2 ? 32 : (unsigned int)sizeof(long) * 8;
		model[c].v = val_of(model[c].bits, init[c]);
		lib_set(c, model[c].v);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t i = 4;

	if (size < 4)
		return 0;
	start(data);
	while (i < size) {
		int c = data[i] & 3;
		enum op op = (enum op)((data[i] >> 2) % NR_OPS);
		uint64_t arg = 0;

		i++;
		if (op == OP_INIT) {
			if (i >= size)
				break;
			arg = val_of(c < 2 ? 32 : sizeof(long) * 8, data[i++]) +
			      1;
		}
		one_op(c, op, arg);
	}
	return 0;
}

unsigned long fuzz_sweep(void);
unsigned long fuzz_sweep(void)
{
	unsigned long n = 0;

	for (unsigned int v = 0; v < NR_VALS; v++)
		for (int op = 0; op < NR_OPS; op++)
			for (int c = 0; c < 4; c += 2) {
				uint8_t in[6] = { (uint8_t)v, (uint8_t)v,
						  (uint8_t)v, (uint8_t)v };

				in[4] = (uint8_t)(c | op << 2);
				in[5] = (uint8_t)v;
				LLVMFuzzerTestOneInput(in, sizeof(in));
				/* and the same op twice in a row */
				LLVMFuzzerTestOneInput(
					(const uint8_t[]){ in[0], in[1], in[2],
							   in[3], in[4], in[5],
							   in[4], in[5] },
					op == OP_INIT ? 8 : 6);
				n += 2;
			}
	return n;
}

/* SPDX-License-Identifier: MIT */
/*
 * model.h - a sequential reference model of refcount_t, for the differential
 * fuzzer
 *
 * Written from the tables of docs/kernel-semantics.md (each breed's section,
 * 'Saturation types', 'Constants', 'LKDTM tests'), not from the library:
 * of librefcount it includes only the list of breeds (the registry), keeps
 * the count as a plain uint32_t and computes each operation's final value,
 * return value, old value and reports with straight-line code.  tests/fuzz/fuzz.c runs the library and this
 * model side by side and stops at the first disagreement.
 */
#ifndef FUZZ_MODEL_H
#define FUZZ_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include <refcount/breed/registry.h>

/*
 * The breeds, MODEL_<NAME>, from the registry: the list only.  What each
 * breed does is the model's own (model.c), written from the kernel's
 * behaviour as docs/kernel-semantics.md records it, not from the library.
 */
#define MODEL_BREED_IDX(name, NAME, ...) MODEL_##NAME,
enum model_breed { REFCOUNT_FOR_EACH_BREED(MODEL_BREED_IDX) };

/* docs/kernel-semantics.md, 'Saturation types': values 0..4. */
enum model_report {
	MODEL_ADD_NOT_ZERO_OVF,
	MODEL_ADD_OVF,
	MODEL_ADD_UAF,
	MODEL_SUB_UAF,
	MODEL_DEC_LEAK,
	MODEL_NR_REPORTS
};

/* The operations the model knows (kref's map onto these: see 'kref'). */
enum model_op {
	MOP_SET, /* refcount_set / refcount_set_release */
	MOP_INC,
	MOP_ADD,
	MOP_INC_NOT_ZERO,
	MOP_ADD_NOT_ZERO,
	MOP_INC_NOT_ZERO_ACQUIRE,
	MOP_ADD_NOT_ZERO_ACQUIRE,
	MOP_ADD_NOT_ZERO_LIMITED_ACQUIRE, /* saturating breed only */
	MOP_DEC,
	MOP_DEC_AND_TEST,
	MOP_SUB_AND_TEST,
	MOP_DEC_IF_ONE,
	MOP_DEC_NOT_ONE,
	MOP_DEC_AND_LOCK, /* both lock helpers: same algorithm */
};

struct model_counter {
	uint32_t v; /* the count, as refcount_read() returns it */
};

struct model_result {
	bool ret; /* the bool result (true for void operations) */
	int32_t old; /* the value before the operation, as *oldp gets it */
	bool locked; /* lock helpers: returned with the lock held */
	unsigned int reports[MODEL_NR_REPORTS]; /* reports per type */
};

/* docs/kernel-semantics.md, 'Constants', as the count reads (uint32_t). */
#define MODEL_INT_MAX 0x7fffffffu
#define MODEL_INT_MIN_HALF 0xc0000000u /* INT_MIN / 2 */
#define MODEL_IMMORTAL 0xa0000000u /* REFCOUNT_IMMORTAL */
#define MODEL_UINT_MAX 0xffffffffu

uint32_t model_max(enum model_breed b);
uint32_t model_saturated(enum model_breed b);
/* What refcount_read() gives for the model's count @v (the hole reads 0). */
uint32_t model_read(enum model_breed b, uint32_t v);
/* What refcount_set(@v) stores in breed @b (a negative count may saturate). */
uint32_t model_set(enum model_breed b, uint32_t v);

/*
 * model_apply() - apply one operation to @c
 * @i: the operation's int argument (add/sub amount, set value); ignored by
 *     the others
 * @limit: MOP_ADD_NOT_ZERO_LIMITED_ACQUIRE's limit
 */
struct model_result model_apply(enum model_breed b, struct model_counter *c,
				enum model_op op, int32_t i, int32_t limit);

#endif /* FUZZ_MODEL_H */

/* SPDX-License-Identifier: MIT */
/*
 * rcuref-model.h - a sequential model of rcuref_t and file_ref_t, for the
 * differential fuzzer
 *
 * Written from the kernel's behaviour (include/linux/rcuref.h,
 * lib/rcuref.c, include/linux/file_ref.h, fs/file.c; docs/rcuref.md,
 * 'Zones'), not from the library: it includes nothing of librefcount, keeps
 * the stored value as a uint64_t of a given width (32 for rcuref_t, the
 * width of long for file_ref_t), classifies it into its zone and decides
 * each operation from a per-zone table.  tests/fuzz/rcuref-fuzz.c runs the
 * library and this model side by side.
 */
#ifndef FUZZ_RCUREF_MODEL_H
#define FUZZ_RCUREF_MODEL_H

#include <stdbool.h>
#include <stdint.h>

/* The report types, as enum refcount_saturation_type numbers them. */
enum rmodel_report {
	RMODEL_NONE = -1,
	RMODEL_ADD_NOT_ZERO_OVF = 0,
	RMODEL_ADD_UAF = 2,
	RMODEL_SUB_UAF = 3,
};

enum rmodel_kind { RMODEL_RCUREF, RMODEL_FILE_REF };

enum rmodel_op {
	RMODEL_GET,
	RMODEL_PUT, /* rcuref_put(), rcuref_put_rcusafe(), file_ref_put() */
	RMODEL_PUT_CLOSE, /* file_ref_put_close() */
	RMODEL_INC, /* file_ref_inc() */
	RMODEL_READ,
	RMODEL_INIT, /* with a count */
};

struct rmodel {
	enum rmodel_kind kind;
	unsigned int bits; /* 32, or the width of long */
	uint64_t v; /* the stored value, < 2^bits */
};

struct rmodel_result {
	uint64_t ret; /* bool for get/put, the count for read */
	int report; /* enum rmodel_report */
};

/* The zone constants of a width: the top two and three bits' patterns. */
uint64_t rmodel_const(const struct rmodel *m, const char *name);

struct rmodel_result rmodel_step(struct rmodel *m, enum rmodel_op op,
				 uint64_t arg);

#endif /* FUZZ_RCUREF_MODEL_H */

/* SPDX-License-Identifier: MIT */
/*
 * tests/mixed.h - the mixed-breed link test: what each breed's unit exports
 *
 * tests/mixed-unit.c is compiled once per breed with
 * -DREFCOUNT_BREED=REFCOUNT_BREED_X -DBREED_SUFFIX=x and defines these
 * functions with the breed's name pasted on; tests/mixed.c links all four.
 */
#ifndef TESTS_MIXED_H
#define TESTS_MIXED_H

#include "lkdtm-table.h"

#define MIXED_PASTE_(a, b) a##b
#define MIXED_PASTE(a, b) MIXED_PASTE_(a, b)

#define MIXED_DECLARE(b, ...)                                                  \
	/* Run LKDTM scenario @id with breed b on @r. */                       \
	void mixed_lkdtm_##b(enum lkdtm_id id, refcount_t *r,                  \
			     struct lkdtm_result *res);                        \
	/* REFCOUNT_BREED_NAME as the unit saw it. */                          \
	const char *mixed_breed_name_##b(void);                                \
	/* kref_put_mutex()/kref_put_lock() of the breed: releases seen. */    \
	int mixed_kref_##b(void);

REFCOUNT_FOR_EACH_BREED(MIXED_DECLARE)

#endif /* TESTS_MIXED_H */

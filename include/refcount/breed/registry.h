/* SPDX-License-Identifier: MIT */
/*
 * refcount/breed/registry.h - the breeds: every per-breed fact, written once
 *
 * Everything that lists the breeds reads this file: <refcount/refcount.h>
 * (the selection and the breed's constants), the tests, the benchmark rows,
 * the fio engine's breed table and, through mk/breeds.mk (which parses the
 * __REFCOUNT_ROW_ lines below), the Makefile and the Python tools.  It
 * includes nothing but <limits.h> and may be included on its own.
 *
 * One row per breed:
 *
 *	X(name, NAME, id, max, saturated)
 *
 *   name       the breed's name as a token: REFCOUNT_BREED_NAME is its
 *              string, the out-of-line symbols are __refcount_<name>_*, its
 *              operations are in <refcount/breed/<name>.h>, and make's
 *              $(BREEDS) holds it
 *   NAME       the selector's suffix: REFCOUNT_BREED_<NAME>
 *   id         the selector's value (1, 2, ...; usable in #if)
 *   max        REFCOUNT_MAX, the largest legal count
 *   saturated  REFCOUNT_SATURATED, the value a misused counter is pinned at
 *
 * The order of the rows is the order of every table that has a column per
 * breed (the tests' expectations among them).  Adding a breed is its header
 * under breed/, its row, its selector, its REFCOUNT_FOR_EACH_BREED entry and
 * its branch below, all in this file, and its column in the tests'
 * expectation table (docs/architecture.md).
 */
#ifndef REFCOUNT_BREED_REGISTRY_H
#define REFCOUNT_BREED_REGISTRY_H

#include <limits.h>

/* clang-format off */
#define __REFCOUNT_ROW_atomic(X)     X(atomic, ATOMIC, 1, INT_MAX, (INT_MIN / 2))
#define __REFCOUNT_ROW_fast(X)       X(fast, FAST, 2, INT_MAX, (INT_MIN / 2))
#define __REFCOUNT_ROW_full(X)       X(full, FULL, 3, (UINT_MAX - 1), UINT_MAX)
#define __REFCOUNT_ROW_saturating(X) X(saturating, SATURATING, 4, INT_MAX, (INT_MIN / 2))
#define __REFCOUNT_ROW_nonatomic(X)  X(nonatomic, NONATOMIC, 5, INT_MAX, (INT_MIN / 2))
/* clang-format on */

/*
 * The breeds for one thread only (plain loads and stores): one line each,
 * __REFCOUNT_ONE_THREAD_<name>, which mk/breeds.mk reads too.  They are left
 * out of REFCOUNT_FOR_EACH_THREADED_BREED and of every test and benchmark
 * with threads.
 */
#define __REFCOUNT_ONE_THREAD_nonatomic 1

/**
 * REFCOUNT_FOR_EACH_BREED - call X(name, NAME, id, max, saturated) per breed
 * @X: a macro of five arguments
 *
 * For code that has something per breed: a table indexed by breed, one
 * declaration per breed, a switch over REFCOUNT_BREED_* values.  Macro
 * parameters are replaced inside X's body, so give X parameter names that
 * its body does not otherwise use, or take only what it needs:
 * `#define DECLARE(name, ...) extern int count_##name;`.
 */
#define REFCOUNT_FOR_EACH_BREED(X)                                             \
	REFCOUNT_FOR_EACH_THREADED_BREED(X) __REFCOUNT_ROW_nonatomic(X)

/**
 * REFCOUNT_FOR_EACH_THREADED_BREED - REFCOUNT_FOR_EACH_BREED() without the
 * breeds for one thread
 * @X: a macro of five arguments, as for REFCOUNT_FOR_EACH_BREED()
 *
 * The rows of the breeds whose counters may be shared between threads (all
 * but nonatomic), in the same order, for tables of multithreaded code: a
 * benchmark's contention rows, a block driver's breeds.
 */
#define REFCOUNT_FOR_EACH_THREADED_BREED(X)                                    \
	__REFCOUNT_ROW_atomic(X) __REFCOUNT_ROW_fast(X) __REFCOUNT_ROW_full(X) \
		__REFCOUNT_ROW_saturating(X)

/* A row's fields, e.g. __REFCOUNT_ROW_full(__REFCOUNT_F_MAX) is UINT_MAX - 1. */
#define __REFCOUNT_F_ID(name, NAME, id, max, saturated) id
#define __REFCOUNT_F_NAME(name, NAME, id, max, saturated) #name
#define __REFCOUNT_F_MAX(name, NAME, id, max, saturated) max
#define __REFCOUNT_F_SATURATED(name, NAME, id, max, saturated) saturated

/* The selectors: define REFCOUNT_BREED to one of these before including. */
#define REFCOUNT_BREED_ATOMIC __REFCOUNT_ROW_atomic(__REFCOUNT_F_ID)
#define REFCOUNT_BREED_FAST __REFCOUNT_ROW_fast(__REFCOUNT_F_ID)
#define REFCOUNT_BREED_FULL __REFCOUNT_ROW_full(__REFCOUNT_F_ID)
#define REFCOUNT_BREED_SATURATING __REFCOUNT_ROW_saturating(__REFCOUNT_F_ID)
#define REFCOUNT_BREED_NONATOMIC __REFCOUNT_ROW_nonatomic(__REFCOUNT_F_ID)

/* How many rows there are. */
#define __REFCOUNT_F_ONE(name, NAME, id, max, saturated) +1
#define REFCOUNT_NR_BREEDS (0 REFCOUNT_FOR_EACH_BREED(__REFCOUNT_F_ONE))
#define REFCOUNT_NR_THREADED_BREEDS                                            \
	(0 REFCOUNT_FOR_EACH_THREADED_BREED(__REFCOUNT_F_ONE))

/* REFCOUNT_HAVE_BREED_FAST - defined where the fast breed exists */
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)
#define REFCOUNT_HAVE_BREED_FAST 1
#endif

#endif /* REFCOUNT_BREED_REGISTRY_H */

/*
 * The selected breed: REFCOUNT_BREED's row name as __REFCOUNT_BREED_TOKEN,
 * from which <refcount/refcount.h> derives REFCOUNT_BREED_NAME, REFCOUNT_MAX,
 * REFCOUNT_SATURATED and the breed's header.  Outside the include guard, and
 * only when <refcount/refcount.h> asks for it: breed-free code (src/report.c,
 * the fuzzer's model) includes this file for the table alone.
 */
#if defined(__REFCOUNT_SELECT_BREED) && !defined(__REFCOUNT_BREED_TOKEN)
#if REFCOUNT_BREED == REFCOUNT_BREED_SATURATING
#define __REFCOUNT_BREED_TOKEN saturating
#elif REFCOUNT_BREED == REFCOUNT_BREED_FULL
#define __REFCOUNT_BREED_TOKEN full
#elif REFCOUNT_BREED == REFCOUNT_BREED_FAST
#define __REFCOUNT_BREED_TOKEN fast
#elif REFCOUNT_BREED == REFCOUNT_BREED_ATOMIC
#define __REFCOUNT_BREED_TOKEN atomic
#elif REFCOUNT_BREED == REFCOUNT_BREED_NONATOMIC
#define __REFCOUNT_BREED_TOKEN nonatomic
#else
#error "REFCOUNT_BREED has an unknown value: define it as REFCOUNT_BREED_SATURATING (default), REFCOUNT_BREED_FULL, REFCOUNT_BREED_FAST, REFCOUNT_BREED_ATOMIC or REFCOUNT_BREED_NONATOMIC"
#endif
#endif

/* SPDX-License-Identifier: MIT */
/*
 * tests/cxx/ops.h - one operation of <refcount/refcount.h> or
 * <refcount/kref.h> by number, compiled as C and as C++
 *
 * tests/cxx/ops.c and tests/cxx/ops.cc both include this body, once per
 * breed (-DREFCOUNT_BREED=... -DOPS_SUFFIX=<lang>_<breed>), so the same
 * source runs in a C unit and in a C++ unit of one program, on the same
 * counters; tests/cxx/cxx.c compares what the two did.
 */
#ifndef TESTS_CXX_OPS_H
#define TESTS_CXX_OPS_H

/* X(name, expression on refcount_t *r and int i; -1 for a void op) */
#if defined(OPS_MUTANT) && defined(__cplusplus)
/* The control: a C++ unit whose refcount_inc() does not match C's. */
#define OPS_INC(r) refcount_add(2, r)
#else
#define OPS_INC(r) refcount_inc(r)
#endif

#define CXX_OPS(X)                                                             \
	X(SET, (refcount_set(r, i), -1))                                       \
	X(INC, (OPS_INC(r), -1))                                               \
	X(ADD, (refcount_add(i, r), -1))                                       \
	X(INC_NOT_ZERO, refcount_inc_not_zero(r))                              \
	X(ADD_NOT_ZERO, refcount_add_not_zero(i, r))                           \
	X(INC_NOT_ZERO_ACQUIRE, refcount_inc_not_zero_acquire(r))              \
	X(ADD_NOT_ZERO_ACQUIRE, refcount_add_not_zero_acquire(i, r))           \
	X(DEC, (refcount_dec(r), -1))                                          \
	X(DEC_AND_TEST, refcount_dec_and_test(r))                              \
	X(SUB_AND_TEST, refcount_sub_and_test(i, r))                           \
	X(DEC_IF_ONE, refcount_dec_if_one(r))                                  \
	X(DEC_NOT_ONE, refcount_dec_not_one(r))                                \
	X(DEC_AND_MUTEX_LOCK, ops_dec_and_mutex_lock(r))                       \
	X(DEC_AND_LOCK, ops_dec_and_lock(r))                                   \
	X(KREF_GET_UNLESS_ZERO, kref_get_unless_zero((struct kref *)r))        \
	X(KREF_PUT, kref_put((struct kref *)r, ops_release))

#define CXX_OP_ENUM(name, expr) CXX_OP_##name,
enum cxx_op { CXX_OPS(CXX_OP_ENUM) NR_CXX_OPS };
#undef CXX_OP_ENUM

#define OPS_PASTE_(a, b) a##b
#define OPS_PASTE(a, b) OPS_PASTE_(a, b)

#ifdef OPS_SUFFIX
#include <pthread.h>

#include <refcount/kref.h>

#ifdef __cplusplus
extern "C" {
#endif
/* Apply @op with argument @i; returns its bool, or -1 for a void op. */
int OPS_PASTE(ops_apply_, OPS_SUFFIX)(int op, refcount_t *r, int i);
/* How many times a kref_put() of this unit called its release. */
int OPS_PASTE(ops_releases_, OPS_SUFFIX)(void);
/* REFCOUNT_BREED_NAME as this unit sees it. */
const char *OPS_PASTE(ops_breed_, OPS_SUFFIX)(void);
#ifdef __cplusplus
}
#endif

static pthread_mutex_t ops_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_spinlock_t ops_spin;
static int ops_released;

static void ops_release(struct kref *k)
{
	(void)k;
	ops_released++;
}

static int ops_dec_and_mutex_lock(refcount_t *r)
{
	if (!refcount_dec_and_mutex_lock(r, &ops_mutex))
		return 0;
	pthread_mutex_unlock(&ops_mutex);
	return 1;
}

static int ops_dec_and_lock(refcount_t *r)
{
	static int init;

	if (!init++)
		pthread_spin_init(&ops_spin, PTHREAD_PROCESS_PRIVATE);
	if (!refcount_dec_and_lock(r, &ops_spin))
		return 0;
	pthread_spin_unlock(&ops_spin);
	return 1;
}

int OPS_PASTE(ops_apply_, OPS_SUFFIX)(int op, refcount_t *r, int i)
{
	switch (op) {
#define CXX_OP_CASE(name, expr)                                                \
	case CXX_OP_##name:                                                    \
		return (int)(expr);
		CXX_OPS(CXX_OP_CASE)
#undef CXX_OP_CASE
	}
	return -2;
}

int OPS_PASTE(ops_releases_, OPS_SUFFIX)(void)
{
	return ops_released;
}

const char *OPS_PASTE(ops_breed_, OPS_SUFFIX)(void)
{
	return REFCOUNT_BREED_NAME;
}
#endif /* OPS_SUFFIX */

#endif /* TESTS_CXX_OPS_H */

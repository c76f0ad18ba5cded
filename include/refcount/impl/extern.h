/* SPDX-License-Identifier: MIT */
/*
 * refcount/impl/extern.h - the operations as functions exported by
 * librefcount, for C90, C99 and -DREFCOUNT_EXTERN
 *
 * Included by <refcount/refcount.h> below C11 (or with REFCOUNT_EXTERN
 * defined), instead of the inline operations: the same names, arguments and
 * semantics (the kernel-doc of <refcount/refcount.h> describes them), of the
 * default breed, saturating, defined in src/extern.c.  This header is C90:
 * no inline functions, no statement expressions, no bool.  The functions
 * that test return int (1 or 0) rather than bool, so that their ABI is one
 * C90 callers share with every other language.
 *
 * A call costs a call; a report names the line of the call, as with the
 * inline operations.  Other breeds are inline-only: selecting one here is
 * an #error.
 *
 * Internal to librefcount's headers; the API is <refcount/refcount.h>'s.
 */
#ifndef REFCOUNT_IMPL_EXTERN_H
#define REFCOUNT_IMPL_EXTERN_H

#include <limits.h>
#include <pthread.h>
#include <stddef.h>

#include <refcount/breed/registry.h>
#include <refcount/impl/compiler.h>
#include <refcount/report.h>
#include <refcount/types.h>
#include <refcount/version.h>

#if defined(REFCOUNT_BREED) && REFCOUNT_BREED != REFCOUNT_BREED_SATURATING
#error "REFCOUNT_EXTERN (and C below C11) has the default breed, saturating, alone: build with -std=gnu11 for the other breeds"
#endif

/* The constants of the default breed, as <refcount/refcount.h> has them. */
#ifndef REFCOUNT_BREED_NAME
#define REFCOUNT_BREED_NAME __REFCOUNT_ROW_saturating(__REFCOUNT_F_NAME)
#define REFCOUNT_MAX __REFCOUNT_ROW_saturating(__REFCOUNT_F_MAX)
#define REFCOUNT_SATURATED __REFCOUNT_ROW_saturating(__REFCOUNT_F_SATURATED)
#define __REFCOUNT_INCLUDED_BREED REFCOUNT_BREED_SATURATING
#endif

__REFCOUNT_BEGIN_DECLS

void refcount_set(refcount_t *r, int n) __refcount_nonnull;
void refcount_set_release(refcount_t *r, int n) __refcount_nonnull;
unsigned int refcount_read(const refcount_t *r) __refcount_nonnull;
void refcount_set_immortal(refcount_t *r) __refcount_nonnull;
int refcount_is_immortal(const refcount_t *r)
	__refcount_nonnull __refcount_must_check;
int refcount_add_not_zero(int i, refcount_t *r)
	__refcount_nonnull __refcount_must_check;
int refcount_inc_not_zero(refcount_t *r)
	__refcount_nonnull __refcount_must_check;
int refcount_add_not_zero_acquire(int i, refcount_t *r)
	__refcount_nonnull __refcount_must_check;
int refcount_inc_not_zero_acquire(refcount_t *r)
	__refcount_nonnull __refcount_must_check;
void refcount_add(int i, refcount_t *r) __refcount_nonnull;
void refcount_inc(refcount_t *r) __refcount_nonnull;
int refcount_sub_and_test(int i, refcount_t *r)
	__refcount_nonnull __refcount_must_check;
int refcount_dec_and_test(refcount_t *r)
	__refcount_nonnull __refcount_must_check;
void refcount_dec(refcount_t *r) __refcount_nonnull;
int refcount_dec_if_one(refcount_t *r) __refcount_nonnull __refcount_must_check;
int refcount_dec_not_one(refcount_t *r)
	__refcount_nonnull __refcount_must_check;
int refcount_dec_and_mutex_lock(refcount_t *r, pthread_mutex_t *lock)
	__refcount_nonnull __refcount_must_check;
/* pthread_spinlock_t exists only with POSIX.1-2001 (not plain -std=c90). */
#ifndef __REFCOUNT_NO_POSIX_2001
int refcount_dec_and_lock(refcount_t *r, pthread_spinlock_t *lock)
	__refcount_nonnull __refcount_must_check;
#endif

/* refcount_long_t (<refcount/refcount_long.h>). */
void refcount_long_set(refcount_long_t *r, long n) __refcount_nonnull;
void refcount_long_set_release(refcount_long_t *r, long n) __refcount_nonnull;
unsigned long refcount_long_read(const refcount_long_t *r) __refcount_nonnull;
void refcount_long_set_immortal(refcount_long_t *r) __refcount_nonnull;
int refcount_long_is_immortal(const refcount_long_t *r)
	__refcount_nonnull __refcount_must_check;
int refcount_long_add_not_zero(long i, refcount_long_t *r)
	__refcount_nonnull __refcount_must_check;
int refcount_long_inc_not_zero(refcount_long_t *r)
	__refcount_nonnull __refcount_must_check;
int refcount_long_add_not_zero_acquire(long i, refcount_long_t *r)
	__refcount_nonnull __refcount_must_check;
int refcount_long_inc_not_zero_acquire(refcount_long_t *r)
	__refcount_nonnull __refcount_must_check;
void refcount_long_add(long i, refcount_long_t *r) __refcount_nonnull;
void refcount_long_inc(refcount_long_t *r) __refcount_nonnull;
int refcount_long_sub_and_test(long i, refcount_long_t *r)
	__refcount_nonnull __refcount_must_check;
int refcount_long_dec_and_test(refcount_long_t *r)
	__refcount_nonnull __refcount_must_check;
void refcount_long_dec(refcount_long_t *r) __refcount_nonnull;
int refcount_long_dec_if_one(refcount_long_t *r)
	__refcount_nonnull __refcount_must_check;
int refcount_long_dec_not_one(refcount_long_t *r)
	__refcount_nonnull __refcount_must_check;

__REFCOUNT_END_DECLS

#endif /* REFCOUNT_IMPL_EXTERN_H */

/* SPDX-License-Identifier: MIT */
/*
 * refcount/impl/tsan.h - what ThreadSanitizer must be told about the
 * operations that run out of line
 *
 * Internal to librefcount's headers; not part of the API.
 *
 * The installed library is not built with -fsanitize=thread, so TSan sees
 * nothing of the atomics inside it: the full breed's operations, and every
 * breed's refcount_dec_if_one(), refcount_dec_not_one() and lock helpers
 * (and so kref_put_mutex() and kref_put_lock()).  Their release and acquire
 * would be lost, and the free after a last put reported as a race with the
 * other threads' last accesses.  When the user's unit is built with TSan,
 * these inline wrappers tell TSan the same orderings with its annotation
 * interface: a release on the counter before such a call gives up a
 * reference, an acquire on it after a call that returned "last reference"
 * (or a successful acquire-ordered get).  Elsewhere they are nothing.
 */
#ifndef REFCOUNT_IMPL_TSAN_H
#define REFCOUNT_IMPL_TSAN_H

#include <refcount/impl/compiler.h>

#ifdef __REFCOUNT_TSAN
__REFCOUNT_BEGIN_DECLS
/* The ThreadSanitizer runtime's annotations (sanitizer/tsan_interface.h). */
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
__REFCOUNT_END_DECLS
#define __refcount_tsan_release(r) __tsan_release((void *)&(r)->refs)
#define __refcount_tsan_acquire(r) __tsan_acquire((void *)&(r)->refs)
#else
#define __refcount_tsan_release(r) ((void)0)
#define __refcount_tsan_acquire(r) ((void)0)
#endif

/* The out-of-line call @call, which gives up a reference of @r. */
#define __refcount_tsan_put(r, call) (__refcount_tsan_release(r), (call))
/* ... and whose true result means "the last one": the caller may free. */
#define __refcount_tsan_last_put(r, call)                                      \
	(__refcount_tsan_release(r),                                           \
	 (call) ? (__refcount_tsan_acquire(r), true) : false)

#endif /* REFCOUNT_IMPL_TSAN_H */

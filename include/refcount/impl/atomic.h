/* SPDX-License-Identifier: MIT */
/*
 * refcount/impl/atomic.h - what every breed's operations are built from:
 * wrapping int arithmetic, and the acquire half of a final decrement
 *
 * Internal to librefcount's headers; not part of the API.
 */
#ifndef REFCOUNT_IMPL_ATOMIC_H
#define REFCOUNT_IMPL_ATOMIC_H

#include <stdatomic.h>

#include <refcount/impl/compiler.h>
#include <refcount/types.h>

/*
 * __refcount_acquire_after_dec() - the acquire half of a decrement to 0
 * @r: the refcount whose release decrement just returned "last reference"
 *
 * The kernel's smp_acquire__after_ctrl_dep(): an acquire fence.
 * ThreadSanitizer does not model fences (gcc refuses them outright), so under
 * TSan this is an acquire load of the counter instead, which synchronises
 * with the same release sequence (Rust's Arc does the same).
 */
#ifdef __REFCOUNT_TSAN
#define __refcount_acquire_after_dec(r)                                        \
	((void)atomic_load_explicit(&(r)->refs, memory_order_acquire))
#else
#define __refcount_acquire_after_dec(r)                                        \
	atomic_thread_fence(memory_order_acquire)
#endif

/*
 * Wrapping int arithmetic without signed-overflow undefined behaviour: the
 * kernel relies on -fno-strict-overflow, we go through unsigned.
 */
static inline int __refcount_wrap_add(int a, int b)
{
	return (int)((unsigned int)a + (unsigned int)b);
}

static inline int __refcount_wrap_sub(int a, int b)
{
	return (int)((unsigned int)a - (unsigned int)b);
}

#endif /* REFCOUNT_IMPL_ATOMIC_H */

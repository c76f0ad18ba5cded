/* SPDX-License-Identifier: MIT */
/*
 * refcount/types.h - the refcount_t type, breed selectors and compiler helpers
 *
 * Included by <refcount/refcount.h>; include that instead.
 *
 * The type is the same in every breed (one 32-bit atomic int, as the kernel's
 * struct refcount_struct wrapping an atomic_t), so a refcount_t embedded in a
 * shared structure has one layout whatever breed a translation unit picks.
 */
#ifndef REFCOUNT_TYPES_H
#define REFCOUNT_TYPES_H

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

/* Breed selectors: define REFCOUNT_BREED to one of these before including. */
#define REFCOUNT_BREED_ATOMIC 1 /* 2017 unchecked atomic_t fallback */
#define REFCOUNT_BREED_FAST 2 /* 2017 x86 ARCH_HAS_REFCOUNT, asm + flag trap */
#define REFCOUNT_BREED_FULL 3 /* 2017 generic REFCOUNT_FULL, cmpxchg loops */
#define REFCOUNT_BREED_SATURATING 4 /* 2019+ kernel: fetch-then-check */

/* REFCOUNT_HAVE_BREED_FAST - defined where the fast breed exists */
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)
#define REFCOUNT_HAVE_BREED_FAST 1
#endif

/**
 * typedef refcount_t - a hardened reference count
 * @refs: the count; touch it only through the refcount_*() operations.
 *
 * Follows include/linux/refcount_types.h.  32 bits in every breed.
 */
typedef struct refcount_struct {
	atomic_int refs;
} refcount_t;

/**
 * REFCOUNT_INIT - static initializer for a refcount_t
 * @n: initial value (an int; the full breed's unsigned constants are
 *     converted, so REFCOUNT_INIT(REFCOUNT_SATURATED) works in every breed)
 */
#define REFCOUNT_INIT(n)                                                       \
	{                                                                      \
		.refs = (int)(n)                                               \
	}

#if defined(__GNUC__) || defined(__clang__)
#define __refcount_must_check __attribute__((warn_unused_result))
#define __refcount_cold __attribute__((cold, noinline))
#define __refcount_always_inline inline __attribute__((always_inline))
#define __refcount_likely(x) __builtin_expect(!!(x), 1)
#define __refcount_unlikely(x) __builtin_expect(!!(x), 0)
#else
#define __refcount_must_check
#define __refcount_cold
#define __refcount_always_inline inline
#define __refcount_likely(x) (x)
#define __refcount_unlikely(x) (x)
#endif

/* Built with ThreadSanitizer (gcc or clang)? */
#if defined(__SANITIZE_THREAD__)
#define __REFCOUNT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define __REFCOUNT_TSAN 1
#endif
#endif

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

#endif /* REFCOUNT_TYPES_H */

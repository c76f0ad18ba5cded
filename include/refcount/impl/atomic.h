/* SPDX-License-Identifier: MIT */
/*
 * refcount/impl/atomic.h - what every breed's operations are built from:
 * wrapping int arithmetic, the acquire half of a final decrement, and the
 * add-unless-zero loop
 *
 * The counter is a plain int operated on with the compiler's __atomic
 * builtins (gcc and clang, C and C++ alike), with C11's memory orders:
 * __ATOMIC_RELAXED is memory_order_relaxed, and so on.  TSan instruments
 * them like <stdatomic.h>'s.
 *
 * Internal to librefcount's headers; not part of the API.
 */
#ifndef REFCOUNT_IMPL_ATOMIC_H
#define REFCOUNT_IMPL_ATOMIC_H

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
	((void)__atomic_load_n(&(r)->refs, __ATOMIC_ACQUIRE))
#else
#define __refcount_acquire_after_dec(r) __atomic_thread_fence(__ATOMIC_ACQUIRE)
#endif

/*
 * Wrapping int arithmetic without signed-overflow undefined behaviour: the
 * kernel relies on -fno-strict-overflow, we go through unsigned.
 */
static __refcount_inline int __refcount_wrap_add(int a, int b)
{
	return (int)((unsigned int)a + (unsigned int)b);
}

static __refcount_inline int __refcount_wrap_sub(int a, int b)
{
	return (int)((unsigned int)a - (unsigned int)b);
}

/*
 * __refcount_add_unless_zero() - add @i to *@v unless it is 0, in a loop
 * @v: the counter
 * @i: the value to add
 * @mo: the compare-and-swap's ordering on success (an __ATOMIC_* constant)
 *
 * The kernel's atomic_add_unless(v, i, 0) as a compare-and-swap loop; no
 * check on the result.  Return: the value the successful compare-and-swap
 * replaced, or 0 if the counter was 0 (then nothing changed).
 */
static __refcount_always_inline int __refcount_add_unless_zero(int *v, int i,
							       int mo)
{
	int old = __atomic_load_n(v, __ATOMIC_RELAXED);

	do {
		if (!old)
			break;
	} while (!__atomic_compare_exchange_n(v, &old,
					      __refcount_wrap_add(old, i), true,
					      mo, __ATOMIC_RELAXED));
	return old;
}

#endif /* REFCOUNT_IMPL_ATOMIC_H */

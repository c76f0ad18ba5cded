/* SPDX-License-Identifier: MIT */
/*
 * refcount/file_ref.h - file_ref_t: rcuref_t's zones in a long, for
 * type-stable objects
 *
 * Follows include/linux/file_ref.h and fs/file.c __file_ref_put()
 * (Christian Brauner, 2024, "fs: add file_ref", for struct file).  The
 * zones are rcuref_t's (<refcount/rcuref.h>), scaled to a long: 64 bits on
 * LP64 targets, 32 on i386, as the kernel's atomic_long_t.  What differs
 * from rcuref_t:
 *
 *  - file_ref_get() is fully ordered and has no slow path: a get that fails
 *    writes nothing back, because on type-stable memory the object may
 *    already be another one (resetting it to DEAD would kill someone
 *    else's object).  The dead zone is too wide for racing gets to leave it.
 *  - file_ref_inc() adds a reference for a caller that holds one.
 *  - file_ref_put_close() goes straight from one reference to DEAD with a
 *    compare-and-swap: one atomic instead of two for the common last put.
 *
 * THE MEMORY RULE is rcuref_t's: the memory must stay valid from the get to
 * the end of the put.  file_ref_t is made for (b) of <refcount/rcuref.h>,
 * type-stable pools that never give memory back while gets may race; a get
 * on a recycled object must then be checked (is it still the object looked
 * up?) and put back if not.  docs/rcuref.md has a tested example.
 */
#ifndef REFCOUNT_FILE_REF_H
#define REFCOUNT_FILE_REF_H

#ifdef __cplusplus
#error "<refcount/rcuref.h> and <refcount/file_ref.h> are C11 only (<stdatomic.h> atomics); from C++, <refcount/refcount.h> and <refcount/kref.h> work"
#endif

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>

#include <refcount/impl/compiler.h>
#include <refcount/impl/rcuref-debug.h>

/**
 * typedef file_ref_t - rcuref_t's zones in a long
 * @refcnt: the number of references minus one; touch it only through the
 *	file_ref_*() operations.
 *
 * Follows include/linux/file_ref.h.
 */
typedef struct file_ref {
	atomic_long refcnt;
} file_ref_t;

#if ULONG_MAX > 0xFFFFFFFFUL
/** FILE_REF_ONEREF - stored value of a counter holding one reference */
#define FILE_REF_ONEREF 0x0000000000000000UL
/** FILE_REF_MAXREF - stored value of the largest valid count */
#define FILE_REF_MAXREF 0x7FFFFFFFFFFFFFFFUL
/** FILE_REF_SATURATED - fixed point of the saturation zone */
#define FILE_REF_SATURATED 0xA000000000000000UL
/** FILE_REF_RELEASED - lowest value of the dead zone */
#define FILE_REF_RELEASED 0xC000000000000000UL
/** FILE_REF_DEAD - fixed point of the dead zone */
#define FILE_REF_DEAD 0xE000000000000000UL
/** FILE_REF_NOREF - stored value once the last reference was put */
#define FILE_REF_NOREF 0xFFFFFFFFFFFFFFFFUL
#else
#define FILE_REF_ONEREF 0x00000000UL
#define FILE_REF_MAXREF 0x7FFFFFFFUL
#define FILE_REF_SATURATED 0xA0000000UL
#define FILE_REF_RELEASED 0xC0000000UL
#define FILE_REF_DEAD 0xE0000000UL
#define FILE_REF_NOREF 0xFFFFFFFFUL
#endif

/* The stored long of a zone constant (the conversion wraps). */
#define __FILE_REF_VAL(u) ((long)(unsigned long)(u))

/**
 * FILE_REF_INIT - static initializer for a file_ref_t
 * @i: the initial number of references (1 for a new object)
 */
#define FILE_REF_INIT(i)                                                       \
	{                                                                      \
		.refcnt = __FILE_REF_VAL((unsigned long)(i)-1UL)               \
	}

/* Internal: the cold slow paths (src/rcuref.c), with the kernel's names. */
bool __file_ref_put(file_ref_t *ref, unsigned long cnt) __refcount_cold;
void __file_ref_inc_released(file_ref_t *ref) __refcount_cold;

/**
 * file_ref_init() - set the number of references
 * @ref: the counter
 * @cnt: the initial number of references, >= 1
 *
 * Similar to atomic_long_set(), but stores @cnt - 1, as the zones count.
 *
 * Memory ordering: a relaxed store; publish the object after it.  Context:
 * before the object is shared, or when a pool hands out a recycled one.
 *
 * Source: include/linux/file_ref.h file_ref_init().
 */
static inline void file_ref_init(file_ref_t *ref, unsigned long cnt)
{
	atomic_store_explicit(&ref->refcnt, __FILE_REF_VAL(cnt - 1UL),
			      memory_order_relaxed);
}

/**
 * file_ref_read() - the number of references held
 * @ref: the counter
 *
 * Similar to atomic_long_read() + 1, but 0 for any value in the dead zone.
 *
 * Memory ordering: a relaxed load.  Context: any thread; for diagnostics.
 *
 * Return: 0 if released (FILE_REF_RELEASED and above), else the stored
 * value + 1 (above LONG_MAX + 1 for a saturated counter).
 *
 * Source: include/linux/file_ref.h file_ref_read().
 */
static inline unsigned long file_ref_read(file_ref_t *ref)
{
	unsigned long c = (unsigned long)atomic_load_explicit(
		&ref->refcnt, memory_order_relaxed);

	return c >= FILE_REF_RELEASED ? 0 : c + 1UL;
}

/**
 * file_ref_get() - take a reference unless the last one was put
 * @ref: the counter
 *
 * Similar to atomic_long_inc_not_zero(), but one unconditional atomic add
 * and a sign test, no loop, and no write-back on failure.
 *
 * Memory ordering: fully ordered (sequentially consistent), as the kernel's
 * atomic_long_add_negative(): struct file's lookup relied on the barrier
 * that atomic_long_inc_not_zero() gave.
 *
 * Context: any thread, on memory that stays valid (a type-stable pool).
 * Wait-free.
 *
 * Return: true if a reference was taken (on a type-stable object, check
 * that it is still the object looked up); false if the counter is released
 * or saturated: then it is left as the add made it, somewhere in its zone.
 *
 * Misuse: none reported; a saturated counter makes the get fail.
 *
 * Source: include/linux/file_ref.h file_ref_get().
 */
static __refcount_always_inline __refcount_must_check bool
file_ref_get(file_ref_t *ref)
{
	long old = atomic_fetch_add_explicit(&ref->refcnt, 1,
					     memory_order_seq_cst);

	__RCUREF_DEBUG_ADD(gets, 1);
	__RCUREF_DEBUG_ADD(get_rmw, 1);
	return __refcount_likely((long)((unsigned long)old + 1UL) >= 0);
}

/**
 * file_ref_inc() - add a reference for a caller that holds one
 * @ref: the counter
 *
 * Similar to atomic_long_inc(), but reports when there was no reference.
 *
 * Memory ordering: none (relaxed): the caller's own reference keeps the
 * object alive.  Context: any thread holding a reference.
 *
 * Misuse: on a released or saturated counter (the value before was
 * negative) it reports REFCOUNT_ADD_UAF, "file_ref_inc() on a released file
 * reference", and leaves the counter as the add made it.
 *
 * Source: include/linux/file_ref.h file_ref_inc().
 */
static __refcount_always_inline void file_ref_inc(file_ref_t *ref)
{
	long prior = atomic_fetch_add_explicit(&ref->refcnt, 1,
					       memory_order_relaxed);

	if (__refcount_unlikely(prior < 0))
		__file_ref_inc_released(ref);
}

/**
 * file_ref_put() - drop a reference
 * @ref: the counter
 *
 * Similar to atomic_long_dec_and_test(), but one atomic subtract, then, for
 * the last reference only, one compare-and-swap from FILE_REF_NOREF to
 * FILE_REF_DEAD that a concurrent get may win; and saturating.
 *
 * Memory ordering: fully ordered, as the kernel's atomic_long_dec_return():
 * at least RELEASE before the count drops and ACQUIRE when it returns true.
 *
 * Context: any thread, on memory that stays valid to the end of the call
 * (the kernel disables preemption so that the slab page stays).  Lock-free.
 *
 * Return: true exactly once, to the caller that may release the object
 * (give it back to its pool); false otherwise, including for a put that
 * raced a get and lost.
 *
 * Misuse: a put on a released counter stores FILE_REF_DEAD and reports
 * REFCOUNT_SUB_UAF, "imbalanced put on file reference count"; on a
 * saturated one it stores FILE_REF_SATURATED, silently.  Both return false.
 *
 * Source: include/linux/file_ref.h file_ref_put(), fs/file.c
 * __file_ref_put().
 */
static __refcount_always_inline __refcount_must_check bool
file_ref_put(file_ref_t *ref)
{
	long cnt = (long)((unsigned long)atomic_fetch_sub_explicit(
				  &ref->refcnt, 1, memory_order_seq_cst) -
			  1UL);

	__RCUREF_DEBUG_ADD(puts, 1);
	__RCUREF_DEBUG_ADD(put_rmw, 1);
	if (__refcount_likely(cnt >= 0))
		return false;
	return __file_ref_put(ref, (unsigned long)cnt);
}

/**
 * file_ref_put_close() - drop a reference that is likely the last
 * @ref: the counter
 *
 * Similar to atomic_long_dec_and_test(), but a compare-and-swap straight
 * from FILE_REF_ONEREF to FILE_REF_DEAD: one atomic instead of
 * file_ref_put()'s two when this is the last reference.  It retries while
 * the counter holds exactly one reference and keeps changing; on any other
 * value it is file_ref_put().
 *
 * Memory ordering: as file_ref_put().  Context: as file_ref_put(); for the
 * close() of an object, where the last reference is the common case.
 * Lock-free, not wait-free.
 *
 * Return: as file_ref_put(): true exactly once, for the caller that may
 * release the object.
 *
 * Misuse: as file_ref_put().
 *
 * Source: include/linux/file_ref.h file_ref_put_close().
 */
static inline __refcount_must_check bool file_ref_put_close(file_ref_t *ref)
{
	long old = atomic_load_explicit(&ref->refcnt, memory_order_relaxed);

	__RCUREF_DEBUG_ADD(puts, 1);
	while (old == __FILE_REF_VAL(FILE_REF_ONEREF)) {
		__RCUREF_DEBUG_ADD(put_rmw, 1);
		if (atomic_compare_exchange_weak_explicit(
			    &ref->refcnt, &old, __FILE_REF_VAL(FILE_REF_DEAD),
			    memory_order_seq_cst, memory_order_relaxed))
			return true;
	}
	__RCUREF_DEBUG_ADD(puts, -1UL); /* counted again by file_ref_put() */
	return file_ref_put(ref);
}

#endif /* REFCOUNT_FILE_REF_H */

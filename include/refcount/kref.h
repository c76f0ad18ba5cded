/* SPDX-License-Identifier: MIT */
/*
 * refcount/kref.h - kref: an object's reference count with a release callback
 *
 * Follows include/linux/kref.h: a struct kref is a refcount_t, and a put that
 * drops the last reference calls the release function.  It uses the breed the
 * including translation unit picked (REFCOUNT_BREED, see
 * <refcount/refcount.h>), so misuse is detected and reported as that breed's
 * refcount_t does.
 *
 * Embed a struct kref in your object, get the object back in the release
 * function with container_of() (defined here unless the program has its
 * own), and free it there.
 */
#ifndef REFCOUNT_KREF_H
#define REFCOUNT_KREF_H

#include <refcount/refcount.h>

#ifdef REFCOUNT_EXTERN
#error "<refcount/kref.h> is inline code: it needs C11 (-std=gnu11) or C++, without REFCOUNT_EXTERN"
#endif

__REFCOUNT_BEGIN_DECLS

#ifndef container_of
/**
 * container_of - the structure that embeds a member, from the member
 * @ptr: a pointer to the member
 * @type: the type of the structure it is embedded in
 * @member: the name of the member within @type
 *
 * Similar to the kernel's container_of(): (type *)((char *)@ptr -
 * offsetof(@type, @member)), for getting an object back from its struct kref
 * in a release function.  In GNU C it also checks, at compile time, that
 * @ptr points to something of @member's type.  Defined only if the program
 * has no container_of() of its own.
 *
 * Memory ordering: none.  Return: the structure's address.
 *
 * Misuse: a @ptr that is not @member of a @type is undefined behaviour.
 *
 * Follows include/linux/container_of.h.
 */
#if defined(__GNUC__) && !defined(__cplusplus)
#define container_of(ptr, type, member)                                        \
	__extension__({                                                        \
		_Static_assert(__builtin_types_compatible_p(                   \
				       __typeof__(*(ptr)),                     \
				       __typeof__(((type *)0)->member)),       \
			       "container_of(): pointer type mismatch");       \
		((type *)(void *)((char *)(ptr)-offsetof(type, member)));      \
	})
#else
#define container_of(ptr, type, member)                                        \
	((type *)(void *)((char *)(ptr)-offsetof(type, member)))
#endif
#endif

/**
 * struct kref - an embedded reference count
 * @refcount: the count; use the kref_*() functions.
 *
 * Similar to the kernel's struct kref: a refcount_t and nothing else, so it
 * has the selected breed's checks and refcount_t's layout.
 *
 * Follows include/linux/kref.h.
 */
struct kref {
	refcount_t refcount;
};

/**
 * KREF_INIT - static initializer for a struct kref holding @n references
 * @n: the initial number of references, as for REFCOUNT_INIT(); normally 1
 *
 * Similar to REFCOUNT_INIT(), which it wraps.  Memory ordering: none (an
 * initializer).
 *
 * Follows include/linux/kref.h KREF_INIT().
 */
#define KREF_INIT(n)                                                           \
	{                                                                      \
		.refcount = REFCOUNT_INIT(n),                                  \
	}

/**
 * kref_init() - initialise a kref to 1
 * @kref: the kref
 *
 * Similar to refcount_set() of the embedded count to 1, which it is.
 *
 * Memory ordering: none (a relaxed store): publish the object afterwards.
 *
 * Context: before the object is published; not concurrent with other
 * kref_*() calls on it.
 *
 * Follows include/linux/kref.h kref_init().
 */
static __refcount_inline __refcount_nonnull void kref_init(struct kref *kref)
{
	refcount_set(&kref->refcount, 1);
}

/**
 * kref_read() - read a kref's count
 * @kref: the kref
 *
 * Similar to refcount_read() of the embedded count, which it is.
 *
 * Memory ordering: none (relaxed); the value may be stale at once, so it is
 * for reports and tests.
 *
 * Return: the count as unsigned int.
 *
 * Follows include/linux/kref.h kref_read().
 */
static __refcount_inline __refcount_nonnull unsigned int
kref_read(const struct kref *kref)
{
	return refcount_read(&kref->refcount);
}

/**
 * kref_get() - take a reference
 * @kref: the kref; the caller must already hold a reference
 *
 * Similar to refcount_inc() of the embedded count, which it is.
 *
 * Memory ordering: none (relaxed), as refcount_inc().
 *
 * Context: any thread; lock-free.
 *
 * Misuse: as refcount_inc(): a get on 0 is reported as REFCOUNT_ADD_UAF, an
 * overflow as REFCOUNT_ADD_OVF, by the breeds that detect them (rows
 * INC_ZERO, INC_OVERFLOW and INC_SATURATED of the misuse table in
 * <refcount/refcount.h>).
 *
 * Follows include/linux/kref.h kref_get().
 */
static __refcount_inline __refcount_nonnull void kref_get(struct kref *kref)
{
	refcount_inc(&kref->refcount);
}

/**
 * kref_put() - drop a reference, and release the object on the last one
 * @kref: the kref
 * @release: called with @kref when the count reaches 0; must not be NULL.
 *	It frees the object (the kernel forbids passing kfree itself; here,
 *	pass a function that frees the containing object).
 *
 * Similar to refcount_dec_and_test() of the embedded count, calling @release
 * when it returns true.
 *
 * Memory ordering: RELEASE, and ACQUIRE before @release runs, so @release
 * sees every access made through other references.
 *
 * Context: any thread; lock-free, plus whatever @release does.
 *
 * Return: 1 if this call released the object, 0 otherwise.  0 does not mean
 * the object is still alive: another thread may have released it since.
 *
 * Misuse: as refcount_dec_and_test(): a put below 0 is reported as
 * REFCOUNT_SUB_UAF (not by the atomic breed) and, in every breed, never
 * releases.
 *
 * Follows include/linux/kref.h kref_put().
 */
static __refcount_inline __refcount_nonnull int
kref_put(struct kref *kref, void (*release)(struct kref *))
{
	if (refcount_dec_and_test(&kref->refcount)) {
		release(kref);
		return 1;
	}
	return 0;
}

/**
 * kref_put_mutex() - drop a reference; release under a mutex on the last one
 * @kref: the kref
 * @release: called with @lock held when the count reaches 0; it must
 *	unpublish the object, unlock @lock, and free the object
 * @lock: the mutex guarding lookups of the object
 *
 * Similar to kref_put(), but through refcount_dec_and_mutex_lock(): a
 * concurrent lookup under @lock that uses kref_get_unless_zero() either gets
 * a reference before the count reaches 0 or finds it 0 and backs off.
 *
 * Memory ordering: RELEASE; ACQUIRE before @release runs.
 *
 * Context: may sleep on @lock; @lock must not be held by the caller.
 *
 * Return: 1 if this call released the object, 0 otherwise.
 *
 * Misuse: as refcount_dec_and_mutex_lock(): a put below 0 is reported
 * (REFCOUNT_SUB_UAF, in every breed) and never releases.
 *
 * Follows include/linux/kref.h kref_put_mutex().
 */
static __refcount_inline __refcount_nonnull int
kref_put_mutex(struct kref *kref, void (*release)(struct kref *),
	       pthread_mutex_t *lock)
{
	if (refcount_dec_and_mutex_lock(&kref->refcount, lock)) {
		release(kref);
		return 1;
	}
	return 0;
}

/**
 * kref_put_lock() - drop a reference; release under a spinlock on the last one
 * @kref: the kref
 * @release: called with @lock held when the count reaches 0 (it unlocks)
 * @lock: the pthread spinlock guarding lookups of the object
 *
 * Similar to kref_put_mutex(), but through refcount_dec_and_lock() and a
 * spinlock.
 *
 * Memory ordering: RELEASE; ACQUIRE before @release runs.
 *
 * Context: may spin on @lock; @lock must not be held by the caller.
 *
 * Return: 1 if this call released the object, 0 otherwise.
 *
 * Misuse: as refcount_dec_and_lock(): a put below 0 is reported
 * (REFCOUNT_SUB_UAF, in every breed) and never releases.
 *
 * Follows include/linux/kref.h kref_put_lock().
 */
static __refcount_inline __refcount_nonnull int
kref_put_lock(struct kref *kref, void (*release)(struct kref *),
	      pthread_spinlock_t *lock)
{
	if (refcount_dec_and_lock(&kref->refcount, lock)) {
		release(kref);
		return 1;
	}
	return 0;
}

/**
 * kref_get_unless_zero() - take a reference unless the count is 0
 * @kref: the kref
 *
 * Similar to refcount_inc_not_zero() of the embedded count, returning int.
 *
 * For lookups in a structure whose release function removes the object
 * (under the lock the lookup holds, or with RCU-like deferred freeing): an
 * object at 0 is being destroyed and must not be revived.
 *
 * Memory ordering: as refcount_inc_not_zero().
 *
 * Context: any thread, typically under the lookup structure's lock.
 *
 * Return: non-zero if a reference was taken, 0 if the count was 0.
 *
 * Misuse: as refcount_inc_not_zero() (REFCOUNT_ADD_NOT_ZERO_OVF).
 *
 * Follows include/linux/kref.h kref_get_unless_zero().
 */
static __refcount_inline __refcount_nonnull __refcount_must_check int
kref_get_unless_zero(struct kref *kref)
{
	return refcount_inc_not_zero(&kref->refcount);
}

__REFCOUNT_END_DECLS

#endif /* REFCOUNT_KREF_H */

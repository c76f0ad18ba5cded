/* SPDX-License-Identifier: MIT */
/*
 * refcount/types.h - the refcount_t type
 *
 * The type alone, for structures that embed a counter; the operations are in
 * <refcount/refcount.h>.  It is the same in every breed (one 32-bit int, as
 * the kernel's struct refcount_struct wrapping an atomic_t), so a refcount_t
 * embedded in a shared structure has one layout whatever breed, and whatever
 * language (C or C++), a translation unit uses.  The int is only ever
 * touched with the compiler's __atomic builtins, which C and C++ share.
 */
#ifndef REFCOUNT_TYPES_H
#define REFCOUNT_TYPES_H

/**
 * typedef refcount_t - a hardened reference count
 * @refs: the count; touch it only through the refcount_*() operations.
 *
 * Similar to atomic_t, which the kernel's struct refcount_struct wraps: one
 * 32-bit atomic int, in every breed.
 *
 * Follows include/linux/refcount_types.h.
 */
typedef struct refcount_struct {
	int refs;
} refcount_t;

/**
 * REFCOUNT_INIT - static initializer for a refcount_t
 * @n: initial value (an int; the full breed's unsigned constants are
 *     converted, so REFCOUNT_INIT(REFCOUNT_SATURATED) works in every breed)
 *
 * Similar to ATOMIC_INIT(), as the kernel's REFCOUNT_INIT() is.  Memory
 * ordering: none (an initializer).  Misuse: none detected.
 *
 * Follows include/linux/refcount.h REFCOUNT_INIT().
 */
#define REFCOUNT_INIT(n)                                                       \
	{                                                                      \
		(int)(n)                                                       \
	}

#endif /* REFCOUNT_TYPES_H */

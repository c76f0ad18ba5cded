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

/**
 * REFCOUNT_IMMORTAL - the value of an immortal refcount_t
 *
 * INT_MIN / 2 + INT_MIN / 4 (0xa0000000 read as unsigned): negative, so
 * that every checking operation reaches its cold path there, and 2^29 away
 * from REFCOUNT_SATURATED (0xc0000000), INT_MIN (where an overflow lands)
 * and 0, so that the cold path can tell an immortal counter from a misused
 * one even after other threads moved it: it keeps any value within 2^28 of
 * this one immortal.  An immortal counter is a silent no-op in every
 * operation of the saturating, fast and nonatomic breeds: nothing changes,
 * nothing is reported, puts never return "last reference", try-gets always
 * succeed.  Memory ordering: none (a constant).  Misuse: none.
 *
 * This library's addition, after CPython 3.12's immortal objects (PEP 683),
 * whose check is in the hot path; here it is in the cold one.
 */
#define REFCOUNT_IMMORTAL (-0x60000000)

/**
 * REFCOUNT_INIT_IMMORTAL - static initializer for an immortal refcount_t
 *
 * REFCOUNT_INIT(REFCOUNT_IMMORTAL), for statically allocated singletons
 * (a JSON library's true, false and null) that every caller gets and puts
 * like any other object but that must never be freed.  Memory ordering:
 * none (an initializer).  Misuse: none detected.
 *
 * This library's addition (CPython 3.12's _Py_IMMORTAL_REFCNT).
 */
#define REFCOUNT_INIT_IMMORTAL REFCOUNT_INIT(REFCOUNT_IMMORTAL)

/* Internal: is @v within 2^28 of REFCOUNT_IMMORTAL (an immortal count)? */
#define __REFCOUNT_IMMORTAL_VALUE(v)                                           \
	((unsigned int)(v) - 0x90000000u < 0x20000000u)

#endif /* REFCOUNT_TYPES_H */

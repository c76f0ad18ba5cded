/* SPDX-License-Identifier: MIT */
/*
 * refcount/types.h - the refcount_t and refcount_long_t types
 *
 * The types alone (and their constants), C90 and C++ clean, for structures that embed a counter; the operations are in
 * <refcount/refcount.h>.  It is the same in every breed (one 32-bit int, as
 * the kernel's struct refcount_struct wrapping an atomic_t), so a refcount_t
 * embedded in a shared structure has one layout whatever breed, and whatever
 * language (C or C++), a translation unit uses.  The int is only ever
 * touched with the compiler's __atomic builtins, which C and C++ share.
 */
#ifndef REFCOUNT_TYPES_H
#define REFCOUNT_TYPES_H

#include <limits.h>

#include "breed/registry.h" /* found beside this file, with or without -I */

/*
 * Internal: the word a refcount_t stores for the count @n, and the count a
 * word holds (the same map both ways).  The saturating design's breeds
 * (saturating, the default, and nonatomic) store INT_MIN - n (mod 2^32), so
 * that their x86 increment and decrement decide every boundary from the
 * flags of one locked instruction (docs/design.md, 'The increment and the
 * flags'); the 2017 breeds store @n.  __REFCOUNT_READ(w) is the count
 * refcount_read() gives for the word @w: the same map, but the word 0
 * (zeroed memory) reads 0.  __REFCOUNT_SET_WORD(n) is the word a set
 * stores.  Decided here, by the breed the unit
 * selects, so that REFCOUNT_INIT() stores the same word as refcount_set();
 * <refcount/refcount.h> refuses a unit that selects another breed after
 * including this file.
 */
#define __REFCOUNT_SAT_WORD(n) ((int)(0x80000000u - (unsigned int)(n)))
/* What refcount_read() says of the word @w: zeroed memory reads 0. */
#define __REFCOUNT_SAT_READ(w) ((w) ? __REFCOUNT_SAT_WORD(w) : 0)
/*
 * The word refcount_set(), refcount_set_release() and REFCOUNT_INIT() store
 * for @n in the saturating design: a negative count outside the immortal
 * band is stored as REFCOUNT_SATURATED (INT_MIN / 2), the value the
 * kernel's next checking operation on it would store, so that no word
 * between the saturated one and 0 is ever set (docs/design.md, 'The
 * increment and the flags': the count -INT_MAX is unreachable, and the put
 * needs one branch).  @n is evaluated more than once.
 */
#define __REFCOUNT_SAT_SET(n)                                                  \
	__REFCOUNT_SAT_WORD(                                                   \
		(int)(n) >= 0 || __REFCOUNT_IMMORTAL_VALUE(n) ?                \
			(int)(n) :                                             \
			__REFCOUNT_ROW_saturating(__REFCOUNT_F_SATURATED))
#if !defined(REFCOUNT_BREED) || REFCOUNT_BREED == REFCOUNT_BREED_SATURATING || \
	REFCOUNT_BREED == REFCOUNT_BREED_NONATOMIC
#define __REFCOUNT_ENCODED 1
#define __REFCOUNT_WORD(n) __REFCOUNT_SAT_WORD(n)
#define __REFCOUNT_SET_WORD(n) __REFCOUNT_SAT_SET(n)
#define __REFCOUNT_READ(w) __REFCOUNT_SAT_READ(w)
#else
#define __REFCOUNT_ENCODED 0
#define __REFCOUNT_WORD(n) ((int)(n))
#define __REFCOUNT_SET_WORD(n) ((int)(n))
#define __REFCOUNT_READ(w) ((int)(w))
#endif

/**
 * typedef refcount_t - a hardened reference count
 * @refs: the count's word; touch it only through the refcount_*()
 *	operations.  In the saturating and nonatomic breeds it holds INT_MIN
 *	minus the count.
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
 * Similar to ATOMIC_INIT(), as the kernel's REFCOUNT_INIT() is, but it
 * stores the breed's word for @n (INT_MIN - @n in the saturating and
 * nonatomic breeds), as refcount_set() does: there a negative @n outside
 * REFCOUNT_IMMORTAL's band is stored as REFCOUNT_SATURATED.  @n is
 * evaluated more than once.  Memory ordering: none (an initializer).
 *
 * Follows include/linux/refcount.h REFCOUNT_INIT().
 */
#define REFCOUNT_INIT(n)                                                       \
	{                                                                      \
		__REFCOUNT_SET_WORD(n)                                         \
	}

/**
 * REFCOUNT_IMMORTAL - the value of an immortal refcount_t
 *
 * INT_MIN / 2 + INT_MIN / 4 (0xa0000000 read as unsigned): negative, so
 * that every checking operation reaches its cold path there, and 2^29 away
 * from REFCOUNT_SATURATED (0xc0000000), INT_MIN (where an overflow lands)
 * and 0, so that the cold path can tell an immortal counter from a misused
 * one even after other threads moved it: it keeps any value within 2^28 of
 * this one immortal.  (A count: the saturating design stores it as the
 * word 0xe0000000, the same distances from the words of those values.)  An immortal counter is a silent no-op in every
 * operation of the saturating, fast and nonatomic breeds: nothing changes,
 * nothing is reported, puts never return "last reference", try-gets always
 * succeed.  Memory ordering: none (a constant).
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
 * none (an initializer).
 *
 * This library's addition (CPython 3.12's _Py_IMMORTAL_REFCNT).
 */
#define REFCOUNT_INIT_IMMORTAL REFCOUNT_INIT(REFCOUNT_IMMORTAL)

/* Internal: is @v within 2^28 of REFCOUNT_IMMORTAL (an immortal count)? */
#define __REFCOUNT_IMMORTAL_VALUE(v)                                           \
	((unsigned int)(v) - 0x90000000u < 0x20000000u)

/**
 * typedef refcount_long_t - a hardened reference count as wide as a long
 * @refs: the count's word, LONG_MIN minus the count (the saturating design's
 *	encoding, in every breed); touch it only through the refcount_long_*()
 *	operations.
 *
 * Similar to atomic_long_t, as refcount_t is to atomic_t: one long, so 64
 * bits on LP64 targets and 32 on ILP32 ones (i386), the size and alignment
 * of size_t and of a pointer on every Linux ABI.  A counter that was a
 * size_t or a long (jansson's json_t.refcount, libusb's atomic_long)
 * becomes a refcount_long_t without changing the structure's layout.  The
 * operations are refcount_t's, named refcount_long_<op>
 * (<refcount/refcount_long.h>), with the saturating design.
 *
 * The kernel's refcount_t is 32 bits in every configuration; its only
 * 64-bit reference count is file_ref_t, an atomic_long_t.  The name follows
 * atomic_long_t (a long, whatever its width), not atomic64_t, whose 64 bits
 * would change the layout of a size_t field on 32-bit targets.
 */
typedef struct refcount_long_struct {
	long refs;
} refcount_long_t;

/**
 * REFCOUNT_LONG_INIT - static initializer for a refcount_long_t
 * @n: initial value (a long)
 *
 * Similar to ATOMIC_LONG_INIT(), as REFCOUNT_INIT() is to ATOMIC_INIT():
 * a negative @n outside REFCOUNT_LONG_IMMORTAL's band is stored as
 * REFCOUNT_LONG_SATURATED, and @n is evaluated more than once.  Memory
 * ordering: none (an initializer).
 */
#define REFCOUNT_LONG_INIT(n)                                                  \
	{                                                                      \
		__REFCOUNT_LONG_SET(n)                                         \
	}

/* Internal: the word of the long count @n, and the count of a word. */
#define __REFCOUNT_LONG_WORD(n)                                                \
	((long)((unsigned long)LONG_MIN - (unsigned long)(n)))
/* What refcount_long_read() says of the word @w: zeroed memory reads 0. */
#define __REFCOUNT_LONG_READ(w) ((w) ? __REFCOUNT_LONG_WORD(w) : 0L)
/* The word a set stores for @n: __REFCOUNT_SAT_SET() on a long
 * (__REFCOUNT_LONG_SET_WORD, as the int's __REFCOUNT_SET_WORD). */
#define __REFCOUNT_LONG_SET_WORD(n) __REFCOUNT_LONG_SET(n)
#define __REFCOUNT_LONG_SET(n)                                                 \
	__REFCOUNT_LONG_WORD(                                                  \
		(long)(n) >= 0 || __REFCOUNT_LONG_IMMORTAL_VALUE(n) ?          \
			(long)(n) :                                            \
			REFCOUNT_LONG_SATURATED)

/**
 * REFCOUNT_LONG_MAX - the largest legal count of a refcount_long_t
 *
 * LONG_MAX, as REFCOUNT_MAX is INT_MAX.
 */
#define REFCOUNT_LONG_MAX LONG_MAX

/**
 * REFCOUNT_LONG_SATURATED - the value a misused refcount_long_t is pinned at
 *
 * LONG_MIN / 2, half way between 0 and LONG_MAX as REFCOUNT_SATURATED is
 * for an int.
 */
#define REFCOUNT_LONG_SATURATED (LONG_MIN / 2)

/**
 * REFCOUNT_LONG_IMMORTAL - the value of an immortal refcount_long_t
 *
 * LONG_MIN / 2 + LONG_MIN / 4, REFCOUNT_IMMORTAL scaled to a long; any
 * value within -(LONG_MIN / 8) of it is immortal.
 */
#define REFCOUNT_LONG_IMMORTAL (LONG_MIN / 2 + LONG_MIN / 4)

/**
 * REFCOUNT_LONG_INIT_IMMORTAL - static initializer for an immortal
 * refcount_long_t
 *
 * REFCOUNT_LONG_INIT(REFCOUNT_LONG_IMMORTAL), as REFCOUNT_INIT_IMMORTAL.
 */
#define REFCOUNT_LONG_INIT_IMMORTAL REFCOUNT_LONG_INIT(REFCOUNT_LONG_IMMORTAL)

/* Internal: is @v within -(LONG_MIN / 8) of REFCOUNT_LONG_IMMORTAL? */
#define __REFCOUNT_LONG_IMMORTAL_VALUE(v)                                      \
	((unsigned long)(v) -                                                  \
		 ((unsigned long)LONG_MIN + ((unsigned long)LONG_MIN >> 3)) <  \
	 ((unsigned long)LONG_MIN >> 2))

#endif /* REFCOUNT_TYPES_H */

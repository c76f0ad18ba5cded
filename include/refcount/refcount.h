/* SPDX-License-Identifier: MIT */
/*
 * refcount/refcount.h - hardened reference counting: the kernel's refcount_t

 *
 * DOC: what refcount_t is for
 *
 * A reference count that wraps turns a leak into a use-after-free: take
 * 2^32 references that are never dropped (a bug, or an attacker repeating a
 * leaky system call, CVE-2016-0728) and the count is back at 0, the next put
 * frees an object that is still in use.  refcount_t is a counter that
 * refuses to do that.  When it detects misuse it *saturates*: it pins the
 * counter at a value from which no sequence of ordinary operations reaches 0,
 * and reports.  Every detected bug becomes a memory leak, never a premature
 * free.
 *
 * DOC: the saturating word
 *
 * The saturating breed (the default), the nonatomic breed and
 * refcount_long_t do not store the count: the word holds INT_MIN - count
 * (mod 2^32; LONG_MIN - count in a long), a map that is its own inverse.
 * On the word, read as unsigned:
 *
 *	word    0        1           INT_MAX  INT_MIN    0xc000_0000  UINT_MAX
 *	        +--------+--- .. ----+--------+--- .. ---+---- .. ----+
 *	count   INT_MIN  MAX         1        0          SATURATED    -INT_MAX
 *	        (hole)   <-- good -->         (free) <----- bad value! ----->
 *
 * A get subtracts from the word and a put adds to it.  The good counts, 1 to
 * REFCOUNT_MAX (= INT_MAX), are the words INT_MAX down to 1, the positive
 * ones; the count 0 is the word INT_MIN, and every bad (negative) count is a
 * negative word.  On x86 the flags of the one locked instruction decide every
 * edge, so no old value is read back (docs/design.md, 'The increment and the
 * flags'; the C paths elsewhere give the same outcomes).  A get of @i is
 * `lock sub $i`, good iff the result is above 0 in true arithmetic; its
 * `jle` (ZF, or SF != OF) takes the rest: a get on 0 crosses INT_MIN (OF),
 * one past MAX reaches 0 (ZF) or below (SF), one on a bad value stays below
 * 0.  A put of 1 is `lock inc`: the last put lands exactly on INT_MIN (OF),
 * and any other negative result (SF) is a put on 0 or on a bad value.  A put
 * of @i > 1 that puts more than the count flips the sign too, and a re-read
 * of the word tells it from the last put.
 *
 * On a misuse a cold out-of-line function stores REFCOUNT_SATURATED =
 * INT_MIN / 2, whose word is INT_MIN / 2 again (0xc000_0000), and reports.
 * Between the locked instruction and that store other threads can move the
 * word.  That is safe because the saturated word sits half way between the
 * two ends of the bad range, 2^30 from INT_MIN (the count 0: a free) and
 * 2^30 from UINT_MAX + 1 = 0 (then MAX, a good count): some 2^30 operations
 * would have to land inside that window.  The kernel argues that the number
 * of tasks (PID_MAX_LIMIT, 2^22) bounds it to 256 nested in-flight
 * operations per task.  Userspace has no such bound on threads, but the
 * same arithmetic holds: it would take 2^30 threads all between their
 * locked instruction and the fix-up store at once, or batched
 * refcount_add() calls with enormous @i.  Don't add large numbers to
 * counters an attacker can reach.
 *
 * One word is seen by no flag: 0, the count INT_MIN.  A put on it moves it
 * silently to INT_MAX, a leak, never a free, and no sequence of operations
 * from a good count reaches it: a misuse stores SATURATED, 2^30 puts away
 * from it, and every check on a bad value stores SATURATED again.  It is
 * also what zeroed memory holds, so refcount_read() reads it as 0, a
 * try-get refuses it as it refuses 0, and a get reports it as an addition
 * on 0.  The three 2017 breeds (atomic, fast, full) store the count
 * itself.
 *
 * DOC: the breeds
 *
 * This is a userspace reproduction of the Linux kernel's refcount_t, with its
 * names, signatures and semantics, in the four designs ("breeds") the kernel
 * has had.  A translation unit picks one before including this header:
 *
 *	#define REFCOUNT_BREED REFCOUNT_BREED_FULL
 *	#include <refcount/refcount.h>
 *
 * The breeds, their selectors, names, MAX and SATURATED are listed once, in
 * <refcount/breed/registry.h>; REFCOUNT_BREED_NAME, REFCOUNT_MAX and
 * REFCOUNT_SATURATED are the selected breed's.  The default,
 * REFCOUNT_BREED_SATURATING, is today's kernel design; three more are the
 * designs of 2017, and REFCOUNT_BREED_NONATOMIC is today's design for
 * counters that one thread alone touches (plain loads and stores; this
 * library's addition, docs/breeds.md).
 *
 * DOC: misuse, per breed
 *
 * What each breed does with the kernel's 17 LKDTM misuse scenarios: the
 * counter's final value, and whether a report was printed ("warn"), or
 * counted and handed to the handler without printing ("silent"; the 2017
 * kernel stayed silent there), or not raised at all (no word).  SAT is the
 * breed's REFCOUNT_SATURATED, MAX its REFCOUNT_MAX.  Generated from the
 * table the tests assert; docs/breeds.md has the steps, return values,
 * report types and the exact wording of every cell.
 *
 * BEGIN misuse table (tests/gen-breeds-md.c writes it from the tests' table)
 * | LKDTM scenario         | atomic     | fast       | full       | saturating | nonatomic  |
 * |------------------------|------------|------------|------------|------------|------------|
 * | INC_OVERFLOW           | 0x80000000 | SAT warn   | SAT warn   | SAT warn   | SAT warn   |
 * | ADD_OVERFLOW           | 0x80000002 | SAT warn   | SAT warn   | SAT warn   | SAT warn   |
 * | INC_NOT_ZERO_OVERFLOW  | 0x80000000 | SAT warn   | SAT warn   | SAT warn   | SAT warn   |
 * | ADD_NOT_ZERO_OVERFLOW  | 0x80000005 | SAT warn   | SAT warn   | SAT warn   | SAT warn   |
 * | DEC_ZERO               | 0          | SAT warn   | 0 warn     | SAT warn   | SAT warn   |
 * | DEC_NEGATIVE           | 0xffffffff | SAT silent | 0 warn     | SAT warn   | SAT warn   |
 * | DEC_AND_TEST_NEGATIVE  | 0xffffffff | SAT silent | 0 warn     | SAT warn   | SAT warn   |
 * | SUB_AND_TEST_NEGATIVE  | 0xfffffffe | SAT silent | 3 warn     | SAT warn   | SAT warn   |
 * | INC_ZERO               | 1          | 1          | 0 warn     | SAT warn   | SAT warn   |
 * | ADD_ZERO               | 3          | 3          | 0 warn     | SAT warn   | SAT warn   |
 * | INC_SATURATED          | 0xc0000001 | SAT silent | SAT silent | SAT warn   | SAT warn   |
 * | DEC_SATURATED          | 0xbfffffff | SAT silent | SAT silent | SAT warn   | SAT warn   |
 * | ADD_SATURATED          | 0xc0000008 | SAT silent | SAT silent | SAT warn   | SAT warn   |
 * | INC_NOT_ZERO_SATURATED | 0xc0000001 | SAT warn   | SAT silent | SAT warn   | SAT warn   |
 * | ADD_NOT_ZERO_SATURATED | 0xc0000007 | SAT warn   | SAT silent | SAT warn   | SAT warn   |
 * | DEC_AND_TEST_SATURATED | 0xbfffffff | SAT silent | SAT silent | SAT warn   | SAT warn   |
 * | SUB_AND_TEST_SATURATED | 0xbffffff8 | SAT silent | SAT silent | SAT warn   | SAT warn   |
 * END misuse table
 *
 * Units built with different breeds link into one program: the operations
 * are static inline, and every out-of-line symbol carries its breed's name.
 * All breeds share one refcount_t layout, but a given counter must only ever
 * be touched by one breed, since the breeds disagree on what SATURATED is.
 *
 * DOC: memory ordering
 *
 * As Documentation/core-api/refcount-vs-atomic.rst, in C11 terms:
 *
 * | operation                               | ordering                    |
 * |-----------------------------------------|-----------------------------|
 * | refcount_set(), refcount_read()         | relaxed                     |
 * | refcount_set_release()                  | release                     |
 * | refcount_inc(), refcount_add()          | relaxed                     |
 * | refcount_inc_not_zero(), _add_not_zero()| relaxed (control dependency)|
 * | refcount_{inc,add}_not_zero_acquire()   | acquire on success          |
 * | refcount_dec()                          | release                     |
 * | refcount_dec_and_test(), _sub_and_test()| release; acquire on success |
 * | refcount_dec_if_one(), _dec_not_one()   | release                     |
 * | refcount_dec_and_lock(), _mutex_lock()  | release; lock held on true  |
 *
 * The atomic and fast breeds are stronger where atomic_t was: their _not_zero
 * forms, and the atomic breed's _and_test forms, are sequentially
 * consistent, and on x86 every fast-breed fast path is a locked instruction,
 * a full barrier.  Increments need no ordering: whatever gave you the pointer
 * (a lock, an RCU-style publication) ordered it.  The last decrement needs
 * release + acquire so that the destructor sees every access made through
 * other references.  C11 does not promise the control dependency the kernel
 * relies on after refcount_inc_not_zero(); if you must re-check an object's
 * identity after taking a reference (memory reused for another object of the
 * same type), use the _acquire forms.
 *
 * The acquire of a decrement to 0 is a fence on the true path, the kernel's
 * smp_acquire__after_ctrl_dep().  ThreadSanitizer does not model fences, so
 * under TSan it is an acquire load of the counter instead, which synchronises
 * with the same release sequence; TSan cannot see inside asm either, so there
 * the fast breed's x86 paths are the same operations in C11 atomics.  How
 * each case maps onto C11: docs/design.md, 'Memory ordering in C11'.
 *
 * DOC: the __refcount_*() forms
 *
 * __refcount_inc(), __refcount_add(), __refcount_inc_not_zero(),
 * __refcount_add_not_zero(), __refcount_inc_not_zero_acquire(),
 * __refcount_add_not_zero_acquire(), __refcount_dec(),
 * __refcount_dec_and_test() and __refcount_sub_and_test() take one more
 * argument, `int *oldp`.  If @oldp is not NULL it receives the value the
 * operation saw before it acted (as a signed int; the full breed's saturated
 * UINT_MAX reads as -1).  Otherwise they are the operation of the same name
 * without the underscores: same ordering, return value and reports.  This is
 * the kernel's v5.10 API (commit a435b9a14356), meant for tracing.
 */
/*
 * Longer than the project's ~600 lines on purpose: this is the kernel's
 * include/linux/refcount.h, the essay and the kernel-doc of all sixteen
 * operations in one place, as users and the man pages read it.  The code is
 * in breed/ and impl/.
 */

/* A second include with another breed would silently keep the first. */
#if defined(REFCOUNT_H) && defined(REFCOUNT_BREED) &&                          \
	REFCOUNT_BREED != __REFCOUNT_INCLUDED_BREED
#error "<refcount/refcount.h> was already included with another REFCOUNT_BREED: one breed per translation unit"
#endif

#ifndef REFCOUNT_H
#define REFCOUNT_H

/**
 * REFCOUNT_EXTERN - the operations as functions exported by librefcount
 *
 * Defined by this header below C11 (C90, C99), or by the user before
 * including it: then refcount_set(), refcount_read(), refcount_inc() and
 * every other operation below keep their names, arguments and semantics but
 * are declared as functions of librefcount (link with `pkg-config --libs
 * refcount`), of the default breed, saturating; those that return bool
 * return int (1 or 0).  For a library whose public header embeds a
 * refcount_t and whose users build with -std=c90 or -std=c99.  The header is
 * then C90 (-pedantic clean); selecting another breed is an #error, and
 * the __refcount_*() forms and <refcount/kref.h> need the inline code.
 *
 * Memory ordering, context and misuse: as each operation's own.  A report
 * names the line that called the exported function.
 *
 * This library's addition: the kernel has no such need.
 */
#if !defined(REFCOUNT_EXTERN) && !defined(__cplusplus) &&                     \
	(!defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L)
#define REFCOUNT_EXTERN 1
#endif
#ifdef REFCOUNT_EXTERN
#include <refcount/impl/extern.h>
#else /* the inline operations, to the end of the file */

#include <limits.h> /* with glibc, also the feature macros of <features.h> */

#include <refcount/impl/compiler.h>

/* pthread_spinlock_t is POSIX.1-2001 (-pthread alone gives 1995's). */
#ifdef __REFCOUNT_NO_POSIX_2001
#error "librefcount needs POSIX threads (pthread_spinlock_t), which ISO C mode hides: add -D_POSIX_C_SOURCE=200809L, or build with -std=gnu11"
#endif

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include <refcount/impl/atomic.h>
#include <refcount/impl/tsan.h>
#include <refcount/report.h>
#include <refcount/types.h>
#include <refcount/version.h>

__REFCOUNT_BEGIN_DECLS

/**
 * REFCOUNT_BREED - the breed this translation unit uses
 *
 * Similar to the kernel's choice by CONFIG_REFCOUNT_FULL and
 * CONFIG_ARCH_HAS_REFCOUNT, but per translation unit: define it, before the
 * first include, to REFCOUNT_BREED_SATURATING (the default when it is left
 * undefined), REFCOUNT_BREED_FULL, REFCOUNT_BREED_FAST (x86-64, i386 and
 * aarch64 only; elsewhere an #error), REFCOUNT_BREED_ATOMIC or
 * REFCOUNT_BREED_NONATOMIC (the saturating breed for one thread), the
 * selectors of <refcount/breed/registry.h>.  Including this header again with another
 * value is an #error: one breed per translation unit.
 *
 * This library's addition (docs/kernel-semantics.md, 'The breeds in time').
 */
/* The breed: its row in the registry, then its operations. */
#ifndef REFCOUNT_BREED
#define REFCOUNT_BREED REFCOUNT_BREED_SATURATING
#endif
#define __REFCOUNT_SELECT_BREED 1
#include <refcount/breed/registry.h>

#define __REFCOUNT_SELECTED(field)                                             \
	__REFCOUNT_PASTE(__REFCOUNT_ROW_, __REFCOUNT_BREED_TOKEN, )(field)

/**
 * REFCOUNT_BREED_ROW - call X(name, NAME, id, max, saturated) for this breed
 * @X: a macro of five arguments, as for REFCOUNT_FOR_EACH_BREED()
 *
 * Similar to REFCOUNT_FOR_EACH_BREED(), but for the selected breed's row of
 * <refcount/breed/registry.h> alone, for code that keeps a table per breed
 * and needs this unit's entry.
 *
 * Context: compile time; expands to X's expansion for one row.
 *
 * This library's addition: the kernel has one breed per build.
 */
#define REFCOUNT_BREED_ROW(X) __REFCOUNT_SELECTED(X)

/**
 * REFCOUNT_BREED_NAME - the selected breed's name, e.g. "saturating"
 *
 * A string literal, the name field of the breed's row in
 * <refcount/breed/registry.h>.  This library's addition: the kernel named its
 * breed by configuration (CONFIG_REFCOUNT_FULL, CONFIG_ARCH_HAS_REFCOUNT).
 */
#define REFCOUNT_BREED_NAME __REFCOUNT_SELECTED(__REFCOUNT_F_NAME)
/**
 * REFCOUNT_MAX - the largest count the selected breed treats as legal
 *
 * INT_MAX, or UINT_MAX - 1 (unsigned) in the full breed.
 *
 * Follows include/linux/refcount.h REFCOUNT_MAX (v5.5+); before v5.5 LKDTM
 * defined it per configuration (docs/kernel-semantics.md, 'Constants').
 */
#define REFCOUNT_MAX __REFCOUNT_SELECTED(__REFCOUNT_F_MAX)
/**
 * REFCOUNT_SATURATED - the value a misused counter is pinned at
 *
 * INT_MIN / 2, or UINT_MAX (unsigned) in the full breed; the atomic breed
 * never stores it.  Compare it with refcount_read() as refcount_read()
 * describes.
 *
 * Follows include/linux/refcount.h REFCOUNT_SATURATED (v5.5+); the full
 * breed's is lib/refcount.c's UINT_MAX before v5.5 (docs/kernel-semantics.md,
 * 'Constants').
 */
#define REFCOUNT_SATURATED __REFCOUNT_SELECTED(__REFCOUNT_F_SATURATED)
/* The value of REFCOUNT_BREED this unit was built with. */
#define __REFCOUNT_INCLUDED_BREED __REFCOUNT_SELECTED(__REFCOUNT_F_ID)

#define __REFCOUNT_BREED_HEADER_(name) <refcount/breed/name.h>
#define __REFCOUNT_BREED_HEADER(name) __REFCOUNT_BREED_HEADER_(name)
#include __REFCOUNT_BREED_HEADER(__REFCOUNT_BREED_TOKEN)

/* REFCOUNT_INIT() must store this breed's word (<refcount/types.h>). */
#ifndef __REFCOUNT_BREED_ENCODED
#define __REFCOUNT_BREED_ENCODED 0
#endif
#if __REFCOUNT_BREED_ENCODED != __REFCOUNT_ENCODED
#error "<refcount/types.h> was included before REFCOUNT_BREED selected another breed: define REFCOUNT_BREED before the first include"
#endif

/* Per-breed out-of-line symbols: __refcount_<breed>_<op>. */
#define __REFCOUNT_SYM(op)                                                     \
	__REFCOUNT_PASTE(__refcount_, __REFCOUNT_BREED_TOKEN, _##op)

/*
 * The operations, one row each: tools/gen-ops.py writes every repeated form
 * of a row (make update-ops; make check-ops fails when one is stale): the
 * definition after the operation's kernel-doc below, the region that
 * follows this table, refcount_long_<op>() in <refcount/refcount_long.h>
 * (with its man page, kdoc2man --alias), and the exported function of C90
 * and C99 units (<refcount/impl/extern.h>, src/extern.c), for both types.
 *
 * returns, arguments: refcount_<op>()'s, as written for refcount_t; on a
 *	refcount_long_t, int is long (docs/architecture.md, 'What each kind
 *	of change touches').
 * form: how refcount_<op>() is made.
 *	store V ORDER	stores the word of V (n, IMMORTAL) with that ordering
 *	read, is_immortal	a relaxed load of the word, decoded
 *	breed		the breed's __refcount_<op>(..., oldp), with oldp NULL;
 *	breed BASE	and, unless the breed defines __REFCOUNT_HAVE_<OP>,
 *			__refcount_<op>() is BASE's with @i = 1
 *	put		out of line, __refcount_<breed>_<op>() (src/dec-and-lock.c,
 *			built per breed), which gives up a reference: TSan is
 *			told a release before it
 *	last_put	the same, whose true means "the last one": TSan is told
 *			an acquire after it
 *	... at		and __refcount_<breed>_<op>_at(..., ip), which names @ip
 *			in its report: the exported function's caller
 * long: how refcount_long_<op>() is made.
 *	same		as form, on the long (impl/saturating-ops.h's forms)
 *	cas F T ORDER	a compare-and-swap of the word of F for that of T
 *	call		out of line, __refcount_long_<op>(..., breed) (src/long.c)
 *	-		none
 *
 * BEGIN operations table
 * | operation            | returns      | arguments                               | form                       | long            |
 * |----------------------|--------------|-----------------------------------------|----------------------------|-----------------|
 * | set                  | void         | refcount_t *r, int n                    | store n relaxed            | same            |
 * | set_release          | void         | refcount_t *r, int n                    | store n release            | same            |
 * | read                 | unsigned int | const refcount_t *r                     | read                       | same            |
 * | set_immortal         | void         | refcount_t *r                           | store IMMORTAL relaxed     | same            |
 * | is_immortal          | bool         | const refcount_t *r                     | is_immortal                | same            |
 * | add_not_zero         | bool         | int i, refcount_t *r                    | breed                      | same            |
 * | inc_not_zero         | bool         | refcount_t *r                           | breed add_not_zero         | same            |
 * | add_not_zero_acquire | bool         | int i, refcount_t *r                    | breed                      | same            |
 * | inc_not_zero_acquire | bool         | refcount_t *r                           | breed add_not_zero_acquire | same            |
 * | add                  | void         | int i, refcount_t *r                    | breed                      | same            |
 * | inc                  | void         | refcount_t *r                           | breed add                  | same            |
 * | sub_and_test         | bool         | int i, refcount_t *r                    | breed                      | same            |
 * | dec_and_test         | bool         | refcount_t *r                           | breed sub_and_test         | same            |
 * | dec                  | void         | refcount_t *r                           | breed                      | same            |
 * | dec_if_one           | bool         | refcount_t *r                           | put                        | cas 1 0 release |
 * | dec_not_one          | bool         | refcount_t *r                           | put at                     | call            |
 * | dec_and_mutex_lock   | bool         | refcount_t *r, pthread_mutex_t *lock    | last_put at                | -               |
 * | dec_and_lock         | bool         | refcount_t *r, pthread_spinlock_t *lock | last_put at                | -               |
 * END operations table
 */
/* BEGIN generated by tools/gen-ops.py from refcount.h's table */
#ifndef __REFCOUNT_HAVE_INC_NOT_ZERO
static __refcount_inline __refcount_must_check bool
__refcount_inc_not_zero(refcount_t *r, int *oldp)
{
	return __refcount_add_not_zero(1, r, oldp);
}
#endif

#ifndef __REFCOUNT_HAVE_INC_NOT_ZERO_ACQUIRE
static __refcount_inline __refcount_must_check bool
__refcount_inc_not_zero_acquire(refcount_t *r, int *oldp)
{
	return __refcount_add_not_zero_acquire(1, r, oldp);
}
#endif

#ifndef __REFCOUNT_HAVE_INC
static __refcount_inline void __refcount_inc(refcount_t *r, int *oldp)
{
	__refcount_add(1, r, oldp);
}
#endif

#ifndef __REFCOUNT_HAVE_DEC_AND_TEST
static __refcount_inline __refcount_must_check bool
__refcount_dec_and_test(refcount_t *r, int *oldp)
{
	return __refcount_sub_and_test(1, r, oldp);
}
#endif

/* The out-of-line operations, one set per breed (src/dec-and-lock.c). */
bool __REFCOUNT_SYM(dec_if_one)(refcount_t *r);
bool __REFCOUNT_SYM(dec_not_one)(refcount_t *r);
bool __REFCOUNT_SYM(dec_and_mutex_lock)(refcount_t *r, pthread_mutex_t *lock);
bool __REFCOUNT_SYM(dec_and_lock)(refcount_t *r, pthread_spinlock_t *lock);
/* The same, naming @ip as the caller in a report (src/extern.c's). */
bool __REFCOUNT_SYM(dec_not_one_at)(refcount_t *r, const void *ip);
bool __REFCOUNT_SYM(dec_and_mutex_lock_at)(refcount_t *r, pthread_mutex_t *lock,
					   const void *ip);
bool __REFCOUNT_SYM(dec_and_lock_at)(refcount_t *r, pthread_spinlock_t *lock,
				     const void *ip);
/* END generated */

/*
 * The public operations.  src/extern.c, which defines the exported copies of
 * them under the same names, sees only the __refcount_*() forms above.
 */
#ifndef __REFCOUNT_NO_INLINE_OPS

/**
 * refcount_set() - set a refcount's value
 * @r: the refcount
 * @n: the new count: 0 to REFCOUNT_MAX, or REFCOUNT_SATURATED (both allowed;
 *	the full breed's unsigned constants are converted to int)
 *
 * Similar to atomic_set(): one store, with no check of the old value.  In
 * the saturating and nonatomic breeds a negative @n other than
 * REFCOUNT_IMMORTAL's band (refcount_is_immortal()) stores
 * REFCOUNT_SATURATED: the kernel stores @n, and its next checking
 * operation on any negative count saturates and reports, as it does here
 * on the saturated value; only refcount_read() straight after the set
 * tells them apart (docs/kernel-semantics.md, 'The saturating breed').
 *
 * Memory ordering: none (a relaxed store): nothing this thread did before is
 * ordered against it.  To publish initialised fields through the count, use
 * refcount_set_release().
 *
 * Context: use it to initialise a counter no other thread can see yet, or in
 * tests.
 *
 * Follows include/linux/refcount.h refcount_set() (@n is int from v5.5,
 * unsigned int before).
 */
static __refcount_inline __refcount_nonnull void refcount_set(refcount_t *r,
							      int n)
{
	__atomic_store_n(&r->refs, __REFCOUNT_SET_WORD(n), __ATOMIC_RELAXED);
}

/**
 * refcount_set_release() - set a refcount's value with release ordering
 * @r: the refcount
 * @n: the new count, as for refcount_set()
 *
 * Similar to atomic_set_release(): refcount_set() whose store comes after
 * every access this thread made before it.
 *
 * For objects whose memory may be reused for another object of the same type
 * while readers can still reach it: initialise every field, then make the
 * count non-zero with this, so that a reader whose
 * refcount_inc_not_zero_acquire() succeeds sees the initialised fields.
 *
 * Memory ordering: RELEASE: the stores that initialise the object come before
 * the count becomes non-zero, and an _acquire form that reads the new count
 * sees them.
 *
 * Context: the thread that initialises the object, while its count is still 0
 * (readers may reach the memory, but none can take a reference).
 *
 * Follows include/linux/refcount.h refcount_set_release(), added in 2025
 * (Suren Baghdasaryan, for SLAB_TYPESAFE_BY_RCU objects).
 */
static __refcount_inline __refcount_nonnull void
refcount_set_release(refcount_t *r, int n)
{
	__atomic_store_n(&r->refs, __REFCOUNT_SET_WORD(n), __ATOMIC_RELEASE);
}

/**
 * refcount_read() - get a refcount's value
 * @r: the refcount
 *
 * Similar to atomic_read(), but the value comes back as unsigned int, as the
 * kernel's does.
 *
 * Memory ordering: none (a relaxed load).  The value may be stale as soon as
 * it is read; use it for reports and tests, not for decisions.
 *
 * Return: the count, as unsigned int as in the kernel.  REFCOUNT_SATURATED
 * is an int in the atomic, fast and saturating breeds and unsigned in the
 * full breed, so compare as
 * `(int)refcount_read(r) == (int)REFCOUNT_SATURATED` to be warning-clean
 * (-Wsign-compare) in every breed.  Zeroed memory (a counter never set)
 * reads 0 in every breed (in the saturating and nonatomic breeds it is the
 * word of the count INT_MIN, which no set stores: docs/design.md, 'The
 * increment and the flags'); there a counter set to a negative value other
 * than an immortal one reads REFCOUNT_SATURATED (see refcount_set()).
 *
 * Follows include/linux/refcount.h refcount_read() (still unsigned int
 * today).
 */
static __refcount_inline __refcount_nonnull unsigned int
refcount_read(const refcount_t *r)
{
	int w = __atomic_load_n(&r->refs, __ATOMIC_RELAXED);

	return (unsigned int)__REFCOUNT_READ(w);
}

/**
 * refcount_set_immortal() - make a refcount immortal
 * @r: the refcount
 *
 * Similar to refcount_set(@r, REFCOUNT_IMMORTAL): from now on every
 * operation on @r is a silent no-op in the saturating, fast and nonatomic
 * breeds: gets and puts change nothing and report nothing,
 * refcount_dec_and_test() and the other puts return false (never "free
 * it"), refcount_inc_not_zero() and the other try-gets return true.  For
 * singletons that callers get and put like any object but that must never
 * be freed (jansson's true/false/null, fontconfig's FC_REF_CONSTANT).
 *
 * The no-op is decided in the cold path each breed already has, so the
 * inline operations are the same instructions as without it: an operation
 * on an immortal counter moves it, branches to the cold path (the value is
 * negative), which stores REFCOUNT_IMMORTAL back and returns, as it would
 * saturate a misused counter.  Other threads may see it a few steps off
 * REFCOUNT_IMMORTAL meanwhile; refcount_is_immortal() allows for that.
 *
 * Memory ordering: none (a relaxed store), as refcount_set().
 *
 * Context: before the object is shared, or on an object every holder
 * treats as immortal already.
 *
 * Misuse, per breed: the atomic breed detects nothing and cannot keep it:
 * an immortal count moves like any other (it would take 2^29 unmatched
 * puts to reach 0).  In the full breed 0xa0000000 is an ordinary count
 * (its counts are unsigned, up to UINT_MAX - 1): the value moves too, as
 * far from 0.  refcount_is_immortal() stays true in both within 2^28 steps.
 *
 * This library's addition, after CPython 3.12's immortal objects (PEP 683).
 */
static __refcount_inline __refcount_nonnull void
refcount_set_immortal(refcount_t *r)
{
	__atomic_store_n(&r->refs, __REFCOUNT_WORD(REFCOUNT_IMMORTAL),
			 __ATOMIC_RELAXED);
}

/**
 * refcount_is_immortal() - is a refcount immortal?
 * @r: the refcount
 *
 * Similar to comparing refcount_read(@r) with REFCOUNT_IMMORTAL, but true
 * for any value within 2^28 of it, since racing operations move an immortal
 * counter for a moment before their cold path puts it back.  Neither 0,
 * REFCOUNT_MAX nor REFCOUNT_SATURATED is immortal.
 *
 * Memory ordering: none (a relaxed load).
 *
 * Return: true if @r was made immortal (REFCOUNT_INIT_IMMORTAL,
 * refcount_set_immortal()), false otherwise.
 *
 * Misuse: none detected.  In the atomic and full breeds it says whether the
 * value is still near REFCOUNT_IMMORTAL (see refcount_set_immortal()).
 *
 * This library's addition (CPython 3.12's _Py_IsImmortal()).
 */
static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_is_immortal(const refcount_t *r)
{
	return __REFCOUNT_IMMORTAL_VALUE(
		__REFCOUNT_WORD(__atomic_load_n(&r->refs, __ATOMIC_RELAXED)));
}

/**
 * refcount_add_not_zero() - add a value to a refcount unless it is 0
 * @i: the number of references to add, > 0
 * @r: the refcount
 *
 * Similar to atomic_add_unless(@r, @i, 0), but a sum past REFCOUNT_MAX, or
 * a saturated counter, is reported and leaks instead of wrapping, and only a
 * control dependency is promised, not a full barrier.  Taking references in
 * batches is rarely what you want; prefer refcount_inc_not_zero().
 *
 * Memory ordering: relaxed, with a control dependency on success.  The
 * kernel needs no more: whatever made *@r reachable (a lock, an RCU-style
 * publication) already ordered the accesses.  C11 does not promise the
 * control dependency (see the memory ordering section above); use
 * refcount_add_not_zero_acquire() if the object's identity must be checked
 * after the add.  The atomic and fast breeds are fully ordered.
 *
 * Context: any thread; lock-free.  The caller guarantees the memory of *@r
 * stays valid (a lock, or RCU-like deferred freeing).
 *
 * Return: false if the count was 0 (nothing changed), true otherwise.  false
 * does not mean the object is freed yet, only that it is being destroyed and
 * must not be used.
 *
 * Misuse: an overflow, or a saturated counter, reports
 * REFCOUNT_ADD_NOT_ZERO_OVF and still returns true; per breed, the rows
 * ADD_NOT_ZERO_OVERFLOW and ADD_NOT_ZERO_SATURATED of the misuse table
 * above.
 *
 * Follows include/linux/refcount.h refcount_add_not_zero() (v5.5+; @i was
 * unsigned int before); before v5.5 lib/refcount.c (full),
 * arch/x86/include/asm/refcount.h (fast) and atomic_add_unless() (atomic).
 */
static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_add_not_zero(int i, refcount_t *r)
{
	return __refcount_add_not_zero(i, r, NULL);
}

/**
 * refcount_inc_not_zero() - increment a refcount unless it is 0
 * @r: the refcount
 *
 * Similar to atomic_inc_not_zero(), but an increment past REFCOUNT_MAX, or
 * of a saturated counter, is reported and leaks instead of wrapping, and only
 * a control dependency is promised, not a full barrier.
 *
 * The lookup operation: an object found in a shared structure whose count is
 * already 0 is being destroyed and must not be revived.
 *
 * Memory ordering: relaxed, with a control dependency on success (see the
 * memory ordering section above; use refcount_inc_not_zero_acquire() if you
 * must re-check the object after the increment).  The atomic and fast breeds
 * are fully ordered.
 *
 * Context: any thread; lock-free.  The caller guarantees the memory of *@r
 * stays valid (a lock, or RCU-like deferred freeing).
 *
 * Return: false if the count was 0, true otherwise.  false does not mean the
 * object is freed yet, only that it must not be used.
 *
 * Misuse: REFCOUNT_ADD_NOT_ZERO_OVF; per breed, the rows
 * INC_NOT_ZERO_OVERFLOW and INC_NOT_ZERO_SATURATED of the misuse table.
 *
 * Follows include/linux/refcount.h refcount_inc_not_zero() (v5.5+); before
 * v5.5 lib/refcount.c (full), arch/x86/include/asm/refcount.h (fast) and
 * atomic_add_unless(@r, 1, 0) (atomic).
 */
static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_inc_not_zero(refcount_t *r)
{
	return __refcount_inc_not_zero(r, NULL);
}

/**
 * refcount_add_not_zero_acquire() - add unless 0, with acquire ordering
 * @i: the number of references to add, > 0
 * @r: the refcount
 *
 * Similar to refcount_add_not_zero(), but with ACQUIRE ordering on success;
 * in the saturating breed a sum past INT_MAX is refused, not saturated.
 *
 * For objects whose memory may be reused for another object of the same type
 * (the kernel's SLAB_TYPESAFE_BY_RCU): after a successful call, loads of the
 * object's identity fields see the values stored before the matching
 * refcount_set_release().
 *
 * Memory ordering: ACQUIRE on success (the compare-and-swap), nothing on
 * failure: the loads that re-check the object's identity come after the
 * reference is taken.  The atomic and fast breeds are fully ordered.
 *
 * Context: any thread; lock-free.  The caller guarantees the memory of *@r
 * stays valid (for SLAB_TYPESAFE_BY_RCU-style reuse: an object of the same
 * type).
 *
 * Return: false if the count was 0.  In the saturating breed, as in the 2025
 * kernel, it also returns false (changing nothing, reporting nothing) when @i
 * would pass INT_MAX or the counter is saturated.  true otherwise.  false
 * does not mean the object is freed, only that it must not be used.
 *
 * Misuse: the saturating breed reports nothing (see Return); the other
 * breeds as refcount_add_not_zero(): REFCOUNT_ADD_NOT_ZERO_OVF, the rows
 * ADD_NOT_ZERO_OVERFLOW and ADD_NOT_ZERO_SATURATED of the misuse table
 * (whose saturating column is refcount_add_not_zero()'s only).
 *
 * Follows include/linux/refcount.h refcount_add_not_zero_acquire(), added in
 * 2025 (Suren Baghdasaryan): in the saturating breed the kernel's
 * __refcount_add_not_zero_limited_acquire() with the limit INT_MAX.
 */
static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_add_not_zero_acquire(int i, refcount_t *r)
{
	return __refcount_add_not_zero_acquire(i, r, NULL);
}

/**
 * refcount_inc_not_zero_acquire() - increment unless 0, with acquire ordering
 * @r: the refcount
 *
 * Similar to refcount_inc_not_zero(), but with ACQUIRE ordering on success:
 * refcount_add_not_zero_acquire() with @i = 1.
 *
 * Memory ordering: ACQUIRE on success, nothing on failure, as
 * refcount_add_not_zero_acquire().
 *
 * Context: any thread; lock-free; the memory of *@r stays valid, as there.
 *
 * Return: as refcount_add_not_zero_acquire(): false if the count was 0, and
 * in the saturating breed also at INT_MAX or saturated; true otherwise.
 *
 * Misuse: as refcount_add_not_zero_acquire(): none reported in the
 * saturating breed; elsewhere REFCOUNT_ADD_NOT_ZERO_OVF, the rows
 * INC_NOT_ZERO_OVERFLOW and INC_NOT_ZERO_SATURATED of the misuse table.
 *
 * Follows include/linux/refcount.h refcount_inc_not_zero_acquire(), added in
 * 2025 (Suren Baghdasaryan).
 */
static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_inc_not_zero_acquire(refcount_t *r)
{
	return __refcount_inc_not_zero_acquire(r, NULL);
}

/**
 * refcount_add() - add a value to a refcount
 * @i: the number of references to add, > 0
 * @r: the refcount
 *
 * Similar to atomic_add(), but an add to 0, past REFCOUNT_MAX or to a
 * saturated counter is reported and leaks instead of reviving the object or
 * wrapping.  Prefer refcount_inc().
 *
 * Memory ordering: none (relaxed): the reference the caller holds keeps the
 * object alive, and whatever gave the caller the pointer ordered the accesses
 * (see the memory ordering section above).
 *
 * Context: any thread; lock-free.  The caller must already hold a reference.
 *
 * Misuse: adding to 0 reports REFCOUNT_ADD_UAF, an overflow or a saturated
 * counter REFCOUNT_ADD_OVF; per breed, the rows ADD_ZERO, ADD_OVERFLOW and
 * ADD_SATURATED of the misuse table.
 *
 * Follows include/linux/refcount.h refcount_add() (v5.5+; @i was unsigned
 * int before); before v5.5 lib/refcount.c (full),
 * arch/x86/include/asm/refcount.h (fast) and atomic_add() (atomic).
 */
static __refcount_inline __refcount_nonnull void refcount_add(int i,
							      refcount_t *r)
{
	__refcount_add(i, r, NULL);
}

/**
 * refcount_inc() - increment a refcount
 * @r: the refcount
 *
 * Similar to atomic_inc(), but an increment from 0, past REFCOUNT_MAX or of
 * a saturated counter is reported and leaks instead of reviving the object
 * or wrapping.
 *
 * Memory ordering: none (relaxed), as refcount_add().
 *
 * Context: any thread; lock-free.  The caller must already hold a reference.
 *
 * Misuse: as refcount_add(); per breed, the rows INC_ZERO, INC_OVERFLOW
 * and INC_SATURATED of the misuse table.
 *
 * Follows include/linux/refcount.h refcount_inc() (v5.5+); before v5.5
 * lib/refcount.c (full), arch/x86/include/asm/refcount.h (fast) and
 * atomic_inc() (atomic).
 */
static __refcount_inline __refcount_nonnull void refcount_inc(refcount_t *r)
{
	__refcount_inc(r, NULL);
}

/**
 * refcount_sub_and_test() - subtract from a refcount and test if it is 0
 * @i: the number of references to drop, > 0 and no more than the caller
 *	holds
 * @r: the refcount
 *
 * Similar to atomic_sub_and_test(), but a result below 0, or a saturated
 * counter, is reported and returns false, leaking the object instead of
 * freeing it twice; and it is RELEASE, plus ACQUIRE on success, not a full
 * barrier.
 *
 * Memory ordering: RELEASE, and ACQUIRE when it returns true, so the caller
 * may free the object and its destructor sees every access made through the
 * other references: the RELEASE puts this thread's accesses before the count
 * drops, the ACQUIRE puts the destructor after every other holder's drop.
 * The ACQUIRE is a fence on the true path (the kernel's
 * smp_acquire__after_ctrl_dep()); under ThreadSanitizer an acquire load of
 * the counter (see the memory ordering section above).  The atomic breed is
 * fully ordered.
 *
 * Context: any thread; lock-free.  The caller gives up @i references.
 *
 * Return: true if this call took the count to exactly 0: the caller owns the
 * object now and must free it.  false otherwise; false does not mean the
 * object is still alive, and the caller must not touch it again.
 *
 * Misuse: going below 0, or a saturated counter, reports REFCOUNT_SUB_UAF
 * and returns false; per breed, the rows SUB_AND_TEST_NEGATIVE and
 * SUB_AND_TEST_SATURATED of the misuse table.
 *
 * Follows include/linux/refcount.h refcount_sub_and_test() (v5.5+, with
 * current mainline's old > 0 test; @i was unsigned int before v5.5); before
 * v5.5 lib/refcount.c (full, ACQUIRE from v5.1, commit 47b8f3ab9c49),
 * arch/x86/include/asm/refcount.h (fast) and atomic_sub_and_test() (atomic).
 */
static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_sub_and_test(int i, refcount_t *r)
{
	return __refcount_sub_and_test(i, r, NULL);
}

/**
 * refcount_dec_and_test() - decrement a refcount and test if it is 0
 * @r: the refcount
 *
 * Similar to atomic_dec_and_test(), but a decrement below 0, or of a
 * saturated counter, is reported and returns false, leaking the object
 * instead of freeing it twice; and it is RELEASE, plus ACQUIRE on success,
 * not a full barrier.
 *
 * The put operation.
 *
 * Memory ordering: RELEASE, and ACQUIRE when it returns true, as
 * refcount_sub_and_test(): this thread's accesses come before the count
 * drops, and the destructor comes after every other holder's.
 *
 * Context: any thread; lock-free.  The caller gives up its reference.
 *
 * Return: true if this call took the count from 1 to 0: free the object.
 * false otherwise; false does not mean the object is still alive, and the
 * caller must not touch it again.
 *
 * Misuse: REFCOUNT_SUB_UAF; per breed, the rows DEC_AND_TEST_NEGATIVE and
 * DEC_AND_TEST_SATURATED of the misuse table.
 *
 * Follows include/linux/refcount.h refcount_dec_and_test() (v5.5+); before
 * v5.5 lib/refcount.c (full, ACQUIRE from v5.1, commit 47b8f3ab9c49),
 * arch/x86/include/asm/refcount.h (fast) and atomic_dec_and_test() (atomic).
 */
static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_dec_and_test(refcount_t *r)
{
	return __refcount_dec_and_test(r, NULL);
}

/**
 * refcount_dec() - decrement a refcount that must not reach 0
 * @r: the refcount
 *
 * Similar to atomic_dec(), but RELEASE-ordered, and reaching 0 or going
 * below it is reported: a count this drops to 0 has nobody left to free the
 * object.  For dropping a reference that is known not to be the last one;
 * prefer refcount_dec_and_test().
 *
 * Memory ordering: RELEASE, in every breed (atomic_dec() was unordered): this
 * thread's accesses come before the count drops, so whoever frees the object
 * later sees them.
 *
 * Context: any thread; lock-free.  The caller holds a reference that is not
 * the last.
 *
 * Misuse: reaching 0 (which leaks, since nobody frees), going below 0 or a
 * saturated counter reports REFCOUNT_DEC_LEAK; per breed, the rows DEC_ZERO,
 * DEC_NEGATIVE and DEC_SATURATED of the misuse table.
 *
 * Follows include/linux/refcount.h refcount_dec() (v5.5+); before v5.5
 * lib/refcount.c (full), arch/x86/include/asm/refcount.h (fast) and
 * atomic_dec() (atomic).
 */
static __refcount_inline __refcount_nonnull void refcount_dec(refcount_t *r)
{
	__refcount_dec(r, NULL);
}

/**
 * refcount_dec_if_one() - decrement a refcount if it is 1
 * @r: the refcount
 *
 * Similar to atomic_cmpxchg_release(@r, 1, 0) == 1: one compare-and-swap from
 * 1 to 0, for a caller that wants to destroy the object only if nobody else
 * holds it.
 *
 * Memory ordering: RELEASE on success, and no ACQUIRE (as in the kernel,
 * which has only a control dependency there, and C11 has none): a caller
 * that goes on to read what other reference holders wrote before dropping
 * theirs must add atomic_thread_fence(memory_order_acquire) itself.
 * Nothing on failure.
 *
 * Context: any thread; lock-free; out of line.
 *
 * Return: true if it took the count from 1 to 0.  false if the count was
 * anything else (nothing changed); false does not mean others still hold
 * the object, only that the count was not 1 when compared.
 *
 * Follows lib/refcount.c refcount_dec_if_one() (identical in every breed).
 */
static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_dec_if_one(refcount_t *r)
{
	return __refcount_tsan_put(
		r, __refcount_call(__REFCOUNT_SYM(dec_if_one)(r)));
}

/**
 * refcount_dec_not_one() - decrement a refcount unless it is 1
 * @r: the refcount
 *
 * Similar to atomic_add_unless(@r, -1, 1), but a saturated counter is left
 * alone and a counter at 0 is reported instead of going below 0.
 *
 * The lock-free half of refcount_dec_and_lock(): drop a reference unless it
 * is the last one.
 *
 * Memory ordering: RELEASE on success (the compare-and-swap that
 * decrements), so this thread's accesses come before the count drops.  No
 * ACQUIRE, and no ordering at all when it changes nothing.
 *
 * Context: any thread; lock-free; out of line.
 *
 * Return: false if the count is 1 (nothing changed); true if it decremented,
 * or saw a saturated counter (no change), or saw 0 (no change, reported).
 * true therefore does not mean a reference was dropped.
 *
 * Misuse: not in the misuse table.  On 0 it reports REFCOUNT_SUB_UAF
 * ("underflow; use-after-free.") without saturating, in every breed (the
 * atomic one included), as lib/refcount.c did.  "Saturated" means
 * REFCOUNT_SATURATED in the saturating breed and, as in 2017, UINT_MAX in
 * the other three, so the fast breed's INT_MIN / 2 is simply decremented
 * here (the mismatch Will Deacon's 2019 series noted, in patch 01 of
 * dcb786493f3e).  Other negative counts are decremented without a report.
 *
 * Follows lib/refcount.c refcount_dec_not_one(): its UINT_MAX test before
 * v5.5 (atomic, fast, full), its REFCOUNT_SATURATED test from v5.5
 * (saturating).
 */
static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_dec_not_one(refcount_t *r)
{
	return __refcount_tsan_put(
		r, __refcount_call(__REFCOUNT_SYM(dec_not_one)(r)));
}

/**
 * refcount_dec_and_mutex_lock() - return holding the mutex if able to drop to 0
 * @r: the refcount
 * @lock: the mutex protecting the structure the object is published in
 *
 * Similar to atomic_dec_and_mutex_lock(), but with refcount_t's checks, and
 * RELEASE (plus ACQUIRE on true) instead of a full barrier.
 *
 * Drops a reference.  If that may be the last one, takes @lock first, so
 * that a lookup under @lock cannot find the object between the count
 * reaching 0 and its removal.
 *
 * Memory ordering: RELEASE (the decrement, by refcount_dec_not_one() or,
 * under @lock, refcount_dec_and_test()); ACQUIRE (through @lock and the
 * decrement) when it returns true, so the destructor sees every other
 * holder's accesses.
 *
 * Context: may sleep on @lock; @lock must not be held.  Out of line.
 *
 * Return: true, with @lock held, if it took the count to 0 (the caller
 * unpublishes and frees the object, then unlocks); false, with @lock not
 * held, otherwise.  false does not mean the object is still alive.
 *
 * Misuse: as refcount_dec_not_one() and refcount_dec_and_test().
 *
 * Follows lib/refcount.c refcount_dec_and_mutex_lock() (out of line and the
 * same in every kernel breed).
 */
static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_dec_and_mutex_lock(refcount_t *r, pthread_mutex_t *lock)
{
	return __refcount_tsan_last_put(
		r,
		__refcount_call(__REFCOUNT_SYM(dec_and_mutex_lock)(r, lock)));
}

/**
 * refcount_dec_and_lock() - return holding the spinlock if able to drop to 0
 * @r: the refcount
 * @lock: the spinlock protecting the structure the object is published in
 *
 * Similar to atomic_dec_and_lock(), but with refcount_t's checks, and
 * RELEASE (plus ACQUIRE on true) instead of a full barrier.
 *
 * refcount_dec_and_mutex_lock() with a pthread spinlock (the kernel's
 * spinlock_t; refcount_dec_and_lock_irqsave() has no userspace meaning).
 *
 * Memory ordering: RELEASE; ACQUIRE (through @lock and the decrement) when it
 * returns true, as refcount_dec_and_mutex_lock().
 *
 * Context: may spin on @lock; @lock must not be held.  Out of line.
 *
 * Return: true with @lock held if it took the count to 0; false otherwise,
 * with @lock not held.  false does not mean the object is still alive.
 *
 * Misuse: as refcount_dec_not_one() and refcount_dec_and_test().
 *
 * Follows lib/refcount.c refcount_dec_and_lock() (out of line and the same
 * in every kernel breed).
 */
static __refcount_inline __refcount_nonnull __refcount_must_check bool
refcount_dec_and_lock(refcount_t *r, pthread_spinlock_t *lock)
{
	return __refcount_tsan_last_put(
		r, __refcount_call(__REFCOUNT_SYM(dec_and_lock)(r, lock)));
}

#endif /* __REFCOUNT_NO_INLINE_OPS */

__REFCOUNT_END_DECLS

/* refcount_long_t's operations. */
#include <refcount/refcount_long.h>

#endif /* REFCOUNT_EXTERN */

#endif /* REFCOUNT_H */

/* SPDX-License-Identifier: MIT */
/*
 * refcount/rcuref.h - rcuref_t: a try-get in one atomic instruction
 *
 * Follows include/linux/rcuref.h and lib/rcuref.c (Thomas Gleixner, Linux
 * 6.4, commit ee1ee6db0779 "atomics: Provide rcuref - scalable reference
 * counting").  The lookup pattern (find an object, take a reference unless
 * the count is 0, drop it later) is a compare-and-swap loop with
 * refcount_inc_not_zero(); here a get is one unconditional atomic add, and
 * the value it produced tells whether it succeeded.
 *
 * The stored value is the number of references minus one, and the 32 bits
 * are split into zones (docs/rcuref.md has the table):
 *
 *   RCUREF_ONEREF .. RCUREF_MAXREF   0x00000000 .. 0x7fffffff  valid
 *   saturation zone                  0x80000000 .. 0xbfffffff  SATURATED
 *   dead zone from RCUREF_RELEASED   0xc0000000 .. 0xfffffffe  DEAD
 *   RCUREF_NOREF                     0xffffffff: the last put happened
 *
 * A get that lands in the valid zone has its reference.  One that lands
 * anywhere else goes to the cold slow path, which fails on a released
 * counter and pins a saturated one.  The saturation and dead zones are
 * 2^30 wide, with their fixed points (SATURATED, DEAD) in the middle, so
 * 2^29 racing operations fit between a fixed point and its zone's edges.
 *
 * THE MEMORY RULE.  The object holding the rcuref_t must stay valid from
 * the get to the end of the put, even after the last put: the last put
 * drops the count to NOREF, then marks it DEAD with a compare-and-swap, and
 * a concurrent get can revive it in between (the "deconstruction race" of
 * lib/rcuref.c).  In the kernel, RCU and a non-preemptible put meet the
 * rule.  Here it is met in one of three ways (docs/rcuref.md, with tested
 * examples):
 *
 *  (a) liburcu, the default.  rcuref_put() runs inside a liburcu read-side
 *      critical section (the memb flavour: every thread that calls it must
 *      be registered with urcu_memb_register_thread()), and the object is
 *      freed with call_rcu() or after synchronize_rcu().  Define
 *      _LGPL_SOURCE before including this header (as liburcu asks) to get
 *      the inline read lock; without it the lock is a call into liburcu.
 *      This header includes <urcu.h> (the memb flavour and liburcu's
 *      rcu_read_lock(), call_rcu(), ... names).  Link with
 *      `pkg-config --libs refcount-rcu`.
 *  (b) Type-stable memory: objects come from a pool whose memory is never
 *      returned to the system while gets may race (file_ref_t's rule).
 *  (c) A lock: gets and puts run under the read side of a lock, and the
 *      release frees the object only after taking its write side.
 *
 * For (b) and (c), define RCUREF_NO_URCU before including this header:
 * rcuref_put() is then the bare put, and liburcu is neither included nor
 * linked.
 */
#ifndef REFCOUNT_RCUREF_H
#define REFCOUNT_RCUREF_H

#ifdef __cplusplus
#error "<refcount/rcuref.h> and <refcount/file_ref.h> are C11 only (<stdatomic.h> atomics); from C++, <refcount/refcount.h> and <refcount/kref.h> work"
#endif

#include <stdatomic.h>
#include <stdbool.h>

#include <refcount/impl/atomic.h>
#include <refcount/impl/compiler.h>
#include <refcount/impl/rcuref-debug.h>

#ifndef RCUREF_NO_URCU
#if defined(RCU_SIGNAL) || defined(RCU_MB) || defined(RCU_QSBR) ||             \
	defined(RCU_BP)
#error "rcuref.h uses liburcu's memb flavour (or define RCUREF_NO_URCU)"
#endif
/* liburcu's default flavour (memb), with its rcu_*() names */
#include <urcu.h>
#endif

/**
 * typedef rcuref_t - a reference count whose get is one atomic add
 * @refcnt: the number of references minus one, in the zones above; touch it
 *	only through the rcuref_*() operations.
 *
 * 32 bits, with refcount_t's layout.  Follows include/linux/rcuref.h.
 */
typedef struct rcuref {
	atomic_int refcnt;
} rcuref_t;

/** RCUREF_ONEREF - stored value of a counter holding one reference */
#define RCUREF_ONEREF 0x00000000U
/** RCUREF_MAXREF - stored value of the largest valid count (2^31 refs) */
#define RCUREF_MAXREF 0x7FFFFFFFU
/** RCUREF_SATURATED - fixed point of the saturation zone */
#define RCUREF_SATURATED 0xA0000000U
/** RCUREF_RELEASED - lowest value of the dead zone */
#define RCUREF_RELEASED 0xC0000000U
/** RCUREF_DEAD - fixed point of the dead zone */
#define RCUREF_DEAD 0xE0000000U
/** RCUREF_NOREF - stored value once the last reference was put */
#define RCUREF_NOREF 0xFFFFFFFFU

/* The stored int of a zone constant (the conversion wraps, as gcc and clang
 * define it). */
#define __RCUREF_VAL(u) ((int)(unsigned int)(u))

/**
 * RCUREF_INIT - static initializer for an rcuref_t
 * @i: the initial number of references (1 for a new object)
 */
#define RCUREF_INIT(i)                                                         \
	{                                                                      \
		.refcnt = __RCUREF_VAL((unsigned int)(i)-1U)                   \
	}

/**
 * rcuref_get_slowpath() - the slow path of rcuref_get(), out of line
 * @ref: the reference count whose get landed outside the valid zone
 *
 * Similar to the kernel's rcuref_get_slowpath(): called by rcuref_get()
 * only, when its add gave a negative value.  It fails on a released counter
 * (and marks it dead), and pins a saturated one (and reports).
 *
 * Memory ordering: none beyond rcuref_get()'s.  Context: any thread; cold.
 *
 * Return: true if the get succeeded (a saturated counter), false if the
 * object is being released.
 *
 * Misuse: a saturated counter reports REFCOUNT_ADD_NOT_ZERO_OVF, "rcuref
 * saturated - leaking memory".
 *
 * Follows lib/rcuref.c rcuref_get_slowpath() (v6.4).
 */
bool rcuref_get_slowpath(rcuref_t *ref) __refcount_cold;

/**
 * rcuref_put_slowpath() - the slow path of rcuref_put(), out of line
 * @ref: the reference count whose put went below ONEREF
 * @cnt: the value the decrement produced
 *
 * Similar to the kernel's rcuref_put_slowpath(): called by the puts only.
 * It decides the last put (one compare-and-swap from NOREF to DEAD) and
 * catches an imbalanced put.
 *
 * Memory ordering: RELEASE, and ACQUIRE when it returns true.  Context: the
 * caller's put; cold.
 *
 * Return: true exactly once, for the caller that may free the object.
 *
 * Misuse: a put on a released counter reports REFCOUNT_SUB_UAF, "rcuref -
 * imbalanced put()".
 *
 * Follows lib/rcuref.c rcuref_put_slowpath() (v6.4; the value passed in,
 * as the current header does).
 */
bool rcuref_put_slowpath(rcuref_t *ref, unsigned int cnt) __refcount_cold;

/* x86: the get and put on the flags of their locked instruction. */
#if (defined(__x86_64__) || defined(__i386__)) && !defined(__REFCOUNT_TSAN)
#include <refcount/arch/x86-rcuref.h>
#endif

/**
 * rcuref_init() - set the number of references
 * @ref: the counter
 * @cnt: the initial number of references, >= 1 (1 for a new object)
 *
 * Similar to atomic_set(), but stores @cnt - 1, as the zones count.
 *
 * Memory ordering: a relaxed store; publish the object (a release store, a
 * lock, rcu_assign_pointer()) after it.  Context: before the object is
 * shared, or to reuse a DEAD object from a type-stable pool.
 *
 * Source: include/linux/rcuref.h rcuref_init().
 */
static inline void rcuref_init(rcuref_t *ref, unsigned int cnt)
{
	atomic_store_explicit(&ref->refcnt, __RCUREF_VAL(cnt - 1U),
			      memory_order_relaxed);
}

/**
 * rcuref_read() - the number of references held
 * @ref: the counter
 *
 * Similar to atomic_read() + 1, but 0 for any value in the dead zone.
 *
 * Memory ordering: a relaxed load; the value may be stale as soon as it is
 * read.  Context: any thread; for diagnostics and tests, never to decide
 * whether a get may be taken.
 *
 * Return: 0 if the last reference was put (RCUREF_RELEASED and above), else
 * the stored value + 1: 1 .. 2^31 for a valid counter, and above 2^31 for a
 * saturated one.
 *
 * Source: include/linux/rcuref.h rcuref_read().
 */
static inline unsigned int rcuref_read(rcuref_t *ref)
{
	unsigned int c = (unsigned int)atomic_load_explicit(
		&ref->refcnt, memory_order_relaxed);

	return c >= RCUREF_RELEASED ? 0 : c + 1U;
}

/**
 * rcuref_get() - take a reference unless the last one was put
 * @ref: the counter
 *
 * Similar to atomic_inc_not_zero(), but one unconditional atomic add (`lock
 * addl` and `js` on x86, <refcount/arch/x86-rcuref.h>; `ldadd` on aarch64
 * LSE), no loop, and saturating at RCUREF_SATURATED.
 *
 * Memory ordering: none (relaxed), as in the kernel.  The lookup that found
 * the object orders the accesses to it (the dependent load of
 * rcu_dereference(), or the lock around the table), and the branch on the
 * result is a control dependency for the stores that follow.
 *
 * Context: any thread, with the memory rule of this header met (inside the
 * read-side critical section or under the lock that found the object).
 * Lock-free and wait-free.
 *
 * Return: true if a reference was taken; false if the counter was already
 * released (then the object must not be used; the failing get leaves
 * RCUREF_DEAD).  A true on a saturated counter holds a reference that is
 * never given back: the object leaks.
 *
 * Misuse: a get on a saturated counter (2^31 references, or a put/get
 * imbalance) stores RCUREF_SATURATED and reports REFCOUNT_ADD_NOT_ZERO_OVF,
 * "rcuref saturated - leaking memory".
 *
 * Source: include/linux/rcuref.h rcuref_get() and lib/rcuref.c
 * rcuref_get_slowpath().
 */
static __refcount_always_inline __refcount_must_check bool
rcuref_get(rcuref_t *ref)
{
#ifdef __RCUREF_HAVE_ASM
	return __rcuref_asm_get(ref);
#else
	int old = atomic_fetch_add_explicit(&ref->refcnt, 1,
					    memory_order_relaxed);

	__RCUREF_DEBUG_ADD(gets, 1);
	__RCUREF_DEBUG_ADD(get_rmw, 1);
	if (__refcount_likely(__refcount_wrap_add(old, 1) >= 0))
		return true;
	return rcuref_get_slowpath(ref);
#endif
}

/* The put itself, shared by rcuref_put() and rcuref_put_rcusafe(). */
static __refcount_always_inline __refcount_must_check bool
__rcuref_put(rcuref_t *ref)
{
#ifdef __RCUREF_HAVE_ASM
	return __rcuref_asm_put(ref);
#else
	int cnt = __refcount_wrap_sub(
		atomic_fetch_sub_explicit(&ref->refcnt, 1,
					  memory_order_release),
		1);

	__RCUREF_DEBUG_ADD(puts, 1);
	__RCUREF_DEBUG_ADD(put_rmw, 1);
	if (__refcount_likely(cnt >= 0))
		return false;
	return rcuref_put_slowpath(ref, (unsigned int)cnt);
#endif
}

/**
 * rcuref_put_rcusafe() - drop a reference, inside a read-side section
 * @ref: the counter
 *
 * Similar to atomic_dec_and_test(), but one atomic subtract, then, for the
 * last reference only, one compare-and-swap from RCUREF_NOREF to
 * RCUREF_DEAD that a concurrent get may win; and saturating.
 *
 * Memory ordering: RELEASE, so that every access to the object comes before
 * the count drops; ACQUIRE as well when it returns true, so that the
 * release sees every other thread's accesses.
 *
 * Context: the memory rule must already hold: the caller is inside a
 * liburcu read-side critical section (rcu_read_lock()), holds the read side
 * of the table's lock, or the object is type-stable.  Lock-free.
 *
 * Return: true exactly once per object, to the caller that may release it
 * (remove it from the table, then free it after a grace period); false
 * otherwise, including for a put that raced a get and lost: then the
 * object lives on.
 *
 * Misuse: a put on a released counter stores RCUREF_DEAD and reports
 * REFCOUNT_SUB_UAF, "rcuref - imbalanced put()"; on a saturated counter it
 * stores RCUREF_SATURATED, silently (as the kernel does).  Both return
 * false.
 *
 * Source: include/linux/rcuref.h rcuref_put_rcusafe() and lib/rcuref.c
 * rcuref_put_slowpath().
 */
static __refcount_always_inline __refcount_must_check bool
rcuref_put_rcusafe(rcuref_t *ref)
{
#if defined(RCUREF_DEBUG) && !defined(RCUREF_NO_URCU)
	if (!urcu_memb_read_ongoing())
		__builtin_trap(); /* rcuref_put_rcusafe() outside rcu_read_lock() */
#endif
	return __rcuref_put(ref);
}

/**
 * rcuref_put() - drop a reference
 * @ref: the counter
 *
 * Similar to atomic_dec_and_test(), but as rcuref_put_rcusafe(), bracketed
 * by a liburcu read-side critical section, the userspace counterpart of the
 * kernel's preempt_disable(): the compare-and-swap after the last decrement
 * then cannot outlive the object, whose free waits for a grace period.
 * With RCUREF_NO_URCU it is rcuref_put_rcusafe() alone.
 *
 * Memory ordering: as rcuref_put_rcusafe().
 *
 * Context: any thread registered with liburcu (urcu_memb_register_thread()),
 * inside a read-side critical section or not; with RCUREF_NO_URCU, under
 * the memory rule of (b) or (c) in this header.  Never blocks.
 *
 * Return: as rcuref_put_rcusafe(): true exactly once, for the caller that
 * may release the object.
 *
 * Misuse: as rcuref_put_rcusafe().
 *
 * Source: include/linux/rcuref.h rcuref_put().
 */
static __refcount_always_inline __refcount_must_check bool
rcuref_put(rcuref_t *ref)
{
#ifdef RCUREF_NO_URCU
	return __rcuref_put(ref);
#else
	bool released;

	urcu_memb_read_lock();
	released = __rcuref_put(ref);
	urcu_memb_read_unlock();
	return released;
#endif
}

#endif /* REFCOUNT_RCUREF_H */

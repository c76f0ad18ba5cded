/* SPDX-License-Identifier: MIT */
/*
 * refcount/arch/x86-rcuref.h - rcuref_t's get and put on x86, on the flags
 *
 * Included by <refcount/rcuref.h> on x86-64 and i386.  The get is `lock
 * addl $1` and `js` to its slow path, whichever the compiler (clang makes
 * the C get a `lock xadd` and recomputes the sign from the old value).  The
 * put needs to know
 * one thing exactly, whether it took the count from ONEREF (stored 0) to
 * NOREF (stored -1), and one thing roughly, whether the result is in a zone
 * (stored value negative).  `lock subl $1` gives both in its flags: CF, the
 * borrow, is "the stored value was 0", and SF is "the result is negative".
 * So the put is `lock subl`, `jb` and `js`, as atomic_t's dec_and_test is
 * `lock subl` and one jump, where the C put is `lock xadd` and a test of the
 * value it read back (a locked instruction whose result is consumed, which
 * costs more than a flags-only one on AMD Zen 4: docs/design.md).
 *
 * The kernel passes the value of the decrement to its slow path since 2025
 * (lib/rcuref.c: re-reading it let a racing get and put make a last put
 * look imbalanced).  Here the last put is known from this put's own carry,
 * never from a re-read, which keeps that fix.  Only a put that landed in a
 * zone (an imbalanced put, or a put on a saturated counter) re-reads the
 * value; the zones are 2^30 wide, so racing operations cannot move it out of
 * its zone, and a re-read NOREF, which only a second misuse can produce, is
 * taken as the dead zone's, never as a last put.
 *
 * A `lock`-prefixed instruction is a full barrier on x86: the RELEASE of the
 * put; the slow path's compare-and-swap is the last put's ACQUIRE.  The
 * "memory" clobber makes it a compiler barrier too.  Not used under
 * ThreadSanitizer (it cannot see inside asm).
 */
#ifndef REFCOUNT_ARCH_X86_RCUREF_H
#define REFCOUNT_ARCH_X86_RCUREF_H

#define __RCUREF_HAVE_ASM 1

static __refcount_always_inline __refcount_must_check bool
__rcuref_asm_get(rcuref_t *ref)
{
	__asm__ goto("lock addl $1, %0\n\t"
		     "js %l[slow]"
		     : /* no outputs */
		     : "m"(*(int *)&ref->refcnt)
		     : "memory", "cc"
		     : slow);
	__RCUREF_DEBUG_ADD(gets, 1);
	__RCUREF_DEBUG_ADD(get_rmw, 1);
	return true;
slow:
	__RCUREF_DEBUG_ADD(gets, 1);
	__RCUREF_DEBUG_ADD(get_rmw, 1);
	return rcuref_get_slowpath(ref);
}

static __refcount_always_inline __refcount_must_check bool
__rcuref_asm_put(rcuref_t *ref)
{
	unsigned int cnt;

	__asm__ goto("lock subl $1, %0\n\t"
		     "jb %l[last]\n\t"
		     "js %l[zone]"
		     : /* no outputs */
		     : "m"(*(int *)&ref->refcnt)
		     : "memory", "cc"
		     : last, zone);
	__RCUREF_DEBUG_ADD(puts, 1);
	__RCUREF_DEBUG_ADD(put_rmw, 1);
	return false;
last:
	__RCUREF_DEBUG_ADD(puts, 1);
	__RCUREF_DEBUG_ADD(put_rmw, 1);
	return rcuref_put_slowpath(ref, RCUREF_NOREF);
zone:
	__RCUREF_DEBUG_ADD(puts, 1);
	__RCUREF_DEBUG_ADD(put_rmw, 1);
	cnt = (unsigned int)atomic_load_explicit(&ref->refcnt,
						 memory_order_relaxed);
	return rcuref_put_slowpath(ref, cnt == RCUREF_NOREF ? cnt - 1U : cnt);
}

#endif /* REFCOUNT_ARCH_X86_RCUREF_H */

/* SPDX-License-Identifier: MIT */
/*
 * refcount/arch/x86-saturating.h - the saturating breed's x86 decrements
 *
 * Included by <refcount/breed/saturating.h> on x86-64 and i386.  The
 * decrements of the saturating breed need to know two things about the old
 * value: was it exactly @i (the last reference), and was old - @i below 0
 * in true arithmetic (underflow, or a saturated counter)?  For a positive
 * @i, the flags of `lock sub $i` answer both: ZF is "old == i", and SF != OF
 * (the signed "less" condition, jl) is "old - i < 0" without wrap-around.
 * So these are `lock sub` and two conditional jumps, as atomic_t's
 * dec_and_test is `lock sub` and one, instead of `lock xadd` and compares
 * on the old value.  The outcomes are the C paths' exactly (the tests run
 * both: the saturating-noasm variant builds the C paths).
 *
 * A `lock`-prefixed instruction is a full barrier on x86, so it is the
 * RELEASE of the decrement and, when it took the count to 0, the ACQUIRE
 * that the final put needs; the "memory" clobber makes it a compiler barrier
 * too.
 *
 * Not used under ThreadSanitizer (it cannot see inside asm), for the oldp
 * forms (they need the old value), for an @i that is not a positive
 * constant, or with -DREFCOUNT_SATURATING_NO_ASM.
 */
#ifndef REFCOUNT_ARCH_X86_SATURATING_H
#define REFCOUNT_ARCH_X86_SATURATING_H

#define __REFCOUNT_SAT_HAVE_ASM 1

/* lock sub $i: ZF means the last reference, SF != OF an underflow. */
static __refcount_always_inline bool
__refcount_sat_asm_sub_and_test(int i, refcount_t *r)
{
	__asm__ goto("lock subl %1, %0\n\t"
		     "jz %l[last]\n\t"
		     "jl %l[bad]"
		     : /* no outputs */
		     : "m"(r->refs), "ir"(i)
		     : "memory", "cc"
		     : last, bad);
	goto not_last;
not_last:
	__refcount_hot_label;
	return false;
last:
	return true;
bad:
	__refcount_cold_label;
	__refcount_call_void(refcount_warn_saturate(r, REFCOUNT_SUB_UAF));
	return __refcount_opaque_false();
}

/* lock decl: ZF or SF != OF (jle) means the result is 0 or below. */
static __refcount_always_inline void __refcount_sat_asm_dec(refcount_t *r)
{
	__asm__ goto("lock decl %0\n\t"
		     "jle %l[bad]"
		     : /* no outputs */
		     : "m"(r->refs)
		     : "memory", "cc"
		     : bad);
	return;
bad:
	__refcount_call_void(refcount_warn_saturate(r, REFCOUNT_DEC_LEAK));
}

#endif /* REFCOUNT_ARCH_X86_SATURATING_H */

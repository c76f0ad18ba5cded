/* SPDX-License-Identifier: MIT */
/*
 * refcount/arch/x86-saturating.h - the saturating breed's x86 gets and puts
 *
 * Included by <refcount/breed/saturating.h> on x86-64 and i386.  The word
 * holds INT_MIN - count (<refcount/types.h>), so a get is `lock sub` on it
 * and a put `lock add`, and the flags of that one instruction decide every
 * boundary the saturating breed checks (docs/design.md, 'The increment and
 * the flags'); no locked instruction's old value is read back:
 *
 *   get of @i, `lock sub $i`: the count was good (1 to INT_MAX - @i) iff
 *   the new word is 1 to INT_MAX - @i, i.e. above 0 in true arithmetic;
 *   `jle` (ZF, or SF != OF) takes every other case: the count was 0 (OF),
 *   past INT_MAX - @i (ZF or SF), negative or the hole (SF, or OF);
 *
 *   put of 1, `lock inc`: the last put gives the word INT_MIN, the only
 *   result with OF; any other negative result (SF) is a put on 0, on a
 *   negative count or an immortal one; `js` is the one branch, since the
 *   one bad start whose result is not negative, the word -1 (the count
 *   -INT_MAX, whose put gives 0), is never stored: a set stores a negative
 *   count as REFCOUNT_SATURATED (<refcount/types.h>), and every operation
 *   that leaves a negative count stores the saturated or immortal value
 *   (docs/design.md, 'The increment and the flags', the proof);
 *
 *   put of @i > 1, `lock add $i`: as for 1, and CF (a carry: the word was
 *   -@i to -1, a count just above INT_MIN) is bad too; OF is the last put
 *   (the word INT_MIN exactly) or a put of more than the count, told apart
 *   by reading the word: after a correct last put nobody else may touch it.
 *
 * The one case no flag sees is a put on the word 0 (zeroed memory, the
 * count INT_MIN): it moves to INT_MAX, a leak.  The C paths of
 * <refcount/impl/saturating-ops.h> give the same outcomes on every word the
 * API can store (the tests run both: the saturating-noasm variant builds
 * the C paths); on the word -1, which it cannot, a put of 1 here moves to
 * the word 0 silently where the C paths report.
 *
 * A `lock`-prefixed instruction is a full barrier on x86, so it is the
 * RELEASE of the put and, when it took the count to 0, the ACQUIRE that the
 * final put needs; the "memory" clobber makes it a compiler barrier too.
 *
 * Not used under ThreadSanitizer (it cannot see inside asm), for the oldp
 * forms (they need the old value), for an @i that is not a positive
 * constant, or with -DREFCOUNT_SATURATING_NO_ASM.
 */
#ifndef REFCOUNT_ARCH_X86_SATURATING_H
#define REFCOUNT_ARCH_X86_SATURATING_H

#define __REFCOUNT_SAT_HAVE_ASM 1

/* lock dec / lock sub $i: jle unless the result is 1 to INT_MAX - i. */
static __refcount_always_inline void __refcount_sat_asm_add(int i,
							    refcount_t *r)
{
	if (__builtin_constant_p(i) && i == 1)
		__asm__ goto("lock decl %0\n\t"
			     "jle %l[bad]"
			     : /* no outputs */
			     : "m"(r->refs)
			     : "memory", "cc"
			     : bad);
	else
		__asm__ goto("lock subl %1, %0\n\t"
			     "jle %l[bad]"
			     : /* no outputs */
			     : "m"(r->refs), "ir"(i)
			     : "memory", "cc"
			     : bad);
	return;
bad:
	__refcount_cold_label;
	/* The old word is the new one plus @i: 0 or INT_MIN is an add to 0. */
	if (((unsigned int)__atomic_load_n(&r->refs, __ATOMIC_RELAXED) +
	     (unsigned int)i) &
	    0x7fffffffu)
		__refcount_call_void(
			refcount_warn_saturate(r, REFCOUNT_ADD_OVF));
	else
		__refcount_call_void(
			refcount_warn_saturate(r, REFCOUNT_ADD_UAF));
}

/*
 * lock inc: js to a stub in its own section that jo's to "last" (the word
 * INT_MIN) and else to "bad".  The hot path is one branch not taken.
 */
static __refcount_always_inline bool
__refcount_sat_asm_dec_and_test(refcount_t *r)
{
	__asm__ goto("lock incl %0\n\t"
		     "js 771f\n\t"
		     ".pushsection " __REFCOUNT_STUB_SECTION ", \"ax\"\n"
		     "771:\tjo %l[last]\n\t"
		     "jmp %l[bad]\n\t"
		     ".popsection"
		     : /* no outputs */
		     : "m"(r->refs)
		     : "memory", "cc"
		     : last, bad);
	return false;
last:
	return true;
bad:
	__refcount_cold_label;
	__refcount_call_void(refcount_warn_saturate(r, REFCOUNT_SUB_UAF));
	return __refcount_opaque_false();
}

/*
 * lock add $i (i > 1): js to the stub, jbe (CF or ZF) to "bad"; in the
 * stub jo to "over" (the last put or a put of more than the count), else
 * "bad".  "over" is the last put iff the word is INT_MIN.
 */
static __refcount_always_inline bool
__refcount_sat_asm_sub_and_test(int i, refcount_t *r)
{
	if (__builtin_constant_p(i) && i == 1)
		return __refcount_sat_asm_dec_and_test(r);
	__asm__ goto("lock addl %1, %0\n\t"
		     "js 771f\n\t"
		     "jbe %l[bad]\n\t"
		     ".pushsection " __REFCOUNT_STUB_SECTION ", \"ax\"\n"
		     "771:\tjo %l[over]\n\t"
		     "jmp %l[bad]\n\t"
		     ".popsection"
		     : /* no outputs */
		     : "m"(r->refs), "ir"(i)
		     : "memory", "cc"
		     : over, bad);
	return false;
over:
	if (__refcount_likely(__atomic_load_n(&r->refs, __ATOMIC_RELAXED) ==
			      INT_MIN))
		return true;
bad:
	__refcount_cold_label;
	__refcount_call_void(refcount_warn_saturate(r, REFCOUNT_SUB_UAF));
	return __refcount_opaque_false();
}

/* lock inc: js (a result of INT_MIN or below 0) is bad, as above. */
static __refcount_always_inline void __refcount_sat_asm_dec(refcount_t *r)
{
	__asm__ goto("lock incl %0\n\t"
		     "js %l[bad]"
		     : /* no outputs */
		     : "m"(r->refs)
		     : "memory", "cc"
		     : bad);
	return;
bad:
	__refcount_cold_label;
	__refcount_call_void(refcount_warn_saturate(r, REFCOUNT_DEC_LEAK));
}

#endif /* REFCOUNT_ARCH_X86_SATURATING_H */

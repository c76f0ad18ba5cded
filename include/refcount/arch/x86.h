/* SPDX-License-Identifier: MIT */
/*
 * refcount/arch/x86.h - the fast breed's x86 (x86-64 and i386) fast paths
 *
 * Included by <refcount/breed/fast.h>.  Follows the 2017 x86
 * ARCH_HAS_REFCOUNT implementation (arch/x86/include/asm/refcount.h, commit
 * 7a46ec0e2f48, "locking/refcounts, x86/asm: Implement fast refcount overflow
 * protection", after PaX REFCOUNT): the locked instruction atomic_t would use,
 * then one conditional jump on the CPU flags.  The kernel jumped to a ud2 in
 * .text..refcount and let an exception handler saturate; here the jump goes
 * to a cold C label that calls __refcount_fast_error() with the flags the
 * exception handler would have seen.  For the checks that must tell OF from
 * SF, a stub in .text.unlikely makes that second test, so the inline path
 * stays "lock op; jcc".
 *
 * `lock`-prefixed read-modify-writes are full barriers on x86, so these fast
 * paths are at least as ordered as the refcount_t contract requires; the
 * "memory" clobbers make them compiler barriers too.
 */
#ifndef REFCOUNT_ARCH_X86_H
#define REFCOUNT_ARCH_X86_H

#define __REFCOUNT_FAST_HAVE_ASM 1

/* The counter as the plain int the instructions operate on. */
#define __REFCOUNT_X86_CTR(r) ((r)->refs)

/*
 * REFCOUNT_CHECK_LT_ZERO: trap if the result is negative.  The stub tells a
 * wrap past INT_MAX (OF and SF: "overflow") from a step on an already
 * negative counter (SF only: silent saturation).
 */
#define __REFCOUNT_X86_CHECK_LT_ZERO                                           \
	"js 771f\n\t"                                                          \
	".pushsection " __REFCOUNT_STUB_SECTION ", \"ax\"\n"                   \
	"771:\tjo %l[ovf]\n\t"                                                 \
	"jmp %l[neg]\n\t"                                                      \
	".popsection\n\t"

static __refcount_always_inline void __refcount_fast_asm_add(int i,
							     refcount_t *r)
{
	__asm__ goto("lock addl %1, %0\n\t" __REFCOUNT_X86_CHECK_LT_ZERO
		     : /* no outputs */
		     : "m"(__REFCOUNT_X86_CTR(r)), "ir"(i)
		     : "memory", "cc"
		     : ovf, neg);
	return;
ovf:
	__refcount_cold_label;
	__refcount_call_void(__refcount_fast_error(
		r, REFCOUNT_ADD_OVF, __REFCOUNT_X86_OF | __REFCOUNT_X86_SF));
	return;
neg:
	__refcount_cold_label;
	__refcount_call_void(
		__refcount_fast_error(r, REFCOUNT_ADD_OVF, __REFCOUNT_X86_SF));
}

static __refcount_always_inline void __refcount_fast_asm_inc(refcount_t *r)
{
	__asm__ goto("lock incl %0\n\t" __REFCOUNT_X86_CHECK_LT_ZERO
		     : /* no outputs */
		     : "m"(__REFCOUNT_X86_CTR(r))
		     : "memory", "cc"
		     : ovf, neg);
	return;
ovf:
	__refcount_cold_label;
	__refcount_call_void(__refcount_fast_error(
		r, REFCOUNT_ADD_OVF, __REFCOUNT_X86_OF | __REFCOUNT_X86_SF));
	return;
neg:
	__refcount_cold_label;
	__refcount_call_void(
		__refcount_fast_error(r, REFCOUNT_ADD_OVF, __REFCOUNT_X86_SF));
}

/*
 * REFCOUNT_CHECK_LE_ZERO: refcount_dec() traps on 0 ("hit zero") and below.
 * A decrement cannot set OF together with SF, so no stub is needed.
 */
static __refcount_always_inline void __refcount_fast_asm_dec(refcount_t *r)
{
	__asm__ goto("lock decl %0\n\t"
		     "jz %l[zero]\n\t"
		     "js %l[neg]"
		     : /* no outputs */
		     : "m"(__REFCOUNT_X86_CTR(r))
		     : "memory", "cc"
		     : zero, neg);
	return;
zero:
	__refcount_cold_label;
	__refcount_call_void(
		__refcount_fast_error(r, REFCOUNT_DEC_LEAK, __REFCOUNT_X86_ZF));
	return;
neg:
	__refcount_cold_label;
	__refcount_call_void(
		__refcount_fast_error(r, REFCOUNT_DEC_LEAK, __REFCOUNT_X86_SF));
}

/* dec_and_test: trap below 0 (silently: SF only), return ZF. */
static __refcount_always_inline bool
__refcount_fast_asm_dec_and_test(refcount_t *r)
{
	__asm__ goto("lock decl %0\n\t"
		     "js %l[neg]\n\t"
		     "jz %l[zero]"
		     : /* no outputs */
		     : "m"(__REFCOUNT_X86_CTR(r))
		     : "memory", "cc"
		     : zero, neg);
	return false;
zero:
	return true;
neg:
	__refcount_cold_label;
	__refcount_call_void(
		__refcount_fast_error(r, REFCOUNT_SUB_UAF, __REFCOUNT_X86_SF));
	return __refcount_opaque_false();
}

static __refcount_always_inline bool
__refcount_fast_asm_sub_and_test(int i, refcount_t *r)
{
	__asm__ goto("lock subl %1, %0\n\t" __REFCOUNT_X86_CHECK_LT_ZERO
		     "jz %l[zero]"
		     : /* no outputs */
		     : "m"(__REFCOUNT_X86_CTR(r)), "ir"(i)
		     : "memory", "cc"
		     : zero, ovf, neg);
	return false;
zero:
	return true;
ovf:
	__refcount_cold_label;
	__refcount_call_void(__refcount_fast_error(
		r, REFCOUNT_SUB_UAF, __REFCOUNT_X86_OF | __REFCOUNT_X86_SF));
	return __refcount_opaque_false();
neg:
	__refcount_cold_label;
	__refcount_call_void(
		__refcount_fast_error(r, REFCOUNT_SUB_UAF, __REFCOUNT_X86_SF));
	return __refcount_opaque_false();
}

/* lock xadd, for the __refcount_*(..., oldp) forms. */
static __refcount_always_inline int
__refcount_fast_fetch_add_relaxed(refcount_t *r, int i)
{
	return __atomic_fetch_add(&r->refs, i, __ATOMIC_RELAXED);
}

static __refcount_always_inline int
__refcount_fast_fetch_add_release(refcount_t *r, int i)
{
	return __atomic_fetch_add(&r->refs, i, __ATOMIC_RELEASE);
}

#endif /* REFCOUNT_ARCH_X86_H */

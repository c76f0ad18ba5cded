/* SPDX-License-Identifier: MIT */
/*
 * refcount/arch/aarch64-percpu.h - percpu_ref's rseq fast path on aarch64
 *
 * Included by <refcount/impl/percpu.h>.  The sequence of x86-percpu.h on
 * glibc's rseq area at tpidr_el0 + __rseq_offset: store the descriptor's
 * address in rseq->rseq_cs, then inside the sequence load cpu_id (or mm_cid)
 * and the tagged word, leave if a mode bit is set, and load, add and store
 * the slot; the store is the commit.  The slot's address depends on the
 * tagged word, so the slot is read after the word (no barrier needed).  The
 * abort handler, in __rseq_failure, is preceded by glibc's aarch64 RSEQ_SIG
 * (0xd428bc00, a brk #0x45e0) and starts again from the top.
 *
 * qemu-user has no rseq, so the aarch64 cross tests run the atomic-slot
 * path; this sequence is compiled there, not run.
 */
#ifndef REFCOUNT_ARCH_AARCH64_PERCPU_H
#define REFCOUNT_ARCH_AARCH64_PERCPU_H

#define __PERCPU_REF_HAVE_RSEQ 1

/* Scratch: x9 thread pointer, x10 descriptor, x11 index, x12 slot, x13 value. */
static __refcount_always_inline bool __percpu_ref_rseq_add(unsigned long *ptrp,
							   long delta)
{
	__asm__ goto(__PERCPU_REF_RSEQ_CS
		     "772:\n\t"
		     "mrs x9, tpidr_el0\n\t"
		     "adrp x10, 773b\n\t"
		     "add x10, x10, :lo12:773b\n\t"
		     "add x13, x9, %[rs]\n\t"
		     "str x10, [x13, #8]\n"
		     "774:\n\t"
		     "ldr w11, [x9, %[io]]\n\t"
		     "ldr x12, %[p]\n\t"
		     "tst x12, #3\n\t"
		     "b.ne %l[slow]\n\t"
		     "add x12, x12, x11, lsl #" __REFCOUNT_STR(
			     __PERCPU_REF_SHIFT) "\n\t"
						 "ldr x13, [x12]\n\t"
						 "add x13, x13, %[d]\n\t"
						 "str x13, [x12]\n"
						 "775:\n\t"
						 ".pushsection __rseq_failure, "
						 "\"ax\"\n\t"
						 ".inst 0xd428bc00\n"
						 "776:\n\t"
						 "b 772b\n\t"
						 ".popsection"
		     : /* no outputs */
		     : [rs] "r"(__percpu_ref_cfg.rseq_off),
		       [io] "r"(__percpu_ref_cfg.idx_off), [p] "m"(*ptrp),
		       [d] "r"(delta)
		     : "x9", "x10", "x11", "x12", "x13", "memory", "cc"
		     : slow);
	return true;
slow:
	__refcount_cold_label;
	return false;
}

#endif /* REFCOUNT_ARCH_AARCH64_PERCPU_H */

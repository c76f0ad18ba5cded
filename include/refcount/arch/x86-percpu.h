/* SPDX-License-Identifier: MIT */
/*
 * refcount/arch/x86-percpu.h - percpu_ref's rseq fast path on x86-64
 *
 * Included by <refcount/impl/percpu.h>.  One restartable sequence on the
 * rseq area glibc registered for the thread (at %fs:__rseq_offset; this
 * library never registers one of its own):
 *
 *	store the descriptor's address in rseq->rseq_cs
 *   start:
 *	load cpu_id (or mm_cid) and the object's tagged word
 *	leave for the slow path if a mode bit is set
 *	addq delta, slot0 + (index << __PERCPU_REF_SHIFT)	<- the commit
 *   post-commit:
 *
 * The add is a plain read-modify-write of memory by one instruction, with
 * no lock prefix: preemption, migration, a signal or
 * membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ) before it sends the
 * thread to the abort handler, which starts again from the top; after it,
 * the add has happened on the CPU whose index was read.  The tagged word is
 * loaded inside the sequence, so a restarted one sees a kill's mode bits.
 *
 * The abort handler is in __rseq_failure, preceded by RSEQ_SIG encoded as
 * the operand of a ud1 (the kernel checks the 4 bytes before abort_ip); the
 * descriptor (struct rseq_cs: version, flags, start_ip, post_commit_offset,
 * abort_ip) is in __rseq_cs, 32-byte aligned.  The layout follows
 * linux/rseq.h and glibc's x86 RSEQ_SIG (0x53053053).
 */
#ifndef REFCOUNT_ARCH_X86_PERCPU_H
#define REFCOUNT_ARCH_X86_PERCPU_H

#define __PERCPU_REF_HAVE_RSEQ 1

static __refcount_always_inline bool __percpu_ref_rseq_add(unsigned long *ptrp,
							   long delta)
{
	__asm__ goto(__PERCPU_REF_RSEQ_CS
		     "772:\n\t"
		     "leaq 773b(%%rip), %%rax\n\t"
		     "movq %%rax, %%fs:8(%[rs])\n" /* rseq->rseq_cs */
		     "774:\n\t"
		     "movl %%fs:(%[idx]), %%eax\n\t"
		     "movq %[ptr], %%rcx\n\t"
		     "testb $3, %%cl\n\t"
		     "jnz %l[slow]\n\t"
		     "shlq %[sh], %%rax\n\t"
		     "addq %[d], (%%rcx,%%rax)\n"
		     "775:\n\t"
		     ".pushsection __rseq_failure, \"ax\"\n\t"
		     ".byte 0x0f, 0xb9, 0x3d\n\t"
		     ".long 0x53053053\n"
		     "776:\n\t"
		     "jmp 772b\n\t"
		     ".popsection"
		     : /* no outputs */
		     : [rs] "r"(__percpu_ref_cfg.rseq_off),
		       [idx] "r"(__percpu_ref_cfg.idx_off), [ptr] "m"(*ptrp),
		       [sh] "i"(__PERCPU_REF_SHIFT), [d] "r"(delta)
		     : "rax", "rcx", "memory", "cc"
		     : slow);
	return true;
slow:
	__refcount_cold_label;
	return false;
}

#endif /* REFCOUNT_ARCH_X86_PERCPU_H */

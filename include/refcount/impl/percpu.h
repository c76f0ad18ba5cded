/* SPDX-License-Identifier: MIT */
/*
 * refcount/impl/percpu.h - what <refcount/percpu_ref.h> is built from
 *
 * Internal to librefcount's headers; not part of the API.
 *
 * The per-CPU slots of every percpu_ref come from one library-owned pool
 * (src/percpu-pool.c): chunks of nr_cpu regions of 2^__PERCPU_REF_SHIFT
 * bytes, so that an object's slot on CPU c is at
 *
 *	slot0 + (c << __PERCPU_REF_SHIFT)
 *
 * where slot0 is the object's 8-byte slot in the region of CPU 0.  The
 * tagged word of struct percpu_ref holds slot0 and the mode bits below, as
 * the kernel's percpu_count_ptr holds its per-CPU pointer.
 *
 * Which fast path runs is decided once, at the first percpu_ref_init(), and
 * written to __percpu_ref_cfg:
 *   rseq          a restartable sequence on glibc's rseq area adds to the
 *                 slot of the CPU (or mm_cid) it runs on, with no lock
 *                 prefix (arch/x86-percpu.h, arch/aarch64-percpu.h);
 *   atomic slots  when rseq is not registered (the glibc tunable, valgrind,
 *                 qemu-user) or the architecture has no sequence here: a
 *                 relaxed fetch-add (compare-and-swap for ALLOW_REINIT refs)
 *                 on the slot of the calling thread's index, each slot
 *                 holding __PERCPU_REF_LIVE while the object is in per-CPU
 *                 mode (XNU's os_pcpu_ref scheme).
 */
#ifndef REFCOUNT_IMPL_PERCPU_H
#define REFCOUNT_IMPL_PERCPU_H

#include <stdbool.h>

#include <refcount/impl/compiler.h>

__REFCOUNT_BEGIN_DECLS

struct percpu_ref;

/* The mode bits of percpu_count_ptr (the kernel's values). */
#define __PERCPU_REF_ATOMIC 1UL
#define __PERCPU_REF_DEAD 2UL
#define __PERCPU_REF_ATOMIC_DEAD (__PERCPU_REF_ATOMIC | __PERCPU_REF_DEAD)
#define __PERCPU_REF_FLAG_BITS 2
/*
 * Atomic-slot path only: the ref may go back to per-CPU mode after a kill
 * or switch (PERCPU_REF_ALLOW_REINIT), so its gets and puts must
 * compare-and-swap (see __percpu_ref_slot_add()).  Never set on the rseq
 * path, whose sequence tests the two mode bits alone.
 */
#define __PERCPU_REF_CAS 4UL
#define __PERCPU_REF_PTR_BITS (__PERCPU_REF_ATOMIC_DEAD | __PERCPU_REF_CAS)

/* log2 of a CPU's region in a pool chunk: 8192 objects per chunk. */
#define __PERCPU_REF_SHIFT 16

/* An atomic-slot word: LIVE while per-CPU, counts in units of 2. */
#define __PERCPU_REF_LIVE 1L
#define __PERCPU_REF_UNIT 2L

/* Which fast path the process runs (struct __percpu_ref_cfg.path). */
enum __percpu_ref_path {
	__PERCPU_REF_PATH_NONE, /* before the first percpu_ref_init() */
	__PERCPU_REF_PATH_RSEQ_CPU_ID,
	__PERCPU_REF_PATH_RSEQ_MM_CID,
	__PERCPU_REF_PATH_ATOMIC_SLOTS,
};

struct __percpu_ref_cfg {
	long rseq_off; /* glibc's __rseq_offset: the area from the thread pointer */
	long idx_off; /* ... + the offset of cpu_id or mm_cid in it */
	int rseq; /* the rseq fast path runs */
	int path; /* enum __percpu_ref_path */
	unsigned int nr_slots; /* slots per object: possible CPUs */
};
extern struct __percpu_ref_cfg __percpu_ref_cfg;

/* The atomic-slot path's index of the calling thread, plus one (0: none). */
#ifdef __cplusplus
extern thread_local unsigned int __percpu_ref_tidx;
#else
extern _Thread_local unsigned int __percpu_ref_tidx;
#endif
unsigned int __percpu_ref_assign_tidx(void);

/* The out-of-line paths (src/percpu_ref.c): atomic mode, and the reports. */
void __percpu_ref_get_slow(struct percpu_ref *ref, unsigned long nr);
void __percpu_ref_put_slow(struct percpu_ref *ref, unsigned long nr);
bool __percpu_ref_tryget_slow(struct percpu_ref *ref, unsigned long nr,
			      bool live);

/* ThreadSanitizer cannot see the rseq path's plain adds or membarrier(). */
#ifdef __REFCOUNT_TSAN
void __tsan_release(void *addr);
#define __percpu_ref_tsan_release(ref) __tsan_release((void *)(ref))
#else
#define __percpu_ref_tsan_release(ref) ((void)0)
#endif

/*
 * The struct rseq_cs of an arch sequence, in section __rseq_cs (32-byte
 * aligned: version 0, flags 0, start_ip, post_commit_offset, abort_ip), for
 * a sequence whose start, post-commit and abort labels are 774, 775, 776.
 * The descriptor's own label is 773.
 */
#define __PERCPU_REF_RSEQ_CS                                                   \
	".pushsection __rseq_cs, \"aw\"\n\t"                                   \
	".balign 32\n"                                                         \
	"773:\n\t"                                                             \
	".long 0x0, 0x0\n\t"                                                   \
	".quad 774f, (775f - 774f), 776f\n\t"                                  \
	".popsection\n"

/*
 * The rseq sequences, where there are some.  Every unit of a program and the
 * library see the same choice (it depends on the architecture alone), since
 * the two paths encode the slots differently.  TSan builds keep them: TSan
 * does not see inside asm, and is told about the orderings instead.
 */
#if defined(__x86_64__)
#include <refcount/arch/x86-percpu.h>
#elif defined(__aarch64__)
#include <refcount/arch/aarch64-percpu.h>
#endif

/*
 * The atomic-slot path: add @delta references to the calling thread's slot
 * if the object is in per-CPU mode, with one relaxed (or, for a put,
 * release) fetch-add, as XNU's os_pcpu_ref does.  A kill exchanges every
 * slot with 0, so an add that finds no LIVE bit came after it: it undoes
 * itself and goes to the atomic count.  Undoing is safe only if the slot
 * can never be LIVE again, that is for a ref without ALLOW_REINIT; the
 * others (__PERCPU_REF_CAS) compare-and-swap instead, so that no add ever
 * lands in a dead slot that percpu_ref_resurrect() could revive in
 * between.  The kill's exchange acquires what a put released.
 */
static __refcount_always_inline bool
__percpu_ref_slot_add(unsigned long *ptrp, long delta, int order)
{
	unsigned long ptr = __atomic_load_n(ptrp, __ATOMIC_RELAXED);
	unsigned int i = __percpu_ref_tidx;
	long *slot, v, d = delta * __PERCPU_REF_UNIT;

	if (__refcount_unlikely(ptr & __PERCPU_REF_ATOMIC_DEAD))
		return false;
	if (__refcount_unlikely(!i))
		i = __percpu_ref_assign_tidx();
	slot = (long *)((ptr & ~__PERCPU_REF_CAS) +
			((unsigned long)(i - 1) << __PERCPU_REF_SHIFT));
	if (__refcount_likely(!(ptr & __PERCPU_REF_CAS))) {
		v = __atomic_fetch_add(slot, d, order);
		if (__refcount_likely(v & __PERCPU_REF_LIVE))
			return true;
		__atomic_fetch_sub(slot, d, __ATOMIC_RELAXED);
		return false;
	}
	v = __atomic_load_n(slot, __ATOMIC_RELAXED);
	do {
		if (__refcount_unlikely(!(v & __PERCPU_REF_LIVE)))
			return false;
	} while (__refcount_unlikely(!__atomic_compare_exchange_n(
		slot, &v, v + d, true, order, __ATOMIC_RELAXED)));
	return true;
}

/* The per-CPU fast path of every get and put: false if not per-CPU. */
static __refcount_always_inline bool __percpu_ref_add(unsigned long *ptrp,
						      long delta, int order)
{
#ifdef __PERCPU_REF_HAVE_RSEQ
	if (__refcount_likely(__percpu_ref_cfg.rseq))
		return __percpu_ref_rseq_add(ptrp, delta);
#endif
	return __percpu_ref_slot_add(ptrp, delta, order);
}

__REFCOUNT_END_DECLS

#endif /* REFCOUNT_IMPL_PERCPU_H */

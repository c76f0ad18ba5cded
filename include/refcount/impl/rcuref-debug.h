/* SPDX-License-Identifier: MIT */
/*
 * refcount/impl/rcuref-debug.h - the debug counters of rcuref_t and file_ref_t
 *
 * Included by <refcount/rcuref.h> and <refcount/file_ref.h>.  A unit built
 * with -DRCUREF_DEBUG counts, per thread, every call and every atomic
 * read-modify-write its inline rcuref and file_ref operations execute; the
 * out-of-line slow paths (src/rcuref.c) always count theirs.  The tests read
 * the counts to show that a get is one atomic instruction, whatever the
 * contention: no loop, no retry.  Without RCUREF_DEBUG the inline code is
 * unchanged.
 */
#ifndef REFCOUNT_IMPL_RCUREF_DEBUG_H
#define REFCOUNT_IMPL_RCUREF_DEBUG_H

/**
 * struct rcuref_debug_stats - what one thread's rcuref and file_ref calls did
 * @gets: rcuref_get() and file_ref_get() calls (RCUREF_DEBUG units only)
 * @get_rmw: atomic read-modify-writes those gets executed
 * @get_slow: gets that took rcuref_get_slowpath()
 * @puts: rcuref_put*(), file_ref_put() and file_ref_put_close() calls
 *	(RCUREF_DEBUG units only)
 * @put_rmw: atomic read-modify-writes of those puts' fast paths, and each
 *	compare-and-swap attempt of file_ref_put_close()
 * @put_slow: puts that took the put slow path (counted in every build)
 * @put_cas: compare-and-swaps the put slow path tried (NOREF to DEAD)
 * @put_cas_fail: those that failed: a get revived the counter, or another put
 *	marked it dead first; never retried
 *
 * This library's addition; the kernel has no such counters.
 */
struct rcuref_debug_stats {
	unsigned long gets, get_rmw, get_slow;
	unsigned long puts, put_rmw, put_slow, put_cas, put_cas_fail;
};

/**
 * rcuref_debug_read() - the calling thread's counters
 * @st: receives them
 *
 * Context: any thread; reads only the calling thread's counters.  Memory
 * ordering: none (the counters are thread-local).
 */
void rcuref_debug_read(struct rcuref_debug_stats *st);

/* Internal: the calling thread's counters (src/rcuref.c). */
extern _Thread_local struct rcuref_debug_stats __rcuref_debug;

/*
 * Internal, for the tests: if set, called by the last put between its
 * decrement to NOREF and its compare-and-swap to DEAD (src/rcuref.c).
 */
extern void (*_Atomic __rcuref_noref_hook)(void);

#ifdef RCUREF_DEBUG
#define __RCUREF_DEBUG_ADD(field, n) (__rcuref_debug.field += (n))
#else
#define __RCUREF_DEBUG_ADD(field, n) ((void)0)
#endif

#endif /* REFCOUNT_IMPL_RCUREF_DEBUG_H */

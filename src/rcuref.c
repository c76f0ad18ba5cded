// SPDX-License-Identifier: MIT
/*
 * rcuref.c - the cold slow paths of rcuref_t and file_ref_t
 *
 * The inline fast paths (<refcount/rcuref.h>, <refcount/file_ref.h>) are one
 * atomic add or subtract; they come here only when the value they produced
 * is outside the valid zone.  Written from the behaviour of lib/rcuref.c
 * rcuref_get_slowpath() and rcuref_put_slowpath(), fs/file.c
 * __file_ref_put() and include/linux/file_ref.h file_ref_inc(); reports go
 * through __refcount_report() (src/report.c) with the kernel's WARN_ONCE
 * texts.  Nothing here needs liburcu.
 */
#ifndef RCUREF_NO_URCU
#define RCUREF_NO_URCU
#endif
#include <refcount/file_ref.h>
#include <refcount/rcuref.h>
#include <refcount/report.h>

_Thread_local struct rcuref_debug_stats __rcuref_debug;
void (*_Atomic __rcuref_noref_hook)(void);

void rcuref_debug_read(struct rcuref_debug_stats *st)
{
	*st = __rcuref_debug;
}

/* The report entry point takes a refcount_t; see refcount_report_default(). */
#define AS_REFCOUNT(ref) ((refcount_t *)(void *)(ref))

bool rcuref_get_slowpath(rcuref_t *ref)
{
	unsigned int cnt = (unsigned int)atomic_load_explicit(
		&ref->refcnt, memory_order_relaxed);

	__rcuref_debug.get_slow++;
	/*
	 * Released: the last put happened, maybe on another thread that is
	 * about to free the object after a grace period.  Move the counter
	 * back to the middle of the dead zone, so that racing gets never
	 * reach NOREF again, and fail.
	 */
	if (cnt >= RCUREF_RELEASED) {
		atomic_store_explicit(&ref->refcnt, __RCUREF_VAL(RCUREF_DEAD),
				      memory_order_relaxed);
		return false;
	}
	/*
	 * Saturated (or a racing put brought it back to valid, then nothing
	 * to do): pin it at SATURATED, leak the object, and succeed.
	 */
	if (cnt > RCUREF_MAXREF) {
		atomic_store_explicit(&ref->refcnt,
				      __RCUREF_VAL(RCUREF_SATURATED),
				      memory_order_relaxed);
		__refcount_report(AS_REFCOUNT(ref), REFCOUNT_ADD_NOT_ZERO_OVF,
				  __REFCOUNT_MSG_RCUREF_SATURATED,
				  __builtin_return_address(0), NULL);
	}
	return true;
}

/*
 * The last put: one compare-and-swap from NOREF to DEAD.  It fails when a
 * get revived the counter in between (then that get's owner will put it) or
 * when another put already marked it dead; neither is retried.  Success is
 * the one release, with ACQUIRE so that the release sees every access of
 * the other holders.  __rcuref_noref_hook, when a test sets it, runs first:
 * the tests widen the window a get can revive the counter in (sched_yield(),
 * a preemption right there).
 */
#define LAST_PUT(ref, noref, dead)                                             \
	({                                                                     \
		__typeof__(atomic_load(&(ref)->refcnt)) expect = (noref);      \
		void (*hook)(void) = atomic_load_explicit(                     \
			&__rcuref_noref_hook, memory_order_relaxed);           \
		bool won;                                                      \
		if (hook)                                                      \
			hook();                                                \
		__rcuref_debug.put_cas++;                                      \
		won = atomic_compare_exchange_strong_explicit(                 \
			&(ref)->refcnt, &expect, (dead), memory_order_acq_rel, \
			memory_order_relaxed);                                 \
		if (!won)                                                      \
			__rcuref_debug.put_cas_fail++;                         \
		won;                                                           \
	})

bool rcuref_put_slowpath(rcuref_t *ref, unsigned int cnt)
{
	__rcuref_debug.put_slow++;
	if (cnt == RCUREF_NOREF)
		return LAST_PUT(ref, __RCUREF_VAL(RCUREF_NOREF),
				__RCUREF_VAL(RCUREF_DEAD));
	/* Already in the dead zone: an imbalanced put.  Back to DEAD. */
	if (cnt >= RCUREF_RELEASED) {
		atomic_store_explicit(&ref->refcnt, __RCUREF_VAL(RCUREF_DEAD),
				      memory_order_relaxed);
		__refcount_report(AS_REFCOUNT(ref), REFCOUNT_SUB_UAF,
				  __REFCOUNT_MSG_RCUREF_IMBALANCED,
				  __builtin_return_address(0), NULL);
		return false;
	}
	/* A put on a saturated counter: keep it pinned, silently. */
	if (cnt > RCUREF_MAXREF)
		atomic_store_explicit(&ref->refcnt,
				      __RCUREF_VAL(RCUREF_SATURATED),
				      memory_order_relaxed);
	return false;
}

bool __file_ref_put(file_ref_t *ref, unsigned long cnt)
{
	__rcuref_debug.put_slow++;
	if (cnt == FILE_REF_NOREF)
		return LAST_PUT(ref, __FILE_REF_VAL(FILE_REF_NOREF),
				__FILE_REF_VAL(FILE_REF_DEAD));
	if (cnt >= FILE_REF_RELEASED) {
		atomic_store_explicit(&ref->refcnt,
				      __FILE_REF_VAL(FILE_REF_DEAD),
				      memory_order_relaxed);
		__refcount_report(AS_REFCOUNT(ref), REFCOUNT_SUB_UAF,
				  __REFCOUNT_MSG_FILE_REF_IMBALANCED,
				  __builtin_return_address(0), NULL);
		return false;
	}
	if (cnt > FILE_REF_MAXREF)
		atomic_store_explicit(&ref->refcnt,
				      __FILE_REF_VAL(FILE_REF_SATURATED),
				      memory_order_relaxed);
	return false;
}

void __file_ref_inc_released(file_ref_t *ref)
{
	__refcount_report(AS_REFCOUNT(ref), REFCOUNT_ADD_UAF,
			  __REFCOUNT_MSG_FILE_REF_INC_DEAD,
			  __builtin_return_address(0), NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * refcount/percpu_ref.h - percpu_ref: get and put without a shared cache
 * line, for the kernel's hottest kind of object, in userspace, hardened
 *
 * Follows include/linux/percpu-refcount.h and lib/percpu-refcount.c (Tejun
 * Heo 2013; Ming Lei's 2020 two-word layout, commit 2b0d3d3e4fcf), with the
 * kernel's names and semantics minus the gfp_t arguments.
 *
 * A percpu_ref starts in per-CPU mode: every get and put adds to a slot of
 * the CPU it runs on, nothing else, so threads on different CPUs never
 * share a cache line.  The sum of the slots is meaningful, no single slot
 * is, so zero cannot be seen in this mode.  The owner therefore holds an
 * initial reference and, at shutdown, calls percpu_ref_kill(): the ref
 * switches to atomic mode (one exact 64-bit count, the slots summed into
 * it), the initial reference is dropped, and release() runs when the count
 * reaches 0.  percpu_ref_switch_to_atomic() and percpu_ref_switch_to_percpu()
 * move between the modes without killing.
 *
 * THE USERSPACE CONTRACT, where the kernel's rests on RCU and preemption:
 *
 *  - The fast path.  In per-CPU mode a get or put is a restartable
 *    sequence (rseq) on the area glibc registered for the thread: one plain
 *    add to the CPU's slot (or the mm_cid's, on kernels >= 6.3), no lock
 *    prefix.  When rseq is not registered (GLIBC_TUNABLES=
 *    glibc.pthread.rseq=0, valgrind, qemu-user) or not written for the
 *    architecture, the slots are atomic and a get or put is a relaxed
 *    fetch-add on the slot of the calling thread's index (XNU's os_pcpu_ref
 *    scheme); a compare-and-swap for a ref with PERCPU_REF_ALLOW_REINIT,
 *    whose slots may come back to life after a kill.  The choice is made once per process, at the first
 *    percpu_ref_init(); percpu_ref_fast_path() names it.
 *  - The switch (kill, switch_to_atomic) is synchronous and takes no grace
 *    period: it sets the mode bits, then, on the rseq path, calls
 *    membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ), after which every
 *    sequence that read the old mode has either committed (and is seen) or
 *    been restarted (and goes to the atomic count); then it sums the slots
 *    into the count, which carried a bias of 2^62 (2^30 on 32-bit) meanwhile so that it could
 *    not reach zero early.  On the atomic-slot path it exchanges each slot
 *    with 0 instead.  Switches are serialised by one lock, so they may be
 *    called from any thread, but not from release() or a confirm callback
 *    of the same ref while that switch runs (they run after it).
 *  - Concurrent get and put during a switch are allowed and lose nothing:
 *    each one lands either in a slot before it is summed or in the atomic
 *    count.
 *  - release() is called exactly once, by the thread whose put (or kill)
 *    takes the count to 0, inside that call, after every other reference
 *    was put; never from another thread or a deferred context.  It may free
 *    the memory of the ref after percpu_ref_exit().
 *  - confirm_kill() and confirm_switch() are called by the thread that asked
 *    for the switch, inside percpu_ref_kill_and_confirm() or
 *    percpu_ref_switch_to_atomic(), once every later percpu_ref_tryget_live()
 *    is guaranteed to fail (kill) or every later operation to use the atomic
 *    count (switch), and before the kill drops the initial reference.
 *
 * WHAT EACH MODE DETECTS.  In per-CPU mode nothing can be checked per
 * operation (a slot may be negative legitimately: a get on one CPU, its put
 * on another); the kernel detects nothing there either.  At the switch, a
 * sum that leaves the count <= 0 (more puts than gets) is reported.  In
 * atomic mode the count behaves like the saturating refcount_t breed: an
 * overflow or an underflow saturates at PERCPU_REF_SATURATED and reports,
 * and so do a get or put after release(), a double kill, and a
 * percpu_ref_exit() while references other than the initial one are held.
 * Reports go through the library's report machinery (<refcount/report.h>):
 * counted, passed to the installed handler, printed once, and fatal with
 * REFCOUNT_ABORT=1.
 *
 * MEMORY.  16 bytes inline; one 8-byte slot per possible CPU, from a
 * library-owned pool (an object's slots are 64 KiB apart, one region per
 * CPU, so no two CPUs share a slot's line); and one struct percpu_ref_data
 * from malloc(), as in the kernel.
 */
#ifndef REFCOUNT_PERCPU_REF_H
#define REFCOUNT_PERCPU_REF_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include <refcount/impl/compiler.h>
#include <refcount/impl/percpu.h>

__REFCOUNT_BEGIN_DECLS

/**
 * typedef percpu_ref_func_t - the release and confirm callbacks
 * @ref: the percpu_ref the callback is about
 *
 * Called with no library lock held, by the thread named in this header's
 * contract.
 */
typedef void(percpu_ref_func_t)(struct percpu_ref *ref);

/** PERCPU_REF_INIT_ATOMIC - start in atomic mode (and allow reinit) */
#define PERCPU_REF_INIT_ATOMIC (1U << 0)
/** PERCPU_REF_INIT_DEAD - start killed, with no reference (implies ATOMIC) */
#define PERCPU_REF_INIT_DEAD (1U << 1)
/** PERCPU_REF_ALLOW_REINIT - allow switching back to per-CPU mode */
#define PERCPU_REF_ALLOW_REINIT (1U << 2)

/** PERCPU_REF_SATURATED - the count of a saturated ref (LONG_MIN / 2) */
#define PERCPU_REF_SATURATED (LONG_MIN / 2)

/**
 * struct percpu_ref_data - the cold part of a percpu_ref, from malloc()
 * @count: the atomic count: exact in atomic mode, biased in per-CPU mode
 * @release: called when the count reaches 0
 * @confirm_switch: the callback of the switch in progress
 * @force_atomic: percpu_ref_switch_to_atomic() was called (sticky)
 * @allow_reinit: switching back to per-CPU mode is allowed
 * @released: release() was called
 * @ref: the percpu_ref this belongs to
 *
 * Follows the kernel's struct percpu_ref_data.  Read only through the
 * functions of this header.
 */
struct percpu_ref_data {
	long count;
	percpu_ref_func_t *release;
	percpu_ref_func_t *confirm_switch;
	bool force_atomic;
	bool allow_reinit;
	bool released;
	struct percpu_ref *ref;
};

/**
 * struct percpu_ref - a reference count with per-CPU get and put
 * @percpu_count_ptr: the object's slot in CPU 0's region of the pool, with
 *	the mode bits (atomic, dead) in its low two bits
 * @data: the cold part
 *
 * 16 bytes, the kernel's layout.  Embed it in the object it counts.
 */
struct percpu_ref {
	unsigned long percpu_count_ptr;
	struct percpu_ref_data *data;
};

/**
 * percpu_ref_init() - initialise a percpu_ref with one reference
 * @ref: the percpu_ref
 * @release: called when the count reaches 0 (not NULL)
 * @flags: 0, or PERCPU_REF_INIT_ATOMIC, PERCPU_REF_INIT_DEAD,
 *	PERCPU_REF_ALLOW_REINIT
 *
 * Similar to refcount_set(r, 1), but with per-CPU slots: the ref starts
 * live, in per-CPU mode, holding the initial reference that
 * percpu_ref_kill() drops.  INIT_ATOMIC starts it in atomic mode, INIT_DEAD
 * killed with a count of 0 (revive it with percpu_ref_reinit()); both allow
 * reinit.  The first call in a process chooses the fast path (rseq or
 * atomic slots) and registers membarrier's RSEQ command, which waits for a
 * grace period once the process has threads (5 to 15 ms measured on the
 * test machine): make the first one before starting threads.
 *
 * Memory ordering: plain stores; publish the object after it.  Context:
 * any thread, before the ref is shared; may allocate and take a lock.
 *
 * Return: 0, or -ENOMEM if the slot pool or the data could not be
 * allocated (then the ref is not initialised).
 *
 * Follows lib/percpu-refcount.c percpu_ref_init().
 */
int percpu_ref_init(struct percpu_ref *ref, percpu_ref_func_t *release,
		    unsigned int flags);

/**
 * percpu_ref_exit() - free the slots and data of a percpu_ref
 * @ref: the percpu_ref, released or never shared
 *
 * Similar to the kernel's percpu_ref_exit(): gives the slots back to the
 * pool and frees the data.  percpu_ref_is_zero() still works afterwards (the
 * count is kept in the tagged word, as in the kernel); any other operation
 * is a use after free and reports.
 *
 * Memory ordering: none.  Context: any thread, once no other thread uses
 * the ref; typically inside release(), or on an error path after init.
 *
 * Misuse: an exit while references other than the initial one are held
 * (they would touch freed memory) reports REFCOUNT_SUB_UAF,
 * "percpu_ref: exit while references are held; use-after-free."; the ref is
 * freed all the same, as the kernel would.
 *
 * Follows lib/percpu-refcount.c percpu_ref_exit().
 */
void percpu_ref_exit(struct percpu_ref *ref);

/**
 * percpu_ref_get_many() - take @nr references
 * @ref: the percpu_ref, on which the caller holds a reference
 * @nr: the number of references to take
 *
 * Similar to atomic_long_add(), but in per-CPU mode an add to the CPU's
 * slot: an rseq sequence with no lock prefix, or a relaxed fetch-add (or
 * compare-and-swap) on the thread's slot.  In atomic mode, a relaxed add on the count that
 * saturates.
 *
 * Memory ordering: none (relaxed), as in the kernel: the caller already
 * holds a reference.  Context: any thread; lock-free; async-signal-safe on
 * the rseq path.
 *
 * Misuse: per-CPU mode: none detected.  Atomic mode: a get on a released
 * ref reports REFCOUNT_ADD_UAF, "percpu_ref: get on a released ref;
 * use-after-free.", an overflow REFCOUNT_ADD_OVF, "percpu_ref: saturated;
 * leaking memory."; both saturate.
 *
 * Follows include/linux/percpu-refcount.h percpu_ref_get_many().
 */
static __refcount_always_inline void percpu_ref_get_many(struct percpu_ref *ref,
							 unsigned long nr)
{
	if (__refcount_likely(__percpu_ref_add(&ref->percpu_count_ptr, (long)nr,
					       __ATOMIC_RELAXED)))
		return;
	__refcount_call_void(__percpu_ref_get_slow(ref, nr));
}

/**
 * percpu_ref_get() - take a reference
 * @ref: the percpu_ref, on which the caller holds a reference
 *
 * Similar to refcount_inc(): percpu_ref_get_many(@ref, 1).
 *
 * Memory ordering: none (relaxed).  Context: any thread; lock-free.
 *
 * Misuse: as percpu_ref_get_many().
 *
 * Follows include/linux/percpu-refcount.h percpu_ref_get().
 */
static __refcount_always_inline void percpu_ref_get(struct percpu_ref *ref)
{
	percpu_ref_get_many(ref, 1);
}

/**
 * percpu_ref_put_many() - drop @nr references
 * @ref: the percpu_ref
 * @nr: the number of references to drop
 *
 * Similar to atomic_long_sub_and_test() followed by release(), but in
 * per-CPU mode a subtract on the CPU's slot, which never releases (the
 * initial reference is held until the kill).  In atomic mode the put that
 * reaches 0 calls release() before it returns.
 *
 * Memory ordering: RELEASE for the accesses to the object before the put;
 * in per-CPU mode through the switch (the membarrier, or the slot's
 * release read-modify-write and the kill's exchange); and ACQUIRE before
 * release() runs.  Context: any thread; lock-free, except what release()
 * does.
 *
 * Misuse: per-CPU mode: none detected (the sum is checked at the switch).
 * Atomic mode: a put below 0 reports REFCOUNT_SUB_UAF, "percpu_ref:
 * underflow; use-after-free.", or after release() "percpu_ref: put after
 * release; use-after-free."; both saturate, and release() is not called
 * again.  A put on a saturated count leaves it saturated, silently.
 *
 * Follows include/linux/percpu-refcount.h percpu_ref_put_many().
 */
static __refcount_always_inline void percpu_ref_put_many(struct percpu_ref *ref,
							 unsigned long nr)
{
	__percpu_ref_tsan_release(ref);
	if (__refcount_likely(__percpu_ref_add(&ref->percpu_count_ptr,
					       -(long)nr, __ATOMIC_RELEASE)))
		return;
	__refcount_call_void(__percpu_ref_put_slow(ref, nr));
}

/**
 * percpu_ref_put() - drop a reference
 * @ref: the percpu_ref
 *
 * Similar to refcount_dec_and_test() then release():
 * percpu_ref_put_many(@ref, 1).
 *
 * Memory ordering: as percpu_ref_put_many().
 *
 * Misuse: as percpu_ref_put_many().
 *
 * Follows include/linux/percpu-refcount.h percpu_ref_put().
 */
static __refcount_always_inline void percpu_ref_put(struct percpu_ref *ref)
{
	percpu_ref_put_many(ref, 1);
}

/**
 * percpu_ref_tryget_many() - take @nr references unless the count is 0
 * @ref: the percpu_ref
 * @nr: the number of references to take
 *
 * Similar to atomic_long_add_unless(count, nr, 0): always succeeds in
 * per-CPU mode (the count cannot be 0 there), a compare-and-swap loop in
 * atomic mode.  Succeeds on a dead ref that still has references.
 *
 * Memory ordering: none (relaxed); the lookup that found the object orders
 * the accesses.  Context: any thread, while the object's memory is valid
 * (the lookup structure's lock, or a type-stable pool).
 *
 * Return: true if the references were taken.
 *
 * Misuse: atomic mode: an overflow saturates and reports REFCOUNT_ADD_OVF;
 * a saturated ref gives true.
 *
 * Follows include/linux/percpu-refcount.h percpu_ref_tryget_many().
 */
static __refcount_always_inline __refcount_must_check bool
percpu_ref_tryget_many(struct percpu_ref *ref, unsigned long nr)
{
	if (__refcount_likely(__percpu_ref_add(&ref->percpu_count_ptr, (long)nr,
					       __ATOMIC_RELAXED)))
		return true;
	return __refcount_call(__percpu_ref_tryget_slow(ref, nr, false));
}

/**
 * percpu_ref_tryget() - take a reference unless the count is 0
 * @ref: the percpu_ref
 *
 * Similar to refcount_inc_not_zero(): percpu_ref_tryget_many(@ref, 1).
 *
 * Memory ordering: none (relaxed).  Context: as percpu_ref_tryget_many().
 *
 * Return: true if the reference was taken.
 *
 * Misuse: as percpu_ref_tryget_many().
 *
 * Follows include/linux/percpu-refcount.h percpu_ref_tryget().
 */
static __refcount_always_inline __refcount_must_check bool
percpu_ref_tryget(struct percpu_ref *ref)
{
	return percpu_ref_tryget_many(ref, 1);
}

/**
 * percpu_ref_tryget_live() - take a reference unless the ref was killed
 * @ref: the percpu_ref
 *
 * Similar to refcount_inc_not_zero(), but fails as soon as percpu_ref_kill()
 * has started (the gate blk-mq's queue freeze relies on), not only at 0.
 * Always succeeds in live per-CPU mode.
 *
 * Memory ordering: none (relaxed).  After percpu_ref_kill_and_confirm()
 * called confirm_kill(), every tryget_live on any thread fails.  Context:
 * as percpu_ref_tryget_many().
 *
 * Return: true if the reference was taken.
 *
 * Misuse: as percpu_ref_tryget_many().
 *
 * Follows include/linux/percpu-refcount.h percpu_ref_tryget_live().
 */
static __refcount_always_inline __refcount_must_check bool
percpu_ref_tryget_live(struct percpu_ref *ref)
{
	if (__refcount_likely(__percpu_ref_add(&ref->percpu_count_ptr, 1,
					       __ATOMIC_RELAXED)))
		return true;
	return __refcount_call(__percpu_ref_tryget_slow(ref, 1, true));
}

/**
 * percpu_ref_kill_and_confirm() - kill a percpu_ref, and say when it is dead
 * @ref: the live percpu_ref
 * @confirm_kill: called once tryget_live fails everywhere, or NULL
 *
 * Similar to refcount_dec_and_test() on the initial reference, but first
 * switches to atomic mode: sets the dead and atomic bits, waits for every
 * in-flight fast path with one membarrier() (rseq path), sums the slots into
 * the count, calls @confirm_kill, then drops the initial reference, which
 * calls release() here if it was the last.  No grace period: it returns in
 * microseconds.
 *
 * Memory ordering: the switch is a full barrier with every thread of the
 * process (membarrier), and the final put orders as percpu_ref_put().
 * Context: any thread; takes the library's switch lock; not from inside a
 * callback of a switch of the same ref.
 *
 * Misuse: a second kill reports REFCOUNT_SUB_UAF, "percpu_ref_kill_and_confirm
 * called more than once" and, unlike the kernel, does not drop the initial
 * reference again.  A sum <= 0 reports as for percpu_ref_switch_to_atomic().
 *
 * Follows lib/percpu-refcount.c percpu_ref_kill_and_confirm().
 */
void percpu_ref_kill_and_confirm(struct percpu_ref *ref,
				 percpu_ref_func_t *confirm_kill);

/**
 * percpu_ref_kill() - kill a percpu_ref: drop the initial reference
 * @ref: the live percpu_ref
 *
 * Similar to refcount_dec_and_test() on the initial reference:
 * percpu_ref_kill_and_confirm(@ref, NULL).  From then on tryget_live fails,
 * gets and puts use the exact count, and the last put calls release().
 *
 * Memory ordering: as percpu_ref_kill_and_confirm().  Context: any thread;
 * takes the switch lock.
 *
 * Misuse: as percpu_ref_kill_and_confirm().
 *
 * Follows include/linux/percpu-refcount.h percpu_ref_kill().
 */
static inline void percpu_ref_kill(struct percpu_ref *ref)
{
	percpu_ref_kill_and_confirm(ref, NULL);
}

/**
 * percpu_ref_switch_to_atomic() - make gets and puts use the atomic count
 * @ref: the percpu_ref
 * @confirm_switch: called once the switch is complete, or NULL
 *
 * Similar to the kernel's percpu_ref_switch_to_atomic(), but synchronous:
 * when it returns the ref is in atomic mode and @confirm_switch has run.
 * The mode is sticky: percpu_ref_reinit() and percpu_ref_resurrect() keep
 * it until percpu_ref_switch_to_percpu().  A no-op if already atomic.
 *
 * Memory ordering: a full barrier with every thread (membarrier).
 * Context: any thread; takes the switch lock.
 *
 * Misuse: a sum that leaves the count <= 0 (more puts than gets in
 * per-CPU mode) saturates and reports REFCOUNT_SUB_UAF, "percpu ref <= 0
 * after switching to atomic".
 *
 * Follows lib/percpu-refcount.c percpu_ref_switch_to_atomic().
 */
void percpu_ref_switch_to_atomic(struct percpu_ref *ref,
				 percpu_ref_func_t *confirm_switch);

/**
 * percpu_ref_switch_to_atomic_sync() - switch to atomic mode and wait
 * @ref: the percpu_ref
 *
 * Similar to percpu_ref_switch_to_atomic(@ref, NULL), which is already
 * synchronous here.
 *
 * Memory ordering: as percpu_ref_switch_to_atomic().
 *
 * Misuse: as percpu_ref_switch_to_atomic().
 *
 * Follows lib/percpu-refcount.c percpu_ref_switch_to_atomic_sync().
 */
void percpu_ref_switch_to_atomic_sync(struct percpu_ref *ref);

/**
 * percpu_ref_switch_to_percpu() - go back to per-CPU gets and puts
 * @ref: the percpu_ref, initialised with PERCPU_REF_ALLOW_REINIT or atomic
 *
 * Similar to the kernel's percpu_ref_switch_to_percpu(): clears the sticky
 * atomic mode and, unless the ref is dead, adds the bias to the count,
 * zeroes the slots and clears the atomic bit with a release store.
 *
 * Memory ordering: RELEASE on the tagged word.  Context: any thread; takes
 * the switch lock.
 *
 * Misuse: without PERCPU_REF_ALLOW_REINIT (or INIT_ATOMIC) the ref stays
 * atomic, silently, as in the kernel (which WARNs).
 *
 * Follows lib/percpu-refcount.c percpu_ref_switch_to_percpu().
 */
void percpu_ref_switch_to_percpu(struct percpu_ref *ref);

/**
 * percpu_ref_resurrect() - revive a killed percpu_ref
 * @ref: the dead percpu_ref, not released
 *
 * Similar to refcount_inc() of a new initial reference: clears the dead
 * bit, takes the initial reference back, and returns to per-CPU mode unless
 * the mode is sticky atomic.
 *
 * Memory ordering: as percpu_ref_switch_to_percpu().  Context: any thread;
 * takes the switch lock.
 *
 * Misuse: on a live ref, nothing happens (the kernel WARNs); on a released
 * ref the get reports as percpu_ref_get() on a released ref.
 *
 * Follows lib/percpu-refcount.c percpu_ref_resurrect().
 */
void percpu_ref_resurrect(struct percpu_ref *ref);

/**
 * percpu_ref_reinit() - re-initialise a released percpu_ref
 * @ref: the percpu_ref, whose count is 0, with PERCPU_REF_ALLOW_REINIT
 *
 * Similar to percpu_ref_init() on the same slots: percpu_ref_resurrect()
 * of a ref whose count reached 0; release() may run again later.
 *
 * Memory ordering: as percpu_ref_switch_to_percpu().  Context: any thread,
 * once nothing uses the ref.
 *
 * Misuse: on a ref that is not zero nothing happens (the kernel WARNs).
 *
 * Follows lib/percpu-refcount.c percpu_ref_reinit().
 */
void percpu_ref_reinit(struct percpu_ref *ref);

/**
 * percpu_ref_is_zero() - whether the count is 0
 * @ref: the percpu_ref
 *
 * Similar to !refcount_read(), but false in per-CPU mode (where it cannot
 * be 0), and valid after percpu_ref_exit().
 *
 * Memory ordering: a relaxed load; stale as soon as read.
 *
 * Return: true if the ref is in atomic mode with a count of 0.
 *
 * Follows lib/percpu-refcount.c percpu_ref_is_zero().
 */
bool percpu_ref_is_zero(struct percpu_ref *ref);

/**
 * percpu_ref_is_dying() - whether the ref was killed
 * @ref: the percpu_ref
 *
 * Similar to the kernel's percpu_ref_is_dying(): the dead bit.
 *
 * Memory ordering: a relaxed load.  Context: any thread; use the switch
 * lock's callers' own synchronisation to act on it.
 *
 * Return: true between percpu_ref_kill() and percpu_ref_resurrect() or
 * percpu_ref_reinit().
 *
 * Follows include/linux/percpu-refcount.h percpu_ref_is_dying().
 */
static inline bool percpu_ref_is_dying(struct percpu_ref *ref)
{
	return __atomic_load_n(&ref->percpu_count_ptr, __ATOMIC_RELAXED) &
	       __PERCPU_REF_DEAD;
}

/**
 * percpu_ref_fast_path() - which per-CPU fast path this process runs
 *
 * Similar to nothing in the kernel (a librefcount addition): the choice
 * made at the first percpu_ref_init().
 *
 * Memory ordering: none.
 *
 * Return: "rseq-mm_cid", "rseq-cpu_id", "atomic-slots", or "none" before
 * the first percpu_ref_init().
 */
const char *percpu_ref_fast_path(void);

/**
 * percpu_ref_nr_slots() - the per-CPU slots each percpu_ref uses
 *
 * Similar to nothing in the kernel (nr_cpu_ids there): the number of
 * possible CPUs, each of which gives every object one 8-byte slot.
 *
 * Memory ordering: none.
 *
 * Return: the number of slots per object, 0 before the first
 * percpu_ref_init().
 */
unsigned int percpu_ref_nr_slots(void);

__REFCOUNT_END_DECLS

#endif /* REFCOUNT_PERCPU_REF_H */

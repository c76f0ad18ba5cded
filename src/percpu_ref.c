// SPDX-License-Identifier: MIT
/*
 * percpu_ref.c - percpu_ref's life cycle, its switches and its atomic mode
 *
 * Written from the behaviour of lib/percpu-refcount.c (percpu_ref_init,
 * __percpu_ref_switch_to_atomic, percpu_ref_switch_to_atomic_rcu,
 * __percpu_ref_switch_to_percpu, percpu_ref_kill_and_confirm,
 * percpu_ref_resurrect, percpu_ref_reinit, percpu_ref_exit), with the call_rcu
 * replaced by membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ) on the rseq
 * path and by exchanging every slot on the atomic-slot path (XNU's
 * os_pcpu_ref_kill), so every switch is synchronous.
 *
 * While in per-CPU mode the atomic count holds PCPU_BIAS plus whatever
 * reached it (the initial reference, and operations that raced a switch).
 * The kernel's bias is 2^63 (BITS_PER_LONG - 1) on an unsigned count; here
 * it is 2^62 (2^30 on 32-bit) on a signed one, so that the biased count is positive and the hardened atomic
 * mode can tell a saturated (negative) count from a biased one.
 *
 * The atomic mode is the saturating breed's: an operation that leaves the
 * count negative stores PERCPU_REF_SATURATED and reports through
 * __refcount_report() (src/report.c) with the caller's address.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>

#include <refcount/impl/percpu-internal.h>
#include <refcount/percpu_ref.h>
#include <refcount/report.h>

#define PCPU_BIAS (1L << (sizeof(long) * CHAR_BIT - 2))

/* Serialises every switch, as the kernel's percpu_ref_switch_lock does. */
static pthread_mutex_t switch_lock = PTHREAD_MUTEX_INITIALIZER;

/* TSan's acquire, when the program runs under it (see impl/percpu.h). */
extern void __tsan_acquire(void *addr) __attribute__((weak));

static void report(struct percpu_ref *ref, enum refcount_saturation_type t,
		   enum __refcount_msg msg, const void *ip)
{
	__refcount_report((refcount_t *)(void *)ref, t, msg, ip, NULL);
}

static long *slot_of(unsigned long ptr, unsigned int cpu)
{
	return (long *)((ptr & ~__PERCPU_REF_PTR_BITS) +
			((unsigned long)cpu << __PERCPU_REF_SHIFT));
}

static unsigned long load_ptr(struct percpu_ref *ref)
{
	return __atomic_load_n(&ref->percpu_count_ptr, __ATOMIC_RELAXED);
}

static long wrap_add(long a, long b)
{
	return (long)((unsigned long)a + (unsigned long)b);
}

/* Every slot of the object, as per-CPU mode starts: 0, or LIVE. */
static void slots_reset(unsigned long ptr)
{
	long v = __percpu_ref_cfg.rseq ? 0 : __PERCPU_REF_LIVE;

	for (unsigned int c = 0; c < __percpu_ref_cfg.nr_slots; c++)
		__atomic_store_n(slot_of(ptr, c), v, __ATOMIC_RELAXED);
}

/* The sum of the slots, in references; @take: leave them out of use. */
static long slots_sum(unsigned long ptr, bool take)
{
	unsigned long sum = 0;

	for (unsigned int c = 0; c < __percpu_ref_cfg.nr_slots; c++) {
		long *s = slot_of(ptr, c), v;

		if (__percpu_ref_cfg.rseq) {
			sum += (unsigned long)__atomic_load_n(s,
							      __ATOMIC_RELAXED);
			continue;
		}
		v = take ? __atomic_exchange_n(s, 0, __ATOMIC_ACQ_REL) :
			   __atomic_load_n(s, __ATOMIC_ACQUIRE);
		if (v & __PERCPU_REF_LIVE)
			sum += (unsigned long)((v - __PERCPU_REF_LIVE) /
					       __PERCPU_REF_UNIT);
	}
	return (long)sum;
}

/* The count reached 0 on this thread: release() runs here, once. */
static void do_release(struct percpu_ref *ref, struct percpu_ref_data *d)
{
	/* The acquire half: a load, not a fence, which TSan would not model. */
	(void)__atomic_load_n(&d->count, __ATOMIC_ACQUIRE);
	if (__tsan_acquire)
		__tsan_acquire(ref);
	d->released = true;
	d->release(ref);
}

/* The atomic mode's put, hardened; @ip is the caller's call site. */
static void put_atomic(struct percpu_ref *ref, unsigned long nr, const void *ip)
{
	struct percpu_ref_data *d = ref->data;
	long old, res;

	if (!d) {
		report(ref, REFCOUNT_SUB_UAF,
		       __REFCOUNT_MSG_PERCPU_PUT_RELEASED, ip);
		return;
	}
	old = __atomic_fetch_sub(&d->count, (long)nr, __ATOMIC_RELEASE);
	res = wrap_add(old, -(long)nr);
	if (__refcount_likely(old > 0 && res > 0))
		return;
	if (old > 0 && res == 0) {
		do_release(ref, d);
		return;
	}
	__atomic_store_n(&d->count, PERCPU_REF_SATURATED, __ATOMIC_RELAXED);
	/* A saturated count stays there silently, as rcuref's does. */
	if (old < 0)
		return;
	report(ref, REFCOUNT_SUB_UAF,
	       old == 0 ? __REFCOUNT_MSG_PERCPU_PUT_RELEASED :
			  __REFCOUNT_MSG_PERCPU_UNDERFLOW,
	       ip);
}

static void get_atomic(struct percpu_ref *ref, unsigned long nr, const void *ip)
{
	struct percpu_ref_data *d = ref->data;
	long old, res;

	if (!d) {
		report(ref, REFCOUNT_ADD_UAF,
		       __REFCOUNT_MSG_PERCPU_GET_RELEASED, ip);
		return;
	}
	old = __atomic_fetch_add(&d->count, (long)nr, __ATOMIC_RELAXED);
	res = wrap_add(old, (long)nr);
	if (__refcount_likely(old > 0 && res > 0))
		return;
	__atomic_store_n(&d->count, PERCPU_REF_SATURATED, __ATOMIC_RELAXED);
	if (old == 0)
		report(ref, REFCOUNT_ADD_UAF,
		       __REFCOUNT_MSG_PERCPU_GET_RELEASED, ip);
	else
		report(ref, REFCOUNT_ADD_OVF, __REFCOUNT_MSG_PERCPU_SATURATED,
		       ip);
}

void __percpu_ref_get_slow(struct percpu_ref *ref, unsigned long nr)
{
	get_atomic(ref, nr, __builtin_return_address(0));
}

void __percpu_ref_put_slow(struct percpu_ref *ref, unsigned long nr)
{
	put_atomic(ref, nr, __builtin_return_address(0));
}

/*
 * The try-gets in atomic mode: add unless 0 (and, for tryget_live, unless
 * dead).  A tryget_live that took its reference re-reads the dead bit and
 * gives the reference back if a kill started meanwhile, so that none
 * succeeds after confirm_kill() (the kernel gets that from RCU).
 */
bool __percpu_ref_tryget_slow(struct percpu_ref *ref, unsigned long nr,
			      bool live)
{
	const void *ip = __builtin_return_address(0);
	struct percpu_ref_data *d = ref->data;
	long old, res;

	if (!d || (live && (load_ptr(ref) & __PERCPU_REF_DEAD)))
		return false;
	old = __atomic_load_n(&d->count, __ATOMIC_RELAXED);
	do {
		if (old == 0)
			return false;
		if (old < 0)
			return true; /* saturated: a leaked reference */
		res = wrap_add(old, (long)nr);
		if (res < 0) {
			__atomic_store_n(&d->count, PERCPU_REF_SATURATED,
					 __ATOMIC_RELAXED);
			report(ref, REFCOUNT_ADD_OVF,
			       __REFCOUNT_MSG_PERCPU_SATURATED, ip);
			return true;
		}
	} while (!__atomic_compare_exchange_n(&d->count, &old, res, true,
					      __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	if (live && (__atomic_load_n(&ref->percpu_count_ptr, __ATOMIC_SEQ_CST) &
		     __PERCPU_REF_DEAD)) {
		put_atomic(ref, nr, ip);
		return false;
	}
	return true;
}

/*
 * To atomic mode, under switch_lock: set the atomic bit, wait for the fast
 * paths that read the old mode (membarrier, or the slots' exchange), then
 * move the sum into the count and take the bias out.
 */
static void to_atomic(struct percpu_ref *ref, const void *ip)
{
	struct percpu_ref_data *d = ref->data;
	unsigned long ptr = load_ptr(ref);
	long sum, res;

	if (ptr & __PERCPU_REF_ATOMIC)
		return;
	__atomic_store_n(&ref->percpu_count_ptr, ptr | __PERCPU_REF_ATOMIC,
			 __ATOMIC_SEQ_CST);
	if (__percpu_ref_cfg.rseq)
		__percpu_ref_membarrier();
	sum = slots_sum(ptr, true);
	res = __atomic_add_fetch(&d->count, wrap_add(sum, -PCPU_BIAS),
				 __ATOMIC_ACQ_REL);
	if (res <= 0) {
		__atomic_store_n(&d->count, PERCPU_REF_SATURATED,
				 __ATOMIC_RELAXED);
		report(ref, REFCOUNT_SUB_UAF, __REFCOUNT_MSG_PERCPU_SWITCH_LE_0,
		       ip);
	}
}

/* Back to per-CPU mode, under switch_lock, unless it may not. */
static void to_percpu(struct percpu_ref *ref)
{
	struct percpu_ref_data *d = ref->data;
	unsigned long ptr = load_ptr(ref);

	if (!(ptr & __PERCPU_REF_ATOMIC) || !d->allow_reinit)
		return;
	/* A saturated count stays saturated: the bias would bring it to 0. */
	if (__atomic_load_n(&d->count, __ATOMIC_RELAXED) < 0)
		return;
	__atomic_fetch_add(&d->count, PCPU_BIAS, __ATOMIC_RELAXED);
	slots_reset(ptr);
	__atomic_store_n(&ref->percpu_count_ptr, ptr & ~__PERCPU_REF_ATOMIC,
			 __ATOMIC_RELEASE);
}

static void switch_mode(struct percpu_ref *ref, const void *ip)
{
	if (ref->data->force_atomic || (load_ptr(ref) & __PERCPU_REF_DEAD))
		to_atomic(ref, ip);
	else
		to_percpu(ref);
}

int percpu_ref_init(struct percpu_ref *ref, percpu_ref_func_t *release,
		    unsigned int flags)
{
	struct percpu_ref_data *d;
	unsigned long slot;
	long count = 1;

	__percpu_ref_setup();
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	slot = __percpu_ref_slot_alloc();
	if (!slot) {
		free(d);
		return -ENOMEM;
	}
	d->force_atomic = flags & PERCPU_REF_INIT_ATOMIC;
	d->allow_reinit = flags & PERCPU_REF_ALLOW_REINIT;
	d->release = release;
	d->ref = ref;
	if (flags & (PERCPU_REF_INIT_ATOMIC | PERCPU_REF_INIT_DEAD)) {
		slot |= __PERCPU_REF_ATOMIC;
		d->allow_reinit = true;
	} else {
		count += PCPU_BIAS;
	}
	if (flags & PERCPU_REF_INIT_DEAD) {
		slot |= __PERCPU_REF_DEAD;
		count--;
	}
	if (d->allow_reinit && !__percpu_ref_cfg.rseq)
		slot |= __PERCPU_REF_CAS;
	/* In atomic mode the slots are 0: no LIVE bit, nothing to sum. */
	if (slot & __PERCPU_REF_ATOMIC) {
		for (unsigned int c = 0; c < __percpu_ref_cfg.nr_slots; c++)
			__atomic_store_n(slot_of(slot, c), 0, __ATOMIC_RELAXED);
	} else {
		slots_reset(slot);
	}
	d->count = count;
	ref->data = d;
	__atomic_store_n(&ref->percpu_count_ptr, slot, __ATOMIC_RELEASE);
	return 0;
}

void percpu_ref_exit(struct percpu_ref *ref)
{
	struct percpu_ref_data *d = ref->data;
	unsigned long ptr = load_ptr(ref);
	long c;

	if (!d)
		return;
	c = __atomic_load_n(&d->count, __ATOMIC_ACQUIRE);
	if (!(ptr & __PERCPU_REF_ATOMIC))
		c = wrap_add(c, wrap_add(slots_sum(ptr, false), -PCPU_BIAS));
	if (c > ((ptr & __PERCPU_REF_DEAD) ? 0 : 1))
		report(ref, REFCOUNT_SUB_UAF, __REFCOUNT_MSG_PERCPU_EXIT_LIVE,
		       __builtin_return_address(0));
	__percpu_ref_slot_free(ptr & ~__PERCPU_REF_PTR_BITS);
	/* As the kernel does: the count stays readable by is_zero(). */
	if (c < 0)
		c = 0;
	__atomic_store_n(&ref->percpu_count_ptr,
			 __PERCPU_REF_ATOMIC_DEAD |
				 ((unsigned long)c << __PERCPU_REF_FLAG_BITS),
			 __ATOMIC_RELAXED);
	ref->data = NULL;
	free(d);
}

void percpu_ref_kill_and_confirm(struct percpu_ref *ref,
				 percpu_ref_func_t *confirm_kill)
{
	const void *ip = __builtin_return_address(0);
	unsigned long ptr;

	pthread_mutex_lock(&switch_lock);
	ptr = load_ptr(ref);
	if (!ref->data || (ptr & __PERCPU_REF_DEAD)) {
		pthread_mutex_unlock(&switch_lock);
		report(ref, REFCOUNT_SUB_UAF, __REFCOUNT_MSG_PERCPU_DOUBLE_KILL,
		       ip);
		return;
	}
	__atomic_store_n(&ref->percpu_count_ptr, ptr | __PERCPU_REF_DEAD,
			 __ATOMIC_SEQ_CST);
	switch_mode(ref, ip);
	pthread_mutex_unlock(&switch_lock);
	if (confirm_kill)
		confirm_kill(ref);
	put_atomic(ref, 1, ip);
}

/* switch_to_atomic and _sync: the sticky atomic mode, under the lock. */
static void force_atomic(struct percpu_ref *ref, const void *ip)
{
	pthread_mutex_lock(&switch_lock);
	ref->data->force_atomic = true;
	switch_mode(ref, ip);
	pthread_mutex_unlock(&switch_lock);
}

void percpu_ref_switch_to_atomic(struct percpu_ref *ref,
				 percpu_ref_func_t *confirm_switch)
{
	force_atomic(ref, __builtin_return_address(0));
	if (confirm_switch)
		confirm_switch(ref);
}

void percpu_ref_switch_to_atomic_sync(struct percpu_ref *ref)
{
	force_atomic(ref, __builtin_return_address(0));
}

void percpu_ref_switch_to_percpu(struct percpu_ref *ref)
{
	const void *ip = __builtin_return_address(0);

	pthread_mutex_lock(&switch_lock);
	ref->data->force_atomic = false;
	switch_mode(ref, ip);
	pthread_mutex_unlock(&switch_lock);
}

/* Under switch_lock: clear the dead bit, take the initial reference back. */
static void resurrect(struct percpu_ref *ref, const void *ip)
{
	struct percpu_ref_data *d = ref->data;
	unsigned long ptr = load_ptr(ref);

	__atomic_store_n(&ref->percpu_count_ptr, ptr & ~__PERCPU_REF_DEAD,
			 __ATOMIC_RELEASE);
	if (d->released) {
		d->released = false;
		__atomic_store_n(&d->count, 1, __ATOMIC_RELAXED);
	} else {
		get_atomic(ref, 1, ip);
	}
	switch_mode(ref, ip);
}

void percpu_ref_resurrect(struct percpu_ref *ref)
{
	const void *ip = __builtin_return_address(0);

	pthread_mutex_lock(&switch_lock);
	if (ref->data && (load_ptr(ref) & __PERCPU_REF_DEAD))
		resurrect(ref, ip);
	pthread_mutex_unlock(&switch_lock);
}

void percpu_ref_reinit(struct percpu_ref *ref)
{
	const void *ip = __builtin_return_address(0);

	pthread_mutex_lock(&switch_lock);
	if (ref->data && percpu_ref_is_zero(ref)) {
		ref->data->released = true; /* INIT_DEAD: as if released */
		resurrect(ref, ip);
	}
	pthread_mutex_unlock(&switch_lock);
}

bool percpu_ref_is_zero(struct percpu_ref *ref)
{
	unsigned long ptr = load_ptr(ref);
	struct percpu_ref_data *d = ref->data;

	if (!(ptr & __PERCPU_REF_ATOMIC))
		return false;
	if (!d)
		return !(ptr >> __PERCPU_REF_FLAG_BITS);
	return __atomic_load_n(&d->count, __ATOMIC_RELAXED) == 0;
}

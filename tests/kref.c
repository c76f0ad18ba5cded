// SPDX-License-Identifier: MIT
/*
 * tests/kref.c - kref with release callbacks, and the lock helpers with real
 * pthread locks, for one breed
 *
 * kref_put() calls release exactly once, on the last put; kref_put_mutex()
 * and kref_put_lock() call it with the lock held (checked from another
 * thread with trylock, and by the error-checking mutex letting only its
 * owner unlock); refcount_dec_and_mutex_lock() and refcount_dec_and_lock()
 * return true, with the lock held, only on the 1 -> 0 transition, and take
 * no lock for the others.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

#include <criterion/criterion.h>

#include <refcount/kref.h>

#include "helpers.h"

struct obj {
	int payload;
	struct kref ref;
	int released;
	int lock_busy_seen; /* trylock from another thread, in release */
};

#define to_obj(k) ((struct obj *)((char *)(k)-offsetof(struct obj, ref)))

static pthread_mutex_t mutex;
static pthread_spinlock_t spin;

static void setup(void)
{
	quiet_install();
	errorcheck_mutex_init(&mutex);
	pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
}

static void release(struct kref *k)
{
	struct obj *o = to_obj(k);

	cr_assert_eq(o->payload, 42, "release got the wrong object");
	cr_assert_eq(kref_read(k), 0);
	o->released++;
}

static void release_mutex(struct kref *k)
{
	struct obj *o = to_obj(k);

	release(k);
	o->lock_busy_seen = trylock_from_other_thread(&mutex);
	/* Error-checking mutex: unlocking succeeds only for its owner. */
	cr_assert_eq(pthread_mutex_unlock(&mutex), 0,
		     "release called without the mutex held by the caller");
}

static void release_spin(struct kref *k)
{
	struct obj *o = to_obj(k);

	release(k);
	o->lock_busy_seen = spin_trylock_from_other_thread(&spin);
	pthread_spin_unlock(&spin);
}

Test(kref, init_read_get_put, .init = setup)
{
	struct obj o = { .payload = 42 };
	struct report_counts before;
	const char *why;

	report_counts_snap(&before);
	kref_init(&o.ref);
	cr_assert_eq(kref_read(&o.ref), 1);
	kref_get(&o.ref);
	kref_get(&o.ref);
	cr_assert_eq(kref_read(&o.ref), 3);
	cr_assert_eq(kref_put(&o.ref, release), 0);
	cr_assert_eq(kref_put(&o.ref, release), 0);
	cr_assert_eq(o.released, 0);
	cr_assert_eq(kref_put(&o.ref, release), 1);
	cr_assert_eq(o.released, 1);
	cr_assert(report_counts_delta_ok(&before, NO_REPORT, 0, &why), "%s",
		  why);
}

Test(kref, static_init)
{
	struct kref k = KREF_INIT(3), z = KREF_INIT(0);

	cr_assert_eq(kref_read(&k), 3);
	cr_assert_eq(kref_read(&z), 0);
}

Test(kref, get_unless_zero, .init = setup)
{
	struct obj o = { .payload = 42, .ref = KREF_INIT(1) };

	cr_assert_neq(kref_get_unless_zero(&o.ref), 0);
	cr_assert_eq(kref_read(&o.ref), 2);
	cr_assert_eq(kref_put(&o.ref, release), 0);
	cr_assert_eq(kref_put(&o.ref, release), 1);
	/* Being destroyed: a lookup must not revive it. */
	cr_assert_eq(kref_get_unless_zero(&o.ref), 0);
	cr_assert_eq(kref_read(&o.ref), 0);
	cr_assert_eq(o.released, 1);
}

/*
 * A put below 0 never releases again: the checking breeds report it, the
 * atomic breed does not notice.
 */
Test(kref, put_after_release_does_not_release_again, .init = setup)
{
	struct obj o = { .payload = 42, .ref = KREF_INIT(1) };
	struct report_counts before;
	const char *why;

	cr_assert_eq(kref_put(&o.ref, release), 1);
	report_counts_snap(&before);
	cr_assert_eq(kref_put(&o.ref, release), 0);
	cr_assert_eq(o.released, 1);
	cr_assert(report_counts_delta_ok(
			  &before,
			  THIS_BREED == B_ATOMIC ? NO_REPORT : REFCOUNT_SUB_UAF,
			  1, &why),
		  "%s", why);
}

Test(kref, put_mutex_releases_with_lock_held, .init = setup)
{
	struct obj o = { .payload = 42 };

	kref_init(&o.ref);
	kref_get(&o.ref);
	kref_get(&o.ref);
	for (int i = 0; i < 2; i++) {
		cr_assert_eq(kref_put_mutex(&o.ref, release_mutex, &mutex), 0);
		cr_assert_eq(trylock_from_other_thread(&mutex), 0,
			     "a put that did not release left the mutex held");
	}
	cr_assert_eq(o.released, 0);
	cr_assert_eq(kref_put_mutex(&o.ref, release_mutex, &mutex), 1);
	cr_assert_eq(o.released, 1);
	cr_assert_eq(o.lock_busy_seen, EBUSY, "release ran without the mutex");
	cr_assert_eq(trylock_from_other_thread(&mutex), 0);
}

Test(kref, put_lock_releases_with_lock_held, .init = setup)
{
	struct obj o = { .payload = 42 };

	kref_init(&o.ref);
	kref_get(&o.ref);
	cr_assert_eq(kref_put_lock(&o.ref, release_spin, &spin), 0);
	cr_assert_eq(spin_trylock_from_other_thread(&spin), 0);
	cr_assert_eq(kref_put_lock(&o.ref, release_spin, &spin), 1);
	cr_assert_eq(o.released, 1);
	cr_assert_eq(o.lock_busy_seen, EBUSY, "release ran without the lock");
	cr_assert_eq(spin_trylock_from_other_thread(&spin), 0);
}

/*
 * Counts above 1 are dropped without the lock: with the mutex held by this
 * thread, another thread's refcount_dec_and_mutex_lock() from 2 returns
 * false without waiting for it (if it tried to take the mutex, the join
 * would never return and the test would time out).
 */
struct dec_arg {
	refcount_t *r;
	int ret;
};

static void *dec_mutex_thread(void *p)
{
	struct dec_arg *a = p;

	a->ret = refcount_dec_and_mutex_lock(a->r, &mutex);
	if (a->ret)
		pthread_mutex_unlock(&mutex);
	return NULL;
}

static void *dec_spin_thread(void *p)
{
	struct dec_arg *a = p;

	a->ret = refcount_dec_and_lock(a->r, &spin);
	if (a->ret)
		pthread_spin_unlock(&spin);
	return NULL;
}

Test(lock_helpers, no_lock_unless_last, .init = setup, .timeout = 20)
{
	refcount_t r = REFCOUNT_INIT(2);
	struct dec_arg a = { .r = &r, .ret = -1 };
	pthread_t t;

	pthread_mutex_lock(&mutex);
	pthread_create(&t, NULL, dec_mutex_thread, &a);
	pthread_join(t, NULL);
	pthread_mutex_unlock(&mutex);
	cr_assert_eq(a.ret, 0);
	cr_assert_eq(refcount_read(&r), 1);

	refcount_set(&r, 2);
	a.ret = -1;
	pthread_spin_lock(&spin);
	pthread_create(&t, NULL, dec_spin_thread, &a);
	pthread_join(t, NULL);
	pthread_spin_unlock(&spin);
	cr_assert_eq(a.ret, 0);
	cr_assert_eq(refcount_read(&r), 1);
}

Test(lock_helpers, true_with_lock_held_only_on_last, .init = setup)
{
	refcount_t r = REFCOUNT_INIT(3);

	cr_assert_not(refcount_dec_and_mutex_lock(&r, &mutex));
	cr_assert_eq(trylock_from_other_thread(&mutex), 0);
	cr_assert_not(refcount_dec_and_mutex_lock(&r, &mutex));
	cr_assert_eq(trylock_from_other_thread(&mutex), 0);
	cr_assert(refcount_dec_and_mutex_lock(&r, &mutex));
	cr_assert_eq(refcount_read(&r), 0);
	cr_assert_eq(trylock_from_other_thread(&mutex), EBUSY);
	cr_assert_eq(pthread_mutex_unlock(&mutex), 0, "not the owner");

	refcount_set(&r, 3);
	cr_assert_not(refcount_dec_and_lock(&r, &spin));
	cr_assert_eq(spin_trylock_from_other_thread(&spin), 0);
	cr_assert_not(refcount_dec_and_lock(&r, &spin));
	cr_assert(refcount_dec_and_lock(&r, &spin));
	cr_assert_eq(refcount_read(&r), 0);
	cr_assert_eq(spin_trylock_from_other_thread(&spin), EBUSY);
	pthread_spin_unlock(&spin);
}

/*
 * Many threads, one reference each, all dropping at once: exactly one of
 * them gets true, and it is the one holding the lock.
 */
#define RACERS 4
#define ROUNDS 2000

struct race {
	refcount_t r;
	pthread_barrier_t start, done;
	atomic_int winners;
	bool spin;
};

static void *racer(void *p)
{
	struct race *rc = p;

	for (int i = 0; i < ROUNDS; i++) {
		bool last;

		pthread_barrier_wait(&rc->start);
		last = rc->spin ? refcount_dec_and_lock(&rc->r, &spin) :
				  refcount_dec_and_mutex_lock(&rc->r, &mutex);
		if (last) {
			atomic_fetch_add(&rc->winners, 1);
			if (rc->spin)
				pthread_spin_unlock(&spin);
			else if (pthread_mutex_unlock(&mutex))
				atomic_fetch_add(&rc->winners, 1000);
		}
		pthread_barrier_wait(&rc->done);
	}
	return NULL;
}

static void race(bool use_spin)
{
	struct race rc = { .spin = use_spin };
	pthread_t t[RACERS];

	pthread_barrier_init(&rc.start, NULL, RACERS + 1);
	pthread_barrier_init(&rc.done, NULL, RACERS + 1);
	for (int i = 0; i < RACERS; i++)
		pthread_create(&t[i], NULL, racer, &rc);
	for (int i = 0; i < ROUNDS; i++) {
		refcount_set(&rc.r, RACERS);
		atomic_store(&rc.winners, 0);
		pthread_barrier_wait(&rc.start);
		pthread_barrier_wait(&rc.done);
		cr_assert_eq(atomic_load(&rc.winners), 1,
			     "round %d: %d winners (1000+: unlocked a mutex "
			     "it did not hold)",
			     i, atomic_load(&rc.winners));
		cr_assert_eq(refcount_read(&rc.r), 0);
	}
	for (int i = 0; i < RACERS; i++)
		pthread_join(t[i], NULL);
}

Test(lock_helpers, one_winner_mutex, .init = setup, .timeout = 60)
{
	race(false);
}

Test(lock_helpers, one_winner_spin, .init = setup, .timeout = 60)
{
	race(true);
}

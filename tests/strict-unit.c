/* SPDX-License-Identifier: MIT */
/*
 * tests/strict-unit.c - every public operation, for the strict-warning build
 *
 * Compiled (not run) by tests/strict.sh against the installed headers with
 * the warnings a strict user turns on, as C and as C++, in every breed.
 */
#include <refcount/kref.h>

struct obj {
	struct kref ref;
	int payload;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void release(struct kref *k)
{
	(void)k;
}

static void release_locked(struct kref *k)
{
	(void)k;
	pthread_mutex_unlock(&lock);
}

int strict_unit(refcount_t *r, refcount_long_t *l, struct obj *o,
		pthread_spinlock_t *spin);
int strict_unit(refcount_t *r, refcount_long_t *l, struct obj *o,
		pthread_spinlock_t *spin)
{
	int n = 0, old = 0;

	refcount_set(r, 1);
	refcount_set_release(r, 2);
	refcount_inc(r);
	refcount_add(2, r);
	refcount_dec(r);
	n += refcount_inc_not_zero(r);
	n += refcount_add_not_zero(2, r);
	n += refcount_inc_not_zero_acquire(r);
	n += refcount_add_not_zero_acquire(2, r);
	n += refcount_dec_and_test(r);
	n += refcount_sub_and_test(2, r);
	n += refcount_dec_if_one(r);
	n += refcount_dec_not_one(r);
	if (refcount_dec_and_mutex_lock(r, &lock))
		pthread_mutex_unlock(&lock);
	if (refcount_dec_and_lock(r, spin))
		pthread_spin_unlock(spin);
	__refcount_inc(r, &old);
	__refcount_add(1, r, &old);
	__refcount_dec(r, &old);
	n += __refcount_inc_not_zero(r, &old);
	n += __refcount_add_not_zero(1, r, &old);
	n += __refcount_dec_and_test(r, &old);
	n += __refcount_sub_and_test(1, r, &old);
	n += (int)refcount_read(r) == (int)REFCOUNT_SATURATED;
	n += (int)refcount_read(r) == (int)REFCOUNT_MAX;
	kref_init(&o->ref);
	kref_get(&o->ref);
	n += kref_get_unless_zero(&o->ref);
	n += (int)kref_read(&o->ref);
	n += kref_put(&o->ref, release);
	n += kref_put_mutex(&o->ref, release_locked, &lock);
	n += kref_put_lock(&o->ref, release, spin);
	refcount_set_immortal(r);
	n += refcount_is_immortal(r);
	refcount_long_set(l, 1);
	refcount_long_inc(l);
	refcount_long_add(2, l);
	refcount_long_dec(l);
	n += refcount_long_inc_not_zero(l);
	n += refcount_long_add_not_zero(2, l);
	n += refcount_long_dec_and_test(l);
	n += refcount_long_sub_and_test(2, l);
	n += refcount_long_dec_if_one(l);
	n += refcount_long_dec_not_one(l);
	n += refcount_long_read(l) == (unsigned long)REFCOUNT_LONG_SATURATED;
	refcount_long_set_immortal(l);
	n += refcount_long_is_immortal(l);
	n += (int)refcount_report_count(REFCOUNT_ADD_OVF);
	return n + old;
}

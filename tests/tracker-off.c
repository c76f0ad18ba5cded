// SPDX-License-Identifier: MIT
/*
 * tests/tracker-off.c - call sites for the compiled-out check
 *
 * tests/tracker-off.sh compiles this file three ways and compares the
 * object code:
 *   plain      the kref and refcount_t operations;
 *   wrapped    the tracked wrappers and ref_tracker_*() calls, without
 *              REFCOUNT_TRACKER: must be identical to plain, byte for byte
 *              (0 bytes and 0 instructions added at each call site);
 *   tracked    the same with REFCOUNT_TRACKER (the control): must differ,
 *              or the comparison proves nothing.
 */
#ifdef WRAPPED
#include <refcount/ref_tracker.h>
#else
#include <refcount/kref.h>
#endif

struct obj {
	struct kref ref;
	refcount_t count;
#ifdef WRAPPED
	struct ref_tracker_dir dir;
	struct ref_tracker *t;
#endif
};

#ifdef WRAPPED
#define W(plain, wrapped) wrapped
#else
#define W(plain, wrapped) plain
#endif

void site_release(struct kref *k);

void site_init(struct obj *o)
{
	kref_init(&o->ref);
	W((void)0, ref_tracker_dir_init(&o->dir, 16, "obj"));
}

void site_get(struct obj *o)
{
	W(kref_get(&o->ref), kref_get_tracked(&o->ref, &o->dir, &o->t));
}

int site_get_unless_zero(struct obj *o)
{
	return W(kref_get_unless_zero(&o->ref),
		 kref_get_unless_zero_tracked(&o->ref, &o->dir, &o->t));
}

int site_put(struct obj *o)
{
	return W(kref_put(&o->ref, site_release),
		 kref_put_tracked(&o->ref, site_release, &o->dir, &o->t));
}

int site_put_mutex(struct obj *o, pthread_mutex_t *m)
{
	return W(kref_put_mutex(&o->ref, site_release, m),
		 kref_put_mutex_tracked(&o->ref, site_release, m, &o->dir,
					&o->t));
}

void site_inc(struct obj *o)
{
	W(refcount_inc(&o->count),
	  refcount_inc_tracked(&o->count, &o->dir, &o->t));
}

bool site_inc_not_zero(struct obj *o)
{
	return W(refcount_inc_not_zero(&o->count),
		 refcount_inc_not_zero_tracked(&o->count, &o->dir, &o->t));
}

bool site_dec_and_test(struct obj *o)
{
	return W(refcount_dec_and_test(&o->count),
		 refcount_dec_and_test_tracked(&o->count, &o->dir, &o->t));
}

bool site_exit(struct obj *o)
{
	(void)o;
	W((void)0, (void)ref_tracker_alloc(&o->dir, &o->t));
	W((void)0, (void)ref_tracker_free(&o->dir, &o->t));
	W((void)0, ref_tracker_dir_print(&o->dir, 16));
	return W(false, ref_tracker_dir_exit(&o->dir));
}

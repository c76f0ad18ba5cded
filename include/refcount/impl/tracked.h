/* SPDX-License-Identifier: MIT */
/*
 * refcount/impl/tracked.h - the tracked wrappers of kref and refcount_t
 *
 * Included by <refcount/ref_tracker.h>; include that instead.  Each wrapper
 * is the kref or refcount_t operation of the unit's breed with two more
 * arguments, the dir and the tracker location, so a suspect call site
 * changes by one call, as the kernel's netdev_hold()/netdev_put() wrap
 * dev_hold()/dev_put() with a netdevice_tracker.  A get takes the reference,
 * then allocates the tracker; a put releases the tracker, then drops the
 * reference (after the put, the object and a dir inside it may be gone).
 * A put whose tracker was already released (a double put, caught while the
 * tracker is in the quarantine) is reported and not done: as saturation
 * does, it turns the bug into a leak instead of a premature free.  Without
 * REFCOUNT_TRACKER each is exactly the plain operation.
 *
 * Misuse of the counter is detected and reported as by the plain operation;
 * the default report handler then also prints @dir's live trackers.
 */
#ifndef REFCOUNT_IMPL_TRACKED_H
#define REFCOUNT_IMPL_TRACKED_H

/**
 * refcount_inc_tracked() - refcount_inc(), recording the get in @dir
 * @r: the counter
 * @dir: the tracker dir
 * @trackerp: where to store the new tracker (NULL: counted, not tracked)
 *
 * Memory ordering: as refcount_inc() (relaxed); the tracker as
 * ref_tracker_alloc().
 *
 * Context: any thread; as ref_tracker_alloc() when REFCOUNT_TRACKER is
 * defined.
 *
 * Misuse: as refcount_inc().
 *
 * Follows include/linux/netdevice.h netdev_hold().
 */
static __refcount_always_inline void
refcount_inc_tracked(refcount_t *r, struct ref_tracker_dir *dir,
		     struct ref_tracker **trackerp)
{
	refcount_inc(r);
	__REF_TRACKER_GET(dir, trackerp, r);
}

/**
 * refcount_inc_not_zero_tracked() - refcount_inc_not_zero(), recording the
 * get in @dir if there was one
 * @r: the counter
 * @dir: the tracker dir
 * @trackerp: where to store the new tracker; untouched if no reference was
 *	taken
 *
 * Memory ordering: as refcount_inc_not_zero().
 *
 * Context: any thread; as ref_tracker_alloc() on success, when tracking.
 *
 * Return: true if a reference (and a tracker) was taken, false if @r was 0.
 *
 * Misuse: as refcount_inc_not_zero().
 *
 * Follows include/linux/netdevice.h netdev_hold().
 */
static __refcount_always_inline __refcount_must_check bool
refcount_inc_not_zero_tracked(refcount_t *r, struct ref_tracker_dir *dir,
			      struct ref_tracker **trackerp)
{
	bool got = refcount_inc_not_zero(r);

	if (got)
		__REF_TRACKER_GET(dir, trackerp, r);
	return got;
}

/**
 * refcount_dec_and_test_tracked() - release the tracker, then
 * refcount_dec_and_test()
 * @r: the counter
 * @dir: the tracker dir
 * @trackerp: the tracker of the reference being dropped
 *
 * Memory ordering: as refcount_dec_and_test() (RELEASE, ACQUIRE on 0).
 *
 * Context: any thread; as ref_tracker_alloc() or ref_tracker_free() when
 * tracking.
 *
 * Return: true if this put dropped the last reference.
 *
 * Misuse: as refcount_dec_and_test(); a tracker released twice is reported
 * by ref_tracker_free(), and the reference is then not dropped.
 *
 * Follows include/linux/netdevice.h netdev_put().
 */
static __refcount_always_inline __refcount_must_check bool
refcount_dec_and_test_tracked(refcount_t *r, struct ref_tracker_dir *dir,
			      struct ref_tracker **trackerp)
{
	bool last;

	/* Shaped so that, compiled out, it is refcount_dec_and_test() itself. */
	if (!__REF_TRACKER_PUT(dir, trackerp, r))
		return false;
	last = refcount_dec_and_test(r);
	if (last)
		__REF_TRACKER_GONE(r);
	return last;
}

/**
 * kref_get_tracked() - kref_get(), recording the get in @dir
 * @kref: the kref; the caller already holds a reference
 * @dir: the tracker dir
 * @trackerp: where to store the new tracker
 *
 * Memory ordering: as kref_get() (relaxed).
 *
 * Context: any thread; as ref_tracker_alloc() or ref_tracker_free() when
 * tracking.
 *
 * Misuse: as kref_get().
 *
 * Follows include/linux/netdevice.h netdev_hold().
 */
static __refcount_always_inline void
kref_get_tracked(struct kref *kref, struct ref_tracker_dir *dir,
		 struct ref_tracker **trackerp)
{
	kref_get(kref);
	__REF_TRACKER_GET(dir, trackerp, &kref->refcount);
}

/**
 * kref_get_unless_zero_tracked() - kref_get_unless_zero(), recording the
 * get in @dir if there was one
 * @kref: the kref
 * @dir: the tracker dir
 * @trackerp: where to store the new tracker; untouched on failure
 *
 * Memory ordering: as kref_get_unless_zero().
 *
 * Context: any thread, typically under the lookup's lock; as
 * ref_tracker_alloc() on success when tracking (@dir->lock, when taken,
 * nests inside the lookup's lock).
 *
 * Return: non-zero if a reference was taken, 0 if the count was 0.
 *
 * Misuse: as kref_get_unless_zero().
 *
 * Follows include/linux/netdevice.h netdev_hold().
 */
static __refcount_always_inline __refcount_must_check int
kref_get_unless_zero_tracked(struct kref *kref, struct ref_tracker_dir *dir,
			     struct ref_tracker **trackerp)
{
	int got = kref_get_unless_zero(kref);

	if (got)
		__REF_TRACKER_GET(dir, trackerp, &kref->refcount);
	return got;
}

/**
 * kref_put_tracked() - release the tracker, then kref_put()
 * @kref: the kref
 * @release: as kref_put()'s
 * @dir: the tracker dir; must outlive this call even if @release frees
 *	the object it is in (the tracker is released before the put)
 * @trackerp: the tracker of the reference being dropped
 *
 * Memory ordering: as kref_put().
 *
 * Context: any thread; as ref_tracker_alloc() or ref_tracker_free() when
 * tracking.
 *
 * Return: 1 if this call released the object, 0 otherwise.
 *
 * Misuse: as kref_put(); a tracker released twice is reported, and the
 * reference is then not dropped (returns 0).
 *
 * Follows include/linux/netdevice.h netdev_put().
 */
static __refcount_always_inline int
kref_put_tracked(struct kref *kref, void (*release)(struct kref *),
		 struct ref_tracker_dir *dir, struct ref_tracker **trackerp)
{
	if (__REF_TRACKER_PUT(dir, trackerp, &kref->refcount) &&
	    refcount_dec_and_test(&kref->refcount)) {
		__REF_TRACKER_GONE(&kref->refcount);
		release(kref);
		return 1;
	}
	return 0;
}

/**
 * kref_put_mutex_tracked() - release the tracker, then kref_put_mutex()
 * @kref: the kref
 * @release: as kref_put_mutex()'s: called with @lock held
 * @lock: the mutex guarding lookups
 * @dir: the tracker dir
 * @trackerp: the tracker of the reference being dropped
 *
 * Memory ordering: as kref_put_mutex().
 *
 * Context: may sleep on @lock; as ref_tracker_free() (not under @lock) when
 * tracking.
 *
 * Return: 1 if this call released the object, 0 otherwise.
 *
 * Misuse: as kref_put_mutex(); a tracker released twice is reported, and
 * the reference is then not dropped (returns 0).
 *
 * Follows include/linux/netdevice.h netdev_put().
 */
static __refcount_always_inline int
kref_put_mutex_tracked(struct kref *kref, void (*release)(struct kref *),
		       pthread_mutex_t *lock, struct ref_tracker_dir *dir,
		       struct ref_tracker **trackerp)
{
	if (__REF_TRACKER_PUT(dir, trackerp, &kref->refcount) &&
	    refcount_dec_and_mutex_lock(&kref->refcount, lock)) {
		__REF_TRACKER_GONE(&kref->refcount);
		release(kref);
		return 1;
	}
	return 0;
}

#endif /* REFCOUNT_IMPL_TRACKED_H */

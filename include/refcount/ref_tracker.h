/* SPDX-License-Identifier: MIT */
/*
 * refcount/ref_tracker.h - which get leaked, and where it was taken
 *
 * DOC: what ref_tracker is for
 *
 * A saturated or leaked counter says that something went wrong, not who
 * took the reference that was never dropped, or who dropped one twice.  As
 * the kernel's include/linux/ref_tracker.h (Eric Dumazet, v5.17), every
 * tracked get allocates a small struct ref_tracker that records the stack
 * it was taken from; the matching put hands the tracker back, with its own
 * stack.  A struct ref_tracker_dir holds the live trackers of one object
 * (or of a class of objects).  Its report lists the live ones grouped by
 * the stack that took them:
 *
 *	session@0x56276a5f9420 has 1/1 users at
 *	     session_lookup+0x1cd/0x204 (example-tracker+0x29b3) example-tracker.c:79
 *	     handle_request_leaky+0x1c/0x7e (example-tracker+0x2b3c) example-tracker.c:107
 *	     main+0x9d/0xe8 (example-tracker+0x2cd2) example-tracker.c:147
 *
 * and a put of a tracker that was already put prints "reference already
 * released." with the stacks of its get and of its first put, as long as
 * the tracker is still in the dir's quarantine of recently released ones.
 *
 * DOC: switching it on
 *
 * Everything is compiled only when the including unit defines
 * REFCOUNT_TRACKER (the kernel's CONFIG_REF_TRACKER) before the include.
 * Without it, struct ref_tracker_dir is empty, every function here is an
 * empty static inline, and the tracked wrappers are the plain kref and
 * refcount_t operations: 0 bytes and 0 instructions at every call site
 * (tests/tracker-off.sh checks it in the object code).  The library
 * always contains the implementation (src/ref_tracker.c), so units built
 * with and without REFCOUNT_TRACKER link into one program.
 *
 * The tracked wrappers (<refcount/impl/tracked.h>, included below) keep a
 * counter and its trackers together, on the model of netdev_hold() and
 * netdev_put(): kref_get_tracked(), kref_get_unless_zero_tracked(),
 * kref_put_tracked(), kref_put_mutex_tracked(), refcount_inc_tracked(),
 * refcount_inc_not_zero_tracked(), refcount_dec_and_test_tracked().
 * Each takes the dir and a struct ref_tracker ** beside the usual
 * arguments.  A tracked counter is also remembered by address, so that a
 * misuse report on it (the default report handler, <refcount/report.h>)
 * also prints the dir's live trackers: who holds the references.
 *
 * Capture, the stack depot, symbolisation and their costs: docs/ref_tracker.md.
 */
#ifndef REFCOUNT_REF_TRACKER_H
#define REFCOUNT_REF_TRACKER_H

#include <stdbool.h>
#include <stddef.h>

#include <refcount/kref.h>

/*
 * struct ref_tracker - one tracked reference (opaque)
 *
 * Allocated by ref_tracker_alloc() from its dir, released to the dir's
 * quarantine by ref_tracker_free().  16 bytes on 64-bit machines, 8 on
 * 32-bit ones: a state word (live or released, and the 15-bit depot
 * handles of its get and put) and a list link.
 */
struct ref_tracker;

#ifdef REFCOUNT_TRACKER
#include <pthread.h>
#include <stdatomic.h>

/**
 * struct ref_tracker_dir - the trackers of one object, or of a class of them
 * @lock: guards the chunks and the dir's free list and quarantine (the
 *	per-thread caches refill from them, and give back to them, in batches)
 * @id: the dir's number, unique in the process, to find a thread's cache
 * @free_trackers: released trackers ready for reuse
 * @quarantine: released trackers handed back by exited threads, oldest first
 * @quarantine_tail: its last one
 * @nr_free: trackers on @free_trackers
 * @nr_quarantined: trackers on @quarantine
 * @quarantine_count: the quarantine's bound, per thread
 * @chunks: the memory the trackers are carved from, oldest first (freed at
 *	exit); the reports scan it for live trackers
 * @chunks_tail: its last one
 * @untracked: gets whose tracker could not be allocated, minus their puts
 * @no_tracker: gets with a NULL @trackerp, minus puts with one
 * @counter: the last counter a tracked wrapper registered for this dir
 * @registry_next: the next dir in the registry of live dirs
 * @dead: set by ref_tracker_dir_exit()
 * @name: the name printed in reports
 *
 * Follows include/linux/ref_tracker.h.  Initialise it with
 * ref_tracker_dir_init(); touch the fields only through the functions.
 */
struct ref_tracker_dir {
	pthread_mutex_t lock;
	unsigned long long id;
	struct ref_tracker *free_trackers;
	struct ref_tracker *quarantine, *quarantine_tail;
	unsigned int nr_free, nr_quarantined;
	unsigned int quarantine_count;
	struct __ref_tracker_chunk *chunks, *chunks_tail;
	atomic_int untracked;
	atomic_int no_tracker;
	_Atomic(const void *) counter;
	struct ref_tracker_dir *registry_next;
	bool dead;
	char name[32];
};

/**
 * ref_tracker_dir_init() - initialise a tracker dir
 * @dir: the dir
 * @quarantine_count: how many released trackers each thread keeps, >= 0,
 *	to detect a put of an already released one; the oldest is recycled
 *	past that
 * @name: its name in reports (copied, at most 31 characters)
 *
 * The first call in the process also chooses the stack capture backend
 * (docs/ref_tracker.md, 'Capture').
 *
 * Memory ordering: none; initialise @dir before other threads can see it.
 *
 * Context: any thread; allocates nothing.
 *
 * Follows include/linux/ref_tracker.h ref_tracker_dir_init() (the version
 * with a name; gfp_t is gone: userspace allocation does not sleep on it).
 */
void ref_tracker_dir_init(struct ref_tracker_dir *dir,
			  unsigned int quarantine_count, const char *name);

/**
 * ref_tracker_dir_exit() - report the leaks of a dir and free it
 * @dir: the dir
 *
 * Prints the report of ref_tracker_dir_print(@dir, 16) to stderr if any
 * tracker is still live, and the unbalanced NULL-tracker and
 * failed-allocation counts, then frees every tracker.  With REFCOUNT_ABORT=1
 * in the environment, aborts after printing a leak (the kernel's WARN_ON
 * under panic_on_warn).
 *
 * Memory ordering: takes and releases @dir->lock.
 *
 * Context: once, when no other thread uses @dir any more.
 *
 * Return: true if something leaked (a live tracker or an unbalanced count),
 * false if everything was put.  The kernel's returns nothing and WARNs.
 *
 * Follows lib/ref_tracker.c ref_tracker_dir_exit().
 */
bool ref_tracker_dir_exit(struct ref_tracker_dir *dir);

/**
 * ref_tracker_dir_print() - print a dir's live trackers to stderr
 * @dir: the dir
 * @display_limit: how many distinct allocation stacks to print, > 0; the
 *	trackers of the others are summed up in a "skipped reports" line
 *
 * The kernel's format: per allocation stack, "%s@%p has %d/%d users at"
 * (name, dir, trackers with that stack, all live trackers), the stack one
 * frame per line, and an empty line; then "%s@%p skipped reports about
 * %d/%d users." if stacks were left out, and one line per non-zero
 * NULL-tracker or failed-allocation count.  Symbolises as it prints
 * (microseconds to milliseconds per frame).
 *
 * Memory ordering: a snapshot taken under @dir->lock.
 *
 * Context: any thread; takes @dir->lock briefly, and a process-wide
 * symbolisation lock while printing.
 *
 * Follows lib/ref_tracker.c ref_tracker_dir_print().
 */
void ref_tracker_dir_print(struct ref_tracker_dir *dir,
			   unsigned int display_limit);

/**
 * ref_tracker_dir_snprint() - a dir's report into a buffer
 * @dir: the dir
 * @buf: where to write it, always terminated if @size > 0
 * @size: the size of @buf in bytes
 *
 * The report of ref_tracker_dir_print(@dir, 16), truncated to @size.
 *
 * Context: as ref_tracker_dir_print().
 *
 * Return: the bytes written, without the terminating NUL (as the kernel's
 * scnprintf-based one): at most @size - 1.
 *
 * Follows lib/ref_tracker.c ref_tracker_dir_snprint().
 */
int ref_tracker_dir_snprint(struct ref_tracker_dir *dir, char *buf,
			    size_t size);

/**
 * ref_tracker_alloc() - record a get: a new tracker with the caller's stack
 * @dir: the dir
 * @trackerp: where to store the tracker, or NULL for a get without one
 *	(counted in @dir->no_tracker, and balanced by ref_tracker_free(@dir,
 *	NULL))
 *
 * Captures up to 16 return addresses from the caller up, saves them in the
 * stack depot, and marks a tracker live with the 32-bit handle.
 *
 * Memory ordering: the tracker is published with a release store, so that
 * a put or a report on another thread (acquire) sees its stack saved.
 *
 * Context: any thread.  Takes no lock and does no atomic read-modify-write
 * but every 32nd get of a thread in a dir, which refills the thread's cache
 * under @dir->lock (and calls malloc() once every 255 trackers).
 *
 * Return: 0 on success (also with a NULL @trackerp); -ENOMEM if no tracker
 * could be allocated: *@trackerp is then NULL and the get is counted in
 * @dir->untracked, so its put (ref_tracker_free() with *@trackerp NULL) is
 * still balanced.
 *
 * Follows lib/ref_tracker.c ref_tracker_alloc().
 */
int ref_tracker_alloc(struct ref_tracker_dir *dir,
		      struct ref_tracker **trackerp);

/**
 * ref_tracker_free() - record a put: release the tracker of a get
 * @dir: the dir the tracker was allocated from
 * @trackerp: the tracker's location, or NULL for a put of a get without one
 *
 * Captures the caller's stack, marks the tracker released and moves it to
 * the calling thread's quarantine for @dir.  A tracker that is already
 * released is reported ("reference already released.", with its
 * allocation and free stacks and the stack of this second put) and left
 * alone.  *@trackerp is not cleared, so that a second put through it is
 * caught.
 *
 * Memory ordering: one compare-and-swap on the tracker (acquire and
 * release), so that of two racing puts of one tracker exactly one wins.
 *
 * Context: any thread; takes @dir->lock only when the thread's cache
 * gives trackers back (one put in 32, at most).
 *
 * Return: 0 on success; -EEXIST if *@trackerp is NULL (a get whose tracker
 * allocation failed, counted off @dir->untracked); -EINVAL for a tracker
 * already released.
 *
 * Misuse: the quarantine holds the last @quarantine_count trackers each
 * thread released in @dir; one that left it stays marked released until
 * it is reused, and a second put of a reused one is not caught: it
 * releases the other reference's tracker instead.
 *
 * Follows lib/ref_tracker.c ref_tracker_free().
 */
int ref_tracker_free(struct ref_tracker_dir *dir,
		     struct ref_tracker **trackerp);

/* Internal: ref_tracker_alloc() and _free() that also register @counter. */
int __ref_tracker_alloc_counter(struct ref_tracker_dir *dir,
				struct ref_tracker **trackerp,
				const void *counter);
/* Return: false for a tracker already released (-EINVAL), else true. */
bool __ref_tracker_free_counter(struct ref_tracker_dir *dir,
				struct ref_tracker **trackerp,
				const void *counter);
/* Internal: forget @counter (its last reference is gone). */
void __ref_tracker_forget_counter(const void *counter);

/*
 * What the tracked wrappers call.  The empty asm after the call keeps it
 * from becoming a tail call, which would drop the caller's frame from the
 * captured stack.
 */
static __refcount_always_inline void
__REF_TRACKER_GET(struct ref_tracker_dir *dir, struct ref_tracker **trackerp,
		  const void *counter)
{
	(void)__ref_tracker_alloc_counter(dir, trackerp, counter);
	__asm__ volatile("" ::: "memory");
}

/* Return: false for a tracker already released (the put is not done). */
static __refcount_always_inline bool
__REF_TRACKER_PUT(struct ref_tracker_dir *dir, struct ref_tracker **trackerp,
		  const void *counter)
{
	/*
	 * A bool from the call, not a comparison of its int here: clang 14
	 * hangs (-O2) on a comparison with a constant before the fast
	 * breed's asm goto.
	 */
	bool ok = __ref_tracker_free_counter(dir, trackerp, counter);

	__asm__ volatile("" ::: "memory");
	return ok;
}
#define __REF_TRACKER_GONE(counter) __ref_tracker_forget_counter(counter)

#else /* !REFCOUNT_TRACKER */

/* Compiled out: an empty dir (0 bytes in GNU C) and empty functions. */
struct ref_tracker_dir {};

static inline void ref_tracker_dir_init(struct ref_tracker_dir *dir,
					unsigned int quarantine_count,
					const char *name)
{
	(void)dir;
	(void)quarantine_count;
	(void)name;
}

static inline bool ref_tracker_dir_exit(struct ref_tracker_dir *dir)
{
	(void)dir;
	return false;
}

static inline void ref_tracker_dir_print(struct ref_tracker_dir *dir,
					 unsigned int display_limit)
{
	(void)dir;
	(void)display_limit;
}

static inline int ref_tracker_dir_snprint(struct ref_tracker_dir *dir,
					  char *buf, size_t size)
{
	(void)dir;
	if (size)
		buf[0] = '\0';
	return 0;
}

static inline int ref_tracker_alloc(struct ref_tracker_dir *dir,
				    struct ref_tracker **trackerp)
{
	(void)dir;
	(void)trackerp;
	return 0;
}

static inline int ref_tracker_free(struct ref_tracker_dir *dir,
				   struct ref_tracker **trackerp)
{
	(void)dir;
	(void)trackerp;
	return 0;
}

#define __REF_TRACKER_GET(dir, trackerp, counter)                              \
	((void)(dir), (void)(trackerp), (void)(counter))
#define __REF_TRACKER_PUT(dir, trackerp, counter)                              \
	((void)(dir), (void)(trackerp), (void)(counter), true)
#define __REF_TRACKER_GONE(counter) ((void)(counter))

#endif /* REFCOUNT_TRACKER */

#include <refcount/impl/tracked.h>

#endif /* REFCOUNT_REF_TRACKER_H */

/* SPDX-License-Identifier: MIT */
/*
 * refcount/ref_group.h - XNU-style reference groups: totals per class of
 * object, and a log of the operations that are not balanced yet
 *
 * DOC: what groups are for
 *
 * A ref_tracker (<refcount/ref_tracker.h>) records every reference of
 * one dir with its stack.  A group is the cheaper, coarser layer that XNU
 * puts under every os_refcnt (libkern/os/refcnt.c, os_refgrp): a named
 * node in a tree rooted at ref_group_all ("all"), holding how many
 * objects and live references its members have, and how many retains
 * and releases they did, each total summed up the chain of parents with
 * relaxed atomics.  Printed, the tree says which class of object holds
 * the references that do not go away:
 *
 *	ref_group              objects    count   retain  release  log
 *	all                          2        3        5        2
 *	  sessions                   2        3        5        2  yes
 *
 * DOC: the log of unbalanced operations
 *
 * As XNU's rlog boot argument, the environment variable REFCOUNT_RLOG
 * names groups (comma-separated, read by ref_group_init()).  A named group
 * gets a bounded log (REF_GROUP_LOG_RECORDS records): each retain and
 * release of its members, and of the members of its child groups that
 * have no log of their own, records the object, the operation and its
 * stack (in the ref_tracker's stack depot).  When an object's count drops
 * to 0, its records are erased, so the log holds exactly the operations
 * of the objects still alive: those of a leak.  When the log is full, new
 * records are dropped and counted.
 *
 * DOC: switching it on
 *
 * Compiled only when the including unit defines REFCOUNT_GROUPS (XNU's
 * OS_REFCNT_DEBUG: "for RELEASE builds, reference groups are not
 * available at all").  Without it, struct ref_group is empty, the
 * functions here are empty, and the _grp wrappers are the plain kref and
 * refcount_t operations.
 */
#ifndef REFCOUNT_REF_GROUP_H
#define REFCOUNT_REF_GROUP_H

#include <stdbool.h>
#include <stddef.h>

#include <refcount/kref.h>

/* Records a group's log holds at most; more are dropped and counted. */
#define REF_GROUP_LOG_RECORDS 4096

#ifdef REFCOUNT_GROUPS
#include <stdatomic.h>

struct __ref_group_log;

/**
 * struct ref_group - a named, nestable group of reference counts
 * @name: its name (copied, at most 31 characters)
 * @parent: the enclosing group; ref_group_all for a top-level one
 * @children: its first child group
 * @sibling: the next child of @parent
 * @objects: objects initialised into this group or below, minus those
 *	whose count dropped to 0
 * @count: live references of those objects
 * @retains: retains (gets) ever done on them
 * @releases: releases (puts) ever done on them
 * @log: the log of unbalanced operations, if REFCOUNT_RLOG names the group
 *
 * Follows XNU's struct os_refgrp (grp_children, grp_count,
 * grp_retain_total, grp_release_total, grp_log).  Initialise it with
 * ref_group_init(); read it with ref_group_print().
 */
struct ref_group {
	char name[32];
	struct ref_group *parent, *children, *sibling;
	atomic_long objects;
	atomic_long count;
	atomic_ulong retains;
	atomic_ulong releases;
	struct __ref_group_log *log;
};

/* The root group, "all": the parent of every top-level group. */
extern struct ref_group ref_group_all;

/**
 * ref_group_init() - initialise a group and link it under its parent
 * @grp: the group
 * @name: its name in reports, and for REFCOUNT_RLOG
 * @parent: the enclosing group, or NULL for ref_group_all
 *
 * Similar to XNU's os_refgrp_decl(), at run time.  If the environment
 * variable REFCOUNT_RLOG names @name (a comma-separated list), @grp gets a
 * log of REF_GROUP_LOG_RECORDS records.
 *
 * Memory ordering: the group is published under a process-wide mutex;
 * initialise it before any other thread uses it.
 *
 * Context: any thread; allocates the log (once) if the group is named.
 *
 * Misuse: initialising a group twice links it twice; groups are never
 * unlinked, so @grp must live as long as the process (a static object).
 *
 * Follows libkern/os/refcnt.c (os_refgrp_decl, ref_attach_to_group).
 */
void ref_group_init(struct ref_group *grp, const char *name,
		    struct ref_group *parent);

/**
 * ref_group_print() - print a group's tree with its totals to stderr
 * @grp: the top of the tree to print, or NULL for ref_group_all
 *
 * One line per group, children indented by two spaces under their parent
 * in the order they were initialised: name, objects, count, retains,
 * releases, and "yes" when the group has a log.
 *
 * Memory ordering: the totals are read with relaxed loads, one by one (a
 * snapshot of a moving tree, not an atomic one).
 *
 * Follows XNU's lldb macro showglobaltaskrefgrps (tools/lldbmacros).
 */
void ref_group_print(struct ref_group *grp);

/**
 * ref_group_snprint() - ref_group_print() into a buffer
 * @grp: the top of the tree, or NULL for ref_group_all
 * @buf: where to write, always terminated if @size > 0
 * @size: the size of @buf in bytes
 *
 * Return: the bytes written, without the terminating NUL: at most @size - 1.
 *
 * Follows XNU's showglobaltaskrefgrps.
 */
int ref_group_snprint(struct ref_group *grp, char *buf, size_t size);

/**
 * ref_group_log_snprint() - a group's log of unbalanced operations
 * @grp: the group (one that REFCOUNT_RLOG named)
 * @buf: where to write, always terminated if @size > 0
 * @size: the size of @buf in bytes
 *
 * A header line "%s rlog: %d records, %lu dropped", then per record, in
 * the order they were taken, "object %p retain at:" (or release) and the
 * stack, one frame per line as the ref_tracker's reports.  Symbolises as
 * it prints.  A group without a log writes "%s rlog: off".
 *
 * Memory ordering: a snapshot taken under the log's mutex.
 *
 * Return: the bytes written, without the terminating NUL.
 *
 * Follows XNU's showbtlogrecords.
 */
int ref_group_log_snprint(struct ref_group *grp, char *buf, size_t size);

/* Internal: what the _grp wrappers call. */
void __ref_group_init_object(struct ref_group *grp);
void __ref_group_retain(struct ref_group *grp, const void *obj);
void __ref_group_release(struct ref_group *grp, const void *obj, bool last);

#define __REF_GROUP_INIT_OBJECT(grp) __ref_group_init_object(grp)
#define __REF_GROUP_RETAIN(grp, obj) __ref_group_retain(grp, obj)
#define __REF_GROUP_RELEASE(grp, obj, last) __ref_group_release(grp, obj, last)

#else /* !REFCOUNT_GROUPS */

/* Compiled out: an empty group (0 bytes in GNU C) and empty functions. */
struct ref_group {};

static inline void ref_group_init(struct ref_group *grp, const char *name,
				  struct ref_group *parent)
{
	(void)grp;
	(void)name;
	(void)parent;
}

static inline void ref_group_print(struct ref_group *grp)
{
	(void)grp;
}

static inline int ref_group_snprint(struct ref_group *grp, char *buf,
				    size_t size)
{
	(void)grp;
	if (size)
		buf[0] = '\0';
	return 0;
}

static inline int ref_group_log_snprint(struct ref_group *grp, char *buf,
					size_t size)
{
	return ref_group_snprint(grp, buf, size);
}

#define __REF_GROUP_INIT_OBJECT(grp) ((void)(grp))
#define __REF_GROUP_RETAIN(grp, obj) ((void)(grp), (void)(obj))
#define __REF_GROUP_RELEASE(grp, obj, last)                                    \
	((void)(grp), (void)(obj), (void)(last))

#endif /* REFCOUNT_GROUPS */

/**
 * kref_init_grp() - kref_init(), counting the object in @grp
 * @kref: the kref
 * @grp: its group
 *
 * Similar to kref_init(), and XNU's os_ref_init() with a group: the count
 * starts at 1, one object and one reference more in @grp and its parents.
 *
 * Memory ordering: as kref_init() (none); the totals are relaxed.
 *
 * Misuse: as kref_init().
 *
 * Follows libkern/os/refcnt.c os_ref_init_count_internal().
 */
static __refcount_always_inline void kref_init_grp(struct kref *kref,
						   struct ref_group *grp)
{
	kref_init(kref);
	__REF_GROUP_INIT_OBJECT(grp);
	__REF_GROUP_RETAIN(grp, kref);
}

/**
 * kref_get_grp() - kref_get(), counted in @grp
 * @kref: the kref; the caller already holds a reference
 * @grp: the group it was initialised in
 *
 * Similar to kref_get(), and XNU's os_ref_retain() with a group.
 *
 * Memory ordering: as kref_get() (relaxed); the totals are relaxed.
 *
 * Context: any thread; takes the log's mutex if the group has a log.
 *
 * Misuse: as kref_get().
 *
 * Follows libkern/os/refcnt.c os_ref_retain_internal().
 */
static __refcount_always_inline void kref_get_grp(struct kref *kref,
						  struct ref_group *grp)
{
	kref_get(kref);
	__REF_GROUP_RETAIN(grp, kref);
}

/**
 * kref_put_grp() - kref_put(), counted in @grp
 * @kref: the kref
 * @release: as kref_put()'s
 * @grp: the group it was initialised in
 *
 * Similar to kref_put(), and XNU's os_ref_release() with a group.  The
 * release is counted before the put (after it, the object may be gone);
 * if it was the last, the object leaves @grp and its log records are
 * erased.
 *
 * Memory ordering: as kref_put(); the totals are relaxed.
 *
 * Context: any thread; takes the log's mutex if the group has a log.
 *
 * Return: 1 if this call released the object, 0 otherwise.
 *
 * Misuse: as kref_put().
 *
 * Follows libkern/os/refcnt.c os_ref_release_internal().
 */
static __refcount_always_inline int kref_put_grp(struct kref *kref,
						 void (*release)(struct kref *),
						 struct ref_group *grp)
{
	if (refcount_dec_and_test(&kref->refcount)) {
		__REF_GROUP_RELEASE(grp, kref, true);
		release(kref);
		return 1;
	}
	__REF_GROUP_RELEASE(grp, kref, false);
	return 0;
}

/**
 * refcount_init_grp() - refcount_set() at 1, counting the counter in @grp
 * @r: the counter
 * @grp: its group
 *
 * Similar to refcount_set(@r, 1), and XNU's os_ref_init() with a group:
 * one object and one reference more in @grp and its parents.
 *
 * Memory ordering: none, as refcount_set(); the totals are relaxed.
 *
 * Misuse: as refcount_set().
 *
 * Follows libkern/os/refcnt.c os_ref_init_count_internal().
 */
static __refcount_always_inline void refcount_init_grp(refcount_t *r,
						       struct ref_group *grp)
{
	refcount_set(r, 1);
	__REF_GROUP_INIT_OBJECT(grp);
	__REF_GROUP_RETAIN(grp, r);
}

/**
 * refcount_inc_grp() - refcount_inc(), counted in @grp
 * @r: the counter
 * @grp: its group
 *
 * Similar to refcount_inc(), and XNU's os_ref_retain() with a group.
 *
 * Memory ordering: as refcount_inc() (relaxed); the totals are relaxed.
 *
 * Context: any thread; takes the log's mutex if the group has a log.
 *
 * Misuse: as refcount_inc().
 *
 * Follows libkern/os/refcnt.c os_ref_retain_internal().
 */
static __refcount_always_inline void refcount_inc_grp(refcount_t *r,
						      struct ref_group *grp)
{
	refcount_inc(r);
	__REF_GROUP_RETAIN(grp, r);
}

/**
 * refcount_dec_and_test_grp() - refcount_dec_and_test(), counted in @grp
 * @r: the counter
 * @grp: its group
 *
 * Similar to refcount_dec_and_test(), and XNU's os_ref_release() with a
 * group.  The last release takes the counter out of @grp (initialise
 * it with refcount_init_grp()).
 *
 * Memory ordering: as refcount_dec_and_test(); the totals are relaxed.
 *
 * Context: any thread; takes the log's mutex if the group has a log.
 *
 * Return: true if this put dropped the last reference.
 *
 * Misuse: as refcount_dec_and_test().
 *
 * Follows libkern/os/refcnt.c os_ref_release_internal().
 */
static __refcount_always_inline __refcount_must_check bool
refcount_dec_and_test_grp(refcount_t *r, struct ref_group *grp)
{
	bool last = refcount_dec_and_test(r);

	__REF_GROUP_RELEASE(grp, r, last);
	return last;
}

#endif /* REFCOUNT_REF_GROUP_H */

// SPDX-License-Identifier: MIT
/*
 * ref_group.c - XNU-style reference groups and their logs
 *
 * As libkern/os/refcnt.c: every operation adds to the totals of its group
 * and of each parent up to "all", with relaxed atomics; a group named in
 * REFCOUNT_RLOG also records each operation of its members (and of child
 * groups without a log of their own) with its stack, and erases an
 * object's records when its count drops to 0.  XNU's btlog is a hash of
 * a million records; this log is a plain array of REF_GROUP_LOG_RECORDS
 * under a mutex, kept in the order taken, and an erase is a scan: groups
 * are a debugging aid for the classes named, not for every object.
 *
 * Built with -fno-omit-frame-pointer (mk/lib.mk), as the stack capture
 * walks through this file's frames.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REFCOUNT_GROUPS 1
#include <refcount/impl/stackdepot.h>
#include <refcount/impl/tracker-internal.h>
#include <refcount/ref_group.h>

struct record {
	const void *obj;
	depot_stack_handle_t stack;
	bool release;
};

struct __ref_group_log {
	pthread_mutex_t lock;
	unsigned int nr;
	unsigned long dropped;
	struct record records[REF_GROUP_LOG_RECORDS];
};

struct ref_group ref_group_all = { .name = "all" };
static pthread_mutex_t tree_lock = PTHREAD_MUTEX_INITIALIZER;

/* Is @name in the comma-separated @list? */
static bool named(const char *list, const char *name)
{
	size_t n = strlen(name);

	while (list && *list) {
		const char *end = strchr(list, ',');
		size_t len = end ? (size_t)(end - list) : strlen(list);

		if (len == n && !strncmp(list, name, n))
			return true;
		list = end ? end + 1 : NULL;
	}
	return false;
}

void ref_group_init(struct ref_group *grp, const char *name,
		    struct ref_group *parent)
{
	struct ref_group **pp;

	memset(grp, 0, sizeof(*grp));
	snprintf(grp->name, sizeof(grp->name), "%s", name ? name : "");
	grp->parent = parent ? parent : &ref_group_all;
	if (named(getenv("REFCOUNT_RLOG"), grp->name)) {
		grp->log = calloc(1, sizeof(*grp->log));
		if (grp->log)
			pthread_mutex_init(&grp->log->lock, NULL);
	}
	__refcount_stack_select(); /* the capture backend, once */
	pthread_mutex_lock(&tree_lock);
	for (pp = &grp->parent->children; *pp; pp = &(*pp)->sibling)
		;
	*pp = grp;
	pthread_mutex_unlock(&tree_lock);
}

void __ref_group_init_object(struct ref_group *grp)
{
	for (struct ref_group *g = grp; g; g = g->parent)
		atomic_fetch_add_explicit(&g->objects, 1, memory_order_relaxed);
}

/* The log of @grp or of its nearest ancestor that has one. */
static struct __ref_group_log *log_of(struct ref_group *grp)
{
	for (struct ref_group *g = grp; g; g = g->parent)
		if (g->log)
			return g->log;
	return NULL;
}

static void log_op(struct __ref_group_log *log, const void *obj, bool release,
		   bool last, depot_stack_handle_t stack)
{
	pthread_mutex_lock(&log->lock);
	if (last) {
		/* Balanced at last: the object's records go. */
		unsigned int i, j;

		for (i = j = 0; i < log->nr; i++)
			if (log->records[i].obj != obj)
				log->records[j++] = log->records[i];
		log->nr = j;
	} else if (log->nr == REF_GROUP_LOG_RECORDS) {
		log->dropped++;
	} else {
		log->records[log->nr++] =
			(struct record){ obj, stack, release };
	}
	pthread_mutex_unlock(&log->lock);
}

void __ref_group_retain(struct ref_group *grp, const void *obj)
{
	struct __ref_group_log *log = log_of(grp);

	for (struct ref_group *g = grp; g; g = g->parent) {
		atomic_fetch_add_explicit(&g->count, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&g->retains, 1, memory_order_relaxed);
	}
	if (log)
		log_op(log, obj, false, false, __refcount_stack_save(0));
	__asm__ volatile("" ::: "memory"); /* no tail call: keep our frame */
}

void __ref_group_release(struct ref_group *grp, const void *obj, bool last)
{
	struct __ref_group_log *log = log_of(grp);

	for (struct ref_group *g = grp; g; g = g->parent) {
		atomic_fetch_sub_explicit(&g->count, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&g->releases, 1,
					  memory_order_relaxed);
		if (last)
			atomic_fetch_sub_explicit(&g->objects, 1,
						  memory_order_relaxed);
	}
	if (log)
		log_op(log, obj, true, last,
		       last ? 0 : __refcount_stack_save(0));
	__asm__ volatile("" ::: "memory");
}

/* --- reports ------------------------------------------------------------ */

#define emit __ref_tracker_emit
#define sink __ref_tracker_sink

static void tree(struct sink *s, struct ref_group *g, int depth)
{
	emit(s, "%*s%-*s %8ld %8ld %8lu %8lu%s\n", 2 * depth, "",
	     22 - 2 * depth, g->name,
	     atomic_load_explicit(&g->objects, memory_order_relaxed),
	     atomic_load_explicit(&g->count, memory_order_relaxed),
	     atomic_load_explicit(&g->retains, memory_order_relaxed),
	     atomic_load_explicit(&g->releases, memory_order_relaxed),
	     g->log ? "  yes" : "");
	for (struct ref_group *c = g->children; c; c = c->sibling)
		tree(s, c, depth + 1);
}

int ref_group_snprint(struct ref_group *grp, char *buf, size_t size)
{
	struct sink s = { .buf = buf, .size = size };

	if (size)
		buf[0] = '\0';
	emit(&s, "%-22s %8s %8s %8s %8s  log\n", "ref_group", "objects",
	     "count", "retain", "release");
	pthread_mutex_lock(&tree_lock);
	tree(&s, grp ? grp : &ref_group_all, 0);
	pthread_mutex_unlock(&tree_lock);
	return (int)s.len;
}

void ref_group_print(struct ref_group *grp)
{
	static char buf[1 << 16];
	static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;

	pthread_mutex_lock(&print_lock);
	ref_group_snprint(grp, buf, sizeof(buf));
	fputs(buf, stderr);
	pthread_mutex_unlock(&print_lock);
}

int ref_group_log_snprint(struct ref_group *grp, char *buf, size_t size)
{
	struct __ref_group_log *log = grp->log;
	struct sink s = { .buf = buf, .size = size };
	char stack[REF_TRACKER_STACK_ENTRIES * 160];
	struct record *copy;
	unsigned int nr;
	unsigned long dropped;

	if (size)
		buf[0] = '\0';
	if (!log) {
		emit(&s, "%s rlog: off\n", grp->name);
		return (int)s.len;
	}
	copy = malloc(sizeof(log->records));
	if (!copy)
		return 0;
	pthread_mutex_lock(&log->lock);
	nr = log->nr;
	dropped = log->dropped;
	memcpy(copy, log->records, nr * sizeof(*copy));
	pthread_mutex_unlock(&log->lock);
	emit(&s, "%s rlog: %u records, %lu dropped\n", grp->name, nr, dropped);
	/* Symbolise only what fits. */
	for (unsigned int i = 0; i < nr && s.len + 1 < s.size; i++) {
		__refcount_stack_depot_snprint(copy[i].stack, stack,
					       sizeof(stack), 4);
		emit(&s, "object %p %s at:\n%s", copy[i].obj,
		     copy[i].release ? "release" : "retain", stack);
	}
	free(copy);
	return (int)s.len;
}

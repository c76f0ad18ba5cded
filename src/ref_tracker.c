// SPDX-License-Identifier: MIT
/*
 * ref_tracker.c - per-reference trackers with their stacks, and the reports
 *
 * As lib/ref_tracker.c: a dir keeps its live trackers on one list and the
 * recently released ones on a bounded quarantine, under one lock.  Each
 * tracker holds the depot handles of the stacks that took and released it.
 * Unlike the kernel, trackers are not allocated one by one: a dir carves
 * them from its own chunks of about 4 KiB, and recycles the ones that leave
 * the quarantine, so a live tracked reference costs its 24 bytes (on 64-bit
 * machines) and one malloc() per 170 of them.
 *
 * Built with -fno-omit-frame-pointer (mk/lib.mk): the frame-pointer walk
 * goes through the exported functions' frames to reach the caller's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REFCOUNT_TRACKER 1
#include <refcount/impl/stackdepot.h>
#include <refcount/impl/tracker-internal.h>
#include <refcount/ref_tracker.h>

/* free_stack's top bit: the tracker was released. */
#define DEAD_BIT 0x80000000u

struct ref_tracker {
	struct __ref_tracker_link link;
	depot_stack_handle_t alloc_stack;
	depot_stack_handle_t free_stack; /* | DEAD_BIT once released */
};
_Static_assert(sizeof(struct ref_tracker) <= 32, "<= 32 bytes per tracker");
_Static_assert(REFCOUNT_STACK_DEPOT_MAX < DEAD_BIT, "handles below DEAD_BIT");

#define CHUNK_BYTES 4088 /* 4 KiB with malloc's 8-byte header */
struct chunk {
	struct chunk *next;
	struct ref_tracker trackers[(CHUNK_BYTES - sizeof(void *)) /
				    sizeof(struct ref_tracker)];
};
#define CHUNK_TRACKERS                                                         \
	(sizeof(((struct chunk *)0)->trackers) / sizeof(struct ref_tracker))

static FILE *_Atomic report_out;
static atomic_uint inject_oom;

FILE *__ref_tracker_output(FILE *f)
{
	return atomic_exchange(&report_out, f);
}

FILE *__ref_tracker_stream(void)
{
	FILE *f = atomic_load(&report_out);

	return f ? f : stderr;
}

#define out() __ref_tracker_stream()

atomic_ulong __ref_tracker_double_puts;

void __ref_tracker_inject_oom(unsigned int n)
{
	atomic_store(&inject_oom, n);
}

static void list_init(struct __ref_tracker_link *h)
{
	h->next = h->prev = h;
}

static void list_del(struct __ref_tracker_link *l)
{
	l->prev->next = l->next;
	l->next->prev = l->prev;
}

static void list_add_tail(struct __ref_tracker_link *l,
			  struct __ref_tracker_link *h)
{
	l->prev = h->prev;
	l->next = h;
	h->prev->next = l;
	h->prev = l;
}

static struct ref_tracker *tracker_of(struct __ref_tracker_link *l)
{
	return (struct ref_tracker *)((char *)l -
				      offsetof(struct ref_tracker, link));
}

void ref_tracker_dir_init(struct ref_tracker_dir *dir,
			  unsigned int quarantine_count, const char *name)
{
	__refcount_stack_select();
	memset(dir, 0, sizeof(*dir));
	pthread_mutex_init(&dir->lock, NULL);
	list_init(&dir->list);
	list_init(&dir->quarantine);
	dir->quarantine_avail = quarantine_count;
	snprintf(dir->name, sizeof(dir->name), "%s", name ? name : "");
}

/* A tracker from the free list or a new chunk; NULL if out of memory. */
static struct ref_tracker *get_tracker(struct ref_tracker_dir *dir)
{
	struct ref_tracker *t = dir->free_trackers;
	struct chunk *c;
	unsigned int oom =
		atomic_load_explicit(&inject_oom, memory_order_relaxed);

	if (oom && atomic_compare_exchange_strong(&inject_oom, &oom, oom - 1))
		return NULL;
	if (t) {
		dir->free_trackers = (struct ref_tracker *)t->link.next;
		return t;
	}
	c = malloc(sizeof(*c));
	if (!c)
		return NULL;
	c->next = dir->chunks;
	dir->chunks = c;
	/* Keep the first tracker, put the others on the free list. */
	for (size_t i = CHUNK_TRACKERS - 1; i > 0; i--) {
		c->trackers[i].link.next =
			(struct __ref_tracker_link *)dir->free_trackers;
		dir->free_trackers = &c->trackers[i];
	}
	return &c->trackers[0];
}

static void put_tracker(struct ref_tracker_dir *dir, struct ref_tracker *t)
{
	t->link.next = (struct __ref_tracker_link *)dir->free_trackers;
	dir->free_trackers = t;
}

static int alloc_tracker(struct ref_tracker_dir *dir,
			 struct ref_tracker **trackerp,
			 depot_stack_handle_t stack)
{
	struct ref_tracker *t;

	if (!trackerp) {
		atomic_fetch_add(&dir->no_tracker, 1);
		return 0;
	}
	pthread_mutex_lock(&dir->lock);
	t = get_tracker(dir);
	if (t) {
		t->alloc_stack = stack;
		t->free_stack = 0;
		list_add_tail(&t->link, &dir->list);
	}
	pthread_mutex_unlock(&dir->lock);
	*trackerp = t;
	if (!t) {
		atomic_fetch_add(&dir->untracked, 1);
		return -ENOMEM;
	}
	return 0;
}

static __attribute__((noinline)) depot_stack_handle_t save_stack(void)
{
	uintptr_t e[REF_TRACKER_STACK_ENTRIES];
	/* skip 1: save_stack() is called by the exported function. */
	unsigned int n =
		__refcount_stack_capture(e, REF_TRACKER_STACK_ENTRIES, 1);

	return __refcount_stack_depot_save(e, n);
}

int ref_tracker_alloc(struct ref_tracker_dir *dir,
		      struct ref_tracker **trackerp)
{
	int ret = alloc_tracker(dir, trackerp, trackerp ? save_stack() : 0);

	__asm__ volatile("" ::: "memory"); /* no tail call: keep our frame */
	return ret;
}

static bool is_dead(const struct ref_tracker *t)
{
#ifdef REFCOUNT_TRACKER_MUTANT_NO_QUARANTINE
	(void)t;
	return false; /* the mutant: a second put goes unnoticed */
#else
	return t->free_stack & DEAD_BIT;
#endif
}

static void print_stack(FILE *f, const char *title, depot_stack_handle_t h)
{
	char buf[REF_TRACKER_STACK_ENTRIES * 160];

	fprintf(f, "%s\n", title);
	__refcount_stack_depot_snprint(h, buf, sizeof(buf), 0);
	fputs(buf, f);
}

static int free_tracker(struct ref_tracker_dir *dir,
			struct ref_tracker **trackerp,
			depot_stack_handle_t stack)
{
	struct ref_tracker *t;
	depot_stack_handle_t alloc, freed;
	FILE *f;

	if (!trackerp) {
		atomic_fetch_sub(&dir->no_tracker, 1);
		return 0;
	}
	t = *trackerp;
	if (!t) {
		atomic_fetch_sub(&dir->untracked, 1);
		return -EEXIST;
	}
	pthread_mutex_lock(&dir->lock);
	if (is_dead(t)) {
		alloc = t->alloc_stack;
		freed = t->free_stack & ~DEAD_BIT;
		pthread_mutex_unlock(&dir->lock);
		f = out();
		flockfile(f);
		fprintf(f, "reference already released.\n");
		print_stack(f, "allocated in:", alloc);
		print_stack(f, "freed in:", freed);
		print_stack(f, "released again in:", stack);
		funlockfile(f);
		atomic_fetch_add(&__ref_tracker_double_puts, 1);
		return -EINVAL;
	}
	t->free_stack = stack | DEAD_BIT;
	list_del(&t->link);
	list_add_tail(&t->link, &dir->quarantine);
	if (dir->quarantine_avail) {
		dir->quarantine_avail--;
	} else {
		/* Full: the oldest released tracker leaves for reuse. */
		struct ref_tracker *old = tracker_of(dir->quarantine.next);

		list_del(&old->link);
		put_tracker(dir, old);
	}
	pthread_mutex_unlock(&dir->lock);
	return 0;
}

int ref_tracker_free(struct ref_tracker_dir *dir, struct ref_tracker **trackerp)
{
	int ret = free_tracker(dir, trackerp, trackerp ? save_stack() : 0);

	__asm__ volatile("" ::: "memory");
	return ret;
}

int __ref_tracker_alloc_counter(struct ref_tracker_dir *dir,
				struct ref_tracker **trackerp,
				const void *counter)
{
	int ret = alloc_tracker(dir, trackerp, trackerp ? save_stack() : 0);

	__ref_tracker_bind(dir, counter);
	return ret;
}

bool __ref_tracker_free_counter(struct ref_tracker_dir *dir,
				struct ref_tracker **trackerp,
				const void *counter)
{
	int ret = free_tracker(dir, trackerp, trackerp ? save_stack() : 0);

	__ref_tracker_bind(dir, counter);
	return ret != -EINVAL;
}

bool ref_tracker_dir_exit(struct ref_tracker_dir *dir)
{
	struct __ref_tracker_link *l;
	struct chunk *c, *next;
	const char *abort_env;
	bool leak;

	pthread_mutex_lock(&dir->lock);
	dir->dead = true;
	while ((l = dir->quarantine.next) != &dir->quarantine) {
		list_del(l);
		dir->quarantine_avail++;
	}
	leak = dir->list.next != &dir->list || atomic_load(&dir->untracked) ||
	       atomic_load(&dir->no_tracker);
	pthread_mutex_unlock(&dir->lock);

	if (leak)
		ref_tracker_dir_print(dir, 16);
	__ref_tracker_unbind_dir(dir);

	pthread_mutex_lock(&dir->lock);
	list_init(&dir->list);
	for (c = dir->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
	dir->chunks = NULL;
	dir->free_trackers = NULL;
	pthread_mutex_unlock(&dir->lock);
	pthread_mutex_destroy(&dir->lock);

	abort_env = getenv("REFCOUNT_ABORT");
	if (leak && abort_env && !strcmp(abort_env, "1")) {
		fprintf(stderr, "librefcount: REFCOUNT_ABORT=1: aborting\n");
		abort();
	}
	return leak;
}

unsigned int __ref_tracker_stack_of(const struct ref_tracker *t, bool freed)
{
	return freed ? t->free_stack & ~DEAD_BIT : t->alloc_stack;
}

void __ref_tracker_dir_stats(struct ref_tracker_dir *dir,
			     struct __ref_tracker_dir_stats *s)
{
	struct __ref_tracker_link *l;

	memset(s, 0, sizeof(*s));
	pthread_mutex_lock(&dir->lock);
	for (l = dir->list.next; l != &dir->list; l = l->next)
		s->live++;
	for (l = dir->quarantine.next; l != &dir->quarantine; l = l->next)
		s->quarantined++;
	for (struct chunk *c = dir->chunks; c; c = c->next) {
		s->chunks++;
		s->bytes += sizeof(*c);
	}
	pthread_mutex_unlock(&dir->lock);
}

/* --- reports ------------------------------------------------------------ */

struct stack_count {
	depot_stack_handle_t stack;
	int count;
};

/*
 * The live trackers grouped by allocation stack, at most @limit groups in
 * the order their first tracker was taken.  Return: the number of groups;
 * *total is the number of live trackers.
 */
static unsigned int snapshot(struct ref_tracker_dir *dir,
			     struct stack_count *groups, unsigned int limit,
			     int *total)
{
	struct __ref_tracker_link *l;
	unsigned int n = 0, i;

	*total = 0;
	pthread_mutex_lock(&dir->lock);
	for (l = dir->list.next; l != &dir->list; l = l->next) {
		depot_stack_handle_t h = tracker_of(l)->alloc_stack;

		++*total;
		for (i = 0; i < n && groups[i].stack != h; i++)
			;
#ifdef REFCOUNT_TRACKER_MUTANT_NO_GROUPING
		i = n; /* the mutant: every tracker is its own group */
#endif
		if (i < n) {
			groups[i].count++;
		} else if (n < limit) {
			groups[n].stack = h;
			groups[n++].count = 1;
		}
	}
	pthread_mutex_unlock(&dir->lock);
	return n;
}

/* Where a report goes: a FILE, or a buffer (scnprintf-style). */
struct sink {
	FILE *f;
	char *buf;
	size_t size, len;
};

static __attribute__((format(printf, 2, 3))) void emit(struct sink *s,
						       const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	if (s->f) {
		vfprintf(s->f, fmt, ap);
	} else if (s->len + 1 < s->size) {
		n = vsnprintf(s->buf + s->len, s->size - s->len, fmt, ap);
		if (n > 0)
			s->len += (size_t)n < s->size - s->len ?
					  (size_t)n :
					  s->size - s->len - 1;
	}
	va_end(ap);
}

#define SMALL_LIMIT 16

static void report(struct ref_tracker_dir *dir, unsigned int limit,
		   struct sink *s)
{
	struct stack_count small[SMALL_LIMIT], *groups = small;
	char stack[REF_TRACKER_STACK_ENTRIES * 160];
	int total, skipped, untracked, no_tracker;
	unsigned int n;

	if (limit > SMALL_LIMIT) {
		groups = malloc(limit * sizeof(*groups));
		if (!groups) {
			groups = small;
			limit = SMALL_LIMIT;
		}
	}
	n = snapshot(dir, groups, limit, &total);
	skipped = total;
	for (unsigned int i = 0; i < n; i++) {
		/* The kernel's stack_depot_snprint(..., 4). */
		__refcount_stack_depot_snprint(groups[i].stack, stack,
					       sizeof(stack), 4);
		emit(s, "%s@%p has %d/%d users at\n%s\n", dir->name,
		     (void *)dir, groups[i].count, total, stack);
		skipped -= groups[i].count;
	}
	if (skipped)
		emit(s, "%s@%p skipped reports about %d/%d users.\n", dir->name,
		     (void *)dir, skipped, total);
	untracked = atomic_load(&dir->untracked);
	no_tracker = atomic_load(&dir->no_tracker);
	if (untracked)
		emit(s,
		     "%s@%p has %d untracked users (tracker allocation "
		     "failed).\n",
		     dir->name, (void *)dir, untracked);
	if (no_tracker)
		emit(s, "%s@%p has %d users without a tracker.\n", dir->name,
		     (void *)dir, no_tracker);
	if (groups != small)
		free(groups);
}

void ref_tracker_dir_print(struct ref_tracker_dir *dir,
			   unsigned int display_limit)
{
	struct sink s = { .f = out() };

	flockfile(s.f);
	report(dir, display_limit, &s);
	funlockfile(s.f);
}

int ref_tracker_dir_snprint(struct ref_tracker_dir *dir, char *buf, size_t size)
{
	struct sink s = { .buf = buf, .size = size };

	if (size)
		buf[0] = '\0';
	report(dir, 16, &s);
	return (int)s.len;
}

// SPDX-License-Identifier: MIT
/*
 * ref_tracker.c - per-reference trackers with their stacks, and the reports
 *
 * As lib/ref_tracker.c, each tracker holds the depot handles of the stacks
 * that took and released it, and a dir keeps the recently released ones in
 * a bounded quarantine to catch a second put.  Unlike the kernel, the
 * trackers come from the dir's own chunks of about 4 KiB (one malloc() per
 * 255 of them on 64-bit machines), through per-thread caches that take no
 * lock and no atomic read-modify-write at a get (src/tracker-cache.c), and
 * a live tracker is on no list: the reports scan the chunks.  A live
 * tracked reference costs its 16 bytes.
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

_Static_assert(sizeof(struct ref_tracker) <= 32, "<= 32 bytes per tracker");
_Static_assert(REFCOUNT_STACK_DEPOT_MAX <= __TRK_HANDLE_MASK,
	       "handles fit the state word");

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

void ref_tracker_dir_init(struct ref_tracker_dir *dir,
			  unsigned int quarantine_count, const char *name)
{
	__refcount_stack_select();
	__ref_tracker_cache_unlink(dir);
	memset(dir, 0, sizeof(*dir));
	pthread_mutex_init(&dir->lock, NULL);
	dir->quarantine_count = quarantine_count;
	snprintf(dir->name, sizeof(dir->name), "%s", name ? name : "");
	__ref_tracker_cache_init(dir);
}

static int alloc_tracker(struct ref_tracker_dir *dir,
			 struct ref_tracker **trackerp,
			 depot_stack_handle_t stack)
{
	struct ref_tracker *t = NULL;
	unsigned int oom;

	if (!trackerp) {
		atomic_fetch_add(&dir->no_tracker, 1);
		return 0;
	}
	oom = atomic_load_explicit(&inject_oom, memory_order_relaxed);
	if (!oom || !atomic_compare_exchange_strong(&inject_oom, &oom, oom - 1))
		t = __ref_tracker_get(dir);
	*trackerp = t;
	if (!t) {
		atomic_fetch_add(&dir->untracked, 1);
		return -ENOMEM;
	}
	/*
	 * Release: a put on another thread (an acquire CAS on the state) comes
	 * after our last use of t->next.
	 */
	atomic_store_explicit(&t->state,
			      __TRK_LIVE | (stack & __TRK_HANDLE_MASK)
						   << __TRK_HANDLE_BITS,
			      memory_order_release);
	return 0;
}

/* skip 0: the first entry is the return into the exported function's caller. */
#define save_stack() __refcount_stack_save(0)

int ref_tracker_alloc(struct ref_tracker_dir *dir,
		      struct ref_tracker **trackerp)
{
	int ret = alloc_tracker(dir, trackerp, trackerp ? save_stack() : 0);

	__asm__ volatile("" ::: "memory"); /* no tail call: keep our frame */
	return ret;
}

static bool is_live(uint32_t state)
{
	return (state & __TRK_STATUS) == __TRK_LIVE;
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
	uint32_t state, dead;
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
	/* One CAS: of two racing puts of one tracker, one sees it released. */
	state = atomic_load_explicit(&t->state, memory_order_acquire);
	do {
		if (!is_live(state))
			goto released;
		dead = __TRK_DEAD |
		       (state & ~__TRK_STATUS & ~__TRK_HANDLE_MASK) |
		       (stack & __TRK_HANDLE_MASK);
	} while (!atomic_compare_exchange_weak_explicit(&t->state, &state, dead,
							memory_order_acq_rel,
							memory_order_acquire));
	__ref_tracker_quarantine(dir, t);
	return 0;

released:
	f = out();
	flockfile(f);
	fprintf(f, "reference already released.\n");
	print_stack(f, "allocated in:", __trk_alloc_stack(state));
	print_stack(f, "freed in:", __trk_free_stack(state));
	print_stack(f, "released again in:", stack);
	funlockfile(f);
	atomic_fetch_add(&__ref_tracker_double_puts, 1);
	return -EINVAL;
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

/* Under @dir->lock: count the live trackers, and the chunks' bytes. */
static unsigned long count_live(struct ref_tracker_dir *dir, size_t *bytes)
{
	unsigned long live = 0;

	*bytes = 0;
	for (struct __ref_tracker_chunk *c = dir->chunks; c; c = c->next) {
		*bytes += sizeof(*c);
		for (size_t i = 0; i < __TRK_CHUNK_TRACKERS; i++)
			live += (atomic_load_explicit(&c->trackers[i].state,
						      memory_order_relaxed) &
				 __TRK_STATUS) == __TRK_LIVE;
	}
	return live;
}

bool ref_tracker_dir_exit(struct ref_tracker_dir *dir)
{
	struct __ref_tracker_chunk *c, *next;
	const char *abort_env;
	size_t bytes;
	bool leak;

	__ref_tracker_cache_exit(dir);
	pthread_mutex_lock(&dir->lock);
	dir->dead = true;
	leak = count_live(dir, &bytes) || atomic_load(&dir->untracked) ||
	       atomic_load(&dir->no_tracker);
	pthread_mutex_unlock(&dir->lock);

	if (leak)
		ref_tracker_dir_print(dir, 16);
	__ref_tracker_unbind_dir(dir);

	pthread_mutex_lock(&dir->lock);
	for (c = dir->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
	dir->chunks = dir->chunks_tail = NULL;
	dir->free_trackers = dir->quarantine = dir->quarantine_tail = NULL;
	dir->nr_free = dir->nr_quarantined = 0;
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
	uint32_t state = atomic_load(&((struct ref_tracker *)t)->state);

	return freed ? __trk_free_stack(state) : __trk_alloc_stack(state);
}

void __ref_tracker_dir_stats(struct ref_tracker_dir *dir,
			     struct __ref_tracker_dir_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->quarantined = __ref_tracker_cache_quarantined(dir);
	pthread_mutex_lock(&dir->lock);
	s->live = count_live(dir, &s->bytes);
	for (struct __ref_tracker_chunk *c = dir->chunks; c; c = c->next)
		s->chunks++;
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
	unsigned int n = 0, i;

	*total = 0;
	pthread_mutex_lock(&dir->lock);
	for (struct __ref_tracker_chunk *c = dir->chunks; c; c = c->next) {
		for (size_t k = 0; k < __TRK_CHUNK_TRACKERS; k++) {
			/* Acquire: the depot slot of the handle is written. */
			uint32_t state = atomic_load_explicit(
				&c->trackers[k].state, memory_order_acquire);
			depot_stack_handle_t h = __trk_alloc_stack(state);

			if ((state & __TRK_STATUS) != __TRK_LIVE)
				continue;
			++*total;
			for (i = 0; i < n && groups[i].stack != h; i++)
				;
			if (i < n) {
				groups[i].count++;
			} else if (n < limit) {
				groups[n].stack = h;
				groups[n++].count = 1;
			}
		}
	}
	pthread_mutex_unlock(&dir->lock);
	return n;
}

void __ref_tracker_emit(struct __ref_tracker_sink *s, const char *fmt, ...)
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

#define emit __ref_tracker_emit
#define sink __ref_tracker_sink

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

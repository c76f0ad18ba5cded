// SPDX-License-Identifier: MIT
/*
 * tracker-cache.c - where trackers come from and go to, without a lock
 *
 * The kernel's ref_tracker takes the dir's spinlock at every get and put;
 * here an uncontended mutex is two atomic read-modify-writes, 10 ns or so,
 * twice per tracked pair.  Instead each thread keeps, per dir it uses
 * (CACHE_WAYS of them, direct-mapped by the dir's id), its own free
 * trackers and its own quarantine of released ones, and touches the dir's
 * lock only to refill or give back a batch of BATCH trackers.  A get pops
 * a tracker and marks it live with one store; a put (src/ref_tracker.c)
 * marks it released with one compare-and-swap, which catches two racing
 * puts of one tracker, and appends it here.
 *
 * So the quarantine bound, quarantine_count, holds per thread and dir: a
 * double put is caught while the tracker is among the last
 * quarantine_count trackers that thread released in that dir.  A released
 * tracker stays marked released after it leaves the quarantine, until it
 * is reused, so a double put is often caught even later.
 *
 * A thread's cached trackers are in its dir's chunks.  They go back to the
 * dir when the thread exits (a thread-specific destructor), or when the
 * thread's cache way is needed for another dir; then the old dir may have
 * exited and been freed, so the cache remembers its id, and a registry of
 * the live dirs (by address, under one mutex: slow paths only) says whether
 * it is still there.  A dir that exits frees its chunks; stale caches in
 * other threads are dropped without being read, their ids no longer
 * registered.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#define REFCOUNT_TRACKER 1
#include <refcount/impl/tracker-internal.h>
#include <refcount/ref_tracker.h>

#define CACHE_WAYS 8
#define BATCH 32
#define REGISTRY_BUCKETS 256

struct way {
	unsigned long long id; /* 0: unused */
	struct ref_tracker_dir *dir;
	struct ref_tracker *free;
	struct ref_tracker *qhead, *qtail;
	unsigned int nr_free, nr_quarantined;
};

static __thread struct way ways[CACHE_WAYS]
	__attribute__((tls_model("initial-exec")));
static __thread bool has_destructor __attribute__((tls_model("initial-exec")));

static atomic_ullong next_id = 1;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ref_tracker_dir *registry[REGISTRY_BUCKETS];
static pthread_key_t exit_key;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

static unsigned int bucket_of(const struct ref_tracker_dir *dir)
{
	uint64_t h = (uint64_t)(uintptr_t)dir * 0x9e3779b97f4a7c15ull;

	return (unsigned int)(h >> 56) % REGISTRY_BUCKETS;
}

void __ref_tracker_cache_init(struct ref_tracker_dir *dir)
{
	unsigned int b = bucket_of(dir);

	dir->id = atomic_fetch_add(&next_id, 1);
	pthread_mutex_lock(&registry_lock);
	dir->registry_next = registry[b];
	registry[b] = dir;
	pthread_mutex_unlock(&registry_lock);
}

/* Under registry_lock: is the dir with this address and id still there? */
static bool registered(const struct ref_tracker_dir *dir, unsigned long long id)
{
	for (struct ref_tracker_dir *d = registry[bucket_of(dir)]; d;
	     d = d->registry_next)
		if (d == dir && d->id == id)
			return true;
	return false;
}

/* Under @dir->lock: trim the dir's quarantine to its bound. */
static void trim_quarantine(struct ref_tracker_dir *dir)
{
	while (dir->nr_quarantined > dir->quarantine_count) {
		struct ref_tracker *t = dir->quarantine;

		dir->quarantine = t->next;
		if (!dir->quarantine)
			dir->quarantine_tail = NULL;
		dir->nr_quarantined--;
		t->next = dir->free_trackers;
		dir->free_trackers = t;
		dir->nr_free++;
	}
}

/* Hand a way's trackers back to its dir, if that is still there. */
static void flush(struct way *w)
{
	struct ref_tracker_dir *dir = w->dir;
	struct ref_tracker *t, *next;

	if (!w->id)
		return;
	pthread_mutex_lock(&registry_lock);
	if (registered(dir, w->id)) {
		pthread_mutex_lock(&dir->lock);
		for (t = w->free; t; t = next) {
			next = t->next;
			t->next = dir->free_trackers;
			dir->free_trackers = t;
			dir->nr_free++;
		}
		if (w->qhead) {
			if (dir->quarantine_tail)
				dir->quarantine_tail->next = w->qhead;
			else
				dir->quarantine = w->qhead;
			dir->quarantine_tail = w->qtail;
			dir->nr_quarantined += w->nr_quarantined;
			trim_quarantine(dir);
		}
		pthread_mutex_unlock(&dir->lock);
	}
	pthread_mutex_unlock(&registry_lock);
	*w = (struct way){ 0 };
}

static void thread_exit(void *arg)
{
	(void)arg;
	for (unsigned int i = 0; i < CACHE_WAYS; i++)
		flush(&ways[i]);
}

static void make_key(void)
{
	pthread_key_create(&exit_key, thread_exit);
}

/* The calling thread's way for @dir, emptied and taken over if need be. */
static __attribute__((noinline)) struct way *
take_way(struct ref_tracker_dir *dir)
{
	struct way *w = &ways[dir->id % CACHE_WAYS];

	if (!has_destructor) {
		pthread_once(&exit_once, make_key);
		pthread_setspecific(exit_key, ways);
		has_destructor = true;
	}
	flush(w);
	w->id = dir->id;
	w->dir = dir;
	return w;
}

static inline struct way *way_of(struct ref_tracker_dir *dir)
{
	struct way *w = &ways[dir->id % CACHE_WAYS];

	if (__builtin_expect(w->id != dir->id, 0))
		w = take_way(dir);
	return w;
}

/* Under @dir->lock: a new chunk's trackers onto the dir's free list. */
static bool grow(struct ref_tracker_dir *dir)
{
	struct __ref_tracker_chunk *c = malloc(sizeof(*c));

	if (!c)
		return false;
	c->next = NULL;
	if (dir->chunks_tail)
		dir->chunks_tail->next = c;
	else
		dir->chunks = c;
	dir->chunks_tail = c;
	/* Pushed from the end, so that they are handed out in order. */
	for (size_t i = __TRK_CHUNK_TRACKERS; i-- > 0;) {
		atomic_init(&c->trackers[i].state, 0);
		c->trackers[i].next = dir->free_trackers;
		dir->free_trackers = &c->trackers[i];
	}
	dir->nr_free += __TRK_CHUNK_TRACKERS;
	return true;
}

static __attribute__((noinline)) void refill(struct ref_tracker_dir *dir,
					     struct way *w)
{
	struct ref_tracker *head = NULL, **tail = &head;

	pthread_mutex_lock(&dir->lock);
	if (!dir->free_trackers)
		grow(dir);
	for (unsigned int n = 0; n < BATCH && dir->free_trackers; n++) {
		struct ref_tracker *t = dir->free_trackers;

		dir->free_trackers = t->next;
		dir->nr_free--;
		*tail = t;
		tail = &t->next;
		w->nr_free++;
	}
	pthread_mutex_unlock(&dir->lock);
	*tail = w->free;
	w->free = head;
}

struct ref_tracker *__ref_tracker_get(struct ref_tracker_dir *dir)
{
	struct way *w = way_of(dir);
	struct ref_tracker *t;

	if (__builtin_expect(!w->free, 0)) {
		refill(dir, w);
		if (!w->free)
			return NULL;
	}
	t = w->free;
	w->free = t->next;
	w->nr_free--;
	return t;
}

static __attribute__((noinline)) void give_back(struct ref_tracker_dir *dir,
						struct way *w)
{
	pthread_mutex_lock(&dir->lock);
	for (unsigned int n = 0; n < BATCH; n++) {
		struct ref_tracker *t = w->free;

		w->free = t->next;
		w->nr_free--;
		t->next = dir->free_trackers;
		dir->free_trackers = t;
		dir->nr_free++;
	}
	pthread_mutex_unlock(&dir->lock);
}

void __ref_tracker_quarantine(struct ref_tracker_dir *dir,
			      struct ref_tracker *t)
{
	struct way *w = way_of(dir);

	t->next = NULL;
	if (w->qtail)
		w->qtail->next = t;
	else
		w->qhead = t;
	w->qtail = t;
	if (++w->nr_quarantined <= dir->quarantine_count)
		return;
	/* Full: the oldest leaves, still marked released, for reuse. */
	t = w->qhead;
	w->qhead = t->next;
	if (!w->qhead)
		w->qtail = NULL;
	w->nr_quarantined--;
	t->next = w->free;
	w->free = t;
	if (++w->nr_free > 2 * BATCH)
		give_back(dir, w);
}

/* Take @dir out of the registry if it is there (its links are valid then). */
void __ref_tracker_cache_unlink(struct ref_tracker_dir *dir)
{
	struct ref_tracker_dir **pp;

	pthread_mutex_lock(&registry_lock);
	for (pp = &registry[bucket_of(dir)]; *pp; pp = &(*pp)->registry_next)
		if (*pp == dir) {
			*pp = dir->registry_next;
			break;
		}
	pthread_mutex_unlock(&registry_lock);
}

void __ref_tracker_cache_exit(struct ref_tracker_dir *dir)
{
	struct way *w = &ways[dir->id % CACHE_WAYS];

	__ref_tracker_cache_unlink(dir);
	if (w->id == dir->id)
		*w = (struct way){ 0 };
}

unsigned long __ref_tracker_cache_quarantined(struct ref_tracker_dir *dir)
{
	struct way *w = &ways[dir->id % CACHE_WAYS];
	unsigned long n;

	pthread_mutex_lock(&dir->lock);
	n = dir->nr_quarantined;
	pthread_mutex_unlock(&dir->lock);
	return n + (w->id == dir->id ? w->nr_quarantined : 0);
}

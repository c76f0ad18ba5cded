/* SPDX-License-Identifier: MIT */
/*
 * refcount/impl/tracker-internal.h - what the ref_tracker's sources, the
 * report path and the tests share
 *
 * Internal; not part of the API.
 */
#ifndef REFCOUNT_IMPL_TRACKER_INTERNAL_H
#define REFCOUNT_IMPL_TRACKER_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct ref_tracker_dir;

/*
 * A tracker (src/ref_tracker.c, src/tracker-cache.c): one state word, the
 * status in its top 2 bits and the 15-bit depot handles of the get and of
 * the put below, and the link of whichever list holds it (a free list or
 * a quarantine; a live tracker is on none).  A dir finds its live trackers
 * by scanning its chunks.  16 bytes on 64-bit machines, 8 on 32-bit ones.
 */
#define __TRK_LIVE (1u << 30)
#define __TRK_DEAD (2u << 30)
#define __TRK_STATUS (3u << 30)
#define __TRK_HANDLE_BITS 15
#define __TRK_HANDLE_MASK ((1u << __TRK_HANDLE_BITS) - 1)
struct ref_tracker {
	_Atomic uint32_t state;
	struct ref_tracker *next;
};

static inline uint32_t __trk_alloc_stack(uint32_t state)
{
	return (state >> __TRK_HANDLE_BITS) & __TRK_HANDLE_MASK;
}

static inline uint32_t __trk_free_stack(uint32_t state)
{
	return state & __TRK_HANDLE_MASK;
}

/* The memory trackers are carved from: 4 KiB with malloc's 8-byte header. */
#define __TRK_CHUNK_BYTES 4088
struct __ref_tracker_chunk {
	struct __ref_tracker_chunk *next;
	struct ref_tracker trackers[(__TRK_CHUNK_BYTES - sizeof(void *)) /
				    sizeof(struct ref_tracker)];
};
#define __TRK_CHUNK_TRACKERS                                                   \
	(sizeof(((struct __ref_tracker_chunk *)0)->trackers) /                 \
	 sizeof(struct ref_tracker))

/*
 * The per-thread caches (src/tracker-cache.c).  __ref_tracker_get(): a
 * free tracker of @dir, from the calling thread's cache (refilled from the
 * dir under its lock, a batch at a time); NULL if out of memory.
 * __ref_tracker_quarantine(): @t, just released, into the calling thread's
 * quarantine for @dir; the oldest past the dir's quarantine_count goes to
 * the thread's free trackers.
 */
void __ref_tracker_cache_init(struct ref_tracker_dir *dir);
struct ref_tracker *__ref_tracker_get(struct ref_tracker_dir *dir);
void __ref_tracker_quarantine(struct ref_tracker_dir *dir,
			      struct ref_tracker *t);
/* Before an init: a dir initialised twice leaves the registry first. */
void __ref_tracker_cache_unlink(struct ref_tracker_dir *dir);
/* At exit: forget @dir in the registry and in this thread's cache. */
void __ref_tracker_cache_exit(struct ref_tracker_dir *dir);
/* Released trackers in @dir's quarantine and this thread's for it. */
unsigned long __ref_tracker_cache_quarantined(struct ref_tracker_dir *dir);

/* Where reports go (NULL: stderr).  Return: the previous stream. */
FILE *__ref_tracker_output(FILE *f);
/* The stream reports go to now. */
FILE *__ref_tracker_stream(void);
/* Where a report goes: a FILE, or else a buffer (scnprintf-style). */
struct __ref_tracker_sink {
	FILE *f;
	char *buf;
	size_t size, len;
};
__attribute__((format(printf, 2, 3))) void
__ref_tracker_emit(struct __ref_tracker_sink *s, const char *fmt, ...);
/* Tests: make the next @n tracker allocations fail. */
void __ref_tracker_inject_oom(unsigned int n);
/* Puts of already released trackers caught, process-wide. */
extern atomic_ulong __ref_tracker_double_puts;

/* Tests: the allocation (@freed false) or free stack of a tracker. */
struct ref_tracker;
unsigned int __ref_tracker_stack_of(const struct ref_tracker *t, _Bool freed);

struct __ref_tracker_dir_stats {
	unsigned long live, quarantined, chunks;
	size_t bytes; /* of the chunks */
};
void __ref_tracker_dir_stats(struct ref_tracker_dir *dir,
			     struct __ref_tracker_dir_stats *s);

/*
 * The counters the tracked wrappers saw, by address (src/tracker-holders.c):
 * a small table under one lock, looked up only when a report prints.
 */
void __ref_tracker_bind(struct ref_tracker_dir *dir, const void *counter);
void __ref_tracker_unbind_dir(struct ref_tracker_dir *dir);
/* Print the live trackers of @counter's dir, if it has one; true if so. */
_Bool __ref_tracker_print_holders(const void *counter);
/* Counters that could not be registered because the table was full. */
unsigned long __ref_tracker_unregistered(void);

#endif /* REFCOUNT_IMPL_TRACKER_INTERNAL_H */

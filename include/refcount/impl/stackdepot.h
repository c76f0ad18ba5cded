/* SPDX-License-Identifier: MIT */
/*
 * refcount/impl/stackdepot.h - stack capture, the stack depot, symbolisation
 *
 * Internal to the ref_tracker (src/ref_tracker.c) and its tests; not part of
 * the API.  Three parts, one source file each:
 *
 *   src/stack-capture.c  capture up to REF_TRACKER_STACK_ENTRIES return
 *                        addresses: a bounded frame-pointer walk, or glibc's
 *                        backtrace(); the backend is chosen once per process
 *   src/stackdepot.c     deduplicated stacks behind 32-bit handles, in a
 *                        fixed-size table (as lib/stackdepot.c); when it is
 *                        full, saves are dropped and counted
 *   src/symbolize.c      frame text, only when a report prints: dladdr()
 *                        symbol+offset, module+offset, and file:line through
 *                        libdw when it can be loaded
 */
#ifndef REFCOUNT_IMPL_STACKDEPOT_H
#define REFCOUNT_IMPL_STACKDEPOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Return addresses kept per stack, as the kernel's REF_TRACKER_STACK_ENTRIES. */
#define REF_TRACKER_STACK_ENTRIES 16

/* A saved stack; 0 means none (not captured, or the depot was full). */
typedef uint32_t depot_stack_handle_t;

/* The stacks the depot holds at most; more are dropped and counted. */
#define REFCOUNT_STACK_DEPOT_MAX 8192

enum refcount_stack_backend {
	REFCOUNT_STACK_NONE, /* not chosen yet */
	REFCOUNT_STACK_FP, /* frame-pointer walk */
	REFCOUNT_STACK_BACKTRACE, /* glibc backtrace() */
	REFCOUNT_STACK_LIBUNWIND, /* libunwind's unw_backtrace(), dlopen()ed */
};

/*
 * Choose the capture backend, once per process (later calls return the
 * first choice).  REFCOUNT_TRACKER_CAPTURE=fp or =backtrace in the
 * environment forces it; otherwise the frame-pointer walk is chosen when,
 * from this call, it finds the same first return addresses as backtrace()
 * does (the caller and its callers keep frame pointers).  Warms up
 * backtrace() in every case.
 */
enum refcount_stack_backend __refcount_stack_select(void);
/*
 * Tests and the benchmark: use @b from now on (not thread safe).  Return:
 * false (and no change) for libunwind when libunwind.so.8 is not there.
 */
bool __refcount_stack_force(enum refcount_stack_backend b);
const char *__refcount_stack_backend_name(enum refcount_stack_backend b);

/*
 * Save up to @max return addresses of the current thread into @entries,
 * leaving out the first @skip frames above the caller of this function
 * (skip 0: the first entry is the caller's return address).  Return: the
 * number saved.
 */
unsigned int __refcount_stack_capture(uintptr_t *entries, unsigned int max,
				      unsigned int skip);

/*
 * Tests: the frame-pointer walk from the frame record at @fp, bounded by the
 * current thread's stack.  Return: the number of entries saved.
 */
unsigned int __refcount_stack_fp_walk_from(const void *fp, uintptr_t *entries,
					   unsigned int max);

/*
 * Deduplicate @nr entries into the depot.  Return: their handle, or 0 when
 * @nr is 0 or the depot is full (then counted in __refcount_stack_dropped()).
 * Lock-free when the stack is already there.  Follows lib/stackdepot.c
 * stack_depot_save().
 */
depot_stack_handle_t __refcount_stack_depot_save(const uintptr_t *entries,
						 unsigned int nr);
/*
 * The depot's hash, one step per entry (the frame-pointer walk computes it
 * as it goes), then __refcount_stack_hash_final().  A multiply per step: a
 * chain, but shorter than the walk's chain of loads it runs beside.
 */
#define __REFCOUNT_STACK_HASH_INIT 0x243f6a8885a308d3ull
static inline uint64_t __refcount_stack_hash_step(uint64_t h, uintptr_t e)
{
	return (h ^ (uint64_t)e) * 0x9e3779b97f4a7c15ull;
}

static inline uint64_t __refcount_stack_hash(const uintptr_t *e,
					     unsigned int nr)
{
	uint64_t h = __REFCOUNT_STACK_HASH_INIT;

	for (unsigned int i = 0; i < nr; i++)
		h = __refcount_stack_hash_step(h, e[i]);
	return h;
}

/* As __refcount_stack_depot_save(), with @hash from the steps above. */
depot_stack_handle_t
__refcount_stack_depot_save_hashed(const uintptr_t *entries, unsigned int nr,
				   uint64_t hash);

/*
 * Capture the caller's stack (as __refcount_stack_capture(), @skip frames
 * above the caller left out) and save it.  Return: its handle, or 0.
 */
depot_stack_handle_t __refcount_stack_save(unsigned int skip);

/* The entries of @handle; 0 and *entries = NULL for handle 0 or unknown. */
unsigned int __refcount_stack_depot_fetch(depot_stack_handle_t handle,
					  const uintptr_t **entries);
/* Stacks held, and saves dropped because the depot was full. */
unsigned long __refcount_stack_depot_count(void);
unsigned long __refcount_stack_dropped(void);
/* The depot's size in bytes (its table and stack slots). */
size_t __refcount_stack_depot_bytes(void);

/*
 * Append the stack of @handle to @buf (at most @size bytes, always
 * terminated), one frame per line, each indented by 1 + @spaces blanks
 * (as the kernel's stack_trace_snprint()).  Return: the
 * length the full text has (as snprintf), so the caller can tell
 * truncation.  Follows lib/stackdepot.c stack_depot_snprint().
 */
int __refcount_stack_depot_snprint(depot_stack_handle_t handle, char *buf,
				   size_t size, int spaces);

/*
 * One frame as text: "sym+0xoff (module+0xoff) file:line", with what is
 * known; file:line only when libdw was found.  Return: as snprintf.
 */
int __refcount_symbolize(uintptr_t addr, char *buf, size_t size);

#endif /* REFCOUNT_IMPL_STACKDEPOT_H */

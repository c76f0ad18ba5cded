// SPDX-License-Identifier: MIT
/*
 * stack-capture.c - the return addresses of the current thread, cheaply
 *
 * Two backends, chosen once per process by __refcount_stack_select():
 *
 * - The frame-pointer walk follows the chain of frame records (saved frame
 *   pointer, then return address: the layout of x86-64, i386 and aarch64
 *   when frames are kept).  It is bounded by the thread's stack, as
 *   pthread_getattr_np() gives it (read once per thread), and stops at the
 *   first record that is outside it, misaligned, or not above the previous
 *   one, so a corrupt or absent chain ends the walk instead of a read of
 *   wild memory.  This file is built with -fno-omit-frame-pointer
 *   (mk/lib.mk) so that the walk starts from a valid record.
 * - glibc's backtrace() unwinds with the .eh_frame tables and needs no frame
 *   pointers.  Its first call loads libgcc_s and allocates, so selection
 *   calls it once up front.
 */
#define _GNU_SOURCE
#include <execinfo.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <refcount/impl/stackdepot.h>

static _Atomic enum refcount_stack_backend backend;

/* The current thread's stack, [lo, hi); lo == hi means unknown. */
struct stack_bounds {
	uintptr_t lo, hi;
	bool known;
};
static _Thread_local struct stack_bounds bounds;

static void read_bounds(void)
{
	pthread_attr_t attr;
	void *addr;
	size_t size;

	bounds.known = true;
	if (pthread_getattr_np(pthread_self(), &attr))
		return;
	if (!pthread_attr_getstack(&attr, &addr, &size)) {
		bounds.lo = (uintptr_t)addr;
		bounds.hi = (uintptr_t)addr + size;
	}
	pthread_attr_destroy(&attr);
}

/* Follow the chain from @fp; the first @skip return addresses are left out. */
static unsigned int walk_from(const uintptr_t *fp, uintptr_t *entries,
			      unsigned int max, unsigned int skip)
{
	unsigned int n = 0;

	if (__builtin_expect(!bounds.known, 0))
		read_bounds();
	while (n < max) {
		uintptr_t p = (uintptr_t)fp;
		const uintptr_t *next;

#ifndef REFCOUNT_TRACKER_MUTANT_UNBOUNDED_WALK
		if (p < bounds.lo || p > bounds.hi - 2 * sizeof(uintptr_t) ||
		    (p & (sizeof(uintptr_t) - 1)))
			break;
#else
		if (!p) /* the mutant: only a NULL ends the walk */
			break;
#endif
		if (!fp[1])
			break;
		if (skip)
			skip--;
		else
			entries[n++] = fp[1];
		next = (const uintptr_t *)fp[0];
#ifndef REFCOUNT_TRACKER_MUTANT_UNBOUNDED_WALK
		/* Frames are pushed downwards: each caller's is higher. */
		if ((uintptr_t)next <= p)
			break;
#endif
		fp = next;
	}
	return n;
}

unsigned int __refcount_stack_fp_walk_from(const void *fp, uintptr_t *entries,
					   unsigned int max)
{
	return walk_from(fp, entries, max, 0);
}

/*
 * Walk from this function's own frame record.  With @skip 0 the first entry
 * is our caller's return address (our own record, which holds the return
 * into our caller, is left out); @skip more are left out after it.
 */
static __attribute__((noinline)) unsigned int
fp_walk(uintptr_t *entries, unsigned int max, unsigned int skip)
{
	/* Our own record holds the return into our caller: skip it too. */
	unsigned int n =
		walk_from(__builtin_frame_address(0), entries, max, skip + 1);

	__asm__ volatile("" ::: "memory"); /* no tail call */
	return n;
}

static __attribute__((noinline)) unsigned int
bt_walk(uintptr_t *entries, unsigned int max, unsigned int skip)
{
	void *buf[REF_TRACKER_STACK_ENTRIES + 8]; /* and our frames */
	const uintptr_t ret = (uintptr_t)__builtin_return_address(0);
	int want = (int)(max + skip + 4), got, first = 1;
	unsigned int n = 0;

	if (want > (int)(sizeof(buf) / sizeof(buf[0])))
		want = (int)(sizeof(buf) / sizeof(buf[0]));
	/*
	 * buf[0] is normally in bt_walk itself and buf[1] our return into the
	 * caller, but sanitizers intercept backtrace() and may add or drop a
	 * frame of their own: find our return address instead of assuming.
	 */
	got = backtrace(buf, want);
	for (int i = 0; i < got && i < 4; i++)
		if ((uintptr_t)buf[i] == ret) {
			first = i;
			break;
		}
	for (int i = first + 1 + (int)skip; i < got && n < max; i++)
		entries[n++] = (uintptr_t)buf[i];
	return n;
}

/*
 * Both walks as seen from the same caller: they start one level down (in
 * fp_walk / bt_walk), so skip 0 makes both begin at our caller's return
 * address.
 */
__attribute__((noinline)) unsigned int
__refcount_stack_capture(uintptr_t *entries, unsigned int max,
			 unsigned int skip)
{
	unsigned int n;

	if (max > REF_TRACKER_STACK_ENTRIES)
		max = REF_TRACKER_STACK_ENTRIES;
	/* +1 for this function's own frame. */
	if (atomic_load_explicit(&backend, memory_order_relaxed) ==
	    REFCOUNT_STACK_FP)
		n = fp_walk(entries, max, skip + 1);
	else
		n = bt_walk(entries, max, skip + 1);
	/* Keep the call above from becoming a tail call (frame skipped). */
	__asm__ volatile("" ::: "memory");
	return n;
}

static pthread_mutex_t select_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * Both walks from here: the first entries are the returns into
 * __refcount_stack_select(), its caller (in this library, built with frame
 * pointers), that one's caller (the program) and the program's caller.
 */
static __attribute__((noinline)) enum refcount_stack_backend probe(void)
{
	uintptr_t fp[REF_TRACKER_STACK_ENTRIES], bt[REF_TRACKER_STACK_ENTRIES];
	const char *env = getenv("REFCOUNT_TRACKER_CAPTURE");
	unsigned int nfp, nbt, k;
	enum refcount_stack_backend b = REFCOUNT_STACK_FP;

	nbt = bt_walk(bt, REF_TRACKER_STACK_ENTRIES, 0);
	nfp = fp_walk(fp, REF_TRACKER_STACK_ENTRIES, 0);
	__asm__ volatile("" ::: "memory");
	if (env && !strcmp(env, "fp"))
		return REFCOUNT_STACK_FP;
	if (env && !strcmp(env, "backtrace"))
		return REFCOUNT_STACK_BACKTRACE;
	/*
	 * The fourth record is the program's own: the walk reaches it, and
	 * agrees with backtrace(), only if the program keeps frame pointers.
	 * Further up (glibc's start code) they may stop, which is harmless.
	 */
	if (nfp < 4 || nbt < 4)
		return REFCOUNT_STACK_BACKTRACE;
	k = nfp < 4 ? nfp : 4;
	for (unsigned int i = 0; i < k; i++)
		if (fp[i] != bt[i])
			b = REFCOUNT_STACK_BACKTRACE;
	return b;
}

__attribute__((noinline)) enum refcount_stack_backend
__refcount_stack_select(void)
{
	enum refcount_stack_backend b;

	b = atomic_load_explicit(&backend, memory_order_acquire);
	if (b != REFCOUNT_STACK_NONE)
		return b;
	pthread_mutex_lock(&select_lock);
	b = atomic_load_explicit(&backend, memory_order_relaxed);
	if (b == REFCOUNT_STACK_NONE) {
		b = probe();
		atomic_store_explicit(&backend, b, memory_order_release);
	}
	pthread_mutex_unlock(&select_lock);
	return b;
}

void __refcount_stack_force(enum refcount_stack_backend b)
{
	__refcount_stack_select();
	atomic_store(&backend, b);
}

const char *__refcount_stack_backend_name(enum refcount_stack_backend b)
{
	switch (b) {
	case REFCOUNT_STACK_FP:
		return "frame-pointer walk";
	case REFCOUNT_STACK_BACKTRACE:
		return "backtrace()";
	case REFCOUNT_STACK_NONE:
		break;
	}
	return "none";
}

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
#include <dlfcn.h>
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

/*
 * Follow the chain from @fp; the first @skip return addresses are left out.
 * The bounds are read into locals once: the stores into @entries could
 * alias the thread-local ones, and would reload them on every frame.  The
 * checks per record: at most 2 words below the top, aligned, and above the
 * previous record (so, after the first, above the bottom without a
 * compare).  The depot's hash of the kept entries is computed on the way
 * (*@hash): its multiplies run in the shadow of the chain of loads, which
 * is what a walk waits on (one L1 latency per frame).
 */
static __attribute__((always_inline)) inline unsigned int
walk_from(const uintptr_t *fp, uintptr_t *entries, unsigned int max,
	  unsigned int skip, uint64_t *hash)
{
	unsigned int n = 0;
	uintptr_t lo, top, p = (uintptr_t)fp;
	uint64_t h = __REFCOUNT_STACK_HASH_INIT;

	if (__builtin_expect(!bounds.known, 0))
		read_bounds();
	lo = bounds.lo;
	top = bounds.hi - 2 * sizeof(uintptr_t);
	*hash = h;
	/* Unknown bounds (hi 0): no walk at all. */
	if (!max || p < lo || bounds.hi < lo + 2 * sizeof(uintptr_t))
		return 0;
	for (;;) {
		uintptr_t ret, next;

		if (p > top || (p & (sizeof(uintptr_t) - 1)))
			break;
		ret = ((const uintptr_t *)p)[1];
		next = ((const uintptr_t *)p)[0];
		if (!ret)
			break;
		if (skip) {
			skip--;
		} else {
			entries[n] = ret;
			h = __refcount_stack_hash_step(h, ret);
			if (++n == max)
				break;
		}
		/* Frames are pushed downwards: each caller's is higher. */
		if (next <= p)
			break;
		p = next;
	}
	*hash = h;
	return n;
}

unsigned int __refcount_stack_fp_walk_from(const void *fp, uintptr_t *entries,
					   unsigned int max)
{
	uint64_t h;

	return walk_from(fp, entries, max, 0, &h);
}

/*
 * Walk from this function's own frame record.  With @skip 0 the first entry
 * is our caller's return address (our own record, which holds the return
 * into our caller, is left out); @skip more are left out after it.
 */
static __attribute__((noinline)) unsigned int
fp_walk(uintptr_t *entries, unsigned int max, unsigned int skip, uint64_t *hash)
{
	/* Our own record holds the return into our caller: skip it too. */
	unsigned int n = walk_from(__builtin_frame_address(0), entries, max,
				   skip + 1, hash);

	__asm__ volatile("" ::: "memory"); /* no tail call */
	return n;
}

/* libunwind's unw_backtrace(), if libunwind.so.8 could be loaded. */
static int (*unw_backtrace_fn)(void **buf, int size);

#if defined(__SANITIZE_THREAD__)
#define NO_LIBUNWIND 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define NO_LIBUNWIND 1
#endif
#endif

static void load_libunwind(void)
{
#ifndef NO_LIBUNWIND
	void *h = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);

	if (h)
		*(void **)&unw_backtrace_fn = dlsym(h, "unw_backtrace");
#endif
	/*
	 * Under TSan, libunwind's thread-exit destructor takes a mutex after
	 * TSan has torn the thread down, and crashes: backtrace() there.
	 */
}

static __attribute__((noinline)) unsigned int
bt_walk(uintptr_t *entries, unsigned int max, unsigned int skip, bool unw)
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
	if (unw && unw_backtrace_fn)
		got = unw_backtrace_fn(buf, want);
	else
		got = backtrace(buf, want);
	for (int i = 0; i < got && i < 4; i++)
		if ((uintptr_t)buf[i] == ret) {
			first = i;
			break;
		}
	for (int i = first + 1 + (int)skip; i < got && n < max; i++)
		entries[n++] = (uintptr_t)buf[i];
	__asm__ volatile("" ::: "memory"); /* no tail call */
	return n;
}

/*
 * Both walks as seen from the same caller, the function this is inlined
 * in: the frame-pointer walk starts at that function's record, and
 * bt_walk() one level down; with the @skip + 1 that function passes, both
 * begin at the return address of its caller.
 */
static __attribute__((always_inline)) inline unsigned int
capture(uintptr_t *entries, unsigned int max, unsigned int skip, uint64_t *hash)
{
	enum refcount_stack_backend b =
		atomic_load_explicit(&backend, memory_order_relaxed);
	unsigned int n;

	if (max > REF_TRACKER_STACK_ENTRIES)
		max = REF_TRACKER_STACK_ENTRIES;
	/*
	 * The walk in line, from our caller's own record (which holds the
	 * return into its caller, one of the @skip): one load fewer in the
	 * chain than through fp_walk().
	 */
	if (b == REFCOUNT_STACK_FP)
		return walk_from(__builtin_frame_address(0), entries, max, skip,
				 hash);
	n = bt_walk(entries, max, skip, b == REFCOUNT_STACK_LIBUNWIND);
	*hash = __refcount_stack_hash(entries, n);
	return n;
}

__attribute__((noinline)) unsigned int
__refcount_stack_capture(uintptr_t *entries, unsigned int max,
			 unsigned int skip)
{
	uint64_t h;
	/* +1 for this function's own frame. */
	unsigned int n = capture(entries, max, skip + 1, &h);

	/* Keep the call above from becoming a tail call (frame skipped). */
	__asm__ volatile("" ::: "memory");
	return n;
}

__attribute__((noinline)) depot_stack_handle_t
__refcount_stack_save(unsigned int skip)
{
	uintptr_t e[REF_TRACKER_STACK_ENTRIES];
	uint64_t h;
	unsigned int n = capture(e, REF_TRACKER_STACK_ENTRIES, skip + 1, &h);
	depot_stack_handle_t handle =
		__refcount_stack_depot_save_hashed(e, n, h);

	__asm__ volatile("" ::: "memory");
	return handle;
}

static pthread_mutex_t select_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * Both walks from here: the first entries are the returns into
 * __refcount_stack_select(), its caller (in this library, built with frame
 * pointers), that one's caller (the program) and the program's caller.
 * Warms up backtrace() (its first call loads libgcc_s) and libunwind.
 */
static __attribute__((noinline)) enum refcount_stack_backend probe(void)
{
	uintptr_t fp[REF_TRACKER_STACK_ENTRIES], bt[REF_TRACKER_STACK_ENTRIES];
	const char *env = getenv("REFCOUNT_TRACKER_CAPTURE");
	unsigned int nfp, nbt;
	uint64_t h;
	enum refcount_stack_backend b = REFCOUNT_STACK_FP;

	load_libunwind();
	if (unw_backtrace_fn)
		(void)bt_walk(bt, REF_TRACKER_STACK_ENTRIES, 0, true);
	nbt = bt_walk(bt, REF_TRACKER_STACK_ENTRIES, 0, false);
	nfp = fp_walk(fp, REF_TRACKER_STACK_ENTRIES, 0, &h);
	__asm__ volatile("" ::: "memory");
	if (env && !strcmp(env, "fp"))
		return REFCOUNT_STACK_FP;
	if (env && !strcmp(env, "backtrace"))
		return REFCOUNT_STACK_BACKTRACE;
	if (env && !strcmp(env, "libunwind"))
		return unw_backtrace_fn ? REFCOUNT_STACK_LIBUNWIND :
					  REFCOUNT_STACK_BACKTRACE;
	/*
	 * The fourth record is the program's own: the walk reaches it, and
	 * agrees with backtrace(), only if the program keeps frame pointers.
	 * Further up (glibc's start code) they may stop, which is harmless.
	 */
	if (nfp < 4 || nbt < 4)
		b = REFCOUNT_STACK_BACKTRACE;
	for (unsigned int i = 0; b == REFCOUNT_STACK_FP && i < 4; i++)
		if (fp[i] != bt[i])
			b = REFCOUNT_STACK_BACKTRACE;
	/* Without frame pointers, libunwind when it is there (faster). */
	if (b == REFCOUNT_STACK_BACKTRACE && unw_backtrace_fn)
		b = REFCOUNT_STACK_LIBUNWIND;
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

bool __refcount_stack_force(enum refcount_stack_backend b)
{
	__refcount_stack_select();
	if (b == REFCOUNT_STACK_LIBUNWIND && !unw_backtrace_fn)
		return false;
	atomic_store(&backend, b);
	return true;
}

const char *__refcount_stack_backend_name(enum refcount_stack_backend b)
{
	switch (b) {
	case REFCOUNT_STACK_FP:
		return "frame-pointer walk";
	case REFCOUNT_STACK_BACKTRACE:
		return "backtrace()";
	case REFCOUNT_STACK_LIBUNWIND:
		return "libunwind unw_backtrace()";
	case REFCOUNT_STACK_NONE:
		break;
	}
	return "none";
}

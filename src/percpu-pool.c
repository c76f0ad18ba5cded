// SPDX-License-Identifier: MIT
/*
 * percpu-pool.c - percpu_ref's per-CPU slot pool and its choice of fast path
 *
 * The pool hands out one 8-byte slot index per object.  Slots come in
 * chunks: one mapping of nr_slots regions of 2^__PERCPU_REF_SHIFT bytes,
 * region c holding the slots of CPU c, so an object's slots are 64 KiB
 * apart and the slots of different objects on one CPU share lines (which
 * only that CPU writes).  The mappings are MAP_NORESERVE: a page costs
 * memory once an object's slot on it is written.  Chunks are never
 * unmapped: a stale fast path may still read a freed object's slot.
 *
 * The fast path is chosen once, at the first percpu_ref_init():
 *   - rseq, if glibc registered an rseq area for the thread (__rseq_size
 *     != 0 and the area's cpu_id is a CPU), this architecture has a
 *     sequence (impl/percpu.h), and membarrier() accepts
 *     MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ; indexed by mm_cid
 *     when getauxval(AT_RSEQ_FEATURE_SIZE) says the kernel fills it in
 *     (>= 28, Linux 6.3), else by cpu_id;
 *   - the atomic slots otherwise (GLIBC_TUNABLES=glibc.pthread.rseq=0,
 *     valgrind, qemu-user).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/rseq.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <refcount/impl/percpu-internal.h>

#ifndef AT_RSEQ_FEATURE_SIZE
#define AT_RSEQ_FEATURE_SIZE 27
#endif
/* struct rseq: cpu_id at 4, mm_cid at 24 (linux/rseq.h, Linux 6.3). */
#define RSEQ_CPU_ID_OFF 4
#define RSEQ_MM_CID_OFF 24
#define RSEQ_MM_CID_END 28

#define SLOTS_PER_CHUNK (1U << (__PERCPU_REF_SHIFT - 3))

struct __percpu_ref_cfg __percpu_ref_cfg;
_Thread_local unsigned int __percpu_ref_tidx;

static pthread_once_t setup_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long *free_slots; /* slot0 addresses */
static size_t nr_free, free_cap;
static unsigned int next_tidx;

/* The possible CPUs: the last of /sys/devices/system/cpu/possible, + 1. */
static unsigned int possible_cpus(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "re");
	unsigned int n = 0, a, b;
	int c;

	if (f) {
		while (fscanf(f, "%u", &a) == 1) {
			b = a;
			c = fgetc(f);
			if (c == '-' && fscanf(f, "%u", &b) == 1)
				c = fgetc(f);
			if (b + 1 > n)
				n = b + 1;
			if (c != ',')
				break;
		}
		fclose(f);
	}
	if ((int)n < get_nprocs_conf())
		n = (unsigned int)get_nprocs_conf();
	return n ? n : 1;
}

#ifdef __PERCPU_REF_HAVE_RSEQ
static int membarrier(int cmd)
{
	return (int)syscall(__NR_membarrier, cmd, 0, 0);
}

/* The thread pointer, which glibc's __rseq_offset is relative to. */
static char *thread_pointer(void)
{
#if defined(__x86_64__)
	char *tp;

	__asm__("movq %%fs:0, %0" : "=r"(tp));
	return tp;
#else
	return __builtin_thread_pointer();
#endif
}

static int rseq_index_ok(long off)
{
	int v = *(volatile int *)(thread_pointer() + off);

	return v >= 0 && (unsigned int)v < __percpu_ref_cfg.nr_slots;
}

#endif

static void setup(void)
{
	struct __percpu_ref_cfg *c = &__percpu_ref_cfg;
#ifdef __PERCPU_REF_HAVE_RSEQ
	int mask;
#endif

	c->nr_slots = possible_cpus();
	c->path = __PERCPU_REF_PATH_ATOMIC_SLOTS;
#ifdef __PERCPU_REF_HAVE_RSEQ
	if (!__rseq_size || !rseq_index_ok(__rseq_offset + RSEQ_CPU_ID_OFF))
		return;
	mask = membarrier(MEMBARRIER_CMD_QUERY);
	if (mask < 0 || !(mask & MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ) ||
	    membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ))
		return;
	c->rseq_off = __rseq_offset;
	c->idx_off = __rseq_offset + RSEQ_CPU_ID_OFF;
	c->path = __PERCPU_REF_PATH_RSEQ_CPU_ID;
	if (getauxval(AT_RSEQ_FEATURE_SIZE) >= RSEQ_MM_CID_END &&
	    rseq_index_ok(__rseq_offset + RSEQ_MM_CID_OFF)) {
		c->idx_off = __rseq_offset + RSEQ_MM_CID_OFF;
		c->path = __PERCPU_REF_PATH_RSEQ_MM_CID;
	}
	__atomic_store_n(&c->rseq, 1, __ATOMIC_RELEASE);
#endif
}

void __percpu_ref_setup(void)
{
	pthread_once(&setup_once, setup);
}

unsigned int __percpu_ref_assign_tidx(void)
{
	unsigned int n = __atomic_fetch_add(&next_tidx, 1, __ATOMIC_RELAXED);

	__percpu_ref_tidx = n % __percpu_ref_cfg.nr_slots + 1;
	return __percpu_ref_tidx;
}

void __percpu_ref_membarrier(void)
{
	if (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ, 0,
		    0)) {
		/* Registered at setup: nothing can be trusted without it. */
		perror("librefcount: membarrier(PRIVATE_EXPEDITED_RSEQ)");
		abort();
	}
}

/* A new chunk's slots on the free list; the list has room for them. */
static int grow(void)
{
	size_t region = (size_t)1 << __PERCPU_REF_SHIFT;
	size_t len = region * __percpu_ref_cfg.nr_slots;
	unsigned long *fs;
	char *base;

	fs = realloc(free_slots, (free_cap + SLOTS_PER_CHUNK) * sizeof(*fs));
	if (!fs)
		return -ENOMEM;
	free_slots = fs;
	free_cap += SLOTS_PER_CHUNK;
	base = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED)
		return -ENOMEM;
	for (unsigned int i = SLOTS_PER_CHUNK; i-- > 0;)
		free_slots[nr_free++] = (unsigned long)(base + 8UL * i);
	return 0;
}

unsigned long __percpu_ref_slot_alloc(void)
{
	unsigned long s = 0;

	pthread_mutex_lock(&pool_lock);
	if (nr_free || !grow())
		s = free_slots[--nr_free];
	pthread_mutex_unlock(&pool_lock);
	return s;
}

void __percpu_ref_slot_free(unsigned long slot0)
{
	pthread_mutex_lock(&pool_lock);
	free_slots[nr_free++] = slot0;
	pthread_mutex_unlock(&pool_lock);
}

const char *percpu_ref_fast_path(void)
{
	switch (__percpu_ref_cfg.path) {
	case __PERCPU_REF_PATH_RSEQ_CPU_ID:
		return "rseq-cpu_id";
	case __PERCPU_REF_PATH_RSEQ_MM_CID:
		return "rseq-mm_cid";
	case __PERCPU_REF_PATH_ATOMIC_SLOTS:
		return "atomic-slots";
	}
	return "none";
}

unsigned int percpu_ref_nr_slots(void)
{
	return __percpu_ref_cfg.nr_slots;
}

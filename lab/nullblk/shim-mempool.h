/* SPDX-License-Identifier: MIT */
/*
 * shim-mempool.h: the kernel's mempool_t, in userspace: the allocator first
 * (malloc for the slab), the preallocated reserve only when it fails, and a
 * freed element refills the reserve before it goes back to the allocator.
 * Breed-free: no refcount_t in here.
 */
#ifndef NULLBLK_SHIM_MEMPOOL_H
#define NULLBLK_SHIM_MEMPOOL_H

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdlib.h>

struct mempool {
	pthread_spinlock_t lock;
	size_t size;
	int min_nr, curr_nr;
	void **elements;
};

static int mempool_init(struct mempool *pool, int min_nr, size_t size)
{
	pthread_spin_init(&pool->lock, PTHREAD_PROCESS_PRIVATE);
	pool->size = size;
	pool->min_nr = min_nr;
	pool->curr_nr = 0;
	pool->elements = calloc((size_t)min_nr, sizeof(void *));
	if (!pool->elements)
		return -ENOMEM;
	while (pool->curr_nr < min_nr) {
		void *e = malloc(size);

		if (!e)
			return -ENOMEM;
		pool->elements[pool->curr_nr++] = e;
	}
	return 0;
}

static void mempool_exit(struct mempool *pool)
{
	while (pool->curr_nr)
		free(pool->elements[--pool->curr_nr]);
	free(pool->elements);
	pthread_spin_destroy(&pool->lock);
}

static inline void *mempool_alloc(struct mempool *pool)
{
	for (;;) {
		void *e = malloc(pool->size); /* kmem_cache_alloc */

		if (e)
			return e;
		pthread_spin_lock(&pool->lock);
		if (pool->curr_nr)
			e = pool->elements[--pool->curr_nr];
		pthread_spin_unlock(&pool->lock);
		if (e)
			return e;
		sched_yield(); /* io_schedule() until an element is freed */
	}
}

static inline void mempool_free(void *e, struct mempool *pool)
{
	if (__atomic_load_n(&pool->curr_nr, __ATOMIC_RELAXED) < pool->min_nr) {
		pthread_spin_lock(&pool->lock);
		if (pool->curr_nr < pool->min_nr) {
			pool->elements[pool->curr_nr++] = e;
			e = NULL;
		}
		pthread_spin_unlock(&pool->lock);
	}
	free(e);
}

#endif /* NULLBLK_SHIM_MEMPOOL_H */

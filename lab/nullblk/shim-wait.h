/* SPDX-License-Identifier: MIT */
/*
 * shim-wait.h: the kernel primitives blk.c waits and hands work over with,
 * in userspace: container_of, cache-line alignment, cpu_relax(), a
 * monotonic clock and a timer wait, a lock-free list (<linux/llist.h>)
 * whose one consumer sleeps on a futex, and the aio ring reaped through
 * it.  Breed-free: no refcount_t in here.
 *
 * Needs _GNU_SOURCE defined before the first system header (blk.c does).
 */
#ifndef NULLBLK_SHIM_WAIT_H
#define NULLBLK_SHIM_WAIT_H

#include <linux/futex.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "nullblk.h"

#define ____cacheline_aligned __attribute__((aligned(64)))
#define container_of(ptr, type, member)                                        \
	((type *)((char *)(ptr)-offsetof(type, member)))

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* an hrtimer's expiry at @deadline (ns): sleep, then spin the rest */
static void wait_until_ns(uint64_t deadline)
{
	uint64_t now = now_ns();

	if (deadline > now + 60000) {
		uint64_t at = deadline - 50000;
		struct timespec ts = {
			.tv_sec = (time_t)(at / 1000000000u),
			.tv_nsec = (long)(at % 1000000000u),
		};
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	while (now_ns() < deadline)
		cpu_relax();
}

static void futex_wait(atomic_int *addr, int val)
{
	syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(atomic_int *addr)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/*
 * A lock-free list with one sleeping consumer: llist_add() by any number
 * of producers, llist_del_all() by the consumer, who sleeps on @sleeping
 * when the list is empty.  No spinning before sleeping: on a machine with
 * fewer CPUs than threads a spinning waiter steals the CPU its producer
 * needs, and the measured rate then depends on which of the two regimes a
 * run happens to fall into.  A softirq does not spin either.
 */
struct llist_waitq {
	_Atomic(struct llist_node *) head;
	atomic_int sleeping;
};

static inline void llist_add(struct llist_node *n, struct llist_waitq *q)
{
	struct llist_node *first =
		atomic_load_explicit(&q->head, memory_order_relaxed);

	do {
		n->next = first;
	} while (!atomic_compare_exchange_weak(&q->head, &first, n));
	if (atomic_load(&q->sleeping) && atomic_exchange(&q->sleeping, 0))
		futex_wake(&q->sleeping);
}

/* Take everything, oldest first. */
static inline struct llist_node *llist_del_all(struct llist_waitq *q)
{
	struct llist_node *n = atomic_exchange(&q->head, NULL), *prev = NULL;

	while (n) {
		struct llist_node *next = n->next;

		n->next = prev;
		prev = n;
		n = next;
	}
	return prev;
}

static void llist_wait(struct llist_waitq *q, atomic_bool *stop)
{
	atomic_store(&q->sleeping, 1);
	if (!atomic_load(&q->head) && !(stop && atomic_load(stop)))
		futex_wait(&q->sleeping, 1);
	atomic_store(&q->sleeping, 0);
}

/* Wake the consumer for good: it sees @stop when it wakes. */
static void llist_stop(struct llist_waitq *q, atomic_bool *stop)
{
	atomic_store(stop, true);
	atomic_store(&q->sleeping, 0);
	futex_wake(&q->sleeping);
}

/*
 * The aio ring: completed kiocbs arrive on @done (ki_complete adds them);
 * the reaper keeps the ones it took but has not handed out yet on @ready.
 * Wait for at least @min, return up to @max, oldest first.
 */
static unsigned int aio_reap(struct llist_node **ready,
			     struct llist_waitq *done, unsigned int min,
			     unsigned int max, struct nb_kiocb **out)
{
	unsigned int n = 0;

	for (;;) {
		while (n < max && *ready) {
			out[n++] = container_of(*ready, struct nb_kiocb, node);
			*ready = (*ready)->next;
		}
		if (n == max)
			break;
		struct llist_node *more = llist_del_all(done);

		if (more) {
			/* the private list is empty here: n < max */
			*ready = more;
			continue;
		}
		if (n >= min)
			break;
		llist_wait(done, NULL);
	}
	return n;
}

#endif /* NULLBLK_SHIM_WAIT_H */

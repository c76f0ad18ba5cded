/* SPDX-License-Identifier: MIT */
/*
 * nullblk.h: a userspace null_blk, the model behind the fio ioengine.
 *
 * Two halves share this header:
 *  - engine.c is the fio glue (options, io_u handling); it includes fio's
 *    headers and never touches a refcount_t;
 *  - blk.c is the block layer and the null_blk driver.  It is compiled once
 *    per breed of <refcount/breed/registry.h>, with that breed's
 *    -DREFCOUNT_BREED, and exports one table of operations per breed,
 *    nb_breed_<name>.  The engine picks a table once per job (refcount=);
 *    inside blk.c every refcount operation is a direct, inlined call of
 *    that breed.
 */
#ifndef NULLBLK_H
#define NULLBLK_H

#include <stdbool.h>
#include <stdint.h>

#include <refcount/breed/registry.h>

/* null_blk's queue_mode and irqmode values */
enum { NULL_Q_BIO = 0, NULL_Q_RQ = 1, NULL_Q_MQ = 2 };
enum { NULL_IRQ_NONE = 0, NULL_IRQ_SOFTIRQ = 1, NULL_IRQ_TIMER = 2 };

/* path=: which kernel path's counter traffic an I/O carries */
enum nb_path {
	NB_PATH_PSYNC, /* __blkdev_direct_IO_simple: on-stack bio */
	NB_PATH_LIBAIO_414, /* __blkdev_direct_IO 4.14: bio_get + 2 puts */
	NB_PATH_LIBAIO_54, /* after 531724abc3bf: no extra bio ref */
	NB_PATH_LEGACY_BLKCG, /* blk_get_rl/blk_put_rl: blkg get/put */
	NB_PATH_BFQ_IOC, /* BFQ/CFQ: get/put_io_context per request */
	NB_PATH_XEN_BLKBACK, /* xen_blkif_get/put per ring request */
	NB_NR_PATHS
};

/*
 * q_usage=: what q->q_usage_counter is.  Every I/O takes it
 * (blk_queue_enter: a try-get unless the queue is frozen) and drops it when
 * it completes (blk_queue_exit); freezing the queue at teardown kills it.
 */
enum nb_q_usage {
	NB_Q_USAGE_PERCPU, /* struct percpu_ref, as the kernel has it */
	NB_Q_USAGE_REFCOUNT, /* a refcount_t of the refcount= breed */
	NB_NR_Q_USAGE
};

/* refcount=: the breeds, NB_BREED_<NAME>, in the registry's order */
#define NB_BREED_ENUM(name, NAME, id, max, saturated) NB_BREED_##NAME,
enum nb_breed { REFCOUNT_FOR_EACH_THREADED_BREED(NB_BREED_ENUM) NB_NR_BREEDS };
#undef NB_BREED_ENUM

/*
 * Engine options (fio's option_struct).  fio wants no option at offset 0,
 * hence the pad.  The same struct, copied, is the device's configuration:
 * jobs whose options compare equal share one device.
 */
struct nb_opts {
	void *pad;
	unsigned int queue_mode;
	unsigned int submit_queues;
	unsigned int hw_queue_depth;
	unsigned int irqmode;
	unsigned long long completion_nsec;
	unsigned int path;
	unsigned int breed;
	unsigned int q_usage;
	/* the engine's own accounting (engine.c only, cycles.h) */
	unsigned int cycles;
	unsigned int interleave; /* I/Os per slice, every breed in turn */
	unsigned int interleave_same; /* 1: refcount='s breed on every device */
	unsigned int slot; /* not an option: which slot's device (A/A) */
	char *slice_log; /* where the slices go */
};

/* a lock-free list node, as the kernel's <linux/llist.h> */
struct llist_node {
	struct llist_node *next;
};

/*
 * What the engine hands to the block layer for one I/O: the kiocb.  The
 * block layer calls ki_complete on it (it puts it on the task's completion
 * list) and never touches it afterwards.
 */
struct nb_kiocb {
	struct llist_node node; /* on the task's completion list */
	void *io_u;
	uint64_t pos;
	uint32_t len;
	bool write;
	int res; /* 0 or -errno, set before ki_complete */
};

struct nb_dev;
struct nb_task;

/* Figures a device reports when it is torn down. */
struct nb_stats {
	uint64_t ios; /* bios submitted */
	uint64_t io_rmws; /* refcount RMWs on the I/O path (COUNT_OPS) */
	uint64_t setup_rmws; /* refcount RMWs at open/close (COUNT_OPS) */
	long live_bios; /* allocated and not freed (DEBUG) */
	long live_rqs; /* allocated and not freed (DEBUG) */
	unsigned long saturations; /* refcount_report_count(), all types */
	bool counted; /* built with NULLBLK_COUNT_OPS */
	bool checked; /* built with NULLBLK_DEBUG */
};

struct nb_breed_ops {
	const char *name;
	/* NULL with *err set to a message on failure */
	struct nb_dev *(*dev_create)(const struct nb_opts *o, const char **err);
	void (*dev_destroy)(struct nb_dev *dev, struct nb_stats *st);
	/* a submitting task: a fio job opening the device */
	struct nb_task *(*task_open)(struct nb_dev *dev, unsigned int index);
	void (*task_close)(struct nb_task *t);
	/* true when the I/O completed before submit returned (psync) */
	bool (*submit)(struct nb_task *t, struct nb_kiocb *iocb);
	/* wait for at least min completions, return up to max */
	unsigned int (*reap)(struct nb_task *t, unsigned int min,
			     unsigned int max, struct nb_kiocb **out);
};

/* blk.c's one table per breed: nb_breed_<name> */
#define NB_BREED_OPS_DECL(name, NAME, id, max, saturated)                      \
	extern const struct nb_breed_ops nb_breed_##name;
REFCOUNT_FOR_EACH_THREADED_BREED(NB_BREED_OPS_DECL)
#undef NB_BREED_OPS_DECL

#endif /* NULLBLK_H */

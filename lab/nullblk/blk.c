// SPDX-License-Identifier: MIT
/*
 * blk.c: the block layer's counter traffic and null_blk, in userspace, for
 * one breed.
 *
 * Built once per breed, with $(call breed_cflags,<breed>) from mk/breeds.mk.
 * Every function is static except the table nb_breed_<breed> at the end, so
 * the builds link into one engine and each job's I/O path calls only its
 * own breed's inlined refcount operations.  What it runs on, breed-free and
 * inlined the same way, is in shim-wait.h (waiting, lists, the aio ring),
 * shim-mempool.h, shim-tags.h and instrument.h (op counts, accounting).
 *
 * An I/O's way through here, step by step with the kernel function each
 * step stands for, is in lab/nullblk.md, "What an I/O does".  The six
 * counters of the 2017 series are refcount_t and move where lab/nullblk.md,
 * "The six counters", says: __bi_cnt per I/O on path=libaio-4.14;
 * blkcg_gq.refcnt per request on path=legacy-blkcg; xen_blkif.refcnt per
 * request on path=xen-blkback; io_context.active_ref, blk_queue_tag.refcnt
 * and bsg_device.ref_count at open and close only.  path=bfq-ioc moves
 * io_context.refcount per request, an atomic_long_t in the kernel and not
 * in the series, made a refcount_t here to show what converting it costs.
 * Every I/O also enters and exits the queue (q->q_usage_counter, not in the
 * series): a struct percpu_ref as in blk-mq, or with q_usage=refcount a
 * refcount_t of this breed, to show what the per-CPU count buys.
 */

/* One table per breed, named after it: nb_breed_<name> (see nullblk.h). */
#ifndef REFCOUNT_BREED
#error "build blk.c once per breed, with $(call breed_cflags,<breed>) from mk/breeds.mk"
#endif

#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <refcount/percpu_ref.h>
#include <refcount/refcount.h>

#include "instrument.h"
#include "nullblk.h"
#include "shim-mempool.h"
#include "shim-tags.h"
#include "shim-wait.h"

#define NB_CAT2(a, b) a##b
#define NB_CAT(a, b) NB_CAT2(a, b)
#define NB_OPS NB_CAT(nb_breed_, __REFCOUNT_BREED_TOKEN)

/* ---- the model's objects ----------------------------------------------- */

#define BIO_REFFED (1u << 0)

struct bio {
	unsigned int bi_flags;
	refcount_t __bi_cnt;
	uint64_t bi_sector;
	uint32_t bi_size;
	bool bi_write;
	int bi_status;
	struct nb_kiocb *bi_private; /* the kiocb (the dio) */
	struct nb_task *bi_task; /* whom ki_complete wakes */
	struct nb_dev *bi_dev;
};

/* blk_queue_tag: the legacy tag map that queues can share */
struct blk_queue_tag {
	refcount_t refcnt;
};

/* blkcg_gq: the task's (non-root) cgroup on this request_queue */
struct blkcg_gq {
	refcount_t refcnt;
};

struct io_context {
	refcount_t refcount; /* atomic_long_t in the kernel */
	refcount_t active_ref;
};

struct bsg_device {
	refcount_t ref_count;
};

struct xen_blkif {
	refcount_t refcnt;
};

enum { MQ_RQ_IDLE, MQ_RQ_IN_FLIGHT };

/* A request; with queue_mode=0 the same struct plays null_blk's nullb_cmd. */
struct request {
	struct llist_node ll; /* on the completion queue */
	struct bio *bio;
	struct blk_mq_hw_ctx *hctx;
	struct blkcg_gq *blkg; /* request_list's blkg (legacy) */
	struct io_context *ioc; /* the elevator's icq->ioc */
	uint64_t deadline; /* irqmode=2 */
	unsigned int tag;
	atomic_int state; /* NULLBLK_DEBUG */
};

/*
 * A hardware queue (queue_mode=2) or a null_blk driver queue (0 and 1):
 * its tags, its static requests, and its completion context.
 */
struct blk_mq_hw_ctx {
	struct nb_dev *dev;
	struct sbitmap tags;
	struct request *rqs; /* static requests, one per tag */
	struct llist_waitq cq ____cacheline_aligned;
	atomic_bool stop;
	bool has_thread;
	pthread_t thread;
};

struct nb_task {
	struct nb_dev *dev;
	struct blk_mq_hw_ctx *hctx;
	struct io_context *ioc;
	unsigned int tag_hint;
	struct nb_task *next_task;
	struct llist_node *ready; /* reaped, not yet handed to fio */
	struct llist_waitq done ____cacheline_aligned; /* the aio ring */
};

struct nb_dev {
	struct nb_opts o;
	unsigned int nr_hctx;
	struct blk_mq_hw_ctx *hctx;
	pthread_spinlock_t queue_lock; /* legacy request_queue lock */
	struct mempool bio_pool, rq_pool;
	struct blk_queue_tag *bqt;
	struct bsg_device *bsg;
	struct blkcg_gq *blkg;
	struct xen_blkif *blkif;
	pthread_mutex_t task_lock;
	struct nb_task *tasks; /* freed with the device */
	/* q->q_usage_counter: one of the two, as o.q_usage says */
	struct percpu_ref q_usage_counter ____cacheline_aligned;
	refcount_t q_usage_refs;
	struct nb_instr instr ____cacheline_aligned;
};

/* ---- the counters, with the kernel's helpers --------------------------- */

/*
 * blk_queue_enter: every bio takes the queue's usage counter, a try-get
 * that fails once the queue is frozen (blk_mq_freeze_queue kills it); the
 * model never freezes while I/O runs.  blk_queue_exit drops it when the
 * I/O completes.  Not counted in io_rmws: the op counts are the series'.
 */
static inline void blk_queue_enter(struct nb_dev *dev)
{
	bool ok = dev->o.q_usage == NB_Q_USAGE_PERCPU ?
			  percpu_ref_tryget_live(&dev->q_usage_counter) :
			  refcount_inc_not_zero(&dev->q_usage_refs);

	if (__builtin_expect(!ok, 0))
		nb_bug("blk_queue_enter on a frozen queue", dev);
}

static inline void blk_queue_exit(struct nb_dev *dev)
{
	if (dev->o.q_usage == NB_Q_USAGE_PERCPU)
		percpu_ref_put(&dev->q_usage_counter);
	else if (refcount_dec_and_test(&dev->q_usage_refs))
		nb_bug("blk_queue_exit dropped the queue's own reference", dev);
}

/* The freeze: nothing frees the queue here, so release() has no work. */
static void q_usage_release(struct percpu_ref *ref)
{
	(void)ref;
}

static inline void bio_init(struct bio *bio)
{
	bio->bi_flags = 0;
	refcount_set(&bio->__bi_cnt, 1); /* a store, not an RMW */
}

static inline struct bio *bio_alloc(struct nb_dev *dev)
{
	struct bio *bio = mempool_alloc(&dev->bio_pool);

	live_add(dev, live_bios, 1);
	bio_init(bio);
	return bio;
}

static inline void bio_free(struct bio *bio)
{
	struct nb_dev *dev = bio->bi_dev;

	if (injected(dev, INJECT_BIO_LEAK))
		return;
	live_add(dev, live_bios, -1);
	mempool_free(bio, &dev->bio_pool);
	if (injected(dev, INJECT_BIO_DOUBLE_FREE))
		mempool_free(bio, &dev->bio_pool);
}

/*
 * Every refcount operation of the model goes through these two, which
 * count it (NULLBLK_COUNT_OPS) in @ctr: io_rmws or setup_rmws.
 */
#define counted_inc(dev, ctr, r) (count_rmw(dev, ctr), refcount_inc(r))
#define counted_put(dev, ctr, r) (count_rmw(dev, ctr), refcount_dec_and_test(r))

static inline void bio_get(struct bio *bio)
{
	bio->bi_flags |= BIO_REFFED;
	counted_inc(bio->bi_dev, io_rmws, &bio->__bi_cnt);
}

static inline void bio_put(struct bio *bio)
{
	if (!(bio->bi_flags & BIO_REFFED) ||
	    counted_put(bio->bi_dev, io_rmws, &bio->__bi_cnt))
		bio_free(bio);
}

static inline void blkg_get(struct nb_dev *dev, struct blkcg_gq *blkg)
{
	counted_inc(dev, io_rmws, &blkg->refcnt);
}

static inline void blkg_put(struct nb_dev *dev, struct blkcg_gq *blkg)
{
	if (counted_put(dev, io_rmws, &blkg->refcnt))
		free(blkg); /* __blkg_release */
}

static inline void get_io_context(struct nb_dev *dev, struct io_context *ioc)
{
	counted_inc(dev, io_rmws, &ioc->refcount);
}

static inline void put_io_context(struct nb_dev *dev, struct io_context *ioc)
{
	if (counted_put(dev, io_rmws, &ioc->refcount))
		free(ioc);
}

static inline void xen_blkif_get(struct nb_dev *dev, struct xen_blkif *blkif)
{
	counted_inc(dev, io_rmws, &blkif->refcnt);
}

static inline void xen_blkif_put(struct nb_dev *dev, struct xen_blkif *blkif)
{
	if (counted_put(dev, io_rmws, &blkif->refcnt))
		free(blkif); /* schedule_work(free_work) */
}

/* setup-time operations: counted apart from the I/O path */
#define setup_get(dev, r) counted_inc(dev, setup_rmws, r)
#define setup_put(dev, r) counted_put(dev, setup_rmws, r)

/* exit_io_context -> put_io_context_active */
static void put_io_context_active(struct nb_dev *dev, struct io_context *ioc)
{
	if (setup_put(dev, &ioc->active_ref)) {
		/* the last active user: ioc_exit_icqs() would run here */
	}
	if (setup_put(dev, &ioc->refcount))
		free(ioc);
}

/* ---- end_io ------------------------------------------------------------ */

static inline void ki_complete(struct nb_task *t, struct nb_kiocb *iocb,
			       int res)
{
	iocb->res = res;
	llist_add(&iocb->node, &t->done); /* the iocb is fio's again */
}

/*
 * bio_endio: the bio's end_io for the path.  After it returns, the bio may
 * be gone (psync's bio lives on the waiter's stack).
 */
static inline void bio_endio(struct bio *bio)
{
	struct nb_dev *dev = bio->bi_dev;
	struct nb_task *t = bio->bi_task;
	struct nb_kiocb *iocb = bio->bi_private;
	int res = bio->bi_status;

	blk_queue_exit(dev); /* before fio may see the I/O done */
	switch (dev->o.path) {
	case NB_PATH_PSYNC:
		/* blkdev_bio_end_io_simple: wake the waiter, nothing else */
		ki_complete(t, iocb, res);
		break;
	case NB_PATH_LIBAIO_414:
		/* blkdev_bio_end_io, 4.14: the dio's extra ref, then ours */
		ki_complete(t, iocb, res);
		bio_put(bio);
		bio_put(bio);
		break;
	case NB_PATH_XEN_BLKBACK:
		/* end_block_io_op -> __end_block_io_op, then bio_put */
		ki_complete(t, iocb, res); /* make_response */
		xen_blkif_put(dev, dev->blkif);
		bio_put(bio);
		break;
	default:
		/* blkdev_bio_end_io, 5.4: never bio_get-ed, a plain free */
		ki_complete(t, iocb, res);
		bio_put(bio);
		break;
	}
}

/* a static (blk-mq) request changes hands: check and account it */
static inline void rq_change_state(struct nb_dev *dev, struct request *rq,
				   int from, int to, const char *bug)
{
#ifdef NULLBLK_DEBUG
	if (!atomic_compare_exchange_strong(&rq->state, &from, to))
		nb_bug(bug, rq);
#else
	(void)rq, (void)from, (void)to, (void)bug;
#endif
	live_add(dev, live_rqs, to == MQ_RQ_IN_FLIGHT ? 1 : -1);
}

/* blk_mq_free_request / __blk_put_request, then the driver tag */
static inline void free_request(struct nb_dev *dev, struct request *rq)
{
	struct blk_mq_hw_ctx *hctx = rq->hctx;
	unsigned int tag = rq->tag;

	if (rq->ioc)
		put_io_context(dev, rq->ioc);
	if (dev->o.queue_mode == NULL_Q_RQ) {
		pthread_spin_lock(&dev->queue_lock);
		if (rq->blkg)
			blkg_put(dev, rq->blkg); /* blk_put_rl */
		live_add(dev, live_rqs, -1);
		mempool_free(rq, &dev->rq_pool);
		pthread_spin_unlock(&dev->queue_lock);
	} else {
		rq_change_state(dev, rq, MQ_RQ_IN_FLIGHT, MQ_RQ_IDLE,
				"request freed twice");
	}
	put_tag(&hctx->tags, tag);
}

/* null_blk's end_cmd: blk_mq_end_request / blk_end_request_all / bio_endio */
static inline void end_cmd(struct request *rq)
{
	struct nb_dev *dev = rq->hctx->dev;

	bio_endio(rq->bio);
	free_request(dev, rq);
	if (injected(dev, INJECT_RQ_DOUBLE_FREE))
		free_request(dev, rq);
}

/* ---- completion threads: irqmode=1 (softirq) and 2 (timer) ------------- */

static void *completion_thread(void *arg)
{
	struct blk_mq_hw_ctx *hctx = arg;
	bool timer = hctx->dev->o.irqmode == NULL_IRQ_TIMER;

	while (!atomic_load(&hctx->stop) || atomic_load(&hctx->cq.head)) {
		struct llist_node *n = llist_del_all(&hctx->cq);

		if (!n) {
			llist_wait(&hctx->cq, &hctx->stop);
			continue;
		}
		while (n) {
			struct request *rq =
				container_of(n, struct request, ll);

			n = n->next;
			if (timer) /* the hrtimer's expiry */
				wait_until_ns(rq->deadline);
			end_cmd(rq);
		}
	}
	return NULL;
}

/* null_handle_cmd: complete the way irqmode says */
static inline void null_handle_cmd(struct nb_dev *dev, struct request *rq)
{
	switch (dev->o.irqmode) {
	case NULL_IRQ_SOFTIRQ:
		/* bio mode has no submitting CPU to steer to: inline */
		if (dev->o.queue_mode != NULL_Q_BIO) {
			llist_add(&rq->ll, &rq->hctx->cq);
			return;
		}
		break;
	case NULL_IRQ_TIMER:
		rq->deadline = now_ns() + dev->o.completion_nsec;
		llist_add(&rq->ll, &rq->hctx->cq);
		return;
	}
	end_cmd(rq);
}

/* ---- submit ------------------------------------------------------------ */

static inline struct request *get_request(struct nb_task *t, struct bio *bio)
{
	struct nb_dev *dev = t->dev;
	struct blk_mq_hw_ctx *hctx = t->hctx;
	struct request *rq;

	if (dev->o.queue_mode == NULL_Q_RQ) {
		/* get_request under the queue lock, blk_get_rl */
		pthread_spin_lock(&dev->queue_lock);
		rq = mempool_alloc(&dev->rq_pool);
		rq->blkg = NULL;
		if (dev->o.path == NB_PATH_LEGACY_BLKCG) {
			rq->blkg = dev->blkg;
			blkg_get(dev, rq->blkg);
		}
		live_add(dev, live_rqs, 1);
		pthread_spin_unlock(&dev->queue_lock);
		/* null_rq_prep_fn: the driver tag */
		rq->tag = get_tag_wait(&hctx->tags, &t->tag_hint);
	} else {
		/* blk_mq_get_request: the tag picks the static request */
		unsigned int tag = get_tag_wait(&hctx->tags, &t->tag_hint);

		rq = &hctx->rqs[tag];
		rq_change_state(dev, rq, MQ_RQ_IDLE, MQ_RQ_IN_FLIGHT,
				"request handed out twice");
		rq->tag = tag;
		rq->blkg = NULL;
	}
	rq->hctx = hctx;
	rq->bio = bio;
	rq->ioc = NULL;
	if (dev->o.path == NB_PATH_BFQ_IOC) {
		/* blk_mq_sched_assign_ioc / CFQ's get_request */
		rq->ioc = t->ioc;
		get_io_context(dev, rq->ioc);
	}
	return rq;
}

static inline void submit_bio(struct nb_task *t, struct bio *bio)
{
	null_handle_cmd(t->dev, get_request(t, bio));
}

static inline void bio_setup(struct bio *bio, struct nb_task *t,
			     struct nb_kiocb *iocb)
{
	bio->bi_dev = t->dev;
	bio->bi_task = t;
	bio->bi_private = iocb;
	bio->bi_sector = iocb->pos >> 9;
	bio->bi_size = iocb->len;
	bio->bi_write = iocb->write;
	bio->bi_status = 0;
}

static unsigned int nb_reap(struct nb_task *t, unsigned int min,
			    unsigned int max, struct nb_kiocb **out)
{
	return aio_reap(&t->ready, &t->done, min, max, out);
}

static bool nb_submit(struct nb_task *t, struct nb_kiocb *iocb)
{
	struct nb_dev *dev = t->dev;
	struct bio *bio;

	count_io(dev);
	blk_queue_enter(dev);
	switch (dev->o.path) {
	case NB_PATH_PSYNC: {
		/* __blkdev_direct_IO_simple: a bio on the stack, then wait */
		struct bio stack_bio;
		struct nb_kiocb *done;

		live_add(dev, live_bios, 1);
		bio_init(&stack_bio);
		bio_setup(&stack_bio, t, iocb);
		submit_bio(t, &stack_bio);
		if (nb_reap(t, 1, 1, &done) != 1 || done != iocb)
			nb_bug("psync woke for another I/O", iocb);
		live_add(dev, live_bios, -1); /* bio_uninit */
		return true;
	}
	case NB_PATH_XEN_BLKBACK:
		/* dispatch_rw_block_io takes the ring's ref first */
		xen_blkif_get(dev, dev->blkif);
		break;
	default:
		break;
	}
	bio = bio_alloc(dev);
	bio_setup(bio, t, iocb);
	if (dev->o.path == NB_PATH_LIBAIO_414)
		bio_get(bio); /* extra ref for the completion handler */
	submit_bio(t, bio);
	return false;
}

/* ---- setup and teardown ------------------------------------------------ */

static void dev_free(struct nb_dev *dev)
{
	for (unsigned int i = 0; dev->hctx && i < dev->nr_hctx; i++) {
		sbitmap_free(&dev->hctx[i].tags);
		free(dev->hctx[i].rqs);
	}
	free(dev->hctx);
	mempool_exit(&dev->bio_pool);
	if (dev->o.queue_mode == NULL_Q_RQ)
		mempool_exit(&dev->rq_pool);
	pthread_spin_destroy(&dev->queue_lock);
	pthread_mutex_destroy(&dev->task_lock);
	free(dev);
}

static void nb_dev_destroy(struct nb_dev *dev, struct nb_stats *st);

static struct nb_dev *nb_dev_create(const struct nb_opts *o, const char **err)
{
	struct nb_dev *dev = calloc(1, sizeof(*dev));

	*err = NULL;
	if (o->path == NB_PATH_LEGACY_BLKCG && o->queue_mode != NULL_Q_RQ)
		*err = "path=legacy-blkcg is the legacy request path "
		       "(blk_get_rl): it needs queue_mode=1";
	if (o->path == NB_PATH_BFQ_IOC && o->queue_mode == NULL_Q_BIO)
		*err = "path=bfq-ioc needs an I/O scheduler, so requests: "
		       "queue_mode=1 (CFQ) or 2 (BFQ)";
	if (*err || !dev) {
		free(dev);
		if (!*err)
			*err = "out of memory";
		return NULL;
	}
	dev->o = *o;
	/* 1 to the CPU count: the engine refuses others (null_blk clamps) */
	dev->nr_hctx = dev->o.submit_queues;
	pthread_spin_init(&dev->queue_lock, PTHREAD_PROCESS_PRIVATE);
	pthread_mutex_init(&dev->task_lock, NULL);
	instr_init(&dev->instr);

	unsigned int depth = dev->o.hw_queue_depth;
	int min_nr = (int)(depth * dev->nr_hctx);

	dev->hctx = calloc(dev->nr_hctx, sizeof(*dev->hctx));
	if (!dev->hctx ||
	    mempool_init(&dev->bio_pool, min_nr, sizeof(struct bio)) ||
	    (o->queue_mode == NULL_Q_RQ &&
	     mempool_init(&dev->rq_pool, min_nr, sizeof(struct request))))
		goto nomem;
	for (unsigned int i = 0; i < dev->nr_hctx; i++) {
		struct blk_mq_hw_ctx *hctx = &dev->hctx[i];

		hctx->dev = dev;
		hctx->rqs = aligned_alloc(64, depth * sizeof(*hctx->rqs));
		if (sbitmap_init(&hctx->tags, depth) || !hctx->rqs)
			goto nomem;
		memset(hctx->rqs, 0, depth * sizeof(*hctx->rqs));
	}

	/* the setup-only counters */
	dev->bqt = malloc(sizeof(*dev->bqt));
	dev->bsg = malloc(sizeof(*dev->bsg));
	dev->blkif = malloc(sizeof(*dev->blkif));
	dev->blkg = malloc(sizeof(*dev->blkg));
	if (!dev->bqt || !dev->bsg || !dev->blkif || !dev->blkg)
		goto nomem;
	/* blk_queue_init_tags: the first queue creates the map ... */
	refcount_set(&dev->bqt->refcnt, 1);
	/* ... every further queue shares it */
	for (unsigned int i = 1; i < dev->nr_hctx; i++)
		setup_get(dev, &dev->bqt->refcnt);
	refcount_set(&dev->bsg->ref_count, 1); /* bsg_add_device */
	refcount_set(&dev->blkif->refcnt, 1); /* xen_blkif_alloc */
	refcount_set(&dev->blkg->refcnt, 1); /* blkg_create: blkcg's ref */
	/* blk_alloc_queue: q_usage_counter, with the queue's own reference */
	refcount_set(&dev->q_usage_refs, 1);
	if (percpu_ref_init(&dev->q_usage_counter, q_usage_release, 0))
		goto nomem;

	for (unsigned int i = 0; i < dev->nr_hctx; i++) {
		struct blk_mq_hw_ctx *hctx = &dev->hctx[i];

		if (dev->o.irqmode == NULL_IRQ_NONE ||
		    (dev->o.irqmode == NULL_IRQ_SOFTIRQ &&
		     dev->o.queue_mode == NULL_Q_BIO))
			continue;
		if (pthread_create(&hctx->thread, NULL, completion_thread,
				   hctx)) {
			*err = "cannot start a completion thread";
			nb_dev_destroy(dev, NULL);
			return NULL;
		}
		hctx->has_thread = true;
	}
	return dev;
nomem:
	free(dev->bqt);
	free(dev->bsg);
	free(dev->blkif);
	free(dev->blkg);
	*err = "out of memory";
	dev_free(dev);
	return NULL;
}

static void nb_dev_destroy(struct nb_dev *dev, struct nb_stats *st)
{
	for (unsigned int i = 0; i < dev->nr_hctx; i++) {
		struct blk_mq_hw_ctx *hctx = &dev->hctx[i];

		if (!hctx->has_thread)
			continue;
		llist_stop(&hctx->cq, &hctx->stop);
		pthread_join(hctx->thread, NULL);
	}
	/* blk_freeze_queue at cleanup: no I/O is left, so it reaches 0 */
	percpu_ref_kill(&dev->q_usage_counter);
	if (!percpu_ref_is_zero(&dev->q_usage_counter) ||
	    !refcount_dec_and_test(&dev->q_usage_refs))
		nb_bug("q_usage_counter still held at teardown", dev);
	percpu_ref_exit(&dev->q_usage_counter);
	/* release the setup references; the last put frees */
	for (unsigned int i = 0; i < dev->nr_hctx; i++)
		if (setup_put(dev, &dev->bqt->refcnt)) /* blk_free_tags */
			free(dev->bqt);
	if (setup_put(dev, &dev->bsg->ref_count))
		free(dev->bsg);
	/* xen_blkif_disconnect */
	if (setup_put(dev, &dev->blkif->refcnt))
		free(dev->blkif);
	if (setup_put(dev, &dev->blkg->refcnt)) /* blkg_destroy */
		free(dev->blkg);
	while (dev->tasks) {
		struct nb_task *t = dev->tasks;

		dev->tasks = t->next_task;
		free(t);
	}
	if (st)
		instr_report(&dev->instr, st);
	dev_free(dev);
}

static struct nb_task *nb_task_open(struct nb_dev *dev, unsigned int index)
{
	struct nb_task *t = aligned_alloc(64, sizeof(*t));

	if (!t)
		return NULL;
	memset(t, 0, sizeof(*t));
	t->dev = dev;
	t->hctx = &dev->hctx[index % dev->nr_hctx];
	/* create_task_io_context: both counts start at 1 */
	t->ioc = malloc(sizeof(*t->ioc));
	if (!t->ioc) {
		free(t);
		return NULL;
	}
	refcount_set(&t->ioc->refcount, 1);
	refcount_set(&t->ioc->active_ref, 1);
	setup_get(dev, &dev->bsg->ref_count); /* __bsg_get_device */
	pthread_mutex_lock(&dev->task_lock);
	t->next_task = dev->tasks;
	dev->tasks = t;
	pthread_mutex_unlock(&dev->task_lock);
	return t;
}

/*
 * The task exits.  Its requests may still be finishing on a completion
 * thread (the fio event comes before the request is freed), so the task
 * stays allocated until the device goes; its io_context lives as long as
 * a request holds it.
 */
static void nb_task_close(struct nb_task *t)
{
	struct nb_dev *dev = t->dev;

	put_io_context_active(dev, t->ioc); /* exit_io_context */
	t->ioc = NULL;
	if (setup_put(dev, &dev->bsg->ref_count)) /* bsg_put_device */
		nb_bug("bsg_device freed while the device is up", dev->bsg);
}

const struct nb_breed_ops NB_OPS = {
	.name = REFCOUNT_BREED_NAME,
	.dev_create = nb_dev_create,
	.dev_destroy = nb_dev_destroy,
	.task_open = nb_task_open,
	.task_close = nb_task_close,
	.submit = nb_submit,
	.reap = nb_reap,
};

// SPDX-License-Identifier: MIT
/*
 * engine.c: the fio side of the userspace null_blk (engine name "nullblk").
 *
 *   fio --ioengine=external:build/fio-nullblk.so --path=libaio-4.14 \
 *       --refcount=full --rw=randread --bs=4k --size=1g --name=nb
 *
 * fio 3.33 dlopens the file and looks up the symbol "ioengine" (a struct
 * ioengine_ops); its .options carry null_blk's parameters plus path= and
 * refcount=.  Each job opens the device that its options describe (jobs
 * with equal options share one, as fio jobs share /dev/nullb0; with
 * thread=1 they share it in memory) and picks its breed's table of block
 * layer operations once, at init.
 *
 * The breeds are the rows of <refcount/breed/registry.h>, in its order:
 * the table below and refcount='s values (options.c, with the other
 * options) are generated from it.
 */
#include <errno.h>
#include <string.h>

#include <fio.h>
#include <optgroup.h>

#include <refcount/percpu_ref.h>

#include "cycles.h"
#include "nullblk.h"
#include "options.h"

#define NB_BREED_TABLE(name, NAME, id, max, saturated)                         \
	[NB_BREED_##NAME] = &nb_breed_##name,
static const struct nb_breed_ops *const breeds[NB_NR_BREEDS] = {
	REFCOUNT_FOR_EACH_THREADED_BREED(NB_BREED_TABLE)
};

static void nb_no_release(struct percpu_ref *ref)
{
	(void)ref;
}

/*
 * percpu_ref's first init in a process chooses its fast path and registers
 * membarrier(), which costs a grace period (milliseconds) once the process
 * has threads; done here, when fio loads the engine, it is out of the jobs'
 * way (a job's device, and so its q_usage_counter, is made at job init).
 */
__attribute__((constructor)) static void nb_percpu_init(void)
{
	struct percpu_ref warm;

	if (!percpu_ref_init(&warm, nb_no_release, 0))
		percpu_ref_exit(&warm);
}

/* ---- devices: one per distinct option set, shared by the jobs ---------- */

/*
 * Whether two jobs share a device depends on whether the second opens it
 * before the first has closed it: a matter of scheduling.  So a device
 * names itself (a number in the order made) and the fio job numbers that
 * used it when it reports at teardown; a test adds up the reports per
 * breed and per job, whatever the number of devices made.
 */
struct nb_devref {
	struct nb_devref *next;
	struct nb_opts o;
	const struct nb_breed_ops *ops;
	struct nb_dev *dev;
	unsigned int users, number;
	unsigned int nr_jobs; /* jobs[]: the fio job numbers, in open order */
	unsigned int *jobs;
};

static pthread_mutex_t devs_lock = PTHREAD_MUTEX_INITIALIZER;
static struct nb_devref *devs;
static unsigned int devs_made;

static bool same_opts(const struct nb_opts *a, const struct nb_opts *b)
{
	return a->queue_mode == b->queue_mode &&
	       a->submit_queues == b->submit_queues &&
	       a->hw_queue_depth == b->hw_queue_depth &&
	       a->irqmode == b->irqmode &&
	       a->completion_nsec == b->completion_nsec && a->path == b->path &&
	       a->breed == b->breed && a->q_usage == b->q_usage &&
	       a->slot == b->slot;
}

/* @job: fio's job number (td->thread_number), as the device reports it */
static struct nb_devref *devref_get(const struct nb_opts *o, unsigned int job,
				    const char **err)
{
	struct nb_devref *d;
	unsigned int *jobs;

	pthread_mutex_lock(&devs_lock);
	for (d = devs; d; d = d->next)
		if (same_opts(&d->o, o))
			break;
	if (!d) {
		d = calloc(1, sizeof(*d));
		if (!d) {
			*err = "out of memory";
			goto out;
		}
		d->o = *o;
		d->ops = breeds[o->breed];
		d->dev = d->ops->dev_create(o, err);
		if (!d->dev) {
			free(d);
			d = NULL;
			goto out;
		}
		d->number = ++devs_made;
		d->next = devs;
		devs = d;
	}
	jobs = realloc(d->jobs, (d->nr_jobs + 1) * sizeof(*jobs));
	if (!jobs) {
		*err = "out of memory";
		if (!d->users) { /* just made: no job holds it */
			devs = d->next;
			d->ops->dev_destroy(d->dev, NULL);
			free(d);
		}
		d = NULL;
		goto out;
	}
	d->jobs = jobs;
	d->jobs[d->nr_jobs++] = job;
	d->users++;
out:
	pthread_mutex_unlock(&devs_lock);
	return d;
}

static const char *const path_names[NB_NR_PATHS] = {
	"psync",	"libaio-4.14", "libaio-5.4",
	"legacy-blkcg", "bfq-ioc",     "xen-blkback",
};

/*
 * A device's one line at teardown, on stderr (stdout may be fio's JSON):
 * which device and which jobs used it, then what it counted.  One
 * log_err(), so one write: the lines of two devices torn down at once
 * do not interleave.  nbtool.py (nbdevs.py) reads it.
 */
static void devref_report(const struct nb_devref *d, const struct nb_stats *st)
{
	char *line = NULL;
	size_t len = 0;
	FILE *f;

	if (!st->counted && !st->checked && !st->saturations)
		return;
	f = open_memstream(&line, &len);
	if (!f)
		return;
	fprintf(f, "nullblk: device %u path=%s refcount=%s", d->number,
		path_names[d->o.path], d->ops->name);
	if (d->o.interleave_same)
		fprintf(f, " slot=%u", d->o.slot);
	for (unsigned int i = 0; i < d->nr_jobs; i++)
		fprintf(f, "%s%u", i ? "," : " jobs=", d->jobs[i]);
	fprintf(f, ": %llu I/Os", (unsigned long long)st->ios);
	if (st->counted)
		fprintf(f,
			", %llu refcount RMWs on the I/O path (%.3f per I/O), "
			"%llu at open/close",
			(unsigned long long)st->io_rmws,
			st->ios ? (double)st->io_rmws / (double)st->ios : 0.0,
			(unsigned long long)st->setup_rmws);
	if (st->checked)
		fprintf(f, "; bios not freed: %ld, requests not freed: %ld",
			st->live_bios, st->live_rqs);
	if (st->saturations)
		fprintf(f, "; %lu refcount_t warnings on this device",
			st->saturations);
	if (fclose(f) == 0)
		log_err("%s\n", line);
	free(line);
}

/* The last user tears the device down and reports what it counted. */
static void devref_put(struct nb_devref *d)
{
	struct nb_devref **pp;
	struct nb_stats st;

	pthread_mutex_lock(&devs_lock);
	if (--d->users) {
		pthread_mutex_unlock(&devs_lock);
		return;
	}
	for (pp = &devs; *pp != d; pp = &(*pp)->next)
		;
	*pp = d->next;
	pthread_mutex_unlock(&devs_lock);

	d->ops->dev_destroy(d->dev, &st);
	devref_report(d, &st);
	if (st.checked && (st.live_bios || st.live_rqs || st.saturations)) {
		log_err("nullblk: BUG: leaked or saturated objects\n");
		abort();
	}
	free(d->jobs);
	free(d);
}

/* ---- per job ----------------------------------------------------------- */

struct nb_job {
	struct nb_devref *devref;
	const struct nb_breed_ops *ops;
	struct nb_task *task;
	struct nb_kiocb **events;
	bool cycles; /* cycles=1 */
	struct nb_cycles cyc;
	/* every breed's device with interleave=N, else the one: the current
	 * slice's is devref, ops and task above */
	unsigned int nr_dev, interleave;
	struct nb_devref *devs[NB_NR_BREEDS];
	struct nb_task *tasks[NB_NR_BREEDS];
	struct nb_slices sl;
	unsigned int prev; /* the previous slice's breed */
	bool prev_drained; /* and its task has nothing left to reap */
};

extern struct ioengine_ops ioengine;
static void fio_nullblk_cleanup(struct thread_data *td);

static int fio_nullblk_init(struct thread_data *td)
{
	struct nb_opts *o = td->eo;
	const char *err = NULL;
	struct nb_job *j;

	/* the parser checked each value; these fail only on a foreign fio */
	if (td->io_ops != &ioengine || !o || o->breed >= NB_NR_BREEDS ||
	    o->q_usage >= NB_NR_Q_USAGE || o->path >= NB_NR_PATHS ||
	    o->queue_mode > NULL_Q_MQ || o->irqmode > NULL_IRQ_TIMER ||
	    !o->submit_queues || !o->hw_queue_depth) {
		log_err("nullblk: engine options missing: was this engine "
			"built against the headers of this fio?\n");
		return 1;
	}
	if (o->interleave && o->irqmode != NULL_IRQ_NONE) {
		log_err("nullblk: interleave=%u needs irqmode=0 (every I/O "
			"completes in its submit, on its slice's device)\n",
			o->interleave);
		td_verror(td, EINVAL, "nullblk init");
		return 1;
	}
	if (o->interleave_same && !o->interleave) {
		log_err("nullblk: interleave_same=1 needs interleave=N (it "
			"puts refcount='s breed in every slice)\n");
		td_verror(td, EINVAL, "nullblk init");
		return 1;
	}
	j = calloc(1, sizeof(*j));
	if (!j)
		return 1;
	td->io_ops_data = j;
	j->events =
		calloc(td->o.iodepth ? td->o.iodepth : 1, sizeof(*j->events));
	/* interleave=N: a device of every breed, and a task on each */
	j->nr_dev = o->interleave ? NB_NR_BREEDS : 1;
	for (unsigned int i = 0; j->events && i < j->nr_dev; i++) {
		struct nb_opts oi = *o;

		/* interleave_same: a device per slot, as with every breed */
		if (o->interleave && !o->interleave_same)
			oi.breed = i;
		else if (o->interleave)
			oi.slot = i;
		j->devs[i] = devref_get(&oi, td->thread_number, &err);
		if (!j->devs[i])
			break;
		j->tasks[i] = j->devs[i]->ops->task_open(j->devs[i]->dev,
							 td->thread_number - 1);
		if (!j->tasks[i])
			break;
	}
	if (!j->events || !j->tasks[j->nr_dev - 1]) {
		log_err("nullblk: %s\n", err ? err : "out of memory");
		td_verror(td, EINVAL, "nullblk init");
		fio_nullblk_cleanup(td);
		return 1;
	}
	j->devref = j->devs[0];
	j->ops = j->devref->ops;
	j->task = j->tasks[0];
	j->cycles = o->cycles;
	j->interleave = o->interleave;
	j->sl.timed = !td->o.ramp_time;
	/*
	 * stderr: stdout may be fio's JSON.  job=: fio's job number, which
	 * tells apart the clones of one section (numjobs=), as the device
	 * lines name them; one log_err(), one write, one line.
	 */
	if (j->interleave)
		log_err("nullblk: job %s: refcount=%s%s, %u I/Os each in turn, "
			"path=%s queue_mode=%u irqmode=%u job=%u\n",
			td->o.name,
			o->interleave_same ? j->ops->name : "every breed",
			o->interleave_same ? " on every device" : "",
			j->interleave, path_names[o->path], o->queue_mode,
			o->irqmode, td->thread_number);
	else
		log_err("nullblk: job %s: refcount=%s path=%s queue_mode=%u "
			"irqmode=%u job=%u\n",
			td->o.name, j->ops->name, path_names[o->path],
			o->queue_mode, o->irqmode, td->thread_number);
	return 0;
}

/* interleave=N: the slices to the file slice_log names, .<job number> */
static void nb_slices_write(struct thread_data *td, struct nb_job *j)
{
	struct nb_opts *o = td->eo;
	char path[4096];
	FILE *f;

	if (!o->slice_log || !*o->slice_log)
		return;
	snprintf(path, sizeof(path), "%s.%d", o->slice_log, td->thread_number);
	f = fopen(path, "w");
	if (!f) {
		log_err("nullblk: slice_log %s: %s\n", path, strerror(errno));
		return;
	}
	fprintf(f,
		"# nullblk slices: job %s unit=%s cap=%u breeds=", td->o.name,
		NB_CYCLES_UNIT, NB_CYCLES_CAP);
	for (unsigned int i = 0; i < j->nr_dev; i++)
		fprintf(f, "%s%s", i ? "," : "", j->devs[i]->ops->name);
	fprintf(f, "\n# round breed ios over engine wall\n");
	for (size_t k = 0; k < j->sl.n; k++) {
		const struct nb_slice *s = &j->sl.log[k];

		fprintf(f, "%llu %u %u %u %llu %llu\n",
			(unsigned long long)s->round, s->breed, s->ios, s->over,
			(unsigned long long)s->engine,
			(unsigned long long)s->wall);
	}
	fclose(f);
}

static void fio_nullblk_cleanup(struct thread_data *td)
{
	struct nb_job *j = td->io_ops_data;

	if (!j)
		return;
	/* stderr: stdout may be fio's JSON; nbtool.py reads this line */
	if (j->cycles && j->task)
		log_err("nullblk: job %s: cycles unit=%s cap=%u ios=%llu "
			"engine=%llu over=%llu span_ios=%llu cpu_ns=%llu "
			"wall=%llu iqm=%.3f job=%u\n",
			td->o.name, NB_CYCLES_UNIT, NB_CYCLES_CAP,
			(unsigned long long)j->cyc.ios,
			(unsigned long long)j->cyc.engine,
			(unsigned long long)j->cyc.over,
			(unsigned long long)(j->cyc.ios1 - j->cyc.ios0),
			(unsigned long long)(j->cyc.cpu1_ns - j->cyc.cpu0_ns),
			(unsigned long long)(j->cyc.wall1 - j->cyc.wall0),
			nb_cycles_iqm(&j->cyc), td->thread_number);
	if (j->interleave && j->task)
		nb_slices_write(td, j);
	for (unsigned int i = 0; i < j->nr_dev; i++) {
		if (j->tasks[i])
			j->devs[i]->ops->task_close(j->tasks[i]);
		if (j->devs[i])
			devref_put(j->devs[i]);
	}
	free(j->sl.log);
	free(j->events);
	free(j);
	td->io_ops_data = NULL;
}

static enum fio_q_status fio_nullblk_queue(struct thread_data *td,
					   struct io_u *io_u)
{
	struct nb_job *j = td->io_ops_data;
	struct nb_kiocb *iocb = io_u->engine_data;
	bool done;

	fio_ro_check(td, io_u);
	if (io_u->ddir != DDIR_READ && io_u->ddir != DDIR_WRITE)
		return FIO_Q_COMPLETED; /* null_blk has no cache to flush */

	iocb->pos = io_u->offset;
	iocb->len = (uint32_t)io_u->xfer_buflen;
	iocb->write = io_u->ddir == DDIR_WRITE;
	iocb->res = 0;
	/* io_submit time: what clat counts from, as fio's libaio does */
	if (fio_fill_issue_time(td)) {
		fio_gettime(&io_u->issue_time, NULL);
		io_u_queued(td, io_u);
	}
	if (j->interleave) {
		uint64_t t0 = nb_cycles();

		if (j->sl.cur.ios == j->interleave) {
			unsigned int prev = j->sl.cur.breed,
				     b = nb_slice_next(
					     &j->sl, t0,
					     !td->o.ramp_time ||
						     td->ramp_time_over,
					     j->nr_dev);

			j->prev = prev;
			j->prev_drained = false;
			j->devref = j->devs[b];
			j->ops = j->devref->ops;
			j->task = j->tasks[b];
		}
		done = j->ops->submit(j->task, iocb);
		nb_slice_add(&j->sl, t0, nb_cycles());
	} else if (j->cycles && (!td->o.ramp_time || td->ramp_time_over)) {
		/* cycles.h: the same two clock reads for every breed */
		uint64_t t0 = nb_cycles();

		done = j->ops->submit(j->task, iocb);
		nb_cycles_add(&j->cyc, t0, nb_cycles());
	} else {
		done = j->ops->submit(j->task, iocb);
	}
	if (done) {
		io_u->error = -iocb->res;
		return FIO_Q_COMPLETED;
	}
	return FIO_Q_QUEUED;
}

static int fio_nullblk_getevents(struct thread_data *td, unsigned int min,
				 unsigned int max,
				 const struct timespec __attribute__((unused)) *
					 t)
{
	struct nb_job *j = td->io_ops_data;
	unsigned int n = 0, order[NB_NR_BREEDS], nr = 0, cur;

	if (j->nr_dev == 1)
		return (int)j->ops->reap(j->task, min, max, j->events);
	/*
	 * interleave: irqmode=0, so every I/O fio queued is done already: on
	 * the previous slice's task (the ones in flight when the slice
	 * changed) or on the current one's.  Oldest first, as a completion
	 * queue is: the previous slice's, then the current one's, then any
	 * other (none while a slice is longer than the queue depth); the
	 * previous one only until a reap finds it empty.  Up to 0.4.0 the
	 * current one came first, and with one breed on every device the
	 * slices of devices 1-3 measured 0.6-2.6% fewer IOPS than device 0's
	 * in 11 of 13 runs; oldest first, they do not (make nullblk-bench-aa;
	 * lab/nullblk.md, "The noise floor").  How the order favoured device
	 * 0 was not pinned down.
	 */
	cur = j->sl.cur.breed;
	if (!j->prev_drained)
		order[nr++] = j->prev;
	if (cur != j->prev || j->prev_drained)
		order[nr++] = cur;
	for (unsigned int i = 0; i < j->nr_dev; i++)
		if (i != cur && i != j->prev)
			order[nr++] = i;
	for (unsigned int k = 0; k < nr && n < max; k++) {
		unsigned int i = order[k],
			     got = j->devs[i]->ops->reap(
				     j->tasks[i], 0, max - n, j->events + n);

		/* fewer than asked: nothing is left on the previous one */
		if (i == j->prev && got < max - n)
			j->prev_drained = true;
		n += got;
	}
	return (int)n;
}

static struct io_u *fio_nullblk_event(struct thread_data *td, int event)
{
	struct nb_job *j = td->io_ops_data;
	struct nb_kiocb *iocb = j->events[event];
	struct io_u *io_u = iocb->io_u;

	io_u->error = -iocb->res;
	return io_u;
}

static int fio_nullblk_io_u_init(struct thread_data __attribute__((unused)) *
					 td,
				 struct io_u *io_u)
{
	struct nb_kiocb *iocb = calloc(1, sizeof(*iocb));

	if (!iocb)
		return 1;
	iocb->io_u = io_u;
	io_u->engine_data = iocb;
	return 0;
}

static void fio_nullblk_io_u_free(struct thread_data __attribute__((unused)) *
					  td,
				  struct io_u *io_u)
{
	free(io_u->engine_data);
	io_u->engine_data = NULL;
}

static int fio_nullblk_file_noop(struct thread_data __attribute__((unused)) *
					 td,
				 struct fio_file __attribute__((unused)) * f)
{
	return 0;
}

__attribute__((visibility("default"))) struct ioengine_ops ioengine = {
	.name = "nullblk",
	.version = FIO_IOOPS_VERSION,
	.flags = FIO_DISKLESSIO | FIO_NODISKUTIL | FIO_ASYNCIO_SETS_ISSUE_TIME,
	.init = fio_nullblk_init,
	.cleanup = fio_nullblk_cleanup,
	.queue = fio_nullblk_queue,
	.getevents = fio_nullblk_getevents,
	.event = fio_nullblk_event,
	.io_u_init = fio_nullblk_io_u_init,
	.io_u_free = fio_nullblk_io_u_free,
	.open_file = fio_nullblk_file_noop,
	.close_file = fio_nullblk_file_noop,
	.options = nb_options,
	.option_struct_size = sizeof(struct nb_opts),
};

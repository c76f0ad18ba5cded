// SPDX-License-Identifier: MIT
/*
 * options.c: the engine's fio options (nb_options[], engine.c's
 * ioengine.options): null_blk's parameters, path=, refcount=, q_usage= and
 * the engine's own (cycles=, interleave=, interleave_same=, slice_log=),
 * with the parsers of the numeric ones.  A unit of its own, compiled
 * against fio's headers as engine.c is.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include <fio.h>
#include <optgroup.h>

#include <refcount/refcount.h> /* REFCOUNT_BREED_NAME: the default breed */

#include "breed-help.h"
#include "cycles.h" /* NB_CYCLES_UNIT, for cycles='s help */
#include "nullblk.h"
#include "options.h"

/*
 * refcount='s values: one per breed, in the registry's order.  refcount=
 * defaults to the library's default breed, and each value's help line,
 * NB_BREED_HELP_<name>, is the summary line of the breed's header
 * (breed-help.h, which lab/nullblk/nullblk.mk writes from those headers).
 */
#define NB_BREED_POSVAL(name, NAME, id, max, saturated)                        \
	{ .ival = #name,                                                       \
	  .oval = NB_BREED_##NAME,                                             \
	  .help = NB_BREED_HELP_##name },
_Static_assert(NB_NR_BREEDS <= PARSE_MAX_VP, "more breeds than fio's posval");

#define NB_OPT(nm, ln, field, hlp, dflt)                                       \
	.name = nm, .lname = ln, .off1 = offsetof(struct nb_opts, field),      \
	.help = hlp, .def = dflt, .category = FIO_OPT_C_ENGINE,                \
	.group = FIO_OPT_G_INVALID

/*
 * The numeric options are parsed by the engine (nb_parse_num), not by fio:
 * fio reads "-1" as a range from "" to "1", warns about its first half and
 * runs with the default, and it knows no CPU count for submit_queues.  So
 * they are strings to fio, with no offset, and a callback per option.  The
 * callback refuses anything but a decimal integer that is one of .posval
 * or within [.minval, .maxval] (these also feed fio --enghelp), naming the
 * option, the value and what it accepts; fio then fails parsing, before any
 * job starts.
 */
#define NB_NUM_OPT(nm, ln, field, hlp, dflt)                                   \
	.name = nm, .lname = ln, .cb = parse_##field, .help = hlp,             \
	.def = dflt, .type = FIO_OPT_STR_STORE, .category = FIO_OPT_C_ENGINE,  \
	.group = FIO_OPT_G_INVALID

static int nb_parse_num(const char *name, const char *s, unsigned long long *v);

#define NB_NUM_PARSER(field)                                                   \
	static int parse_##field(void *data, const char *s)                    \
	{                                                                      \
		struct nb_opts *o = data;                                      \
		unsigned long long v;                                          \
                                                                               \
		if (nb_parse_num(#field, s, &v))                               \
			return 1;                                              \
		o->field = (__typeof__(o->field))v;                            \
		return 0;                                                      \
	}
NB_NUM_PARSER(queue_mode)
NB_NUM_PARSER(submit_queues)
NB_NUM_PARSER(hw_queue_depth)
NB_NUM_PARSER(irqmode)
NB_NUM_PARSER(completion_nsec)
NB_NUM_PARSER(cycles)
NB_NUM_PARSER(interleave)
NB_NUM_PARSER(interleave_same)

struct fio_option nb_options[] = {
	{
		NB_NUM_OPT("queue_mode", "null_blk queue mode", queue_mode,
			   "null_blk queue_mode", "2"),
		.posval = {
			{ .ival = "0", .oval = NULL_Q_BIO,
			  .help = "bio-based (make_request_fn)" },
			{ .ival = "1", .oval = NULL_Q_RQ,
			  .help = "legacy single queue (request_fn)" },
			{ .ival = "2", .oval = NULL_Q_MQ, .help = "blk-mq" },
		},
	},
	{
		/* .maxval: the online CPUs, set when the engine is loaded */
		NB_NUM_OPT("submit_queues", "null_blk submit queues",
			   submit_queues,
			   "hardware or driver queues, at most the CPUs online",
			   "1"),
		.minval = 1,
	},
	{
		NB_NUM_OPT("hw_queue_depth", "null_blk queue depth",
			   hw_queue_depth, "tags per hardware queue", "64"),
		.minval = 1,
		.maxval = 1 << 16,
	},
	{
		NB_NUM_OPT("irqmode", "null_blk IRQ mode", irqmode,
			   "how requests complete", "1"),
		.posval = {
			{ .ival = "0", .oval = NULL_IRQ_NONE,
			  .help = "none: inline, in the submitter" },
			{ .ival = "1", .oval = NULL_IRQ_SOFTIRQ,
			  .help = "softirq: the queue's completion thread" },
			{ .ival = "2", .oval = NULL_IRQ_TIMER,
			  .help = "timer: after completion_nsec" },
		},
	},
	{
		NB_NUM_OPT("completion_nsec", "null_blk completion time",
			   completion_nsec,
			   "completion delay with irqmode=2, in ns", "10000"),
		.maxval = 10000000000ULL,
	},
	{
		NB_OPT("path", "kernel path", path,
		       "which kernel path's refcount traffic each I/O carries",
		       "libaio-4.14"),
		.type = FIO_OPT_STR,
		.posval = {
			{ .ival = "psync", .oval = NB_PATH_PSYNC,
			  .help = "sync O_DIRECT, on-stack bio: 0 RMW/IO" },
			{ .ival = "libaio-4.14", .oval = NB_PATH_LIBAIO_414,
			  .help = "4.14 async O_DIRECT: bio_get + 2 bio_put" },
			{ .ival = "libaio-5.4", .oval = NB_PATH_LIBAIO_54,
			  .help = "5.4 async O_DIRECT: 0 RMW/IO" },
			{ .ival = "legacy-blkcg",
			  .oval = NB_PATH_LEGACY_BLKCG,
			  .help = "legacy rq, non-root blkcg: blkg get/put" },
			{ .ival = "bfq-ioc", .oval = NB_PATH_BFQ_IOC,
			  .help = "BFQ/CFQ: io_context get/put per request" },
			{ .ival = "xen-blkback",
			  .oval = NB_PATH_XEN_BLKBACK,
			  .help = "Xen blkback: xen_blkif get/put per req" },
		},
	},
	{
		NB_OPT("refcount", "refcount_t breed", breed,
		       "the refcount_t breed of the six counters",
		       REFCOUNT_BREED_NAME),
		.type = FIO_OPT_STR,
		.posval = { REFCOUNT_FOR_EACH_THREADED_BREED(NB_BREED_POSVAL) },
	},
	{
		NB_OPT("q_usage", "q_usage_counter", q_usage,
		       "what the per-I/O queue usage counter is", "percpu"),
		.type = FIO_OPT_STR,
		.posval = {
			{ .ival = "percpu", .oval = NB_Q_USAGE_PERCPU,
			  .help = "struct percpu_ref, as blk-mq's" },
			{ .ival = "refcount", .oval = NB_Q_USAGE_REFCOUNT,
			  .help = "a refcount_t of the refcount= breed" },
		},
	},
	{
		NB_NUM_OPT("cycles", "engine cycle accounting", cycles,
			   "the engine's own cycles per I/O, on stderr at the "
			   "job's end",
			   "0"),
		.posval = {
			{ .ival = "0", .oval = 0, .help = "off" },
			{ .ival = "1", .oval = 1,
			  .help = "on: clock around each submit (" NB_CYCLES_UNIT
				  "), CPU time per checkpoint" },
		},
	},
	{
		NB_NUM_OPT("interleave", "every breed, in slices", interleave,
			   "I/Os per slice, each breed's device in turn "
			   "(irqmode=0; 0: off, refcount= alone)",
			   "0"),
		.maxval = 1 << 20,
	},
	{
		NB_NUM_OPT("interleave_same", "one breed in every slice",
			   interleave_same,
			   "with interleave=, every slice's device of the "
			   "refcount= breed: the interleaving's A/A control",
			   "0"),
		.posval = {
			{ .ival = "0", .oval = 0, .help = "off: every breed" },
			{ .ival = "1", .oval = 1,
			  .help = "on: refcount= on every device" },
		},
	},
	{
		NB_OPT("slice_log", "slice log", slice_log,
		       "interleave's slices to this file, .<job number>", ""),
		.type = FIO_OPT_STR_STORE,
	},
	{
		.name = NULL,
	},
};

static struct fio_option *nb_option(const char *name)
{
	struct fio_option *o;

	for (o = nb_options; o->name; o++)
		if (!strcmp(o->name, name))
			break;
	return o;
}

/* null_blk clamps submit_queues to [1, nr_cpu_ids]; the engine refuses */
__attribute__((constructor)) static void nb_options_init(void)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	nb_option("submit_queues")->maxval = ncpu > 0 ? (unsigned)ncpu : 1;
}

static int nb_parse_num(const char *name, const char *s, unsigned long long *v)
{
	const struct fio_option *o = nb_option(name);
	const struct value_pair *vp;
	char *end, *msg = NULL;
	size_t len = 0;
	FILE *f;

	errno = 0;
	*v = strtoull(s, &end, 10);
	if (!isdigit((unsigned char)*s) || *end || errno)
		*v = ULLONG_MAX; /* matches no value and is out of range */
	if (!o->posval[0].ival) {
		if (*v >= (unsigned long long)o->minval && *v <= o->maxval)
			return 0;
		log_err("nullblk: %s=%s: must be an integer from %d to %llu "
			"(%s)\n",
			name, s, o->minval, o->maxval, o->help);
		return 1;
	}
	for (vp = o->posval; vp->ival; vp++)
		if (*v == vp->oval)
			return 0;
	/* one log_err(), one write: the message is one line on stderr */
	f = open_memstream(&msg, &len);
	if (!f)
		return 1;
	fprintf(f, "nullblk: %s=%s: must be one of", name, s);
	for (vp = o->posval; vp->ival; vp++)
		fprintf(f, "%s %s (%s)", vp == o->posval ? "" : ",", vp->ival,
			vp->help);
	if (fclose(f) == 0)
		log_err("%s\n", msg);
	free(msg);
	return 1;
}

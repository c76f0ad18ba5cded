/* SPDX-License-Identifier: MIT */
/*
 * lab/bench/run.c - the rows, the plan and the run
 *
 * impls[] is every row in table order.  plan() turns the options into
 * groups, one per measurement (a suite, a pattern, a thread count or an
 * object set), and finds the baseline and the target row by their kind.
 * run_all() runs every group: a warm-up round, then opt.rounds rounds with
 * the rows interleaved, and the medians and per-round ratios of each cell.
 */
#include "driver.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BENCH_BREED_ROW(name, NAME, id, max, saturated) &bench_impl_##name,
#define BENCH_PEER_ROW(file, deb, pc) &bench_impl_##file,

/* The baseline, the breeds in the registry's order, the peers. */
/* clang-format off */
const struct bench_impl *const impls[] = {
	&bench_impl_c11,
	REFCOUNT_FOR_EACH_THREADED_BREED(BENCH_BREED_ROW)
	BENCH_FOR_EACH_PEER(BENCH_PEER_ROW)
};
/* clang-format on */
_Static_assert(sizeof(impls) / sizeof(impls[0]) == NR_IMPLS,
	       "NR_IMPLS: 1 baseline, the breeds and BENCH_NR_PEERS peers");

unsigned int baseline, target;

const char *const suite_names[NR_SUITES] = { "timing", "contention", "objects",
					     "codesize" };

struct group groups[MAX_GROUPS];
unsigned int nr_groups;

static _Alignas(BENCH_SLOT) char shared_slot[BENCH_SLOT];
/*
 * The objects suite's counters: opt.objects per row, each in a BENCH_SLOT
 * of its own.  The rows' counter types differ, so each row has its own
 * slots, but the rows share one region: a run of groups of NR_IMPLS blocks
 * of 2 MiB, row i's counters filling block i of every group, and the
 * region is faulted in in address order.  Counter j of a row is slot
 * obj_slot(j) from objs[i].  With an array per row, each row had its own
 * run of physical memory, with its own TLB and host-paging costs; shared
 * and interleaved by 2 MiB, every row samples the same memory, and no two
 * rows share a page-table line (interleaved by 4 KiB pages, the first row
 * of every eight paid for the others' page walks).  A precaution: no bias
 * was measured with separate arrays (lab/bench.md, "Memory").
 */
#define OBJ_BLOCK (2u << 20)
#define OBJ_PER_BLOCK (OBJ_BLOCK / BENCH_SLOT)
static char *obj_region;
static char *objs[NR_IMPLS];
static uint32_t *order;

static uint32_t obj_slot(uint32_t j)
{
	return j / OBJ_PER_BLOCK * NR_IMPLS * OBJ_PER_BLOCK + j % OBJ_PER_BLOCK;
}

struct worker {
	pthread_t th;
	const struct bench_impl *impl;
	uint64_t pairs, end, retries;
	bool lookup, count; /* count: the untimed retry count */
};

static atomic_uint ready;
static atomic_bool go;

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	atomic_fetch_add(&ready, 1);
	while (!atomic_load_explicit(&go, memory_order_acquire))
		sched_yield();
	if (w->count)
		w->retries = w->impl->lookup_retries(shared_slot, w->pairs);
	else if (w->lookup)
		w->impl->lookup(shared_slot, w->pairs);
	else
		w->impl->getput(shared_slot, w->pairs);
	w->end = bench_now();
	return NULL;
}

/*
 * Threads pinned round-robin over our CPUs; wall cycles for all pairs.
 * With @retries, the untimed lookup_retries() run instead: *@retries gets
 * the failed compare-and-swaps of all threads.
 */
static uint64_t contend(const struct bench_impl *impl, unsigned int threads,
			uint64_t pairs, bool lookup, uint64_t *retries)
{
	struct worker w[2 * CPU_SETSIZE];
	uint64_t t0, end = 0;

	impl->init(shared_slot, 1);
	atomic_store(&ready, 0);
	atomic_store(&go, false);
	for (unsigned int t = 0; t < threads; t++) {
		pthread_attr_t attr;
		cpu_set_t set;

		w[t] = (struct worker){ .impl = impl,
					.pairs = pairs,
					.lookup = lookup,
					.count = retries != NULL };
		CPU_ZERO(&set);
		CPU_SET(mach.cpus[t % mach.ncpus], &set);
		pthread_attr_init(&attr);
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		if (pthread_create(&w[t].th, &attr, worker_main, &w[t]))
			bench_fail("pthread_create: %s", strerror(errno));
		pthread_attr_destroy(&attr);
	}
	while (atomic_load(&ready) < threads)
		sched_yield();
	t0 = bench_now();
	atomic_store_explicit(&go, true, memory_order_release);
	for (unsigned int t = 0; t < threads; t++) {
		pthread_join(w[t].th, NULL);
		if (retries)
			*retries += w[t].retries;
		if (w[t].end > end)
			end = w[t].end;
	}
	if (impl->read(shared_slot) != 1)
		bench_fail("%s: shared counter ended at %lld, not 1",
			   impl->name, impl->read(shared_slot));
	return end - t0;
}

/* Fisher-Yates over v[0..n-1], drawing from the xorshift64 state *@x. */
static void permute(uint32_t *v, uint32_t n, uint64_t *x)
{
	for (uint32_t i = n ? n - 1 : 0; i > 0; i--) {
		uint32_t j, t;

		*x ^= *x << 13;
		*x ^= *x >> 7;
		*x ^= *x << 17;
		j = (uint32_t)(*x % (i + 1));
		t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}

/* A random permutation of 0..n-1 (fixed seed), as slots (obj_slot()). */
static void shuffle(uint32_t n)
{
	uint64_t x = 88172645463325252ull;

	for (uint32_t i = 0; i < n; i++)
		order[i] = obj_slot(i);
	permute(order, n, &x);
}

/*
 * The rows' order in the next slice: a new permutation every slice (one
 * fixed seed per run), so that over a round each row runs in every place,
 * and after every other row, about equally often (at random).  With one
 * fixed order a row always ran after the same row, and anything that row
 * left behind (a cache, a thread's exit, the scheduler's state) was in its
 * figure.
 */
static const uint32_t *slice_order(void)
{
	static uint64_t x = 0x9e3779b97f4a7c15ull;
	static uint32_t ord[NR_IMPLS];

	for (uint32_t i = 0; i < NR_IMPLS; i++)
		ord[i] = i;
	permute(ord, NR_IMPLS, &x);
	return ord;
}

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void free_objects(void)
{
	free(obj_region);
	obj_region = NULL;
	for (unsigned int i = 0; i < NR_IMPLS; i++)
		objs[i] = NULL;
	free(order);
	order = NULL;
}

/* How long single-thread measurements ran, and how long they had a CPU. */
static double single_cpu_s, single_wall_s;

/*
 * The share of the wall time single-thread measurements had a CPU: their
 * thread's CPU time over their wall time; -1 if none ran.
 */
double cpu_share(void)
{
	return single_wall_s > 0 ? single_cpu_s / single_wall_s : -1;
}

static void round_label(struct group *g, int r, const char *row)
{
	char round[32] = "warm-up";

	if (r >= 0)
		snprintf(round, sizeof(round), "round %d/%u", r + 1, g->rounds);
	if (g->suite == CONTENTION)
		snprintf(bar.label, sizeof(bar.label),
			 "%s %s, %u threads, %s %s", suite_names[g->suite],
			 g->lookup ? "lookup" : "get/put", g->threads, round,
			 row);
	else
		snprintf(bar.label, sizeof(bar.label), "%s%s %s %s",
			 suite_names[g->suite], g->lookup ? " lookup" : "",
			 round, row);
}

/* A round's start: the cells of its @k slices (row i's at c[i * k + s]). */
static double *round_start(struct group *g, int r, size_t k)
{
	double *c = malloc(k * NR_IMPLS * sizeof(*c));

	if (!c)
		bench_fail("out of memory for %zu slices", k);
	round_label(g, r, "(all rows, in slices)");
	return c;
}

/* Slice @s of @k done: the bar moves on, and is drawn every @draw slices. */
static void slice_done(struct bench_progress *p, int r, size_t k, size_t s,
		       size_t draw)
{
	bar.done += (r < 0 ? 1.0 / 8 : 1) * NR_IMPLS / (double)k;
	if (opt.progress && s % draw == 0)
		bench_progress_draw(p);
}

/*
 * The per-slice cycles c[row * k + slice] of a round, as the round's
 * cycles per op (the median over the slices, over @ops per slice) and ratio
 * (the median of the per-slice ratios to the baseline's slice).
 */
static void sum_slices(struct group *g, int r, double *c, size_t k, double ops)
{
	double *q = malloc(k * sizeof(*q));

	if (!q)
		bench_fail("out of memory for %zu slices", k);
	for (unsigned int i = 0; r >= 0 && i < NR_IMPLS; i++) {
		struct cell *cl = &g->cell[i];

		for (size_t s = 0; s < k; s++)
			q[s] = c[i * k + s] / c[baseline * k + s];
		cl->ratio[r] = median_of(q, k);
		memcpy(q, c + i * k, k * sizeof(*q));
		cl->cyc[r] = median_of(q, k) / ops;
	}
	free(q);
}

/*
 * One round of the timing loop (r = -1: the warm-up), in slices of
 * TIMING_SLICE up and down, every row once within each slice, in
 * slice_order()'s order: a row's slice is paired with the baseline's slice
 * of the same moment.  The
 * round's cycles per op are the median over its slices, and its ratio the
 * median of the per-slice ratios.
 */
static void timing_round(struct group *g, int r)
{
	uint64_t work = r < 0 ? (g->work + 7) / 8 : g->work;
	uint64_t m = work < TIMING_SLICE ? (work < 2 ? 2 : work) : TIMING_SLICE;
	size_t k = work / m ? work / m : 1;
	double *c = round_start(g, r, k);
	double cpu = clock_s(CLOCK_THREAD_CPUTIME_ID), wall = mono();
	struct bench_progress p = { 0 };

	for (size_t s = 0; s < k; s++) {
		const uint32_t *ord = slice_order();

		for (unsigned int j = 0; j < NR_IMPLS; j++) {
			unsigned int i = ord[j];

			c[i * k + s] =
				(double)impls[i]->timing(shared_slot, m, &p);
		}
		slice_done(&p, r, k, s, 16);
	}
	single_cpu_s += clock_s(CLOCK_THREAD_CPUTIME_ID) - cpu;
	single_wall_s += mono() - wall;
	sum_slices(g, r, c, k, (double)(2 * m - 1));
	free(c);
}

/*
 * One round of the objects suite: every row's counters set to 1 and passed
 * over once, untimed; then @work passes over order[] in slices of
 * OBJECTS_SLICE counters, every row once within each slice (in
 * slice_order()'s order), each on its own counters (one array per row: the
 * rows' counter types differ).
 */
static void objects_round(struct group *g, int r)
{
	static uint32_t shuffled;
	uint32_t n = g->objects, work = (uint32_t)(r < 0 ? 1 : g->work);
	uint32_t per = (n + OBJECTS_SLICE - 1) / OBJECTS_SLICE;
	size_t k = (size_t)per * work, s = 0;
	double *c = round_start(g, r, k);
	double cpu = clock_s(CLOCK_THREAD_CPUTIME_ID), wall = mono();
	struct bench_progress p = { 0 };

	if (shuffled != n)
		shuffle(n);
	shuffled = n;
	for (unsigned int i = 0; i < NR_IMPLS; i++) {
		for (uint32_t j = 0; j < n; j++)
			impls[i]->init(
				objs[i] + (size_t)obj_slot(j) * BENCH_SLOT, 1);
		(g->lookup ? impls[i]->objs_lookup :
			     impls[i]->objs_getput)(objs[i], order, n, 1);
	}
	for (uint32_t pass = 0; pass < work; pass++)
		for (uint32_t off = 0; off < n; off += OBJECTS_SLICE, s++) {
			uint32_t len = n - off < OBJECTS_SLICE ? n - off :
								 OBJECTS_SLICE;
			const uint32_t *ord = slice_order();

			for (unsigned int j = 0; j < NR_IMPLS; j++) {
				unsigned int i = ord[j];
				uint64_t t0 = bench_now();

				(g->lookup ? impls[i]->objs_lookup :
					     impls[i]->objs_getput)(
					objs[i], order + off, len, 1);
				c[i * k + s] =
					(double)(bench_now() - t0) * n / len;
			}
			slice_done(&p, r, k, s, 16);
		}
	single_cpu_s += clock_s(CLOCK_THREAD_CPUTIME_ID) - cpu;
	single_wall_s += mono() - wall;
	/* c is cycles per pass over n counters: 2n operations */
	sum_slices(g, r, c, k, 2.0 * n);
	free(c);
}

/*
 * One round of the contention suite: @g->threads threads on the shared
 * counter, in slices of CONTENTION_SLICE pairs per thread, every row once
 * within each slice, in slice_order()'s order.
 */
static void contention_round(struct group *g, int r)
{
	uint64_t work = r < 0 ? (g->work + 7) / 8 : g->work;
	uint64_t m = work < CONTENTION_SLICE ? work : CONTENTION_SLICE;
	size_t k = work / m;
	double *c = round_start(g, r, k);
	struct bench_progress p = { 0 };

	for (size_t s = 0; s < k; s++) {
		const uint32_t *ord = slice_order();

		for (unsigned int j = 0; j < NR_IMPLS; j++) {
			unsigned int i = ord[j];

			c[i * k + s] = (double)contend(impls[i], g->threads, m,
						       g->lookup, NULL);
		}
		slice_done(&p, r, k, s, 1);
	}
	sum_slices(g, r, c, k, 2.0 * (double)m * g->threads);
	free(c);
}

/* One round of @g (r = -1: the warm-up): every row, in slices. */
static void run_round(struct group *g, int r)
{
	if (g->suite == TIMING)
		timing_round(g, r);
	else if (g->suite == OBJECTS)
		objects_round(g, r);
	else
		contention_round(g, r);
}

/* The medians, ranges and intervals of @g's cells over its rounds. */
static void sum_up(struct group *g)
{
	for (unsigned int i = 0; i < NR_IMPLS; i++) {
		struct cell *c = &g->cell[i];
		uint64_t n = 0;

		/* the lookup rows' CAS retries, in one more, untimed run */
		c->retries = -1;
		if (g->suite == CONTENTION && g->lookup &&
		    impls[i]->lookup_retries) {
			contend(impls[i], g->threads, g->work, true, &n);
			c->retries = (double)n / ((double)g->threads * g->work);
		}
		c->med = median(c->cyc, g->rounds, &c->lo, &c->hi);
		c->rmed = median(c->ratio, g->rounds, &c->rlo, &c->rhi);
		ratio_ci(c->ratio, g->rounds, &c->ci_lo, &c->ci_hi);
		c->total = (uint64_t)(c->med * g->ops + 0.5);
	}
}

static void run_group(struct group *g)
{
	for (int r = -1; r < (int)g->rounds; r++)
		run_round(g, r);
	sum_up(g);
}

unsigned int precise_rounds;
bool precise_resolved;

/*
 * How far the target row's interval in @g is from done, 0 when it is: its
 * half-width while that is over PRECISE_HALF; else, while its goal's verdict
 * is "unresolved", that half-width too (so the widest goes first).
 */
static double unfinished(const struct group *g)
{
	const struct cell *c = &g->cell[target];
	double half = ci_half(c->ci_lo, c->ci_hi), goal = goal_of(g);

	if (g->suite == CODESIZE)
		return 0;
	if (half > PRECISE_HALF)
		return half;
	if (goal && !strcmp(ci_verdict(c->ci_lo, c->ci_hi, goal), "unresolved"))
		return half;
	return 0;
}

/* The unfinished group that can take another round and is widest. */
static struct group *widest(void)
{
	struct group *w = NULL;
	double most = 0;

	for (unsigned int k = 0; k < nr_groups; k++) {
		double u = unfinished(&groups[k]);

		if (groups[k].rounds < MAX_ROUNDS && u > most) {
			most = u;
			w = &groups[k];
		}
	}
	return w;
}

/*
 * --precise: one more round at a time for the measurement whose interval of
 * the target row's ratio is widest, until every one is within
 * +-PRECISE_HALF and says "met" or "missed" of its goal, or has MAX_ROUNDS,
 * or opt.precise seconds have passed.  Going on until a verdict is reached
 * is optional stopping: a ratio that sits exactly on its goal is called met
 * more often than the 2.5% a single look would allow (lab/bench.md).
 */
void run_precise(void)
{
	double end = mono() + opt.precise;
	struct group *g;

	/* run_all() left the objects and their order allocated. */
	while ((g = widest()) && mono() < end) {
		bar.total += NR_IMPLS;
		run_round(g, (int)g->rounds++);
		sum_up(g);
		precise_rounds++;
	}
	bar_clear();
	/* finished only if every one is, the ones at MAX_ROUNDS too */
	precise_resolved = true;
	for (unsigned int k = 0; k < nr_groups; k++)
		if (unfinished(&groups[k]))
			precise_resolved = false;
	free_objects();
}

static struct group *add_group(enum suite s, bool lookup, unsigned int threads,
			       uint32_t objects, uint64_t work, double ops)
{
	struct group *g = &groups[nr_groups++];

	if (nr_groups > MAX_GROUPS)
		bench_fail("more than %d measurements: lower --threads",
			   MAX_GROUPS);
	*g = (struct group){ .suite = s,
			     .rounds = opt.rounds,
			     .lookup = lookup,
			     .threads = threads,
			     .objects = objects,
			     .work = work,
			     .ops = ops };
	return g;
}

/*
 * Contention thread counts: every one from 1 to --threads up to 8, then
 * powers of two, the number of CPUs and --threads itself.  0 ends.
 */
unsigned int next_threads(unsigned int t)
{
	unsigned int n = t < 8 ? t + 1 : t * 2;

	if (t < mach.ncpus && n > mach.ncpus)
		n = mach.ncpus;
	if (t < opt.max_threads && n > opt.max_threads)
		n = opt.max_threads;
	return n > opt.max_threads ? 0 : n;
}

/* The baseline of every ratio and the row the targets are about. */
static void find_rows(void)
{
	baseline = target = NR_IMPLS;
	for (unsigned int i = NR_IMPLS; i-- > 0;) {
		if (impls[i]->kind == BENCH_ROW_BASELINE)
			baseline = i;
		if (impls[i]->target)
			target = i;
	}
	if (baseline == NR_IMPLS)
		bench_fail("no baseline row (BENCH_ROW_BASELINE)");
	if (target == NR_IMPLS)
		bench_fail("no target row (BENCH_TARGET)");
}

void plan(void)
{
	find_rows();
	if (opt.suites & 1u << TIMING)
		add_group(TIMING, false, 1, 0, opt.loops,
			  2.0 * (double)opt.loops - 1);
	for (int l = 0; l < 2 && opt.suites & 1u << CONTENTION; l++)
		for (unsigned int t = 1; t; t = next_threads(t))
			add_group(CONTENTION, l, t, 0, opt.pairs,
				  2.0 * (double)opt.pairs * t);
	for (int l = 0; l < 2 && opt.suites & 1u << OBJECTS; l++) {
		uint32_t sizes[2] = { opt.small, opt.objects };

		for (int s = 0; s < 2; s++) {
			uint64_t passes = opt.obj_pairs / sizes[s];

			if (!passes)
				passes = 1;
			add_group(OBJECTS, l, 1, sizes[s], passes,
				  2.0 * (double)passes * sizes[s]);
		}
	}
	bar.total = nr_groups * (opt.rounds + 1.0 / 8) * NR_IMPLS;
	bar.interval = (uint64_t)(mach.hz / 4); /* redraws 4 times a second */
}

void run_all(void)
{
	if (opt.suites & 1u << OBJECTS) {
		uint64_t blocks = ((uint64_t)opt.objects + OBJ_PER_BLOCK - 1) /
				  OBJ_PER_BLOCK * NR_IMPLS;

		if (blocks * OBJ_PER_BLOCK > UINT32_MAX)
			bench_fail("--objects=%u: too many for %u rows (at "
				   "most %u)",
				   opt.objects, NR_IMPLS,
				   UINT32_MAX / NR_IMPLS / OBJ_PER_BLOCK *
					   OBJ_PER_BLOCK);
		if (!(obj_region =
			      aligned_alloc(OBJ_BLOCK, blocks * OBJ_BLOCK)))
			bench_fail("--objects=%u: out of memory for %u "
				   "rows x %u counters x %d bytes",
				   opt.objects, NR_IMPLS, opt.objects,
				   BENCH_SLOT);
		memset(obj_region, 0, blocks * OBJ_BLOCK);
		for (unsigned int i = 0; i < NR_IMPLS; i++)
			objs[i] = obj_region + (size_t)i * OBJ_BLOCK;
		order = malloc(opt.objects * sizeof(*order));
		if (!order)
			bench_fail("out of memory for %u objects", opt.objects);
	}
	for (unsigned int k = 0; k < nr_groups; k++)
		run_group(&groups[k]);
	bar_clear();
	if (opt.precise)
		return; /* run_precise() goes on with them */
	free_objects();
}

const struct group *find_group(enum suite s)
{
	for (unsigned int k = 0; k < nr_groups; k++)
		if (groups[k].suite == s)
			return &groups[k];
	return NULL;
}

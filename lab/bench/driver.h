/* SPDX-License-Identifier: MIT */
/*
 * lab/bench/driver.h - what the stages of refcount-bench's driver share
 *
 * refcount-bench measures what hardened reference counting costs, every row
 * side by side in one run, in four parts:
 *   1. timing: the kernel's LKDTM ATOMIC_TIMING / REFCOUNT_TIMING loop,
 *      beside the published 2017 (and 2019) figures;
 *   2. contention: 1 to 2 x nproc threads on one shared counter;
 *   3. many objects: the same pairs over 10^6 counters in random order;
 *   4. code size: bytes per call site, from the compiled objects.
 *
 * Method: cycles are TSC cycles (its frequency is measured and printed).
 * Each measurement is repeated in rounds, the rows interleaved within a
 * round (every row once per slice, in a new random order each slice)
 * after one warm-up round; the median is
 * reported with min-max, and each ratio to the baseline row (atomic_t) is
 * computed within its round before the median is taken.  Single-thread rows
 * run pinned to one CPU.  The protections column is probed at start-up.
 *
 * One file per stage, in the order main() runs them:
 *
 *   cli.c          main() and the options: parse() fills opt
 *   machine.c      read_machine(): the CPU, its TSC frequency and the CPUs
 *                  we may run on (mach); pins the single-thread rows
 *   probe.c        probe_all(): each misuse once per row (verdicts)
 *   run.c          the rows table (impls), plan(): one group per
 *                  measurement, and run_all(): every group, round by round,
 *                  and the medians of its cells
 *   report.c       what both reports use: the build, the code size table,
 *                  the kernel's published figures, figures of a cell
 *   report-text.c  print_table(): the text tables on stdout
 *   targets.c      print_targets(): the section that ends the text report,
 *                  and print_targets_json(), the same for the JSON
 *   report-json.c  print_json(): the same run as one JSON document
 *   util.c         bench_fail() and the progress bar, which the rows call
 *                  too (declared for them in lab/bench/bench.h), and median()
 *
 * Data flow: cli parses -> machine probes -> protection probes -> plan ->
 * run -> text or JSON report.  Each stage fills the globals it owns (below,
 * by file) and reads only those of the stages before it.  The rows see
 * lab/bench/bench.h alone; this header includes it, never the reverse.
 */
#ifndef REFCOUNT_BENCH_DRIVER_H
#define REFCOUNT_BENCH_DRIVER_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* CPU_SETSIZE; include this header first */
#endif
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/utsname.h>
#include <time.h>

#include "bench.h"

#include <refcount/version.h>

#define BENCH_VERSION REFCOUNT_VERSION_STRING
#define MAX_ROUNDS 64
/*
 * Every suite is timed in slices, every row once within each slice in
 * slice_order()'s order (lab/bench/run.c): the
 * timing loop as calls of TIMING_SLICE up and TIMING_SLICE down, the
 * objects suite in runs of OBJECTS_SLICE counters, contention in runs of
 * CONTENTION_SLICE pairs per thread.  A round reports the median over its
 * slices, and its ratio is the median of the per-slice ratios, each slice
 * paired with the baseline's of the same moment: a slice during which a
 * thread lost its CPU moves neither.
 */
#define TIMING_SLICE (1u << 16)
#define OBJECTS_SLICE (1u << 14)
#define CONTENTION_SLICE (1u << 13) /* pairs per thread */
#define MAX_GROUPS 64
#define NOISY 0.05 /* min-max wider than 5% of the median */

/* LKDTM's counts: INT_MAX - 1 increments and INT_MAX decrements. */
#define LKDTM_N ((uint64_t)INT_MAX)

/*
 * The rows (run.c): the baseline, the registry's breeds in its order, then
 * the BENCH_NR_PEERS peers of lab/bench/peers.h.
 */
#define NR_IMPLS (1 + REFCOUNT_NR_THREADED_BREEDS + BENCH_NR_PEERS)
extern const struct bench_impl *const impls[NR_IMPLS];
/* Where the baseline and the target row are in impls[] (plan()). */
extern unsigned int baseline, target;

enum suite { TIMING, CONTENTION, OBJECTS, CODESIZE, NR_SUITES };
extern const char *const suite_names[NR_SUITES];

/* The options (cli.c). */
struct bench_opt {
	uint64_t loops; /* timing: n as in the template */
	unsigned int rounds;
	uint64_t pairs; /* contention: pairs per thread */
	uint32_t objects, small; /* objects: the big and the small set */
	uint64_t obj_pairs; /* objects: pairs per measurement */
	unsigned int max_threads;
	int cpu;
	bool json, progress, full, quick;
	double precise; /* --precise: seconds to spend on more rounds, or 0 */
	const char *json_file; /* --json=FILE: the JSON too, to FILE */
	const char *claims_file; /* --claims=FILE, or NULL: BENCH_CLAIMS */
	unsigned int suites; /* bit per enum suite */
	int argc; /* the arguments as given (without argv[0]), for the JSON */
	char **argv;
};
extern struct bench_opt opt;

/* The machine (machine.c). */
struct bench_mach {
	char cpu[192];
	char vendor[32]; /* vendor_id, or "unknown" */
	int family, model; /* from /proc/cpuinfo, or -1 */
	const char *uarch; /* microarchitecture, or "unknown" */
	unsigned int ncpus;
	int cpus[CPU_SETSIZE]; /* the CPUs we may run on */
	double hz; /* TSC frequency */
	bool constant_tsc, nonstop_tsc, hypervisor;
	time_t start; /* when the run started */
	double load[3]; /* 1-, 5-, 15-minute load averages at start, or -1 */
	double load_end[3]; /* the same after the run */
	struct utsname uts;
};
extern struct bench_mach mach;

void read_machine(void);
void read_loadavg(double load[3]); /* /proc/loadavg, or -1s */
double mono(void); /* CLOCK_MONOTONIC_RAW, in seconds */

/* The protections (probe.c): a verdict per row and misuse. */
enum verdict { V_NA, V_NONE, V_PROTECTED, V_WARN, V_QUIET, V_ABORT };
extern enum verdict verdicts[NR_IMPLS][BENCH_NR_VIOLATIONS];
extern const char *const violation_names[BENCH_NR_VIOLATIONS];

void probe_all(void);
bool is_protected(enum verdict d);
const char *protections(unsigned int i);

/* One row of one measurement, over the rounds. */
struct cell {
	double cyc[MAX_ROUNDS]; /* cycles per operation */
	double ratio[MAX_ROUNDS]; /* to the baseline in the same round */
	double med, lo, hi, rmed, rlo, rhi;
	/* The ratio's 95% interval: paired over the rounds (ratio_ci()). */
	double ci_lo, ci_hi;
	uint64_t total; /* timing: median cycles of the whole loop */
	double retries; /* contention lookup: CAS retries per op, or -1 */
};

/* One measurement: every row, the same work. */
struct group {
	enum suite suite;
	unsigned int rounds; /* opt.rounds, or more with --precise */
	bool lookup; /* the lookup pattern instead of get/put */
	unsigned int threads;
	uint32_t objects;
	uint64_t work; /* n, pairs per thread, or passes */
	double ops; /* refcount operations per measurement */
	struct cell cell[NR_IMPLS];
};

/* The plan and the run (run.c). */
extern struct group groups[MAX_GROUPS];
extern unsigned int nr_groups;

void plan(void);
void run_all(void);
unsigned int next_threads(unsigned int t);
double cpu_share(void); /* -1 if no single-thread measurement ran */
const struct group *find_group(enum suite s);

/* Shared by both reports (report.c). */
struct kernel_figure {
	const char *variant, *row, *prot;
	double cycles, ratio;
};
extern const struct kernel_figure kernel_figures[]; /* 2017, then 2019 */

/* Code size of a row's call sites; [0] is inc, [1] dec_and_test. */
struct bench_cs {
	const char *key; /* the row's BENCH_SFX */
	unsigned int bytes[2], cold[2]; /* nm -S */
	struct {
		unsigned int bytes; /* with its .cold part */
		const char *fn; /* the library function a call site calls */
	} ool[2];
	unsigned int insns[2]; /* instructions, not counting .cold */
};

/*
 * The same for other architectures, from cross-compiled objects of the
 * baseline and the breeds (report.c): aarch64 with LL/SC and with LSE,
 * and i386.
 */
struct bench_cs_arch {
	const char *arch;
	const struct bench_cs *cs;
	unsigned int empty, empty_insns;
};
extern const struct bench_cs_arch cs_archs[];
extern const unsigned int nr_cs_archs;
const struct bench_cs *cs_find_in(const struct bench_cs *table,
				  const char *key);
extern const char *const cs_ops[2];
extern const unsigned int cs_empty; /* bytes of an empty function: the ret */
extern const char bench_cflags[];

const char *compiler(void);
double kernel_ratio(const char *row);
const struct bench_cs *cs_find(const char *key);
double mops(double cyc_per_op);
bool noisy(const struct cell *c);

/* The reports: report-text.c, targets.c and report-json.c. */
void print_table(void);
void print_targets(void);
/* Read and check the claims file (targets.c); fatal if it is bad. */
void read_claims(void);
void print_targets_json(FILE *f);
void print_json(FILE *f);

/* util.c: the progress bar, drawn by bench_progress_draw(), and median(). */
struct bench_bar {
	double done, total; /* measurements; a warm-up counts 1/8 */
	double weight; /* of the measurement running now */
	uint64_t interval; /* timestamps between redraws */
	char label[96];
	bool drawn;
};
extern struct bench_bar bar;

void bar_clear(void);
/* The median of v[0..n-1] (n <= MAX_ROUNDS), and its min and max. */
double median(const double *v, unsigned int n, double *lo, double *hi);
/* The median of v[0..n-1], any n >= 1, sorting v in place. */
double median_of(double *v, size_t n);
/*
 * The 95% confidence interval of the ratio that @ratio[0..n-1] estimate, one
 * per interleaved round: Student's t on their logarithms (a paired test,
 * each round's rows measured back to back), as a geometric mean ratio.
 */
void ratio_ci(const double *ratio, unsigned int n, double *lo, double *hi);
/* Half the width of [lo, hi] relative to its middle: 0.01 is +-1%. */
double ci_half(double lo, double hi);
/* "met" (hi <= goal), "missed" (lo > goal) or "unresolved". */
const char *ci_verdict(double lo, double hi, double goal);
/* The goal for the target row's ratio in @g (lab/bench/targets.c); 0: none. */
double goal_of(const struct group *g);
/*
 * --precise: more rounds until the target's intervals are within +-1% and
 * each verdict against a goal is "met" or "missed".
 */
#define PRECISE_HALF 0.01
void run_precise(void);
extern unsigned int precise_rounds; /* rounds --precise added */
extern bool precise_resolved; /* every interval finished (as above) */

#endif /* REFCOUNT_BENCH_DRIVER_H */

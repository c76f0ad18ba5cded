/* SPDX-License-Identifier: MIT */
/*
 * lab/bench/targets.c - the targets that end the text report
 *
 * Figures, never tests: the target row (the default breed) against the
 * baseline, in the timing loop and under contention; the peers probed with
 * at least the target's protections; and the target's time over each
 * peer's, median per round.  print_targets() prints them as text,
 * print_targets_json() as the JSON document's "targets" object.  Then
 * issue 12's targets for rcuref_t: the lookup pattern against
 * refcount-saturating's and atomic_t's get/put; and issue 11's for
 * percpu_ref against atomic_t (text only).
 */
#include "driver.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <refcount/percpu_ref.h>

#define WITHIN 0.02 /* the target: within 2% of the baseline */

/* Rows whose probed protections include all of @i's. */
static bool covers(unsigned int j, unsigned int i)
{
	for (int v = 0; v < BENCH_NR_VIOLATIONS; v++)
		if (is_protected(verdicts[i][v]) &&
		    !is_protected(verdicts[j][v]))
			return false;
	return true;
}

/* Median over the rounds of row a's time / row b's, in group g. */
static double versus(const struct group *g, unsigned int a, unsigned int b)
{
	double v[MAX_ROUNDS];

	for (unsigned int r = 0; r < g->rounds; r++)
		v[r] = g->cell[a].cyc[r] / g->cell[b].cyc[r];
	return median(v, g->rounds, NULL, NULL);
}

/* The range of versus() over the groups of one suite; false if none ran. */
static bool versus_range(enum suite su, unsigned int a, unsigned int b,
			 double *lo, double *hi)
{
	*lo = 1e9;
	*hi = 0;
	for (unsigned int k = 0; k < nr_groups; k++) {
		double v;

		if (groups[k].suite != su)
			continue;
		v = versus(&groups[k], a, b);
		*lo = v < *lo ? v : *lo;
		*hi = v > *hi ? v : *hi;
	}
	return *hi > 0;
}

/* The same as text: "lo-hi", or "-". */
static const char *range_text(enum suite su, unsigned int a, unsigned int b,
			      char *buf, size_t len)
{
	double lo, hi;

	if (versus_range(su, a, b, &lo, &hi))
		snprintf(buf, len, "%.3f-%.3f", lo, hi);
	else
		snprintf(buf, len, "-");
	return buf;
}

/*
 * The targets of a saturating breed at atomic_t's cost, per measurement:
 * the goal for the target row's ratio to the baseline.  The objects goal is
 * for the big set (the small one is cache-resident); 0: none.
 */
double goal_of(const struct group *g)
{
	switch (g->suite) {
	case TIMING:
		return 1.01;
	case CONTENTION:
		return 1.02;
	case OBJECTS:
		return g->objects == opt.objects ? 1.05 : 0;
	default:
		return 0;
	}
}

static const char *group_text(const struct group *g, char *buf, size_t len)
{
	if (g->suite == CONTENTION)
		snprintf(buf, len, "contention %s, %u thread%s",
			 g->lookup ? "lookup" : "get/put", g->threads,
			 g->threads == 1 ? "" : "s");
	else if (g->suite == OBJECTS)
		snprintf(buf, len, "%u objects %s", g->objects,
			 g->lookup ? "lookup" : "get/put");
	else
		snprintf(buf, len, "%s loop", suite_names[g->suite]);
	return buf;
}

/* The target row's interval against each measurement's goal. */
static void print_intervals(void)
{
	char what[64];

	printf("  %s / %s, geometric mean [95%% interval] of the ratio "
	       "(paired over\n  the interleaved rounds):\n",
	       impls[target]->name, impls[baseline]->name);
	for (unsigned int k = 0; k < nr_groups; k++) {
		const struct group *g = &groups[k];
		const struct cell *c = &g->cell[target];
		double goal = goal_of(g);

		if (!goal)
			continue;
		printf("    %-34s <= %.2f: %.3fx [%.4f, %.4f] +-%.1f%% "
		       "(%u rounds), %s\n",
		       group_text(g, what, sizeof(what)), goal,
		       sqrt(c->ci_lo * c->ci_hi), c->ci_lo, c->ci_hi,
		       100 * ci_half(c->ci_lo, c->ci_hi), g->rounds,
		       ci_verdict(c->ci_lo, c->ci_hi, goal));
	}
	if (opt.precise)
		printf("    --precise: %u more rounds; %s\n", precise_rounds,
		       precise_resolved ?
			       "every interval within +-1%, every verdict "
			       "met or missed" :
			       "not every interval within +-1% with a "
			       "verdict (time or rounds ran out)");
}

/* The contention groups: how many met the target, and the worst one. */
static const struct group *contention_worst(unsigned int *n, unsigned int *met)
{
	const struct group *worst = NULL;

	*n = *met = 0;
	for (unsigned int k = 0; k < nr_groups; k++) {
		const struct group *g = &groups[k];

		if (g->suite != CONTENTION)
			continue;
		++*n;
		*met += g->cell[target].rmed <= 1 + WITHIN;
		if (!worst || g->cell[target].rmed > worst->cell[target].rmed)
			worst = g;
	}
	return worst;
}

/* The row the try-get targets are about (BENCH_TRYGET_TARGET), or -1. */
static int tryget_row(void)
{
	for (unsigned int i = 0; i < NR_IMPLS; i++)
		if (impls[i]->tryget_target)
			return (int)i;
	return -1;
}

/* The group of a suite, pattern, thread count and object count, or NULL. */
static const struct group *group_of(enum suite s, bool lookup,
				    unsigned int threads, uint32_t objects)
{
	for (unsigned int k = 0; k < nr_groups; k++) {
		const struct group *g = &groups[k];

		if (g->suite == s && g->lookup == lookup &&
		    (s != CONTENTION || g->threads == threads) &&
		    (s != OBJECTS || g->objects == objects))
			return g;
	}
	return NULL;
}

/*
 * One target: per round, num's cycles / den's (a time ratio; with @speedup,
 * den / num, a throughput ratio), median [min-max].  Met only when the
 * whole interval is on the right side of @goal; missed when the median is
 * not; otherwise the interval straddles it and nothing is claimed.
 */
static void rc_target(const char *what, const struct group *gn, int num,
		      const struct group *gd, int den, bool speedup,
		      double goal)
{
	double v[MAX_ROUNDS], lo, hi, med;
	unsigned int n;

	if (!gn || !gd || num < 0 || den < 0) {
		printf("    %s: not measured in this run\n", what);
		return;
	}
	/* both measurements ran these rounds (--precise may add to one) */
	n = gn->rounds < gd->rounds ? gn->rounds : gd->rounds;
	for (unsigned int r = 0; r < n; r++) {
		v[r] = gn->cell[num].cyc[r] / gd->cell[den].cyc[r];
		if (speedup)
			v[r] = 1 / v[r];
	}
	med = median(v, n, NULL, NULL);
	ratio_ci(v, n, &lo, &hi);
	printf("    %s: %.3fx [%.3f, %.3f] 95%%, %s\n", what, med, lo, hi,
	       (speedup ? lo >= goal : hi <= goal) ? "met" :
	       (speedup ? hi < goal : lo > goal)   ? "missed" :
						     "unresolved (the interval "
						     "straddles the target)");
}

static void print_rcuref_targets(void)
{
	int rc = tryget_row(), sat = (int)target;
	int at = (int)baseline;

	printf("  rcuref (issue 12), median per round [95%% interval]:\n");
	rc_target("lookup, 2 threads, throughput vs refcount-saturating "
		  "(>= 1.3x)",
		  group_of(CONTENTION, true, 2, 0), rc,
		  group_of(CONTENTION, true, 2, 0), sat, true, 1.3);
	/*
	 * rcuref's get/put row is its lookup (rcuref_get() is the try-get),
	 * so both sides come from the get/put measurement, whose rounds pair
	 * them in time; the lookup measurement ran at other times.
	 */
	rc_target("1 thread, rcuref get+put vs atomic_t's get/put (<= 1.02x)",
		  group_of(CONTENTION, false, 1, 0), rc,
		  group_of(CONTENTION, false, 1, 0), at, false, 1.02);
	rc_target("10^6 objects, rcuref get+put vs atomic_t's get/put "
		  "(<= 1.05x)",
		  group_of(OBJECTS, false, 0, 1000000), rc,
		  group_of(OBJECTS, false, 0, 1000000), at, false, 1.05);
}

/* The row issue 11's targets are about (BENCH_PERCPU_TARGET), or -1. */
static int percpu_row(void)
{
	for (unsigned int i = 0; i < NR_IMPLS; i++)
		if (impls[i]->percpu_target)
			return (int)i;
	return -1;
}

/*
 * Issue 11's targets for percpu_ref, on the fast path this process chose:
 * the timing loop against atomic_t's (<= 0.4x on rseq, <= 1.2x on the
 * atomic slots), get/put throughput at 2 threads (>= 4x), and the
 * throughput ratio at every thread count measured.
 */
static void print_percpu_targets(void)
{
	int pc = percpu_row(), at = (int)baseline;
	bool rseq = !strncmp(percpu_ref_fast_path(), "rseq", 4);
	const struct group *t = find_group(TIMING);
	char what[96];

	printf("  percpu_ref (issue 11, fast path %s), median per round "
	       "[95%% interval]:\n",
	       percpu_ref_fast_path());
	snprintf(what, sizeof(what),
		 "1 thread, timing loop vs atomic_t's (<= %.1fx on %s)",
		 rseq ? 0.4 : 1.2, rseq ? "rseq" : "the atomic slots");
	rc_target(what, t, pc, t, at, false, rseq ? 0.4 : 1.2);
	rc_target("get/put, 2 threads, throughput vs atomic_t (>= 4x)",
		  group_of(CONTENTION, false, 2, 0), pc,
		  group_of(CONTENTION, false, 2, 0), at, true, 4);
	if (pc < 0)
		return;
	printf("    get/put throughput vs atomic_t by threads:");
	for (unsigned int k = 0; k < nr_groups; k++)
		if (groups[k].suite == CONTENTION && !groups[k].lookup)
			printf(" %u: %.2fx", groups[k].threads,
			       versus(&groups[k], (unsigned int)at,
				      (unsigned int)pc));
	printf("\n");
}

void print_targets(void)
{
	const struct bench_impl *si = impls[target], *bi = impls[baseline];
	unsigned int s = target;
	const struct group *t = find_group(TIMING);
	const struct group *worst;
	unsigned int n, met;
	char b1[32], b2[32];

	printf("\nTargets (benchmark figures, not tests)\n"
	       "  %s within %.0f%% of %s:\n",
	       si->name, WITHIN * 100, bi->name);
	if (t)
		printf("    timing loop: %.3fx, %s\n", t->cell[s].rmed,
		       t->cell[s].rmed <= 1 + WITHIN ? "met" : "missed");
	worst = contention_worst(&n, &met);
	if (worst)
		printf("    contention: met at %u of %u (threads x pattern); "
		       "worst %.3fx (%s, %u threads)\n",
		       met, n, worst->cell[s].rmed,
		       worst->lookup ? "lookup" : "get/put", worst->threads);
	print_intervals();
	printf("  ahead of every peer with the same protections: ");
	n = 0;
	for (unsigned int j = 0; j < NR_IMPLS; j++) {
		if (impls[j]->kind == BENCH_ROW_PEER && covers(j, s))
			printf("%s%s", n++ ? ", " : "", impls[j]->name);
	}
	printf("%s\n", n ? "" : "no peer was probed with all of them");
	/* si->key is the breed's own name, as BENCH_SFX: "saturating" */
	printf("  %s's time / the peer's, median per round (< 1: %s\n"
	       "  is faster; ranges over thread counts, patterns and object "
	       "sets):\n"
	       "    %-10s %8s %14s %14s\n",
	       si->name, si->key, "peer", "timing", "contention", "objects");
	for (unsigned int j = 0; j < NR_IMPLS; j++) {
		if (impls[j]->kind != BENCH_ROW_PEER)
			continue;
		printf("    %-10s ", impls[j]->name);
		if (t)
			printf("%8.3f", versus(t, s, j));
		else
			printf("%8s", "-");
		printf(" %14s", range_text(CONTENTION, s, j, b1, sizeof(b1)));
		printf(" %14s\n", range_text(OBJECTS, s, j, b2, sizeof(b2)));
	}
	print_rcuref_targets();
	print_percpu_targets();
}

/* "key": lo, "key": hi of versus_range(), or nulls. */
static void json_range(FILE *f, const char *key, enum suite su, unsigned int j)
{
	double lo, hi;

	if (versus_range(su, target, j, &lo, &hi))
		fprintf(f, ", \"%s_min\": %.4f, \"%s_max\": %.4f", key, lo, key,
			hi);
	else
		fprintf(f, ", \"%s_min\": null, \"%s_max\": null", key, key);
}

/* The same figures in the JSON document: its "targets" object. */
void print_targets_json(FILE *f)
{
	const struct group *t = find_group(TIMING), *worst;
	unsigned int n, met;

	/* row names are plain ASCII (lab/bench/bench.h): no escaping needed */
	fprintf(f,
		"  \"targets\": {\n    \"target\": \"%s\", \"baseline\": "
		"\"%s\", \"within\": %.2f,\n    \"timing\": ",
		impls[target]->name, impls[baseline]->name, WITHIN);
	if (t)
		fprintf(f, "{\"ratio\": %.4f, \"met\": %s}",
			t->cell[target].rmed,
			t->cell[target].rmed <= 1 + WITHIN ? "true" : "false");
	else
		fprintf(f, "null");
	fprintf(f, ",\n    \"contention\": ");
	worst = contention_worst(&n, &met);
	if (worst)
		fprintf(f,
			"{\"met\": %u, \"of\": %u, \"worst_ratio\": %.4f, "
			"\"worst_pattern\": \"%s\", \"worst_threads\": %u}",
			met, n, worst->cell[target].rmed,
			worst->lookup ? "lookup" : "getput", worst->threads);
	else
		fprintf(f, "null");
	fprintf(f, ",\n    \"intervals\": [");
	n = 0;
	for (unsigned int k = 0; k < nr_groups; k++) {
		const struct group *g = &groups[k];
		const struct cell *c = &g->cell[target];
		double goal = goal_of(g);
		char what[64];

		if (!goal)
			continue;
		fprintf(f,
			"%s\n      {\"measurement\": \"%s\", \"goal\": %.2f, "
			"\"ratio\": %.4f, \"ci95_lo\": %.4f, \"ci95_hi\": "
			"%.4f, \"rounds\": %u, \"verdict\": \"%s\"}",
			n++ ? "," : "", group_text(g, what, sizeof(what)), goal,
			c->rmed, c->ci_lo, c->ci_hi, g->rounds,
			ci_verdict(c->ci_lo, c->ci_hi, goal));
	}
	fprintf(f, "\n    ],\n    \"precise\": ");
	if (opt.precise)
		fprintf(f,
			"{\"seconds\": %.0f, \"rounds_added\": %u, "
			"\"resolved\": %s}",
			opt.precise, precise_rounds,
			precise_resolved ? "true" : "false");
	else
		fprintf(f, "null");
	fprintf(f, ",\n    \"peers_with_same_protections\": [");
	n = 0;
	for (unsigned int j = 0; j < NR_IMPLS; j++)
		if (impls[j]->kind == BENCH_ROW_PEER && covers(j, target))
			fprintf(f, "%s\"%s\"", n++ ? ", " : "", impls[j]->name);
	fprintf(f, "],\n    \"versus\": [");
	n = 0;
	for (unsigned int j = 0; j < NR_IMPLS; j++) {
		if (impls[j]->kind != BENCH_ROW_PEER)
			continue;
		fprintf(f, "%s\n      {\"peer\": \"%s\", \"timing\": ",
			n++ ? "," : "", impls[j]->name);
		if (t)
			fprintf(f, "%.4f", versus(t, target, j));
		else
			fprintf(f, "null");
		json_range(f, "contention", CONTENTION, j);
		json_range(f, "objects", OBJECTS, j);
		fprintf(f, "}");
	}
	fprintf(f, "\n    ]\n  }");
}

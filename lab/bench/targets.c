/* SPDX-License-Identifier: MIT */
/*
 * lab/bench/targets.c - the claims checked on this machine, which end the
 * text report
 *
 * Figures, never tests: the target row (the default breed) against the
 * baseline, in the timing loop and under contention; the peers probed with
 * at least the target's protections; and the target's time over each
 * peer's, median per round.  print_targets() prints them as text,
 * print_targets_json() as the JSON document's "targets" object.  Then the
 * claims for rcuref_t: the lookup pattern against refcount-saturating's and
 * atomic_t's get/put; and those for percpu_ref against atomic_t (text
 * only).  The goals are data, read from lab/bench/claims.txt (BENCH_CLAIMS).
 */
#include "driver.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <refcount/percpu_ref.h>

#ifndef BENCH_CLAIMS
#define BENCH_CLAIMS "lab/bench/claims.txt"
#endif

/* The claims this file computes: each must be in BENCH_CLAIMS, once. */
static const char *const claim_names[] = {
	"within",
	"timing",
	"contention",
	"objects",
	"rcuref-lookup",
	"rcuref-getput",
	"rcuref-objects",
	"percpu-timing-rseq",
	"percpu-timing-atomic",
	"percpu-getput",
};
#define NR_CLAIMS (sizeof(claim_names) / sizeof(claim_names[0]))

struct claim {
	bool at_least; /* ">=": a throughput ratio; "<=": a time ratio */
	double goal;
	char what[96];
};
static struct claim claims[NR_CLAIMS];

/* The claims file: --claims=FILE, else the one built in. */
static const char *claims_path(void)
{
	return opt.claims_file ? opt.claims_file : BENCH_CLAIMS;
}

/*
 * Read the claims file once; one that cannot be read, a line that is not
 * NAME OP GOAL WHAT, an unknown or repeated name and a missing one are
 * fatal, naming the file and the line.
 */
void read_claims(void)
{
	static bool done;
	const char *path = claims_path();
	char line[256], name[64], op[4];
	unsigned int lineno = 0;
	FILE *f;

	if (done)
		return;
	f = fopen(path, "r");
	if (!f)
		bench_fail("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		struct claim c = { 0 };
		unsigned int i;
		int at = 0;

		lineno++;
		if (line[strspn(line, " \t\n")] == '#' ||
		    !line[strspn(line, " \t\n")])
			continue;
		if (sscanf(line, "%63s %3s %lf %n", name, op, &c.goal, &at) <
			    3 ||
		    !at || (strcmp(op, "<=") && strcmp(op, ">=")) ||
		    !(c.goal > 0))
			bench_fail("%s:%u: not NAME <=|>= GOAL WHAT", path,
				   lineno);
		c.at_least = op[0] == '>';
		snprintf(c.what, sizeof(c.what), "%.*s",
			 (int)strcspn(line + at, "\n"), line + at);
		for (i = 0; i < NR_CLAIMS; i++)
			if (!strcmp(name, claim_names[i]))
				break;
		if (i == NR_CLAIMS || claims[i].goal)
			bench_fail("%s:%u: %s claim '%s'", path, lineno,
				   i == NR_CLAIMS ? "unknown" : "repeated",
				   name);
		claims[i] = c;
	}
	fclose(f);
	for (unsigned int i = 0; i < NR_CLAIMS; i++)
		if (!claims[i].goal)
			bench_fail("%s: no claim '%s'", path, claim_names[i]);
	done = true;
}

/* The claim called @name (one of claim_names[]). */
static const struct claim *claim(const char *name)
{
	read_claims();
	for (unsigned int i = 0; i < NR_CLAIMS; i++)
		if (!strcmp(name, claim_names[i]))
			return &claims[i];
	bench_fail("no claim '%s' in the program's list", name);
}

/* The target: the target row's median within this much of the baseline. */
#define WITHIN (claim("within")->goal - 1)

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
 * The claims of a saturating breed at atomic_t's cost, per measurement:
 * the goal for the target row's ratio to the baseline.  The objects goal is
 * for the big set (the small one is cache-resident); 0: none.
 */
double goal_of(const struct group *g)
{
	switch (g->suite) {
	case TIMING:
		return claim("timing")->goal;
	case CONTENTION:
		return claim("contention")->goal;
	case OBJECTS:
		return g->objects == opt.objects ? claim("objects")->goal : 0;
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
 * One claim, @name: per round, num's cycles / den's (a time ratio; for a
 * ">=" claim, den / num, a throughput ratio), median [95% interval].  Met
 * only when the whole interval is on the right side of the goal; missed
 * when it is wholly on the wrong side; otherwise the interval straddles it
 * and nothing is claimed.
 */
static void rc_target(const char *name, const struct group *gn, int num,
		      const struct group *gd, int den)
{
	const struct claim *c = claim(name);
	double v[MAX_ROUNDS], lo, hi, med, goal = c->goal;
	bool speedup = c->at_least;
	unsigned int n;

	if (!gn || !gd || num < 0 || den < 0) {
		printf("    %s (%s %gx): not measured in this run\n", c->what,
		       speedup ? ">=" : "<=", goal);
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
	printf("    %s (%s %gx): %.3fx [%.3f, %.3f] 95%%, %s\n", c->what,
	       speedup ? ">=" : "<=", goal, med, lo, hi,
	       (speedup ? lo >= goal : hi <= goal) ? "met" :
	       (speedup ? hi < goal : lo > goal)   ? "missed" :
						     "unresolved (the interval "
						     "straddles the goal)");
}

static void print_rcuref_targets(void)
{
	int rc = tryget_row(), sat = (int)target;
	int at = (int)baseline;

	printf("  rcuref_t, median per round [95%% interval]:\n");
	rc_target("rcuref-lookup", group_of(CONTENTION, true, 2, 0), rc,
		  group_of(CONTENTION, true, 2, 0), sat);
	/*
	 * rcuref's get/put row is its lookup (rcuref_get() is the try-get),
	 * so both sides come from the get/put measurement, whose rounds pair
	 * them in time; the lookup measurement ran at other times.
	 */
	rc_target("rcuref-getput", group_of(CONTENTION, false, 1, 0), rc,
		  group_of(CONTENTION, false, 1, 0), at);
	rc_target("rcuref-objects", group_of(OBJECTS, false, 0, 1000000), rc,
		  group_of(OBJECTS, false, 0, 1000000), at);
}

/* The row the percpu_ref claims are about (BENCH_PERCPU_TARGET), or -1. */
static int percpu_row(void)
{
	for (unsigned int i = 0; i < NR_IMPLS; i++)
		if (impls[i]->percpu_target)
			return (int)i;
	return -1;
}

/*
 * The claims for percpu_ref, on the fast path this process chose: the
 * timing loop against atomic_t's (one goal on rseq, one on the atomic
 * slots), get/put throughput at 2 threads, and the throughput ratio at
 * every thread count measured.
 */
static void print_percpu_targets(void)
{
	int pc = percpu_row(), at = (int)baseline;
	bool rseq = !strncmp(percpu_ref_fast_path(), "rseq", 4);
	const struct group *t = find_group(TIMING);

	printf("  percpu_ref (fast path %s), median per round "
	       "[95%% interval]:\n",
	       percpu_ref_fast_path());
	rc_target(rseq ? "percpu-timing-rseq" : "percpu-timing-atomic", t, pc,
		  t, at);
	rc_target("percpu-getput", group_of(CONTENTION, false, 2, 0), pc,
		  group_of(CONTENTION, false, 2, 0), at);
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

	printf("\nClaims checked on this machine (benchmark figures, not "
	       "tests; goals: %s)\n  %s within %.0f%% of %s:\n",
	       opt.claims_file ? opt.claims_file : "lab/bench/claims.txt",
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

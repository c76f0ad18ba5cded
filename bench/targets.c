/* SPDX-License-Identifier: MIT */
/*
 * bench/targets.c - the targets that end the text report
 *
 * Figures, never tests: the target row (the default breed) against the
 * baseline, in the timing loop and under contention; the peers probed with
 * at least the target's protections; and the target's time over each
 * peer's, median per round.  Then issue 12's targets for rcuref_t: the
 * lookup pattern against refcount-saturating's and atomic_t's get/put.
 */
#include "driver.h"

#include <stdio.h>
#include <string.h>

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

	for (unsigned int r = 0; r < opt.rounds; r++)
		v[r] = g->cell[a].cyc[r] / g->cell[b].cyc[r];
	return median(v, opt.rounds, NULL, NULL);
}

/* The range of versus() over the groups of one suite: "lo-hi". */
static const char *versus_range(enum suite su, unsigned int a, unsigned int b,
				char *buf, size_t len)
{
	double lo = 1e9, hi = 0;

	for (unsigned int k = 0; k < nr_groups; k++) {
		double v;

		if (groups[k].suite != su)
			continue;
		v = versus(&groups[k], a, b);
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	if (hi == 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f-%.3f", lo, hi);
	return buf;
}

static int row_named(const char *name)
{
	for (unsigned int i = 0; i < NR_IMPLS; i++)
		if (!strcmp(impls[i]->name, name))
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

	if (!gn || !gd || num < 0 || den < 0) {
		printf("    %s: not measured in this run\n", what);
		return;
	}
	for (unsigned int r = 0; r < opt.rounds; r++) {
		v[r] = gn->cell[num].cyc[r] / gd->cell[den].cyc[r];
		if (speedup)
			v[r] = 1 / v[r];
	}
	med = median(v, opt.rounds, &lo, &hi);
	printf("    %s: %.3fx [%.3f-%.3f], %s\n", what, med, lo, hi,
	       (speedup ? lo >= goal : hi <= goal) ? "met" :
	       (speedup ? med < goal : med > goal) ? "missed" :
						     "not shown (the interval "
						     "straddles the target)");
}

static void print_rcuref_targets(void)
{
	int rc = row_named("rcuref"), sat = row_named("refcount-saturating");
	int at = (int)baseline;

	printf("  rcuref (issue 12), per round [min-max]:\n");
	rc_target("lookup, 2 threads, throughput vs refcount-saturating "
		  "(>= 1.3x)",
		  group_of(CONTENTION, true, 2, 0), rc,
		  group_of(CONTENTION, true, 2, 0), sat, true, 1.3);
	rc_target("1 thread, rcuref get+put vs atomic_t's get/put (<= 1.02x)",
		  group_of(CONTENTION, true, 1, 0), rc,
		  group_of(CONTENTION, false, 1, 0), at, false, 1.02);
	rc_target("10^6 objects, rcuref lookup vs atomic_t's get/put "
		  "(<= 1.05x)",
		  group_of(OBJECTS, true, 0, 1000000), rc,
		  group_of(OBJECTS, false, 0, 1000000), at, false, 1.05);
}

void print_targets(void)
{
	const struct bench_impl *si = impls[target], *bi = impls[baseline];
	unsigned int s = target;
	const struct group *t = find_group(TIMING);
	const struct group *worst = NULL;
	unsigned int n = 0, met = 0;
	char b1[32], b2[32];

	printf("\nTargets (benchmark figures, not tests)\n"
	       "  %s within 2%% of %s:\n",
	       si->name, bi->name);
	if (t)
		printf("    timing loop: %.3fx, %s\n", t->cell[s].rmed,
		       t->cell[s].rmed <= 1.02 ? "met" : "missed");
	for (unsigned int k = 0; k < nr_groups; k++) {
		const struct group *g = &groups[k];

		if (g->suite != CONTENTION)
			continue;
		n++;
		met += g->cell[s].rmed <= 1.02;
		if (!worst || g->cell[s].rmed > worst->cell[s].rmed)
			worst = g;
	}
	if (worst)
		printf("    contention: met at %u of %u (threads x pattern); "
		       "worst %.3fx (%s, %u threads)\n",
		       met, n, worst->cell[s].rmed,
		       worst->lookup ? "lookup" : "get/put", worst->threads);
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
		printf(" %14s", versus_range(CONTENTION, s, j, b1, sizeof(b1)));
		printf(" %14s\n", versus_range(OBJECTS, s, j, b2, sizeof(b2)));
	}
	print_rcuref_targets();
}

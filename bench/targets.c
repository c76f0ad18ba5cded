/* SPDX-License-Identifier: MIT */
/*
 * bench/targets.c - the targets that end the text report
 *
 * Figures, never tests: the target row (the default breed) against the
 * baseline, in the timing loop and under contention; the peers probed with
 * at least the target's protections; and the target's time over each
 * peer's, median per round.
 */
#include "driver.h"

#include <stdio.h>

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
}

/* SPDX-License-Identifier: MIT */
/*
 * lab/bench/report-json.c - the JSON report
 *
 * print_json(): the same run as one JSON document: "machine" (the machine,
 * the build, the run and the options), then "results", one object per row
 * of every measurement and per row and operation of the code size table,
 * then "targets" (targets.c).  The keys
 * are listed in lab/bench.md; lab/bench/check.jq checks the structure.
 */
#include "driver.h"

#include <time.h>

/* The JSON document goes to jf: stdout, or the --json file. */
static FILE *jf;

static void json_str(const char *s)
{
	fputc('"', jf);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(jf, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(jf, "\\u%04x", *s);
		else
			fputc(*s, jf);
	}
	fputc('"', jf);
}

static void json_kv(const char *k, const char *v, bool comma)
{
	fprintf(jf, "%s\n    ", comma ? "," : "");
	json_str(k);
	fprintf(jf, ": ");
	json_str(v);
}

static void json_cell(const struct group *g, unsigned int i, bool comma)
{
	const struct cell *c = &g->cell[i];

	fprintf(jf, "%s\n    {\"suite\": \"%s\", \"impl\": ", comma ? "," : "",
		suite_names[g->suite]);
	json_str(impls[i]->name);
	if (g->suite != TIMING)
		fprintf(jf, ", \"pattern\": \"%s\"",
			g->lookup ? "lookup" : "getput");
	fprintf(jf, ", \"threads\": %u", g->threads);
	if (g->suite == OBJECTS)
		fprintf(jf, ", \"objects\": %u", g->objects);
	fprintf(jf,
		", \"cycles_per_op\": %.4f, \"cycles_per_op_min\": %.4f, "
		"\"cycles_per_op_max\": %.4f, \"mops\": %.3f, "
		"\"mops_min\": %.3f, \"mops_max\": %.3f, "
		"\"ratio_to_atomic\": %.4f, \"ratio_min\": %.4f, "
		"\"ratio_max\": %.4f, \"ratio_ci95_lo\": %.4f, "
		"\"ratio_ci95_hi\": %.4f, \"rounds\": %u, \"noisy\": %s",
		c->med, c->lo, c->hi, mops(c->med), mops(c->hi), mops(c->lo),
		c->rmed, c->rlo, c->rhi, c->ci_lo, c->ci_hi, g->rounds,
		noisy(c) ? "true" : "false");
	if (c->retries >= 0)
		fprintf(jf, ", \"cas_retries_per_op\": %.6f", c->retries);
	if (g->suite == TIMING) {
		double k = kernel_ratio(impls[i]->name);

		fprintf(jf, ", \"total_cycles\": %llu, \"loops\": %llu",
			(unsigned long long)c->total,
			(unsigned long long)g->work);
		if (k)
			fprintf(jf, ", \"kernel_ratio\": %.4f", k);
		fprintf(jf, ", \"protections\": [");
		for (int v = 0, n = 0; v < BENCH_NR_VIOLATIONS; v++)
			if (is_protected(verdicts[i][v]))
				fprintf(jf, "%s\"%s\"", n++ ? ", " : "",
					violation_names[v]);
		fprintf(jf, "], \"protections_text\": ");
		json_str(protections(i));
	}
	fprintf(jf, "}");
}

/* "key": {"start": [1, 5, 15 minutes], "end": [...]} */
static void json_loadavg(void)
{
	const double *l[2] = { mach.load, mach.load_end };

	fprintf(jf, ",\n    \"loadavg\": {");
	for (int i = 0; i < 2; i++) {
		fprintf(jf, "%s\"%s\": ", i ? ", " : "", i ? "end" : "start");
		if (l[i][0] < 0)
			fprintf(jf, "null");
		else
			fprintf(jf, "[%.2f, %.2f, %.2f]", l[i][0], l[i][1],
				l[i][2]);
	}
	fprintf(jf, "}");
}

/* The run: version, start time (UTC), arguments and suites. */
static void json_run(void)
{
	char date[32];
	struct tm tm;

	gmtime_r(&mach.start, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_kv("version", BENCH_VERSION, true);
	json_kv("date", date, true);
	fprintf(jf, ",\n    \"args\": [");
	for (int a = 0; a < opt.argc; a++) {
		fprintf(jf, "%s", a ? ", " : "");
		json_str(opt.argv[a]);
	}
	fprintf(jf, "], \"suites\": [");
	for (int k = 0, n = 0; k < NR_SUITES; k++)
		if (opt.suites & 1u << k)
			fprintf(jf, "%s\"%s\"", n++ ? ", " : "",
				suite_names[k]);
	fprintf(jf, "]");
}

void print_json(FILE *f)
{
	bool comma = false;

	jf = f;
	fprintf(jf, "{\n  \"machine\": {");
	json_kv("cpu", mach.cpu, false);
	json_kv("cpu_vendor", mach.vendor, true);
	fprintf(jf, ", \"cpu_family\": %d, \"cpu_model\": %d", mach.family,
		mach.model);
	json_kv("uarch", mach.uarch, true);
	fprintf(jf, ",\n    \"cpus\": %u, \"tsc_hz\": %.0f", mach.ncpus,
		mach.hz);
	json_loadavg();
	if (cpu_share() >= 0)
		fprintf(jf, ", \"cpu_share\": %.4f", cpu_share());
	else
		fprintf(jf, ", \"cpu_share\": null");
	json_kv("kernel", mach.uts.release, true);
	json_kv("arch", mach.uts.machine, true);
	json_kv("compiler", compiler(), true);
	json_kv("cflags", bench_cflags, true);
	json_run();
	fprintf(jf,
		",\n    \"rounds\": %u, \"pinned_cpu\": %d, "
		"\"timing_loops\": %llu, \"full\": %s, \"quick\": %s",
		opt.rounds, opt.cpu, (unsigned long long)opt.loops,
		opt.full ? "true" : "false", opt.quick ? "true" : "false");
	json_kv("protections_method",
		"probed: each misuse once on a scratch counter; breeds with a "
		"quiet report handler and refcount_report_count(), peers in a "
		"forked child (abort) and via g_critical for glib",
		true);
	fprintf(jf, "\n  },\n  \"results\": [");
	for (unsigned int k = 0; k < nr_groups; k++) {
		for (unsigned int i = 0; i < NR_IMPLS; i++) {
			json_cell(&groups[k], i, comma);
			comma = true;
		}
	}
	for (unsigned int i = 0; opt.suites & 1u << CODESIZE && i < NR_IMPLS;
	     i++) {
		const struct bench_cs *cs = cs_find(impls[i]->key);
		const struct bench_cs *c0 = cs_find(impls[baseline]->key);

		for (int op = 0; cs && op < 2; op++) {
			unsigned int b = cs->bytes[op] - cs_empty;
			unsigned int b0 = c0->bytes[op] - cs_empty;

			fprintf(jf,
				"%s\n    {\"suite\": \"codesize\", "
				"\"impl\": ",
				comma ? "," : "");
			comma = true;
			json_str(impls[i]->name);
			fprintf(jf,
				", \"op\": \"%s\", \"bytes\": %u, "
				"\"cold_bytes\": %u, \"ratio_to_atomic\": %.4f",
				cs_ops[op], b, cs->cold[op],
				b0 ? (double)b / b0 : 0);
			if (cs->ool[op].fn) {
				fprintf(jf, ", \"calls\": ");
				json_str(cs->ool[op].fn);
				fprintf(jf, ", \"called_bytes\": %u",
					cs->ool[op].bytes);
			}
			fprintf(jf, "}");
		}
	}
	fprintf(jf, "\n  ],\n  \"codesize_arch\": [");
	comma = false;
	for (unsigned int a = 0; opt.suites & 1u << CODESIZE && a < nr_cs_archs;
	     a++) {
		const struct bench_cs_arch *x = &cs_archs[a];

		for (unsigned int i = 0; i < NR_IMPLS; i++) {
			const struct bench_cs *cs =
				cs_find_in(x->cs, impls[i]->key);

			for (int op = 0; cs && op < 2; op++) {
				fprintf(jf, "%s\n    {\"arch\": ",
					comma ? "," : "");
				comma = true;
				json_str(x->arch);
				fprintf(jf, ", \"impl\": ");
				json_str(impls[i]->name);
				fprintf(jf,
					", \"op\": \"%s\", \"bytes\": %u, "
					"\"insns\": %u}",
					cs_ops[op], cs->bytes[op] - x->empty,
					cs->insns[op] - x->empty_insns);
			}
		}
	}
	fprintf(jf, "\n  ],\n");
	print_targets_json(jf);
	fprintf(jf, "\n}\n");
}

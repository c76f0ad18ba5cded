/* SPDX-License-Identifier: MIT */
/*
 * bench/cli.c - refcount-bench: what hardened reference counting costs
 *
 * main() and the command line.  parse() fills opt from the options and the
 * presets (default, --quick, --full); main() then runs the stages of
 * bench/driver.h in order: the machine, the protection probes, the plan,
 * the run, and the text or JSON report (and the JSON to --json=FILE).
 */
#include "driver.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct bench_opt opt;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: refcount-bench [--quick | --full] [--format=table|json]"
		"\n"
		"  --quick         about 10 s: a smoke test, rough numbers\n"
		"  --full          the kernel's exact LKDTM counts (INT_MAX "
		"each way): long\n"
		"  --format=json   one JSON document on stdout\n"
		"  --json=FILE     also write the JSON document to FILE\n"
		"  --rounds=N      rounds per measurement (5..%d; default 7,"
		" --quick 5)\n"
		"  --loops=N       timing loop count, or 2^K (default 2^24)\n"
		"  --pairs=N       contention pairs per thread\n"
		"  --objects=N     counters in the big object set (10^6)\n"
		"  --threads=N     contention up to N threads (2 x nproc)\n"
		"  --cpu=N         pin single-thread rows to CPU N\n"
		"  --suites=LIST   timing,contention,objects,codesize\n"
		"  --[no-]progress progress bar on stderr (default: if a "
		"tty, or --full)\n",
		MAX_ROUNDS);
}

static uint64_t number(const char *s)
{
	char *end;
	unsigned long long v;

	if (!strncmp(s, "2^", 2)) {
		v = strtoull(s + 2, &end, 10);
		if (*end || v > 62)
			bench_fail("bad number %s", s);
		return 1ull << v;
	}
	v = strtoull(s, &end, 0);
	if (*end || !v)
		bench_fail("bad number %s", s);
	return v;
}

/* --suites=LIST: comma-separated suite names; an unknown one is an error. */
static unsigned int parse_suites(const char *list)
{
	unsigned int suites = 0;
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *w = strtok_r(buf, ",", &save); w;
	     w = strtok_r(NULL, ",", &save)) {
		int k = 0;

		while (k < NR_SUITES && strcmp(w, suite_names[k]))
			k++;
		if (k == NR_SUITES)
			bench_fail("--suites: unknown suite '%s' (suites: "
				   "timing,contention,objects,codesize)",
				   w);
		suites |= 1u << k;
	}
	if (!suites)
		bench_fail("--suites: empty list (suites: "
			   "timing,contention,objects,codesize)");
	return suites;
}

static void parse(int argc, char **argv)
{
	long nproc = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t loops = 0, pairs = 0, objects = 0;
	int progress = -1;

	opt.rounds = 0;
	opt.cpu = -1;
	opt.max_threads = (unsigned int)(2 * (nproc > 0 ? nproc : 1));
	opt.suites = (1u << NR_SUITES) - 1;
	for (int a = 1; a < argc; a++) {
		const char *s = argv[a], *v = strchr(s, '=');

		v = v ? v + 1 : "";
		if (!strcmp(s, "--quick"))
			opt.quick = true;
		else if (!strcmp(s, "--full"))
			opt.full = true;
		else if (!strcmp(s, "--format=json"))
			opt.json = true;
		else if (!strcmp(s, "--format=table"))
			opt.json = false;
		else if (!strncmp(s, "--json=", 7))
			opt.json_file = v;
		else if (!strncmp(s, "--rounds=", 9))
			opt.rounds = (unsigned int)number(v);
		else if (!strncmp(s, "--loops=", 8))
			loops = number(v);
		else if (!strncmp(s, "--pairs=", 8))
			pairs = number(v);
		else if (!strncmp(s, "--objects=", 10))
			objects = number(v);
		else if (!strncmp(s, "--threads=", 10))
			opt.max_threads = (unsigned int)number(v);
		else if (!strncmp(s, "--cpu=", 6))
			opt.cpu = atoi(v);
		else if (!strcmp(s, "--progress"))
			progress = 1;
		else if (!strcmp(s, "--no-progress"))
			progress = 0;
		else if (!strncmp(s, "--suites=", 9))
			opt.suites = parse_suites(v);
		else if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
			usage(stdout);
			exit(0);
		} else {
			fprintf(stderr, "refcount-bench: unknown option '%s'\n",
				s);
			usage(stderr);
			exit(2);
		}
	}
	if (opt.quick && opt.full)
		bench_fail(
			"--quick and --full contradict each other: pick one");
	if (!opt.rounds)
		opt.rounds = opt.quick ? 5 : 7;
	if (opt.rounds < 5 || opt.rounds > MAX_ROUNDS)
		bench_fail("--rounds must be 5..%d", MAX_ROUNDS);
	if (opt.max_threads > 2 * CPU_SETSIZE)
		opt.max_threads = 2 * CPU_SETSIZE;
	/* Presets: default about a minute on 2 cores, --quick about 10 s. */
	opt.loops = opt.full ? LKDTM_N : opt.quick ? 1u << 21 : 1u << 24;
	opt.pairs = opt.full ? 1u << 22 : opt.quick ? 1u << 16 : 1u << 20;
	opt.obj_pairs = opt.full ? 8u << 20 : opt.quick ? 1u << 18 : 2u << 20;
	opt.objects = 1000000;
	opt.small = 1000;
	if (loops)
		opt.loops = loops;
	if (pairs)
		opt.pairs = pairs;
	if (objects)
		opt.objects = (uint32_t)objects;
	if (opt.loops > LKDTM_N)
		bench_fail("--loops at most INT_MAX: the counters are 32 bits");
	opt.progress = progress >= 0 ? progress : opt.full || isatty(2);
}

int main(int argc, char **argv)
{
	FILE *f;

	parse(argc, argv);
	read_machine();
	probe_all();
	plan();
	run_all();
	if (opt.json)
		print_json(stdout);
	else
		print_table();
	if (opt.json_file) {
		f = fopen(opt.json_file, "w");
		if (!f)
			bench_fail("%s: %s", opt.json_file, strerror(errno));
		print_json(f);
		if (fclose(f))
			bench_fail("%s: %s", opt.json_file, strerror(errno));
	}
	return 0;
}

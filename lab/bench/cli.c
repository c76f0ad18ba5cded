/* SPDX-License-Identifier: MIT */
/*
 * lab/bench/cli.c - refcount-bench: what hardened reference counting costs
 *
 * main() and the command line.  parse() fills opt from the options and the
 * presets (default, --quick, --full); main() then runs the stages of
 * lab/bench/driver.h in order: the machine, the protection probes, the plan,
 * the run, and the text or JSON report (and the JSON to --json=FILE).
 */
#include "driver.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct bench_opt opt;

/* The ranges of the options (lab/bench.md). */
#define MAX_PAIRS (1ull << 40)
#define MAX_OBJECTS (1u << 30)
#define MAX_THREADS (2 * CPU_SETSIZE)

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
		"  --threads=N     contention up to N threads (2 x nproc; "
		"at most %d)\n"
		"  --cpu=N         pin single-thread rows to CPU N\n"
		"  --suites=LIST   timing,contention,objects,codesize\n"
		"  --precise[=S]   then more rounds, up to S seconds (600), "
		"until the\n"
		"                  target's 95%% intervals are within +-1%%\n"
		"                  and each one's goal met or missed\n"
		"  --[no-]progress progress bar on stderr (default: if a "
		"tty, or --full)\n"
		"  --claims=FILE   the claims checked at the end (default "
		"lab/bench/claims.txt)\n",
		MAX_ROUNDS, MAX_THREADS);
}

/* Everything printed reached its destination (a full disk is a failure). */
static void check_stdout(void)
{
	if (fflush(stdout) || ferror(stdout))
		bench_fail("writing the output: %s", strerror(errno));
}

/* A bad command line: say what is wrong with which value, and exit 2. */
static void __attribute__((noreturn, format(printf, 1, 2)))
bad_usage(const char *fmt, ...)
{
	va_list ap;

	fputs("refcount-bench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n(refcount-bench --help lists the options)\n", stderr);
	exit(2);
}

/*
 * --NAME=S as a number in lo..hi: decimal, 0x hex or 0 octal (strtoull's
 * base 0), or, with pow2, 2^K.  A sign, anything after the digits, or a
 * value out of range is an error that names the option and the value.
 */
static uint64_t number(const char *name, const char *s, uint64_t lo,
		       uint64_t hi, bool pow2)
{
	bool exp = pow2 && !strncmp(s, "2^", 2);
	const char *digits = exp ? s + 2 : s;
	unsigned long long v;
	char range[96];
	char *end;

	snprintf(range, sizeof(range), "%llu..%llu%s", (unsigned long long)lo,
		 (unsigned long long)hi, pow2 ? ", or 2^K" : "");
	if (*digits == '-' && isdigit((unsigned char)digits[1]))
		bad_usage("--%s=%s: must be at least %llu (%s)", name, s,
			  (unsigned long long)lo, range);
	if (!isdigit((unsigned char)*digits))
		bad_usage("--%s=%s: must be a number (%s)", name, s, range);
	errno = 0;
	v = strtoull(digits, &end, exp ? 10 : 0);
	if (*end)
		bad_usage("--%s=%s: must be a number (%s)", name, s, range);
	if (exp && !errno)
		v = v < 64 ? 1ull << v : ULLONG_MAX;
	if (errno == ERANGE || v > hi)
		bad_usage("--%s=%s: must be at most %llu (%s)", name, s,
			  (unsigned long long)hi, range);
	if (v < lo)
		bad_usage("--%s=%s: must be at least %llu (%s)", name, s,
			  (unsigned long long)lo, range);
	return v;
}

/* The suite names, comma-separated, for the messages (from suite_names). */
static const char *suite_list(void)
{
	static char buf[128];

	if (!buf[0])
		for (int k = 0; k < NR_SUITES; k++)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
				 "%s%s", k ? "," : "", suite_names[k]);
	return buf;
}

/*
 * --suites=LIST: comma-separated suite names; an unknown one, an empty one
 * ("timing,,objects", a leading or trailing comma) or an empty list is an
 * error.
 */
static unsigned int parse_suites(const char *list)
{
	unsigned int suites = 0;
	const char *w = list;

	if (!*list)
		bad_usage("--suites=: empty list (suites: %s)", suite_list());
	for (;;) {
		size_t n = strcspn(w, ",");
		int k = 0;

		while (k < NR_SUITES && (strlen(suite_names[k]) != n ||
					 strncmp(w, suite_names[k], n)))
			k++;
		if (!n)
			bad_usage("--suites=%s: an empty name at offset %d "
				  "(suites: %s)",
				  list, (int)(w - list), suite_list());
		if (k == NR_SUITES)
			bad_usage("--suites=%s: unknown suite '%.*s' (suites: "
				  "%s)",
				  list, (int)n, w, suite_list());
		suites |= 1u << k;
		if (!w[n])
			break;
		w += n + 1;
	}
	return suites;
}

enum {
	O_QUICK = 256,
	O_FULL,
	O_FORMAT,
	O_JSON,
	O_ROUNDS,
	O_LOOPS,
	O_PAIRS,
	O_OBJECTS,
	O_THREADS,
	O_CPU,
	O_SUITES,
	O_PROGRESS,
	O_NO_PROGRESS,
	O_PRECISE,
	O_CLAIMS
};

static const struct option options[] = {
	{ "quick", no_argument, NULL, O_QUICK },
	{ "full", no_argument, NULL, O_FULL },
	{ "format", required_argument, NULL, O_FORMAT },
	{ "json", required_argument, NULL, O_JSON },
	{ "rounds", required_argument, NULL, O_ROUNDS },
	{ "loops", required_argument, NULL, O_LOOPS },
	{ "pairs", required_argument, NULL, O_PAIRS },
	{ "objects", required_argument, NULL, O_OBJECTS },
	{ "threads", required_argument, NULL, O_THREADS },
	{ "cpu", required_argument, NULL, O_CPU },
	{ "suites", required_argument, NULL, O_SUITES },
	{ "progress", no_argument, NULL, O_PROGRESS },
	{ "no-progress", no_argument, NULL, O_NO_PROGRESS },
	{ "precise", optional_argument, NULL, O_PRECISE },
	{ "claims", required_argument, NULL, O_CLAIMS },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void parse(int argc, char **argv)
{
	long nproc = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t loops = 0, pairs = 0, objects = 0;
	int progress = -1, c;

	/* The arguments as given, for the JSON: getopt_long permutes argv. */
	opt.argc = argc - 1;
	opt.argv = calloc((size_t)argc, sizeof(*opt.argv));
	if (!opt.argv)
		bench_fail("out of memory");
	memcpy(opt.argv, argv + 1, (size_t)opt.argc * sizeof(*argv));
	opt.rounds = 0;
	opt.cpu = -1;
	opt.max_threads = (unsigned int)(2 * (nproc > 0 ? nproc : 1));
	if (opt.max_threads > MAX_THREADS)
		opt.max_threads = MAX_THREADS;
	opt.suites = (1u << NR_SUITES) - 1;
	argv[0] = (char *)"refcount-bench"; /* in getopt_long's messages */
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		const char *v = optarg;

		switch (c) {
		case O_QUICK:
			opt.quick = true;
			break;
		case O_FULL:
			opt.full = true;
			break;
		case O_FORMAT:
			if (strcmp(v, "json") && strcmp(v, "table"))
				bad_usage("--format=%s: must be table or json",
					  v);
			opt.json = !strcmp(v, "json");
			break;
		case O_JSON:
			if (!*v)
				bad_usage("--json=: needs a file name");
			opt.json_file = v;
			break;
		case O_CLAIMS:
			if (!*v)
				bad_usage("--claims=: needs a file name");
			opt.claims_file = v;
			break;
		case O_ROUNDS:
			opt.rounds = (unsigned int)number("rounds", v, 5,
							  MAX_ROUNDS, true);
			break;
		case O_LOOPS:
			loops = number("loops", v, 1, LKDTM_N, true);
			break;
		case O_PAIRS:
			pairs = number("pairs", v, 1, MAX_PAIRS, true);
			break;
		case O_OBJECTS:
			objects = number("objects", v, 1, MAX_OBJECTS, true);
			break;
		case O_THREADS:
			opt.max_threads = (unsigned int)number(
				"threads", v, 1, MAX_THREADS, true);
			break;
		case O_CPU:
			opt.cpu = (int)number("cpu", v, 0, CPU_SETSIZE - 1,
					      false);
			break;
		case O_SUITES:
			opt.suites = parse_suites(v);
			break;
		case O_PRECISE:
			opt.precise = optarg ? (double)number("precise", optarg,
							      1, 86400, false) :
					       600;
			break;
		case O_PROGRESS:
		case O_NO_PROGRESS:
			progress = c == O_PROGRESS;
			break;
		case 'h':
			usage(stdout);
			check_stdout();
			exit(0);
		default: /* getopt_long said what is wrong */
			usage(stderr);
			exit(2);
		}
	}
	if (optind < argc)
		bad_usage("unexpected argument '%s'", argv[optind]);
	if (opt.quick && opt.full)
		bad_usage("--quick and --full contradict each other: pick one");
	if (!opt.rounds)
		opt.rounds = opt.quick ? 5 : 7;
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
	opt.progress = progress >= 0 ? progress : opt.full || isatty(2);
}

/*
 * --json=FILE is written to FILE.tmp.PID, which is renamed to FILE when it
 * is complete; if the run fails, the exit removes it.  It is created before
 * the run, so that a FILE that can't be written stops the run at once.
 */
static char *json_tmp;

static void remove_json_tmp(void)
{
	if (json_tmp)
		unlink(json_tmp);
}

static FILE *open_json_file(void)
{
	size_t len = strlen(opt.json_file) + 32;
	FILE *f;

	json_tmp = malloc(len);
	if (!json_tmp)
		bench_fail("out of memory");
	snprintf(json_tmp, len, "%s.tmp.%ld", opt.json_file, (long)getpid());
	f = fopen(json_tmp, "wx");
	if (!f) {
		int e = errno;

		free(json_tmp);
		json_tmp = NULL;
		bench_fail("--json=%s: can't write it: %s", opt.json_file,
			   strerror(e));
	}
	atexit(remove_json_tmp);
	return f;
}

static void close_json_file(FILE *f)
{
	print_json(f);
	if (ferror(f) | fclose(f))
		bench_fail("--json=%s: %s", opt.json_file, strerror(errno));
	if (rename(json_tmp, opt.json_file))
		bench_fail("--json=%s: %s", opt.json_file, strerror(errno));
	free(json_tmp);
	json_tmp = NULL;
}

int main(int argc, char **argv)
{
	FILE *f = NULL;

	parse(argc, argv);
	read_claims(); /* a bad claims file stops the run before it starts */
	if (opt.json_file)
		f = open_json_file();
	read_machine();
	probe_all();
	plan();
	run_all();
	if (opt.precise)
		run_precise();
	read_loadavg(mach.load_end);
	if (opt.json)
		print_json(stdout);
	else
		print_table();
	check_stdout();
	if (f)
		close_json_file(f);
	return 0;
}

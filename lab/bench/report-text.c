/* SPDX-License-Identifier: MIT */
/*
 * lab/bench/report-text.c - the text report, on stdout
 *
 * print_table(): the header (machine, build, method, rows), then one table
 * per suite that ran (timing with the kernel's figures and the probed
 * protections, contention, many objects, code size), the targets
 * (targets.c) and how noisy the run was.
 */
#include "driver.h"

#include <string.h>

static const char *mark(const struct cell *c)
{
	return noisy(c) ? "~" : " ";
}

/* The baseline's and the breeds' call sites on the other architectures. */
static void print_codesize_archs(void)
{
	printf("\n  Other architectures, from cross-compiled objects "
	       "(bytes / instructions\n  per call site, as above; gcc "
	       "keeps their slow paths inline there):\n");
	printf("  %-20s", "impl");
	for (unsigned int a = 0; a < nr_cs_archs; a++)
		printf(" %-17.17s", cs_archs[a].arch);
	printf("\n  %-20s", "");
	for (unsigned int a = 0; a < nr_cs_archs; a++)
		printf(" %8s %8s", "inc", "dec_test");
	printf("\n");
	for (unsigned int i = 0; i < NR_IMPLS; i++) {
		if (impls[i]->kind == BENCH_ROW_PEER)
			continue;
		printf("  %-20s", impls[i]->name);
		for (unsigned int a = 0; a < nr_cs_archs; a++) {
			const struct bench_cs_arch *x = &cs_archs[a];
			const struct bench_cs *cs =
				cs_find_in(x->cs, impls[i]->key);

			for (int op = 0; op < 2; op++) {
				char b[24];

				if (cs)
					snprintf(b, sizeof(b), "%u/%u",
						 cs->bytes[op] - x->empty,
						 cs->insns[op] -
							 x->empty_insns);
				else
					snprintf(b, sizeof(b), "-");
				printf(" %8s", b);
			}
		}
		printf("\n");
	}
}

/* 1234567 -> "1,234,567" */
static const char *thousands(uint64_t v, char *buf)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)v);
	int j = 0;

	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			buf[j++] = ',';
		buf[j++] = tmp[i];
	}
	buf[j] = 0;
	return buf;
}

static const char *pow2(uint64_t n, char *buf)
{
	if (n && !(n & (n - 1)))
		snprintf(buf, 32, "2^%d", __builtin_ctzll(n));
	else
		thousands(n, buf);
	return buf;
}

static void print_header(void)
{
	printf("refcount-bench %s: what hardened reference counting costs\n",
	       BENCH_VERSION);
	printf("cpu:      %s\n          %u CPUs usable%s; %s %s %s\n", mach.cpu,
	       mach.ncpus, mach.hypervisor ? ", in a virtual machine" : "",
	       mach.uts.sysname, mach.uts.release, mach.uts.machine);
	if (mach.family >= 0)
		printf("          %s, family %d (%#x) model %d (%#x): "
		       "microarchitecture %s\n",
		       mach.vendor, mach.family, (unsigned int)mach.family,
		       mach.model, (unsigned int)mach.model, mach.uarch);
	else
		printf("          %s: microarchitecture %s\n", mach.vendor,
		       mach.uarch);
#ifdef BENCH_HAVE_TSC
	printf("clock:    TSC at %.1f MHz (measured against "
	       "CLOCK_MONOTONIC_RAW)%s%s;\n"
	       "          'cycles' are TSC cycles, not core cycles (no perf "
	       "counters used)\n",
	       mach.hz / 1e6, mach.constant_tsc ? ", constant_tsc" : "",
	       mach.nonstop_tsc ? " nonstop_tsc" : "");
#else
	printf("clock:    no TSC here: 'cycles' are nanoseconds\n");
#endif
	if (mach.load[0] >= 0)
		printf("load:     %.2f (1-minute load average at start)%s\n",
		       mach.load[0],
		       mach.load[0] > 0.5 ? "; other work was running: expect "
					    "noise" :
					    "");
	printf("compiler: %s\n", compiler());
	printf("flags:    %s\n", bench_cflags);
	printf("method:   %u rounds after 1 warm-up round, rows interleaved "
	       "within each round;\n"
	       "          median [min-max]; ratios taken per round, then the "
	       "median;\n"
	       "          ratio = time for the same work / atomic_t's "
	       "(> 1 is slower);\n"
	       "          single-thread rows pinned to CPU %d; ~ marks a "
	       "row whose min-max\n"
	       "          is wider than %.0f%% of its median (noisy)\n",
	       opt.rounds, opt.cpu, NOISY * 100);
	printf("rows:\n");
	for (unsigned int i = 0; i < NR_IMPLS; i++)
		printf("  %-20s %s\n", impls[i]->name, impls[i]->api);
}

static void print_timing(const struct group *g)
{
	char b1[32], b2[32], b3[32];

	printf("\n1. Timing: the LKDTM ATOMIC_TIMING / REFCOUNT_TIMING loop, "
	       "one thread\n");
	printf("   From 1, %s increments up to %s, then dec_and_test down to 0;"
	       " only the\n   last dec_and_test may return true (checked). ",
	       thousands(g->work - 1, b1), pow2(g->work, b2));
	if (g->work == LKDTM_N)
		printf("The kernel's exact counts (--full).\n");
	else
		printf("Scaled down from the kernel's\n   2,147,483,646 + "
		       "2,147,483,647 (x%.0f); --full runs those.\n",
		       (double)LKDTM_N / (double)g->work);
	printf("\n  %-20s %16s %20s %22s %7s  %s\n", "impl", "total cycles",
	       "cycles/op [min-max]", "ratio [min-max]", "kernel",
	       "protections (probed)");
	for (unsigned int i = 0; i < NR_IMPLS; i++) {
		const struct cell *c = &g->cell[i];
		double k = kernel_ratio(impls[i]->name);

		snprintf(b2, sizeof(b2), "%.2f [%.2f-%.2f]", c->med, c->lo,
			 c->hi);
		snprintf(b3, sizeof(b3), "%.3f [%.3f-%.3f]", c->rmed, c->rlo,
			 c->rhi);
		printf("%1s %-20s %16s %20s %22s ", mark(c), impls[i]->name,
		       thousands(c->total, b1), b2, b3);
		if (k)
			printf("%7.3f", k);
		else
			printf("%7s", "-");
		printf("  %s\n", protections(i));
	}
	printf("\n  The kernel column is the published ratio.  2017, x86, "
	       "LKDTM's full counts\n  (commit 7a46ec0e2f48, quoted on LWN "
	       "728626):\n");
	for (int k = 0; k < 3; k++)
		printf("    %-18s %16s cycles  %.4fx  %s\n",
		       kernel_figures[k].variant,
		       thousands((uint64_t)kernel_figures[k].cycles, b1),
		       kernel_figures[k].ratio, kernel_figures[k].prot);
	printf("  2019, the saturating design (dcb786493f3e, perf stat "
	       "seconds): x86 %.4fx,\n  arm64 %.4fx atomic_t.\n",
	       31.7408 / 31.6225, 48.7181 / 46.50451);
	printf("\n  Protections are probed at start-up, not typed in.  Each "
	       "misuse runs once on\n"
	       "  a scratch counter: overflow = inc at the largest legal "
	       "count; dec-to-zero =\n"
	       "  an untested decrement from 1; inc-from-zero = inc at 0; "
	       "underflow =\n"
	       "  dec_and_test at 0.  Listed when the library reported it "
	       "(breeds: a quiet\n"
	       "  handler installed and refcount_report_count() grew; glib: "
	       "g_critical) and\n"
	       "  the counter ended saturated or refused to move.  (abort): "
	       "the process\n"
	       "  aborted (peers are probed in a forked child); (warn only): "
	       "reported, but\n"
	       "  the counter moved as an unchecked one would; (silent): "
	       "saturated, no\n"
	       "  report.  No untested decrement, so no dec-to-zero probe:");
	for (unsigned int i = 0, n = 0; i < NR_IMPLS; i++)
		if (verdicts[i][BENCH_DEC_TO_ZERO] == V_NA)
			printf("%s %s", n++ ? "," : "", impls[i]->name);
	printf(".\n  urcu_ref's underflow abort is an assert(): "
	       "builds with -DNDEBUG lose it.\n");
}

static void print_contention_head(const struct group *g)
{
	char b[32];

	printf("\n2%s. Contention, %s: threads on one shared counter,\n"
	       "    %s pairs each; Mops/s of all threads (ratio to "
	       "atomic_t); threads\n    pinned round-robin to CPUs",
	       g->lookup ? "b" : "a",
	       g->lookup ? "lookup (inc_not_zero then dec_and_test)" :
			   "get/put (inc then dec_and_test)",
	       thousands(g->work, b));
	for (unsigned int t = 0; t < mach.ncpus; t++)
		printf(" %d", mach.cpus[t]);
	printf("\n\n  %-20s", "impl");
	for (unsigned int t = 1; t; t = next_threads(t))
		printf(" %11u thread%s", t, t > 1 ? "s" : " ");
	printf("\n");
}

/*
 * The lookup rows' failed compare-and-swaps per try-get, from one more,
 * untimed run per cell of 2b (bench_impl.lookup_retries).
 */
static void print_retries(void)
{
	bool head = false;

	for (unsigned int i = 0; i < NR_IMPLS; i++) {
		bool row = false;

		for (unsigned int k = 0; k < nr_groups; k++) {
			const struct group *g = &groups[k];

			if (g->suite != CONTENTION || !g->lookup ||
			    g->cell[i].retries < 0)
				continue;
			if (!head)
				printf("\n  CAS retries per try-get in 2b (one "
				       "more, "
				       "untimed run per cell; the breeds and\n"
				       "  atomic_t with a counting copy of "
				       "their "
				       "loop, rcuref and file_ref with their "
				       "get):\n");
			head = true;
			if (!row)
				printf("  %-20s", impls[i]->name);
			row = true;
			printf(" %18.4f", g->cell[i].retries);
		}
		if (row)
			printf("\n");
	}
}

static void print_contention(void)
{
	for (int l = 0; l < 2; l++) {
		bool head = false;

		for (unsigned int i = 0; i < NR_IMPLS; i++) {
			for (unsigned int k = 0; k < nr_groups; k++) {
				const struct group *g = &groups[k];
				const struct cell *c = &g->cell[i];
				char b[40];

				if (g->suite != CONTENTION || g->lookup != l)
					continue;
				if (!head)
					print_contention_head(g);
				head = true;
				if (g->threads == 1)
					printf("  %-20s", impls[i]->name);
				snprintf(b, sizeof(b), "%.1f (%.3f)%s",
					 mops(c->med), c->rmed, mark(c));
				printf(" %18s", b);
			}
			if (head)
				printf("\n");
		}
	}
	for (unsigned int i = 0; i < NR_IMPLS; i++)
		if (impls[i]->lookup_note)
			printf("  %s\n", impls[i]->lookup_note);
	print_retries();
}

static void print_objects(void)
{
	const struct group *cols[4];
	unsigned int n = 0;

	for (unsigned int k = 0; k < nr_groups && n < 4; k++)
		if (groups[k].suite == OBJECTS)
			cols[n++] = &groups[k];
	if (!n)
		return;
	printf("\n3. Many objects: one thread, pairs on counters in random "
	       "order, one 64-byte\n   object each: %u (%u KiB, cache "
	       "resident) and %u (%u MiB, more than\n   most caches); "
	       "after one untimed pass.  cycles/op (ratio to atomic_t)\n"
	       "\n  %-20s",
	       opt.small, (unsigned int)(opt.small * BENCH_SLOT >> 10),
	       opt.objects,
	       (unsigned int)((uint64_t)opt.objects * BENCH_SLOT >> 20),
	       "impl");
	for (unsigned int k = 0; k < n; k++) {
		char b[40];

		snprintf(b, sizeof(b), "%s, %u",
			 cols[k]->lookup ? "lookup" : "get/put",
			 cols[k]->objects);
		printf(" %18s", b);
	}
	printf("\n");
	for (unsigned int i = 0; i < NR_IMPLS; i++) {
		printf("  %-20s", impls[i]->name);
		for (unsigned int k = 0; k < n; k++) {
			const struct cell *c = &cols[k]->cell[i];
			char b[40];

			snprintf(b, sizeof(b), "%.2f (%.3f)%s", c->med, c->rmed,
				 mark(c));
			printf(" %18s", b);
		}
		printf("\n");
	}
}

static void print_codesize(void)
{
	printf("\n4. Code size: bytes of one call site, read with nm -S from "
	       "this build's objects\n"
	       "   A call site is a function holding one inlined operation, "
	       "less an empty\n"
	       "   function (%u byte%s: the ret).  +N cold: bytes the "
	       "compiler moved out of\n"
	       "   line (.cold).  calls N: the operation is a call; N bytes "
	       "in the library.\n"
	       "   Report functions shared by all call sites are not "
	       "counted.\n\n",
	       cs_empty, cs_empty == 1 ? "" : "s");
	printf("  %-20s %24s %24s\n", "impl", "inc", "dec_and_test");
	for (unsigned int i = 0; i < NR_IMPLS; i++) {
		const struct bench_cs *cs = cs_find(impls[i]->key);

		if (!cs)
			bench_fail("no code size for %s", impls[i]->name);
		printf("  %-20s", impls[i]->name);
		for (int op = 0; op < 2; op++) {
			char b[64];
			int n = snprintf(b, sizeof(b), "%u",
					 cs->bytes[op] - cs_empty);

			if (cs->cold[op])
				n += snprintf(b + n, sizeof(b) - (size_t)n,
					      " +%u cold", cs->cold[op]);
			if (cs->ool[op].fn)
				snprintf(b + n, sizeof(b) - (size_t)n,
					 ", calls %u", cs->ool[op].bytes);
			printf(" %24s", b);
		}
		printf("\n");
	}
	for (unsigned int i = 0; i < NR_IMPLS; i++) {
		const struct bench_cs *cs = cs_find(impls[i]->key);

		if (cs->ool[0].fn)
			printf("  %s calls %s and %s\n", impls[i]->name,
			       cs->ool[0].fn, cs->ool[1].fn);
	}
	print_codesize_archs();
}

void print_table(void)
{
	const struct group *t = find_group(TIMING);
	unsigned int nr_noisy = 0, nr_cells = 0;

	for (unsigned int k = 0; k < nr_groups; k++) {
		for (unsigned int i = 0; i < NR_IMPLS; i++) {
			nr_cells++;
			nr_noisy += noisy(&groups[k].cell[i]);
		}
	}

	print_header();
	if (t)
		print_timing(t);
	if (find_group(CONTENTION))
		print_contention();
	if (find_group(OBJECTS))
		print_objects();
	if (opt.suites & 1u << CODESIZE)
		print_codesize();
	print_targets();
	if (nr_noisy)
		printf("\nThis run was noisy: %u of %u measurements (marked ~) "
		       "have min-max wider\nthan %.0f%% of the median.  "
		       "Compare "
		       "ratios within this run, or rerun.\n",
		       nr_noisy, nr_cells, NOISY * 100);
	else
		printf("\nNo measurement had min-max wider than %.0f%% of its "
		       "median.\n",
		       NOISY * 100);
	if (cpu_share() >= 0)
		printf("Single-thread measurements had their CPU %.1f%% of the "
		       "time%s\n",
		       cpu_share() * 100,
		       cpu_share() < 0.97 ? ": other processes took the rest." :
					    ".");
}

/* SPDX-License-Identifier: MIT */
/*
 * lab/bench/machine.c - the machine refcount-bench runs on
 *
 * read_machine() fills mach: the CPUs this process may run on (and checks
 * --cpu against them), the start time and load averages, the CPU's name
 * and TSC flags from /proc/cpuinfo, the kernel and the TSC frequency,
 * measured against CLOCK_MONOTONIC_RAW.  It also pins the process to the
 * CPU the single-thread rows run on, and sets opt.cpu to the pin it reads
 * back.  read_loadavg() is called again at the end of the run.
 */
#include "driver.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct bench_mach mach;

static void read_cpuinfo(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[8192], name[96] = "unknown", family[16] = "", model[16] = "";

	while (f && fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');

		if (!v)
			continue;
		v += v[1] ? 2 : 1;
		v[strcspn(v, "\n")] = 0;
		if (!strncmp(line, "model name", 10)) {
			snprintf(name, sizeof(name), "%s", v);
		} else if (!strncmp(line, "cpu family", 10)) {
			snprintf(family, sizeof(family), "%s", v);
		} else if (!strncmp(line, "model\t", 6)) {
			snprintf(model, sizeof(model), "%s", v);
		} else if (!strncmp(line, "flags", 5)) {
			mach.constant_tsc = strstr(v, "constant_tsc") != NULL;
			mach.nonstop_tsc = strstr(v, "nonstop_tsc") != NULL;
			mach.hypervisor = strstr(v, "hypervisor") != NULL;
			break;
		}
	}
	if (f)
		fclose(f);
	if (*family)
		snprintf(mach.cpu, sizeof(mach.cpu), "%s (family %s model %s)",
			 name, family, model);
	else
		snprintf(mach.cpu, sizeof(mach.cpu), "%s", name);
}

double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The TSC frequency against CLOCK_MONOTONIC_RAW: median of 5 x 40 ms. */
static double measure_hz(void)
{
#ifdef BENCH_HAVE_TSC
	double hz[5];

	for (int i = 0; i < 5; i++) {
		struct timespec d = { 0, 40 * 1000 * 1000 };
		double t0 = mono();
		uint64_t c0 = bench_now();
		double t1;
		uint64_t c1;

		nanosleep(&d, NULL);
		c1 = bench_now();
		t1 = mono();
		hz[i] = (double)(c1 - c0) / (t1 - t0);
	}
	return median(hz, 5, NULL, NULL);
#else
	return 1e9;
#endif
}

/* The CPUs of @set as a list of ranges, "0-3,8" (for messages). */
static const char *cpu_list(const cpu_set_t *set, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int c = 0; c < CPU_SETSIZE && n < len; c++) {
		int e = c;

		if (!CPU_ISSET(c, set))
			continue;
		while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
			e++;
		n += (size_t)snprintf(buf + n, len - n,
				      e > c ? "%s%d-%d" : "%s%d", n ? "," : "",
				      c, e);
		c = e;
	}
	return buf;
}

/* Pin to @cpu, and return the CPU the affinity mask really holds. */
static int pin_to(int cpu)
{
	cpu_set_t set;
	char buf[64];

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		bench_fail("can't pin to CPU %d: %s", cpu, strerror(errno));
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) || CPU_COUNT(&set) != 1 ||
	    !CPU_ISSET(cpu, &set))
		bench_fail("pinned to CPU %d, but may run on CPUs %s", cpu,
			   cpu_list(&set, buf, sizeof(buf)));
	return cpu;
}

/* The 1-, 5- and 15-minute load averages from /proc/loadavg, or -1s. */
void read_loadavg(double load[3])
{
	FILE *f = fopen("/proc/loadavg", "r");

	if (!f || fscanf(f, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3)
		load[0] = load[1] = load[2] = -1;
	if (f)
		fclose(f);
}

void read_machine(void)
{
	cpu_set_t set;
	char buf[256];

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set))
		bench_fail("sched_getaffinity: %s", strerror(errno));
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			mach.cpus[mach.ncpus++] = c;
	if (!mach.ncpus)
		bench_fail("sched_getaffinity: no CPU to run on");
	if (opt.cpu >= 0 && !CPU_ISSET(opt.cpu, &set))
		bench_fail(
			"--cpu=%d: not a CPU this process may run on (it may "
			"run on %s)",
			opt.cpu, cpu_list(&set, buf, sizeof(buf)));
	mach.start = time(NULL);
	read_loadavg(mach.load);
	read_cpuinfo();
	uname(&mach.uts);
	opt.cpu = pin_to(opt.cpu >= 0 ? opt.cpu : mach.cpus[mach.ncpus - 1]);
	mach.hz = measure_hz();
}

/* SPDX-License-Identifier: MIT */
/*
 * bench/machine.c - the machine refcount-bench runs on
 *
 * read_machine() fills mach: the CPU's name and TSC flags from
 * /proc/cpuinfo, the kernel, the load average, the CPUs this process may
 * run on and the TSC frequency, measured against CLOCK_MONOTONIC_RAW.  It
 * also pins the process to the CPU the single-thread rows run on.
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

static void pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fprintf(stderr, "refcount-bench: can't pin to CPU %d: %s\n",
			cpu, strerror(errno));
}

void read_machine(void)
{
	cpu_set_t set;

	read_cpuinfo();
	uname(&mach.uts);
	if (getloadavg(&mach.load, 1) != 1)
		mach.load = -1;
	CPU_ZERO(&set);
	sched_getaffinity(0, sizeof(set), &set);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			mach.cpus[mach.ncpus++] = c;
	if (!mach.ncpus)
		mach.cpus[mach.ncpus++] = 0;
	if (opt.cpu < 0)
		opt.cpu = mach.cpus[mach.ncpus - 1];
	pin_to(opt.cpu);
	mach.hz = measure_hz();
}

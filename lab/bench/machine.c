/* SPDX-License-Identifier: MIT */
/*
 * lab/bench/machine.c - the machine refcount-bench runs on
 *
 * read_machine() fills mach: the CPUs this process may run on (and checks
 * --cpu against them), the start time and load averages, the CPU's name,
 * vendor, family, model, microarchitecture (uarch_name()) and TSC flags
 * from /proc/cpuinfo, the kernel and the TSC frequency,
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

/*
 * The microarchitecture of an x86 family and model, as Linux names them:
 * arch/x86/kernel/cpu/amd.c's Zen generations (bsp_init_amd()) and
 * arch/x86/include/asm/intel-family.h's big cores.  A model that is not
 * here is "unknown", never a guess from its neighbours.
 */
static const struct uarch {
	const char *vendor; /* /proc/cpuinfo's vendor_id */
	unsigned int family, lo, hi; /* models lo..hi, inclusive */
	const char *name;
} uarchs[] = {
	{ "AuthenticAMD", 0x17, 0x00, 0x2f, "Zen" },
	{ "AuthenticAMD", 0x17, 0x50, 0x5f, "Zen" },
	{ "AuthenticAMD", 0x17, 0x30, 0x4f, "Zen 2" },
	{ "AuthenticAMD", 0x17, 0x60, 0x7f, "Zen 2" },
	{ "AuthenticAMD", 0x17, 0x90, 0x91, "Zen 2" },
	{ "AuthenticAMD", 0x17, 0xa0, 0xaf, "Zen 2" },
	{ "AuthenticAMD", 0x19, 0x00, 0x0f, "Zen 3" },
	{ "AuthenticAMD", 0x19, 0x20, 0x5f, "Zen 3" },
	{ "AuthenticAMD", 0x19, 0x10, 0x1f, "Zen 4" },
	{ "AuthenticAMD", 0x19, 0x60, 0xaf, "Zen 4" },
	{ "AuthenticAMD", 0x1a, 0x00, 0x2f, "Zen 5" },
	{ "AuthenticAMD", 0x1a, 0x40, 0x4f, "Zen 5" },
	{ "AuthenticAMD", 0x1a, 0x70, 0x7f, "Zen 5" },
	{ "GenuineIntel", 6, 0x4e, 0x4e, "Skylake" },
	{ "GenuineIntel", 6, 0x5e, 0x5e, "Skylake" },
	{ "GenuineIntel", 6, 0x55, 0x55, "Skylake-X" },
	{ "GenuineIntel", 6, 0x8e, 0x8e, "Kaby Lake" },
	{ "GenuineIntel", 6, 0x9e, 0x9e, "Kaby Lake" },
	{ "GenuineIntel", 6, 0xa5, 0xa6, "Comet Lake" },
	{ "GenuineIntel", 6, 0x6a, 0x6a, "Ice Lake-X (Sunny Cove)" },
	{ "GenuineIntel", 6, 0x6c, 0x6c, "Ice Lake-D (Sunny Cove)" },
	{ "GenuineIntel", 6, 0x7d, 0x7e, "Ice Lake (Sunny Cove)" },
	{ "GenuineIntel", 6, 0xa7, 0xa7, "Rocket Lake (Cypress Cove)" },
	{ "GenuineIntel", 6, 0x8c, 0x8d, "Tiger Lake (Willow Cove)" },
	{ "GenuineIntel", 6, 0x8f, 0x8f, "Sapphire Rapids (Golden Cove)" },
	{ "GenuineIntel", 6, 0xcf, 0xcf, "Emerald Rapids" },
	{ "GenuineIntel", 6, 0xad, 0xae, "Granite Rapids" },
	{ "GenuineIntel", 6, 0x97, 0x97, "Alder Lake" },
	{ "GenuineIntel", 6, 0x9a, 0x9a, "Alder Lake" },
	{ "GenuineIntel", 6, 0xb7, 0xb7, "Raptor Lake" },
	{ "GenuineIntel", 6, 0xba, 0xba, "Raptor Lake" },
	{ "GenuineIntel", 6, 0xbf, 0xbf, "Raptor Lake" },
	{ "GenuineIntel", 6, 0xaa, 0xaa, "Meteor Lake" },
	{ "GenuineIntel", 6, 0xac, 0xac, "Meteor Lake" },
};

/* The name of @vendor's @family/@model, or "unknown". */
static const char *uarch_name(const char *vendor, int family, int model)
{
	for (size_t i = 0; i < sizeof(uarchs) / sizeof(uarchs[0]); i++)
		if (!strcmp(uarchs[i].vendor, vendor) &&
		    (int)uarchs[i].family == family &&
		    model >= (int)uarchs[i].lo && model <= (int)uarchs[i].hi)
			return uarchs[i].name;
	return "unknown";
}

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
		} else if (!strncmp(line, "vendor_id", 9)) {
			snprintf(mach.vendor, sizeof(mach.vendor), "%s", v);
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
	if (!*mach.vendor)
		snprintf(mach.vendor, sizeof(mach.vendor), "unknown");
	mach.family = *family ? atoi(family) : -1;
	mach.model = *model ? atoi(model) : -1;
	mach.uarch = uarch_name(mach.vendor, mach.family, mach.model);
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

// SPDX-License-Identifier: MIT
/*
 * report.c - counting and reporting refcount_t misuse
 *
 * Every breed's slow path ends in __refcount_report(): one process-wide count
 * per enum refcount_saturation_type, then the installed handler.  The default
 * handler prints the kernel's wording once per (type, message), as WARN_ONCE
 * did, and aborts with REFCOUNT_ABORT=1 (the kernel's panic_on_warn).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <refcount/breed/registry.h>
#include <refcount/impl/tracker-internal.h>
#include <refcount/report.h>

static atomic_ulong report_counts[REFCOUNT_NR_SATURATION_TYPES];
static _Atomic(refcount_report_fn) report_handler = refcount_report_default;
static _Atomic(refcount_report_ex_fn) report_handler_ex;
static atomic_bool warned_once[REFCOUNT_NR_SATURATION_TYPES]
			      [__REFCOUNT_NR_MSGS];

/* What the report being handled on this thread carries, for the default. */
struct report_ctx {
	enum __refcount_msg msg;
	const void *ip;
	const char *breed;
};
static _Thread_local const struct report_ctx *current_report;

static const char *const msg_text[__REFCOUNT_NR_MSGS] = {
	[__REFCOUNT_MSG_SATURATED] = "refcount_t: saturated; leaking memory.",
	[__REFCOUNT_MSG_ADD_ON_0] =
		"refcount_t: addition on 0; use-after-free.",
	[__REFCOUNT_MSG_INC_ON_0] =
		"refcount_t: increment on 0; use-after-free.",
	[__REFCOUNT_MSG_UNDERFLOW] = "refcount_t: underflow; use-after-free.",
	[__REFCOUNT_MSG_DEC_HIT_0] =
		"refcount_t: decrement hit 0; leaking memory.",
	/* kernel/panic.c refcount_error_report(): "refcount_t %s at %pB ..." */
	[__REFCOUNT_MSG_X86_OVERFLOW] = "overflow",
	[__REFCOUNT_MSG_X86_HIT_ZERO] = "hit zero",
	[__REFCOUNT_MSG_X86_UNEXPECTED] = "unexpected saturation",
	/* lib/rcuref.c, fs/file.c and include/linux/file_ref.h WARN_ONCEs */
	[__REFCOUNT_MSG_RCUREF_SATURATED] = "rcuref saturated - leaking memory",
	[__REFCOUNT_MSG_RCUREF_IMBALANCED] = "rcuref - imbalanced put()",
	[__REFCOUNT_MSG_FILE_REF_IMBALANCED] =
		"imbalanced put on file reference count",
	[__REFCOUNT_MSG_FILE_REF_INC_DEAD] =
		"file_ref_inc() on a released file reference",
	/* lib/percpu-refcount.c's WARNs, and librefcount's hardened checks */
	[__REFCOUNT_MSG_PERCPU_SATURATED] =
		"percpu_ref: saturated; leaking memory.",
	[__REFCOUNT_MSG_PERCPU_GET_RELEASED] =
		"percpu_ref: get on a released ref; use-after-free.",
	[__REFCOUNT_MSG_PERCPU_UNDERFLOW] =
		"percpu_ref: underflow; use-after-free.",
	[__REFCOUNT_MSG_PERCPU_PUT_RELEASED] =
		"percpu_ref: put after release; use-after-free.",
	[__REFCOUNT_MSG_PERCPU_SWITCH_LE_0] =
		"percpu ref <= 0 after switching to atomic",
	[__REFCOUNT_MSG_PERCPU_DOUBLE_KILL] =
		"percpu_ref_kill_and_confirm called more than once",
	[__REFCOUNT_MSG_PERCPU_EXIT_LIVE] =
		"percpu_ref: exit while references are held; use-after-free.",
};

static const char *const type_names[REFCOUNT_NR_SATURATION_TYPES] = {
	[REFCOUNT_ADD_NOT_ZERO_OVF] = "ADD_NOT_ZERO_OVF",
	[REFCOUNT_ADD_OVF] = "ADD_OVF",
	[REFCOUNT_ADD_UAF] = "ADD_UAF",
	[REFCOUNT_SUB_UAF] = "SUB_UAF",
	[REFCOUNT_DEC_LEAK] = "DEC_LEAK",
};

/* The saturating breed's message for each type (lib/refcount.c, v5.5+). */
enum __refcount_msg __refcount_modern_msg(enum refcount_saturation_type t)
{
	switch (t) {
	case REFCOUNT_ADD_NOT_ZERO_OVF:
	case REFCOUNT_ADD_OVF:
		return __REFCOUNT_MSG_SATURATED;
	case REFCOUNT_ADD_UAF:
		return __REFCOUNT_MSG_ADD_ON_0;
	case REFCOUNT_SUB_UAF:
		return __REFCOUNT_MSG_UNDERFLOW;
	case REFCOUNT_DEC_LEAK:
		return __REFCOUNT_MSG_DEC_HIT_0;
	}
	return __REFCOUNT_NR_MSGS;
}

/* The type of the counter a message is about, as the default prints it. */
static bool valid_type(enum refcount_saturation_type t)
{
	return (unsigned int)t < REFCOUNT_NR_SATURATION_TYPES;
}

unsigned long refcount_report_count(enum refcount_saturation_type t)
{
	if (!valid_type(t))
		return 0;
	return atomic_load_explicit(&report_counts[t], memory_order_relaxed);
}

static void report_env_forget(void);

refcount_report_fn refcount_set_report_handler(refcount_report_fn fn)
{
	report_env_forget();
	return atomic_exchange(&report_handler,
			       fn ? fn : refcount_report_default);
}

/*
 * The module a code address is in, and its offset there as addr2line wants
 * it: from the load address for a shared object or a PIE, the address
 * itself for a fixed-address executable.  @ip is a return address; the
 * offset is that of the call instruction's last byte (ip - 1), which
 * addr2line maps to the line of the call, as the kernel's %pB does.
 */
/* The loaded object that holds an address: its name and load bias. */
struct module {
	uintptr_t at;
	const char *name;
	uintptr_t bias;
	bool found;
};

static int find_module(struct dl_phdr_info *info, size_t size, void *data)
{
	struct module *m = data;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && m->at >= lo &&
		    m->at < lo + ph->p_memsz) {
			m->name = info->dlpi_name;
			m->bias = info->dlpi_addr;
			m->found = true;
			return 1;
		}
	}
	return 0;
}

/*
 * @ip as "symbol+0xoff (module+0xoff)": the symbol from the dynamic symbol
 * table where it has one (dladdr), the module and offset from the program
 * headers of what is loaded (dl_iterate_phdr, which works in static
 * programs too), so that `addr2line -i -e module 0xoff` finds the line:
 * the offset is from the load bias (0 for a fixed-address executable), of
 * the call instruction's last byte, ip - 1, as the kernel's %pB does.  The
 * main program has no name there: /proc/self/exe's target stands in, not
 * argv[0].
 */
static int format_ip(char *buf, size_t len, const void *ip)
{
	struct module m = { .at = (uintptr_t)ip - 1 };
	char exe[PATH_MAX], sym[256] = "";
	const char *mod;
	Dl_info info;
	ssize_t n;

	if (!ip || !dl_iterate_phdr(find_module, &m) || !m.found)
		return snprintf(buf, len, "%p", ip);
	mod = m.name;
	if (!mod || !*mod) {
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		exe[n > 0 ? n : 0] = '\0';
		mod = n > 0 ? exe : program_invocation_name;
	}
	if (dladdr(ip, &info) && info.dli_sname)
		snprintf(sym, sizeof(sym), "%s+%#lx (", info.dli_sname,
			 (unsigned long)((uintptr_t)ip -
					 (uintptr_t)info.dli_saddr));
	return snprintf(buf, len, "%s%s+%#lx%s", sym, mod,
			(unsigned long)(m.at - m.bias), *sym ? ")" : "");
}

/* The type of the counter a report is about, from who reported it. */
static const char *counter_type(const char *breed)
{
	if (breed && !strcmp(breed, "rcuref"))
		return "rcuref_t";
	if (breed && !strcmp(breed, "file_ref"))
		return "file_ref_t";
	if (breed && !strcmp(breed, "percpu_ref"))
		return "percpu_ref";
	return "refcount_t";
}

int refcount_report_format(const struct refcount_report *rep, char *buf,
			   size_t len)
{
	char where[PATH_MAX + 320];

	if (!rep->message) {
		if (len)
			*buf = '\0';
		return 0;
	}
	format_ip(where, sizeof(where), rep->caller);
	/* The 2017 x86 handler's words are not "refcount_t: ..." lines. */
	if (rep->breed && !strcmp(rep->breed, "fast") &&
	    strncmp(rep->message, "refcount_t: ", 12))
		return snprintf(buf, len,
				"refcount_t %s at %s in %s[%d], uid/euid: "
				"%u/%u (refcount_t %p)",
				rep->message, where,
				program_invocation_short_name, (int)getpid(),
				(unsigned int)getuid(), (unsigned int)geteuid(),
				(void *)rep->counter);
	return snprintf(buf, len, "%s (%s %p, caller %s, %s[%d])", rep->message,
			counter_type(rep->breed), (void *)rep->counter, where,
			program_invocation_short_name, (int)getpid());
}

/*
 * REFCOUNT_ABORT: 1 to abort, 0 not to, -1 for a value that is neither
 * (reported once, then treated as 0).
 */
static int abort_wanted(void)
{
	static const char *const yes[] = { "1", "y", "yes", "true", "on" };
	static const char *const no[] = { "", "0", "n", "no", "false", "off" };
	static atomic_bool complained;
	const char *v = getenv("REFCOUNT_ABORT");

	if (!v)
		return 0;
	for (unsigned int i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (!strcasecmp(v, yes[i]))
			return 1;
	for (unsigned int i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (!strcasecmp(v, no[i]))
			return 0;
	if (!atomic_exchange(&complained, true))
		fprintf(stderr,
			"librefcount: REFCOUNT_ABORT='%s' is not a boolean "
			"(1/yes/true/on or 0/no/false/off): not aborting\n",
			v);
	return -1;
}

/*
 * REFCOUNT_REPORT: "summary" (one line of counts on stderr at exit),
 * "every" (the default handler prints every report, not once per type and
 * message), or both, comma-separated.  Another value is named on stderr,
 * once, and ignored.
 */
enum { REPORT_SUMMARY = 1, REPORT_EVERY = 2 };

static unsigned int report_flags_read(void)
{
	static atomic_bool complained;
	const char *v = getenv("REFCOUNT_REPORT");
	unsigned int flags = 0;
	char word[16];

	while (v && *v) {
		size_t n = strcspn(v, ",");

		snprintf(word, sizeof(word), "%.*s", (int)n, v);
		if (!strcmp(word, "summary"))
			flags |= REPORT_SUMMARY;
		else if (!strcmp(word, "every"))
			flags |= REPORT_EVERY;
		else if (n && !atomic_exchange(&complained, true))
			fprintf(stderr,
				"librefcount: REFCOUNT_REPORT='%s' is not "
				"'summary' or 'every' (or both, with a comma): "
				"ignored\n",
				getenv("REFCOUNT_REPORT"));
		v += n + (v[n] == ',');
	}
	return flags;
}

/*
 * REFCOUNT_REPORT and REFCOUNT_REPORT_LOG as the reports read them: from
 * the environment at the first report, and again after
 * refcount_report_reset() and refcount_set_report_handler*().  A saturated
 * counter reports on every operation, and getenv() walks the whole
 * environment: in a converted json-c's saturated gets, perf put 56% of the
 * samples in getenv() and its strncmp().  The destructor's summary reads it
 * afresh.
 */
enum { ENV_READ = 4, ENV_LOG = 8 };
static atomic_uint env_state;
static char env_log[PATH_MAX];

static unsigned int report_env(void)
{
	unsigned int st =
		atomic_load_explicit(&env_state, memory_order_acquire);
	const char *log;

	if (__builtin_expect(st & ENV_READ, 1))
		return st;
	st = report_flags_read() | ENV_READ;
	log = getenv("REFCOUNT_REPORT_LOG");
	if (log && *log) {
		snprintf(env_log, sizeof(env_log), "%s", log);
		st |= ENV_LOG;
	}
	atomic_store_explicit(&env_state, st, memory_order_release);
	return st;
}

static void report_env_forget(void)
{
	atomic_store_explicit(&env_state, 0, memory_order_release);
}

static unsigned int report_flags(void)
{
	return report_env() & (REPORT_SUMMARY | REPORT_EVERY);
}

void refcount_report_default(refcount_t *r, enum refcount_saturation_type t)
{
	const struct report_ctx *ctx = current_report;
	enum __refcount_msg msg = ctx ? ctx->msg : __refcount_modern_msg(t);
	struct refcount_report rep;
	char line[PATH_MAX + 1024];

	if (msg == __REFCOUNT_MSG_SILENT)
		return;
	if (!valid_type(t) || msg >= __REFCOUNT_NR_MSGS) {
		fprintf(stderr,
			"refcount_t: unknown saturation event!? "
			"(type %d, refcount_t %p)\n",
			(int)t, (void *)r);
		return;
	}
	/* Once per type and message: a load first, the exchange once. */
	if ((atomic_load_explicit(&warned_once[t][msg], memory_order_relaxed) ||
	     atomic_exchange(&warned_once[t][msg], true)) &&
	    !(report_flags() & REPORT_EVERY))
		return;

	rep.counter = r;
	rep.type = t;
	rep.message = msg_text[msg];
	rep.breed = ctx ? ctx->breed : "saturating";
	rep.caller = ctx ? ctx->ip : NULL;
	refcount_report_format(&rep, line, sizeof(line));
	fprintf(stderr, "%s\n", line);
	/* Who holds it, if a tracked wrapper registered the counter. */
	__ref_tracker_print_holders(r);

	if (abort_wanted() == 1) {
		fprintf(stderr, "librefcount: REFCOUNT_ABORT=%s: aborting\n",
			getenv("REFCOUNT_ABORT"));
		abort();
	}
}

refcount_report_ex_fn refcount_set_report_handler_ex(refcount_report_ex_fn fn)
{
	report_env_forget();
	return atomic_exchange(&report_handler_ex, fn);
}

void refcount_report_reset(void)
{
	report_env_forget();
	for (int t = 0; t < REFCOUNT_NR_SATURATION_TYPES; t++) {
		atomic_store_explicit(&report_counts[t], 0,
				      memory_order_relaxed);
		for (int m = 0; m < __REFCOUNT_NR_MSGS; m++)
			atomic_store_explicit(&warned_once[t][m], false,
					      memory_order_relaxed);
	}
}

__attribute__((destructor)) static void report_summary(void)
{
	if (!(report_flags_read() & REPORT_SUMMARY))
		return;
	fprintf(stderr,
		"librefcount: %s[%d] reports:", program_invocation_short_name,
		(int)getpid());
	for (int t = 0; t < REFCOUNT_NR_SATURATION_TYPES; t++)
		fprintf(stderr, " %s %lu", type_names[t],
			refcount_report_count(
				(enum refcount_saturation_type)t));
	fputc('\n', stderr);
}

/*
 * REFCOUNT_REPORT_LOG=FILE: one line per report, appended to FILE (opened
 * for each report with O_APPEND, written with one write(), so that the
 * processes of a test suite can share it), whatever handler is installed:
 *	pid TAB breed TAB type TAB caller TAB message NEWLINE
 * type is the name REFCOUNT_REPORT=summary prints, caller is
 * "sym+0xoff (module+0xoff)", message is empty for a silent report.
 * A log that cannot be opened or written is said once on stderr, so that
 * an empty log is not mistaken for a clean run.
 */
static void report_log_failed(const char *path, int err)
{
	static atomic_bool said;

	if (!atomic_exchange(&said, true))
		fprintf(stderr,
			"librefcount: REFCOUNT_REPORT_LOG=%s: %s; reports "
			"are not logged\n",
			path, strerror(err));
}

static void report_log(const struct refcount_report *rep)
{
	const char *path = env_log;
	char where[PATH_MAX + 320], line[PATH_MAX + 1024];
	int fd, n;

	if (!(report_env() & ENV_LOG))
		return;
	format_ip(where, sizeof(where), rep->caller);
	n = snprintf(line, sizeof(line), "%d\t%s\t%s\t%s\t%s\n", (int)getpid(),
		     rep->breed ? rep->breed : "saturating",
		     valid_type(rep->type) ? type_names[rep->type] : "unknown",
		     where, rep->message ? rep->message : "");
	if (n <= 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = (int)sizeof(line) - 1;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		report_log_failed(path, errno);
		return;
	}
	/* A full disk loses a line; the report itself goes on. */
	errno = 0;
	if (write(fd, line, (size_t)n) != n)
		report_log_failed(path, errno ? errno : ENOSPC);
	close(fd);
}

void __refcount_report(refcount_t *r, enum refcount_saturation_type t,
		       enum __refcount_msg msg, const void *ip,
		       const char *breed)
{
	const struct report_ctx ctx = { .msg = msg, .ip = ip, .breed = breed };
	const struct report_ctx *outer = current_report;
	refcount_report_ex_fn ex;
	refcount_report_fn fn;

	const struct refcount_report rep = {
		.counter = r,
		.type = t,
		.message = msg == __REFCOUNT_MSG_SILENT ||
					   msg >= __REFCOUNT_NR_MSGS ?
				   NULL :
				   msg_text[msg],
		.breed = breed,
		.caller = ip,
	};

	if (valid_type(t))
		atomic_fetch_add_explicit(&report_counts[t], 1,
					  memory_order_relaxed);
	report_log(&rep);
	ex = atomic_load_explicit(&report_handler_ex, memory_order_acquire);
	if (ex) {
		ex(&rep);
		return;
	}
	fn = atomic_load_explicit(&report_handler, memory_order_acquire);
	current_report = &ctx;
	fn(r, t);
	current_report = outer;
}

void __refcount_saturate_at(refcount_t *r, enum refcount_saturation_type t,
			    const char *breed, const void *ip)
{
	/*
	 * The saturating design's word (INT_MIN - count, __REFCOUNT_SAT_WORD).
	 * Immortal (REFCOUNT_IMMORTAL, maybe moved by a racing op): no-op.
	 */
	if (__REFCOUNT_IMMORTAL_VALUE(__REFCOUNT_SAT_WORD(
		    __atomic_load_n(&r->refs, __ATOMIC_RELAXED)))) {
		__atomic_store_n(&r->refs,
				 __REFCOUNT_SAT_WORD(REFCOUNT_IMMORTAL),
				 __ATOMIC_RELAXED);
		return;
	}
	__atomic_store_n(&r->refs,
			 __REFCOUNT_SAT_WORD(__REFCOUNT_ROW_saturating(
				 __REFCOUNT_F_SATURATED)),
			 __ATOMIC_RELAXED);
	__refcount_report(r, t, __refcount_modern_msg(t), ip, breed);
}

void __refcount_nonatomic_warn_saturate(refcount_t *r,
					enum refcount_saturation_type t)
{
	__refcount_saturate_at(r, t,
			       __REFCOUNT_ROW_nonatomic(__REFCOUNT_F_NAME),
			       __builtin_return_address(0));
}

void refcount_warn_saturate(refcount_t *r, enum refcount_saturation_type t)
{
	__refcount_saturate_at(r, t,
			       __REFCOUNT_ROW_saturating(__REFCOUNT_F_NAME),
			       __builtin_return_address(0));
}

// SPDX-License-Identifier: MIT
/*
 * report.c - counting and reporting refcount_t misuse
 *
 * Every breed's slow path ends in __refcount_report(): one process-wide count
 * per enum refcount_saturation_type, then the installed handler.  The default
 * handler prints the kernel's wording once per (type, message), as WARN_ONCE
 * did, and aborts with REFCOUNT_ABORT=1 (the kernel's panic_on_warn).
 * REFCOUNT_REPORT_LOG=FILE records every report, one line each.
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
static atomic_bool warned_once[REFCOUNT_NR_SATURATION_TYPES]
			      [__REFCOUNT_NR_MSGS];

/*
 * Each message's text; the kind of counter it is about follows from which
 * message it is (msg_kind()).
 */
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

/* The names of the types, and of the kinds of counter. */
static const char *const type_names[REFCOUNT_NR_SATURATION_TYPES] = {
	[REFCOUNT_ADD_NOT_ZERO_OVF] = "ADD_NOT_ZERO_OVF",
	[REFCOUNT_ADD_OVF] = "ADD_OVF",
	[REFCOUNT_ADD_UAF] = "ADD_UAF",
	[REFCOUNT_SUB_UAF] = "SUB_UAF",
	[REFCOUNT_DEC_LEAK] = "DEC_LEAK",
};
static const char *const kind_names[] = {
	[REFCOUNT_KIND_REFCOUNT] = "refcount_t",
	[REFCOUNT_KIND_RCUREF] = "rcuref_t",
	[REFCOUNT_KIND_FILE_REF] = "file_ref_t",
	[REFCOUNT_KIND_PERCPU_REF] = "percpu_ref",
};

/* The kind of counter a message is about: the messages are grouped. */
static enum refcount_report_kind msg_kind(enum __refcount_msg msg)
{
	if (msg >= __REFCOUNT_MSG_PERCPU_SATURATED)
		return REFCOUNT_KIND_PERCPU_REF;
	if (msg >= __REFCOUNT_MSG_FILE_REF_IMBALANCED)
		return REFCOUNT_KIND_FILE_REF;
	if (msg >= __REFCOUNT_MSG_RCUREF_SATURATED)
		return REFCOUNT_KIND_RCUREF;
	return REFCOUNT_KIND_REFCOUNT;
}

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
	default:
		return __REFCOUNT_NR_MSGS;
	}
}

static bool valid_type(enum refcount_saturation_type t)
{
	return (unsigned int)t < REFCOUNT_NR_SATURATION_TYPES;
}

const char *refcount_report_type_name(enum refcount_saturation_type t)
{
	return valid_type(t) ? type_names[t] : "unknown";
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

/* The name of the kind of counter a report is about. */
static const char *kind_name(enum refcount_report_kind k)
{
	return (unsigned int)k < sizeof(kind_names) / sizeof(kind_names[0]) ?
		       kind_names[k] :
		       "refcount_t";
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
			kind_name(rep->kind), (void *)rep->counter, where,
			program_invocation_short_name, (int)getpid());
}

/*
 * REFCOUNT_ABORT: 1 to abort; 0, empty or unset not to.  Another value is
 * named once on stderr and treated as 0.
 */
static bool abort_wanted(void)
{
	static atomic_bool complained;
	const char *v = getenv("REFCOUNT_ABORT");

	if (!v || !strcmp(v, "") || !strcmp(v, "0"))
		return false;
	if (!strcmp(v, "1"))
		return true;
	if (!atomic_exchange(&complained, true))
		fprintf(stderr,
			"librefcount: REFCOUNT_ABORT='%s' is not 0 or 1: not "
			"aborting\n",
			v);
	return false;
}

/*
 * REFCOUNT_REPORT_LOG as the reports read it: from the environment at the
 * first report, and again after refcount_report_reset() and
 * refcount_set_report_handler().  A saturated counter reports on every
 * operation, and getenv() walks the whole environment: in a converted
 * json-c's saturated gets, perf put 56% of the samples in getenv() and its
 * strncmp().
 */
enum { ENV_READ = 1, ENV_LOG = 2 };
static atomic_uint env_state;
static char env_log[PATH_MAX];

static unsigned int report_env(void)
{
	unsigned int st =
		atomic_load_explicit(&env_state, memory_order_acquire);
	const char *log;

	if (__builtin_expect(st & ENV_READ, 1))
		return st;
	st = ENV_READ;
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

void refcount_report_default(const struct refcount_report *rep)
{
	char line[PATH_MAX + 1024];
	int m;

	if (!rep->message)
		return;
	for (m = 0; m < __REFCOUNT_NR_MSGS; m++)
		if (msg_text[m] && (msg_text[m] == rep->message ||
				    !strcmp(msg_text[m], rep->message)))
			break;
	if (!valid_type(rep->type) || m == __REFCOUNT_NR_MSGS) {
		fprintf(stderr,
			"refcount_t: unknown saturation event!? "
			"(type %d, refcount_t %p)\n",
			(int)rep->type, (void *)rep->counter);
		return;
	}
	/* Once per type and message: a load first, the exchange once. */
	if (atomic_load_explicit(&warned_once[rep->type][m],
				 memory_order_relaxed) ||
	    atomic_exchange(&warned_once[rep->type][m], true))
		return;

	refcount_report_format(rep, line, sizeof(line));
	fprintf(stderr, "%s\n", line);
	/* Who holds it, if a tracked wrapper registered the counter. */
	__ref_tracker_print_holders(rep->counter);

	if (abort_wanted()) {
		fprintf(stderr, "librefcount: REFCOUNT_ABORT=1: aborting\n");
		abort();
	}
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

/*
 * REFCOUNT_REPORT_LOG=FILE: one line per report, appended to FILE (opened
 * for each report with O_APPEND, written with one write(), so that the
 * processes of a test suite can share it), whatever handler is installed:
 *	pid TAB breed TAB type TAB caller TAB message NEWLINE
 * breed is the refcount_t's breed or the other kind's name, type is
 * refcount_report_type_name()'s, caller is
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
		     rep->breed ? rep->breed : kind_name(rep->kind),
		     refcount_report_type_name(rep->type), where,
		     rep->message ? rep->message : "");
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
	bool known = msg < __REFCOUNT_NR_MSGS;
	const struct refcount_report rep = {
		.counter = r,
		.type = t,
		.kind = known ? msg_kind(msg) : REFCOUNT_KIND_REFCOUNT,
		.message = known && msg != __REFCOUNT_MSG_SILENT ?
				   msg_text[msg] :
				   NULL,
		.breed = breed,
		.caller = ip,
	};

	if (valid_type(t))
		atomic_fetch_add_explicit(&report_counts[t], 1,
					  memory_order_relaxed);
	report_log(&rep);
	atomic_load_explicit(&report_handler, memory_order_acquire)(&rep);
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

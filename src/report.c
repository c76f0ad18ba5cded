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
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
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

/* What the report being handled on this thread carries, for the default. */
struct report_ctx {
	enum __refcount_msg msg;
	const void *ip;
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
};

/* The saturating breed's message for each type (lib/refcount.c, v5.5+). */
static enum __refcount_msg modern_msg(enum refcount_saturation_type t)
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

refcount_report_fn refcount_set_report_handler(refcount_report_fn fn)
{
	return atomic_exchange(&report_handler,
			       fn ? fn : refcount_report_default);
}

/* "sym+0x1c/0x40"-style caller text where the dynamic symbol table has it. */
static void format_ip(char *buf, size_t len, const void *ip)
{
	Dl_info info;

	if (ip && dladdr(ip, &info) && info.dli_sname)
		snprintf(buf, len, "%s+%#lx", info.dli_sname,
			 (unsigned long)((const char *)ip -
					 (const char *)info.dli_saddr));
	else
		snprintf(buf, len, "%p", ip);
}

void refcount_report_default(refcount_t *r, enum refcount_saturation_type t)
{
	const struct report_ctx *ctx = current_report;
	enum __refcount_msg msg = ctx ? ctx->msg : modern_msg(t);
	const char *abort_env;
	char where[160];

	if (msg == __REFCOUNT_MSG_SILENT)
		return;
	if (!valid_type(t) || msg >= __REFCOUNT_NR_MSGS) {
		fprintf(stderr,
			"refcount_t: unknown saturation event!? "
			"(type %d, refcount_t %p)\n",
			(int)t, (void *)r);
		return;
	}
	if (atomic_exchange(&warned_once[t][msg], true))
		return;

	format_ip(where, sizeof(where), ctx ? ctx->ip : NULL);
	if (msg >= __REFCOUNT_MSG_X86_OVERFLOW)
		fprintf(stderr,
			"refcount_t %s at %s in %s[%d], uid/euid: %u/%u "
			"(refcount_t %p)\n",
			msg_text[msg], where, program_invocation_short_name,
			(int)getpid(), (unsigned int)getuid(),
			(unsigned int)geteuid(), (void *)r);
	else
		fprintf(stderr, "%s (refcount_t %p, caller %s, %s[%d])\n",
			msg_text[msg], (void *)r, where,
			program_invocation_short_name, (int)getpid());
	/* Who holds it, if a tracked wrapper registered the counter. */
	__ref_tracker_print_holders(r);

	abort_env = getenv("REFCOUNT_ABORT");
	if (abort_env && !strcmp(abort_env, "1")) {
		fprintf(stderr, "librefcount: REFCOUNT_ABORT=1: aborting\n");
		abort();
	}
}

void __refcount_report(refcount_t *r, enum refcount_saturation_type t,
		       enum __refcount_msg msg, const void *ip)
{
	const struct report_ctx ctx = { .msg = msg, .ip = ip };
	const struct report_ctx *outer = current_report;
	refcount_report_fn fn;

	if (valid_type(t))
		atomic_fetch_add_explicit(&report_counts[t], 1,
					  memory_order_relaxed);
	fn = atomic_load_explicit(&report_handler, memory_order_acquire);
	current_report = &ctx;
	fn(r, t);
	current_report = outer;
}

void refcount_warn_saturate(refcount_t *r, enum refcount_saturation_type t)
{
	atomic_store_explicit(&r->refs,
			      __REFCOUNT_ROW_saturating(__REFCOUNT_F_SATURATED),
			      memory_order_relaxed);
	__refcount_report(r, t, modern_msg(t), __builtin_return_address(0));
}

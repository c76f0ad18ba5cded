// SPDX-License-Identifier: MIT
/*
 * tests/report-api.c - what a report handler is told, and the switches of
 * the default handler: the handler, refcount_report_format(),
 * refcount_report_type_name(), refcount_report_reset(), REFCOUNT_ABORT's
 * two values and when REFCOUNT_REPORT_LOG is read
 *
 * Built per breed into the unit suite.  The misuse used is
 * refcount_dec_not_one() on 0, which every breed reports as REFCOUNT_SUB_UAF
 * with "refcount_t: underflow; use-after-free." (lib/refcount.c).
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <refcount/refcount.h>

#include "helpers.h"

#define UNDERFLOW "refcount_t: underflow; use-after-free."

static struct refcount_report seen;
static char seen_message[128];
static int seen_calls;

static void ex_handler(const struct refcount_report *rep)
{
	seen = *rep;
	snprintf(seen_message, sizeof(seen_message), "%s",
		 rep->message ? rep->message : "(null)");
	seen_calls++;
}

/* The misuse, in a function of its own so that its address is known. */
static __attribute__((noinline)) void misuse_site(refcount_t *r)
{
	refcount_set(r, 0);
	cr_assert(refcount_dec_not_one(r));
	__asm__ volatile("" ::: "memory");
}

static void misuse(void *arg)
{
	refcount_t r;

	(void)arg;
	misuse_site(&r);
}

Test(report_api, handler_gets_message_kind_breed_and_caller)
{
	refcount_t r;

	seen_calls = 0;
	cr_assert_eq(refcount_set_report_handler(ex_handler),
		     refcount_report_default);
	misuse_site(&r);
	cr_assert_eq(seen_calls, 1);
	cr_assert_eq(seen.counter, &r);
	cr_assert_eq(seen.type, REFCOUNT_SUB_UAF);
	cr_assert_eq(seen.kind, REFCOUNT_KIND_REFCOUNT);
	cr_assert_str_eq(seen_message, UNDERFLOW);
	cr_assert_str_eq(seen.breed, REFCOUNT_BREED_NAME);
	/* The caller is the return address inside misuse_site(). */
	cr_assert((uintptr_t)seen.caller - (uintptr_t)misuse_site < 256,
		  "caller %p is not in misuse_site() at %p", seen.caller,
		  (void *)misuse_site);

	/* NULL restores the default, which the handler no longer sees. */
	cr_assert_eq(refcount_set_report_handler(NULL), ex_handler);
	quiet_install();
	misuse_site(&r);
	cr_assert_eq(seen_calls, 1);
	refcount_set_report_handler(NULL);
}

Test(report_api, format_names_message_counter_and_module)
{
	struct refcount_report rep = { 0 };
	refcount_t r;
	char line[512], want[64];

	refcount_set_report_handler(ex_handler);
	misuse_site(&r);
	refcount_set_report_handler(NULL);
	rep = seen;
	cr_assert_gt(refcount_report_format(&rep, line, sizeof(line)), 0);
	snprintf(want, sizeof(want), UNDERFLOW " (refcount_t %p, caller ",
		 (void *)&r);
	cr_assert(!strncmp(line, want, strlen(want)), "got \"%s\"", line);
	cr_assert(strstr(line, "+0x"), "no offset in \"%s\"", line);
	/* The kind names the counter's type. */
	rep.kind = REFCOUNT_KIND_RCUREF;
	rep.breed = NULL;
	refcount_report_format(&rep, line, sizeof(line));
	cr_assert(strstr(line, " (rcuref_t 0x"), "got \"%s\"", line);
	rep.message = NULL;
	cr_assert_eq(refcount_report_format(&rep, line, sizeof(line)), 0);
	cr_assert_str_empty(line);
}

Test(report_api, type_names)
{
	static const char *const want[] = {
		[REFCOUNT_ADD_NOT_ZERO_OVF] = "ADD_NOT_ZERO_OVF",
		[REFCOUNT_ADD_OVF] = "ADD_OVF",
		[REFCOUNT_ADD_UAF] = "ADD_UAF",
		[REFCOUNT_SUB_UAF] = "SUB_UAF",
		[REFCOUNT_DEC_LEAK] = "DEC_LEAK",
	};

	cr_assert_eq(sizeof(want) / sizeof(want[0]),
		     REFCOUNT_NR_SATURATION_TYPES);
	for (int t = 0; t < REFCOUNT_NR_SATURATION_TYPES; t++)
		cr_assert_str_eq(refcount_report_type_name(t), want[t]);
	cr_assert_str_eq(
		refcount_report_type_name(REFCOUNT_NR_SATURATION_TYPES),
		"unknown");
}

Test(report_api, reset_zeroes_counts)
{
	refcount_t r;

	quiet_install();
	misuse_site(&r);
	cr_assert_geq(refcount_report_count(REFCOUNT_SUB_UAF), 1);
	refcount_report_reset();
	for (int t = 0; t < REFCOUNT_NR_SATURATION_TYPES; t++)
		cr_assert_eq(refcount_report_count(t), 0);
	misuse_site(&r);
	cr_assert_eq(refcount_report_count(REFCOUNT_SUB_UAF), 1);
	refcount_set_report_handler(NULL);
}

static void misuse_twice_with_reset(void *arg)
{
	refcount_t r;

	(void)arg;
	misuse_site(&r);
	misuse_site(&r); /* once per message: nothing more */
	refcount_report_reset();
	misuse_site(&r); /* printed again */
}

Test(report_api, reset_prints_again)
{
	char out[2048];
	int status = run_captured(misuse_twice_with_reset, NULL, NULL, out,
				  sizeof(out));

	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status));
	cr_assert_eq(count_lines(out), 2, "got \"%s\"", out);
}

/*
 * REFCOUNT_REPORT_LOG is read at the first report and again after a reset:
 * set with setenv() in between, it takes effect only after the reset.
 */
static void log_after_reset(void *arg)
{
	const char *log = arg;
	refcount_t r;

	unsetenv("REFCOUNT_REPORT_LOG");
	refcount_report_reset();
	misuse_site(&r);
	setenv("REFCOUNT_REPORT_LOG", log, 1);
	misuse_site(&r); /* read at the first report: not logged */
	refcount_report_reset();
	misuse_site(&r); /* read again: logged, */
	misuse_site(&r); /* and every time */
}

Test(report_api, log_read_again_after_reset)
{
	char out[2048], log[] = "/tmp/refcount-report-api.XXXXXX", line[512];
	int status, fd = mkstemp(log), lines = 0;
	FILE *f;

	cr_assert_geq(fd, 0);
	close(fd);
	status = run_captured(log_after_reset, log, NULL, out, sizeof(out));
	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status));
	f = fopen(log, "r");
	cr_assert_not_null(f);
	while (fgets(line, sizeof(line), f))
		lines++;
	fclose(f);
	unlink(log);
	cr_assert_eq(lines, 2, "%d lines logged", lines);
}

static int with_abort(const char *value, char *out, size_t len)
{
	return run_captured(misuse, NULL, value, out, len);
}

Test(report_api, abort_1_aborts)
{
	char out[1024];
	int status = with_abort("1", out, sizeof(out));

	cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
		  "REFCOUNT_ABORT=1: status %#x", status);
}

Test(report_api, abort_0_and_empty_do_not)
{
	static const char *const no[] = { "", "0" };
	char out[1024];

	for (unsigned int i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		int status = with_abort(no[i], out, sizeof(out));

		cr_assert(WIFEXITED(status) && !WEXITSTATUS(status),
			  "REFCOUNT_ABORT='%s': status %#x", no[i], status);
		cr_assert_eq(count_lines(out), 1, "'%s': \"%s\"", no[i], out);
	}
}

/* Anything else, even a word that reads as true, is named and not obeyed. */
Test(report_api, abort_other_values_are_named_and_ignored)
{
	static const char *const other[] = { "yes", "true", "on", "2",
					     "maybe" };
	char out[1024], want[64];

	for (unsigned int i = 0; i < sizeof(other) / sizeof(other[0]); i++) {
		int status = with_abort(other[i], out, sizeof(out));

		cr_assert(WIFEXITED(status) && !WEXITSTATUS(status),
			  "REFCOUNT_ABORT='%s': status %#x", other[i], status);
		snprintf(want, sizeof(want),
			 "REFCOUNT_ABORT='%s' is not 0 or 1", other[i]);
		cr_assert(strstr(out, want), "got \"%s\"", out);
	}
}

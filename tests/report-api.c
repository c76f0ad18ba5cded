// SPDX-License-Identifier: MIT
/*
 * tests/report-api.c - what a report handler is told, and the switches of
 * the default handler: the richer handler form, refcount_report_format(),
 * refcount_report_reset(), REFCOUNT_ABORT's spellings and
 * REFCOUNT_REPORT=summary
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

#include <refcount/refcount.h>

#include "helpers.h"

#define UNDERFLOW "refcount_t: underflow; use-after-free."

static struct refcount_report seen;
static char seen_message[128];
static int seen_calls, plain_calls;

static void ex_handler(const struct refcount_report *rep)
{
	seen = *rep;
	snprintf(seen_message, sizeof(seen_message), "%s",
		 rep->message ? rep->message : "(null)");
	seen_calls++;
}

static void plain_handler(refcount_t *r, enum refcount_saturation_type t)
{
	(void)r;
	(void)t;
	plain_calls++;
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

Test(report_api, ex_handler_gets_message_breed_and_caller)
{
	refcount_t r;

	refcount_set_report_handler(plain_handler);
	seen_calls = plain_calls = 0;
	cr_assert_null(refcount_set_report_handler_ex(ex_handler));
	misuse_site(&r);
	cr_assert_eq(seen_calls, 1);
	cr_assert_eq(plain_calls, 0, "the plain handler ran too");
	cr_assert_eq(seen.counter, &r);
	cr_assert_eq(seen.type, REFCOUNT_SUB_UAF);
	cr_assert_str_eq(seen_message, UNDERFLOW);
	cr_assert_str_eq(seen.breed, REFCOUNT_BREED_NAME);
	/* The caller is the return address inside misuse_site(). */
	cr_assert((uintptr_t)seen.caller - (uintptr_t)misuse_site < 256,
		  "caller %p is not in misuse_site() at %p", seen.caller,
		  (void *)misuse_site);

	/* Removed, the plain handler gets the reports again. */
	cr_assert_eq(refcount_set_report_handler_ex(NULL), ex_handler);
	misuse_site(&r);
	cr_assert_eq(seen_calls, 1);
	cr_assert_eq(plain_calls, 1);
	refcount_set_report_handler(NULL);
}

Test(report_api, format_names_message_counter_and_module)
{
	struct refcount_report rep = { 0 };
	refcount_t r;
	char line[512], want[64];

	refcount_set_report_handler_ex(ex_handler);
	misuse_site(&r);
	refcount_set_report_handler_ex(NULL);
	rep = seen;
	cr_assert_gt(refcount_report_format(&rep, line, sizeof(line)), 0);
	snprintf(want, sizeof(want), UNDERFLOW " (refcount_t %p, caller ",
		 (void *)&r);
	cr_assert(!strncmp(line, want, strlen(want)), "got \"%s\"", line);
	cr_assert(strstr(line, "+0x"), "no offset in \"%s\"", line);
	rep.message = NULL;
	cr_assert_eq(refcount_report_format(&rep, line, sizeof(line)), 0);
	cr_assert_str_empty(line);
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
 * REFCOUNT_REPORT is read at the first report and again after a reset: set
 * with setenv() in between, "every" takes effect only after the reset.
 */
static void every_after_reset(void *arg)
{
	refcount_t r;

	(void)arg;
	unsetenv("REFCOUNT_REPORT");
	refcount_report_reset();
	misuse_site(&r);
	misuse_site(&r); /* once per message: nothing more */
	setenv("REFCOUNT_REPORT", "every", 1);
	misuse_site(&r); /* read at the first report: still nothing */
	refcount_report_reset();
	misuse_site(&r); /* read again: printed, */
	misuse_site(&r); /* and every time */
}

Test(report_api, env_read_again_after_reset)
{
	char out[2048];
	int status =
		run_captured(every_after_reset, NULL, NULL, out, sizeof(out));

	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status));
	cr_assert_eq(count_lines(out), 3, "got \"%s\"", out);
}

static int with_abort(const char *value, char *out, size_t len)
{
	return run_captured(misuse, NULL, value, out, len);
}

Test(report_api, abort_true_spellings)
{
	static const char *const yes[] = { "1",	 "y",	"yes",	"true",
					   "on", "YES", "True", "ON" };
	char out[1024];

	for (unsigned int i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		int status = with_abort(yes[i], out, sizeof(out));

		cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
			  "REFCOUNT_ABORT=%s: status %#x", yes[i], status);
	}
}

Test(report_api, abort_false_spellings)
{
	static const char *const no[] = { "",	   "0",	  "n",	"no",
					  "false", "off", "NO", "Off" };
	char out[1024];

	for (unsigned int i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		int status = with_abort(no[i], out, sizeof(out));

		cr_assert(WIFEXITED(status) && !WEXITSTATUS(status),
			  "REFCOUNT_ABORT='%s': status %#x", no[i], status);
		cr_assert_eq(count_lines(out), 1, "'%s': \"%s\"", no[i], out);
	}
}

Test(report_api, abort_other_values_are_named_and_ignored)
{
	char out[1024];
	int status = with_abort("maybe", out, sizeof(out));

	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status));
	cr_assert(strstr(out, "REFCOUNT_ABORT='maybe' is not a boolean"),
		  "got \"%s\"", out);
}

static void misuse_and_exit_with_summary(void *arg)
{
	refcount_t r;

	(void)arg;
	setenv("REFCOUNT_REPORT", "summary", 1);
	refcount_report_reset();
	misuse_site(&r);
	misuse_site(&r);
	fflush(stderr);
	exit(0); /* runs the destructors, unlike run_captured's _exit() */
}

Test(report_api, summary_at_exit)
{
	char out[2048];
	int status = run_captured(misuse_and_exit_with_summary, NULL, NULL, out,
				  sizeof(out));

	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status));
	cr_assert(strstr(out, " reports: ADD_NOT_ZERO_OVF 0 ADD_OVF 0 "
			      "ADD_UAF 0 SUB_UAF 2 DEC_LEAK 0\n"),
		  "got \"%s\"", out);
}

static void misuse_and_exit_with_bogus_report(void *arg)
{
	(void)arg;
	setenv("REFCOUNT_REPORT", "sumary", 1);
	exit(0);
}

Test(report_api, report_other_values_are_named)
{
	char out[1024];
	int status = run_captured(misuse_and_exit_with_bogus_report, NULL, NULL,
				  out, sizeof(out));

	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status));
	cr_assert(strstr(out, "REFCOUNT_REPORT='sumary' is not 'summary'"),
		  "got \"%s\"", out);
}

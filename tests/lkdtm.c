// SPDX-License-Identifier: MIT
/*
 * tests/lkdtm.c - the LKDTM refcount scenarios, the default report handler's
 * output, and the REFCOUNT_ABORT death test, for one breed
 *
 * Built once per breed (-DREFCOUNT_BREED=REFCOUNT_BREED_X) into
 * build/tests/<variant>/unit-<breed>.  The expectations are the breed's
 * column of tests/lkdtm-table.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include <refcount/refcount.h>

#include "helpers.h"
#include "lkdtm-scenarios.h"

static const struct lkdtm_expect *expect(enum lkdtm_id id)
{
	return &lkdtm_cases[id].e[THIS_BREED];
}

/* Behaviour: final value, return value, report type and count. */
static void check_behaviour(enum lkdtm_id id)
{
	const struct lkdtm_expect *e = expect(id);
	struct report_counts before;
	struct lkdtm_result res;
	refcount_t r = REFCOUNT_INIT(1);
	const char *bad;

	quiet_install();
	report_counts_snap(&before);
	lkdtm_scenario(id, &r, &res);
	bad = lkdtm_mismatch(id, THIS_BREED, &res, &before);
	cr_assert_null(bad, "%s", bad);
	if (e->type != NO_REPORT) {
		/* The handler was called once, with this counter. */
		cr_assert_eq(quiet_calls(e->type), 1);
		cr_assert_eq(quiet_last_counter(), (void *)&r);
	} else {
		cr_assert_null(quiet_last_counter());
	}
}

/* The default handler's output: the kernel's line, or nothing. */
static void twice(void *arg)
{
	enum lkdtm_id id = (enum lkdtm_id)(long)arg;
	struct lkdtm_result res;
	refcount_t a, b;

	lkdtm_scenario(id, &a, &res);
	lkdtm_scenario(id, &b, &res);
}

/* Does @line (up to its '\n') look like a report carrying @msg? */
static bool is_report_line(const char *line, const char *msg)
{
	char tail[128];

	if (strncmp(line, msg, strlen(msg)))
		return false;
	if (!strncmp(msg, "refcount_t: ", 12)) {
		/* "refcount_t: <what>. (refcount_t 0x..., caller ...)" */
		return !strncmp(line + strlen(msg), " (refcount_t 0x", 15);
	}
	/* kernel/panic.c: "refcount_t %s at %pB in %s[%d], uid/euid: %u/%u" */
	snprintf(tail, sizeof(tail), " in %s[", program_invocation_short_name);
	if (!strstr(line, tail))
		return false;
	snprintf(tail, sizeof(tail), "], uid/euid: %u/%u", getuid(), geteuid());
	return strstr(line, tail) != NULL;
}

static void check_printed(enum lkdtm_id id)
{
	const struct lkdtm_expect *e = expect(id);
	char out[4096];
	int status;

	status = run_captured(twice, (void *)(long)id, NULL, out, sizeof(out));
	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status),
		  "%s: child status %#x", lkdtm_cases[id].name, status);
	if (!e->msg) {
		cr_assert_str_empty(out, "%s: expected no output, got \"%s\"",
				    lkdtm_cases[id].name, out);
		return;
	}
	/* Once: the second run on another counter prints nothing more. */
	cr_assert_eq(count_lines(out), 1, "%s: expected one line, got \"%s\"",
		     lkdtm_cases[id].name, out);
	cr_assert(is_report_line(out, e->msg),
		  "%s: expected a line starting \"%s\", got \"%s\"",
		  lkdtm_cases[id].name, e->msg, out);
}

/* One test per scenario: its behaviour, then what it prints. */
#define LKDTM_TESTS(id, ...)                                                   \
	Test(lkdtm, id)                                                        \
	{                                                                      \
		check_behaviour(LKDTM_##id);                                   \
		check_printed(LKDTM_##id);                                     \
	}
LKDTM_CASES(LKDTM_TESTS)

/*
 * Once per (type, message), as WARN_ONCE: all 17 scenarios, twice, in one
 * process print exactly the first occurrence of each.
 */
static void all_twice(void *arg)
{
	struct lkdtm_result res;
	refcount_t r;

	(void)arg;
	for (int round = 0; round < 2; round++)
		for (int id = 0; id < NR_LKDTM; id++)
			lkdtm_scenario(id, &r, &res);
}

Test(lkdtm_printed, once_per_type)
{
	const char *want[NR_LKDTM];
	unsigned int nwant = 0;
	char out[8192];
	const char *line = out;
	int status;

	for (int id = 0; id < NR_LKDTM; id++) {
		const struct lkdtm_expect *e = expect(id);
		bool seen = false;

		if (!e->msg)
			continue;
		for (int j = 0; j < id; j++)
			if (expect(j)->type == e->type && expect(j)->msg &&
			    !strcmp(expect(j)->msg, e->msg))
				seen = true;
		if (!seen)
			want[nwant++] = e->msg;
	}

	status = run_captured(all_twice, NULL, NULL, out, sizeof(out));
	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status));
	cr_assert_eq(count_lines(out), nwant, "expected %u lines, got:\n%s",
		     nwant, out);
	for (unsigned int i = 0; i < nwant; i++) {
		cr_assert(is_report_line(line, want[i]),
			  "line %u: expected \"%s\", got:\n%s", i + 1, want[i],
			  out);
		line = strchr(line, '\n') + 1;
	}
}

Test(breed, constants)
{
	cr_assert_str_eq(REFCOUNT_BREED_NAME, breed_names[THIS_BREED]);
	cr_assert_eq((unsigned int)REFCOUNT_MAX, breed_max[THIS_BREED]);
	cr_assert_eq((unsigned int)REFCOUNT_SATURATED,
		     breed_saturated[THIS_BREED]);
	cr_assert_eq(sizeof(refcount_t), 4);
}

Test(report, handler_returns_previous)
{
	refcount_report_fn prev;

	prev = refcount_set_report_handler(NULL);
	cr_assert_eq(prev, refcount_report_default);
	quiet_install();
	prev = refcount_set_report_handler(NULL);
	cr_assert_neq(prev, refcount_report_default);
	cr_assert_eq(refcount_set_report_handler(prev),
		     refcount_report_default);
}

/* Called directly, the default handler prints each (type, message) once. */
static void default_directly(void *arg)
{
	refcount_t r = REFCOUNT_INIT(5);
	struct refcount_report add = { .counter = &r,
				       .type = REFCOUNT_ADD_UAF,
				       .message = MSG_ADD_ON_0,
				       .breed = "saturating" };
	struct refcount_report dec = add;

	(void)arg;
	dec.type = REFCOUNT_DEC_LEAK;
	dec.message = MSG_DEC_HIT_0;
	refcount_report_default(&add);
	refcount_report_default(&add);
	refcount_report_default(&dec);
}

Test(report, default_called_directly)
{
	char out[1024];
	int status =
		run_captured(default_directly, NULL, NULL, out, sizeof(out));

	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status));
	cr_assert_eq(count_lines(out), 2, "got \"%s\"", out);
	cr_assert(is_report_line(out, MSG_ADD_ON_0), "got \"%s\"", out);
	cr_assert(is_report_line(strchr(out, '\n') + 1, MSG_DEC_HIT_0),
		  "got \"%s\"", out);
}

Test(report, count_of_bad_type_is_zero)
{
	cr_assert_eq(refcount_report_count((enum refcount_saturation_type)99),
		     0);
}

/* The first scenario whose report this breed prints, or -1. */
static int first_printed(void)
{
	for (int id = 0; id < NR_LKDTM; id++)
		if (expect(id)->msg)
			return id;
	return -1;
}

/* The first scenario this breed reports but does not print, or -1. */
static int first_silent(void)
{
	for (int id = 0; id < NR_LKDTM; id++)
		if (expect(id)->type != NO_REPORT && !expect(id)->msg)
			return id;
	return -1;
}

static void once_then_continue(void *arg)
{
	enum lkdtm_id id = (enum lkdtm_id)(long)arg;
	struct lkdtm_result res;
	refcount_t r;

	lkdtm_scenario(id, &r, &res);
	fprintf(stderr, "continued\n");
}

static const char abort_line[] = "librefcount: REFCOUNT_ABORT=1: aborting\n";

/*
 * The report line is followed by the abort line, and the program said
 * nothing after it.  Anything after the abort line is the runtime's (qemu-user
 * adds "qemu: uncaught target signal 6 ..." to the child's stderr).
 */
static void assert_abort_follows(const char *out)
{
	const char *next = strchr(out, '\n');

	cr_assert(next, "no report line in \"%s\"", out);
	cr_assert(!strncmp(next + 1, abort_line, sizeof(abort_line) - 1),
		  "expected \"%s\" after the report, got \"%s\"", abort_line,
		  next + 1);
	cr_assert(!strstr(out, "continued"), "went on after abort: \"%s\"",
		  out);
}

/* REFCOUNT_ABORT=1: abort() right after printing the report. */
Test(abort, aborts_after_printing)
{
	int id = first_printed(), status;
	char out[4096];

	if (id < 0)
		cr_skip_test("the %s breed prints no LKDTM report",
			     REFCOUNT_BREED_NAME);
	status = run_captured(once_then_continue, (void *)(long)id, "1", out,
			      sizeof(out));
	cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
		  "status %#x, output \"%s\"", status, out);
	cr_assert(is_report_line(out, expect(id)->msg), "got \"%s\"", out);
	assert_abort_follows(out);
}

/* Without REFCOUNT_ABORT (or with another value) the program goes on. */
Test(abort, continues_without_it)
{
	const char *envs[] = { NULL, "0", "" };
	int id = first_printed(), status;
	char out[4096];

	if (id < 0)
		cr_skip_test("the %s breed prints no LKDTM report",
			     REFCOUNT_BREED_NAME);
	for (unsigned int i = 0; i < 3; i++) {
		status = run_captured(once_then_continue, (void *)(long)id,
				      envs[i], out, sizeof(out));
		cr_assert(WIFEXITED(status) && !WEXITSTATUS(status));
		cr_assert(is_report_line(out, expect(id)->msg));
		cr_assert_str_eq(strchr(out, '\n') + 1, "continued\n");
	}
}

/* A report that is not printed does not abort either. */
Test(abort, silent_report_does_not_abort)
{
	int id = first_silent(), status;
	char out[4096];

	if (id < 0)
		cr_skip_test("the %s breed has no silent report",
			     REFCOUNT_BREED_NAME);
	status = run_captured(once_then_continue, (void *)(long)id, "1", out,
			      sizeof(out));
	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status), "status %#x",
		  status);
	cr_assert_str_eq(out, "continued\n");
}

/*
 * refcount_dec_not_one() on 0 reports "underflow" in every breed, the
 * atomic one included (lib/refcount.c was checked in every 2017 breed).
 */
static void dec_not_one_on_zero(void *arg)
{
	refcount_t r = REFCOUNT_INIT(0);

	(void)arg;
	cr_assert(refcount_dec_not_one(&r));
	fprintf(stderr, "continued\n");
}

Test(abort, dec_not_one_underflow_aborts)
{
	char out[4096];
	int status;

	status = run_captured(dec_not_one_on_zero, NULL, "1", out, sizeof(out));
	cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
		  "status %#x, output \"%s\"", status, out);
	cr_assert(is_report_line(out, MSG_UNDERFLOW), "got \"%s\"", out);
	assert_abort_follows(out);

	status =
		run_captured(dec_not_one_on_zero, NULL, NULL, out, sizeof(out));
	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status));
	cr_assert_str_eq(strchr(out, '\n') + 1, "continued\n");
}

/* The same death test the Criterion way: the test itself must abort. */
Test(abort, criterion_signal, .signal = SIGABRT, .init = cr_redirect_stderr)
{
	refcount_t r = REFCOUNT_INIT(0);

	setenv("REFCOUNT_ABORT", "1", 1);
	refcount_set_report_handler(NULL);
	cr_assert(refcount_dec_not_one(&r));
	/* Not reached. */
}

// SPDX-License-Identifier: MIT
/*
 * tests/install-probe.c - a program outside the tree, against an installed
 * librefcount
 *
 * tests/install-test.sh copies this file with the LKDTM table and the
 * helpers to a temporary directory and builds it with nothing but
 * `pkg-config --cflags --libs refcount` pointed at a staged install, once
 * per breed.  It checks the 17 LKDTM scenarios against the breed's column
 * of the table, and what the default handler prints for the breed's first
 * printed report.  Exit status 0 if all is as the table says.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include <refcount/kref.h>
#include <refcount/refcount.h>

#include "helpers.h"
#include "lkdtm-scenarios.h"

static int failures;

#define expect(cond, ...)                                                      \
	do {                                                                   \
		if (!(cond)) {                                                 \
			printf("install-probe-%s: FAIL: ",                     \
			       REFCOUNT_BREED_NAME);                           \
			printf(__VA_ARGS__);                                   \
			putchar('\n');                                         \
			failures++;                                            \
		}                                                              \
	} while (0)

static void run_one(void *arg)
{
	struct lkdtm_result res;
	refcount_t r;

	lkdtm_scenario((enum lkdtm_id)(long)arg, &r, &res);
}

static int released;

static void release(struct kref *k)
{
	(void)k;
	released++;
}

int main(void)
{
	int printed = -1;
	char out[4096];

	expect(!strcmp(REFCOUNT_BREED_NAME, breed_names[THIS_BREED]),
	       "breed name %s", REFCOUNT_BREED_NAME);
	quiet_install();
	for (int id = 0; id < NR_LKDTM; id++) {
		struct report_counts before;
		struct lkdtm_result res;
		refcount_t r;
		const char *bad;

		report_counts_snap(&before);
		lkdtm_scenario(id, &r, &res);
		bad = lkdtm_mismatch(id, THIS_BREED, &res, &before);
		expect(!bad, "%s", bad);
		if (lkdtm_cases[id].e[THIS_BREED].msg && printed < 0)
			printed = id;
	}

	if (printed >= 0) {
		const char *msg = lkdtm_cases[printed].e[THIS_BREED].msg;
		int status = run_captured(run_one, (void *)(long)printed, NULL,
					  out, sizeof(out));

		expect(WIFEXITED(status) && !WEXITSTATUS(status),
		       "child status %#x", status);
		expect(!strncmp(out, msg, strlen(msg)) && count_lines(out) == 1,
		       "%s printed \"%s\", expected \"%s...\"",
		       lkdtm_cases[printed].name, out, msg);
	}

	{
		struct kref k = KREF_INIT(1);

		kref_get(&k);
		expect(!kref_put(&k, release) && kref_put(&k, release) &&
			       released == 1,
		       "kref_put released %d times", released);
	}

	if (failures)
		return 1;
	printf("install-probe-%s: the 17 LKDTM scenarios%s and kref as the "
	       "spec says\n",
	       REFCOUNT_BREED_NAME,
	       printed >= 0 ? ", the default handler's message" : "");
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * tests/report-log.c - REFCOUNT_REPORT_LOG=FILE
 *
 * Run by tests/report-log.sh with the environment it tests.  It misuses
 * counters at two call sites, site_inc() (increment from 0) and site_put()
 * (a put on 0), ROUNDS times each, in this process and, with an argument
 * "fork", in a child too, then exits 0.  The script checks what the default
 * handler printed and what the log holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <refcount/refcount.h>

#define ROUNDS 3

__attribute__((noinline)) void site_inc(refcount_t *r);
__attribute__((noinline)) void site_inc(refcount_t *r)
{
	refcount_set(r, 0);
	refcount_inc(r);
}

__attribute__((noinline)) void site_put(refcount_t *r);
__attribute__((noinline)) void site_put(refcount_t *r)
{
	refcount_set(r, 0);
	if (refcount_dec_and_test(r))
		abort();
}

static void misuse(void)
{
	refcount_t r;

	for (int i = 0; i < ROUNDS; i++) {
		site_inc(&r);
		site_put(&r);
	}
}

int main(int argc, char **argv)
{
	pid_t child = -1;
	int status;

	if (argc > 1 && argv[1][0] == 'n') /* "none": no report at all */
		return 0;
	if (argc > 1 && argv[1][0] == 'f') {
		child = fork();
		if (child < 0)
			return 2;
	}
	misuse();
	if (child > 0 && (waitpid(child, &status, 0) != child ||
			  !WIFEXITED(status) || WEXITSTATUS(status)))
		return 3;
	return 0;
}

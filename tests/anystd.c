/* SPDX-License-Identifier: MIT */
/*
 * tests/anystd.c - <refcount/refcount.h> from C90, C99, C11 and C++
 *
 * Written in C90 (tests/integration.mk builds it with -std=c90 -pedantic,
 * -std=c99 -pedantic, -std=c11 and as C++): below C11 the operations are
 * librefcount's exported functions, in C11 and C++ the inline ones; they
 * must behave the same, and a report must name this file's call site
 * (main+..., with -rdynamic).  It prints one line, "anystd MODE: ok", and
 * exits 1 on the first failed check.
 */
#include <stdio.h>
#include <string.h>

#include <refcount/refcount.h>

#ifndef MODE
#define MODE "?"
#endif

static int failures;
static char caller[512];

#define CHECK(c)                                                               \
	do {                                                                   \
		if (!(c)) {                                                    \
			fprintf(stderr, "anystd %s: line %d: %s failed\n",     \
				MODE, __LINE__, #c);                           \
			failures++;                                            \
		}                                                              \
	} while (0)

static void log_report(const struct refcount_report *rep)
{
	refcount_report_format(rep, caller, sizeof(caller));
}

int main(void)
{
	refcount_t r = REFCOUNT_INIT(1), imm = REFCOUNT_INIT_IMMORTAL;
	refcount_long_t l = REFCOUNT_LONG_INIT(1);
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

	refcount_set_report_handler(log_report);
	refcount_inc(&r);
	refcount_add(2, &r);
	CHECK(refcount_read(&r) == 4);
	CHECK(refcount_inc_not_zero(&r));
	CHECK(refcount_add_not_zero(1, &r));
	CHECK(refcount_inc_not_zero_acquire(&r));
	CHECK(refcount_add_not_zero_acquire(1, &r));
	refcount_dec(&r);
	CHECK(refcount_read(&r) == 7);
	CHECK(!refcount_sub_and_test(5, &r));
	CHECK(refcount_dec_not_one(&r));
	CHECK(!refcount_dec_not_one(&r));
	CHECK(refcount_dec_if_one(&r));
	CHECK(refcount_read(&r) == 0);
	refcount_set_release(&r, 1);
	CHECK(refcount_dec_and_mutex_lock(&r, &lock));
	pthread_mutex_unlock(&lock);
	refcount_set(&r, 1);
	CHECK(refcount_dec_and_test(&r));
	CHECK(!refcount_inc_not_zero(&r));
	CHECK(refcount_report_count(REFCOUNT_ADD_UAF) == 0);

	/* Misuse: an increment from 0 saturates and reports, naming main. */
	refcount_inc(&r);
	CHECK(refcount_read(&r) == (unsigned int)REFCOUNT_SATURATED);
	CHECK(refcount_report_count(REFCOUNT_ADD_UAF) == 1);
	CHECK(strstr(caller, "refcount_t: addition on 0") == caller);
	CHECK(strstr(caller, "caller main+") != NULL);
	CHECK(!refcount_dec_and_test(&r));
	CHECK(refcount_read(&r) == (unsigned int)REFCOUNT_SATURATED);
	CHECK(refcount_report_count(REFCOUNT_SUB_UAF) == 1);
	/* An out-of-line operation's report names main too. */
	refcount_set(&r, 0);
	CHECK(refcount_dec_not_one(&r));
	CHECK(refcount_report_count(REFCOUNT_SUB_UAF) == 2);
	CHECK(strstr(caller, "caller main+") != NULL);

	/* Immortal: every operation a silent no-op. */
	CHECK(refcount_is_immortal(&imm));
	refcount_inc(&imm);
	refcount_dec(&imm);
	CHECK(!refcount_dec_and_test(&imm));
	CHECK(refcount_inc_not_zero(&imm));
	CHECK(refcount_read(&imm) == (unsigned int)REFCOUNT_IMMORTAL);
	refcount_set(&r, 1);
	refcount_set_immortal(&r);
	CHECK(!refcount_sub_and_test(1, &r) && refcount_is_immortal(&r));
	CHECK(refcount_report_count(REFCOUNT_SUB_UAF) == 2);

	/* refcount_long_t: a size_t's layout, the same operations. */
	CHECK(sizeof(refcount_long_t) == sizeof(size_t));
	refcount_long_inc(&l);
	CHECK(refcount_long_read(&l) == 2);
	CHECK(!refcount_long_dec_and_test(&l));
	CHECK(refcount_long_dec_and_test(&l));
	refcount_long_inc(&l);
	CHECK(refcount_long_read(&l) == (unsigned long)REFCOUNT_LONG_SATURATED);
	CHECK(refcount_report_count(REFCOUNT_ADD_UAF) == 2);
	refcount_long_set_immortal(&l);
	CHECK(!refcount_long_dec_and_test(&l) && refcount_long_is_immortal(&l));
	if (failures)
		fprintf(stderr, "anystd %s: last report: %s\n", MODE, caller);
	printf("anystd %s: %s\n", MODE, failures ? "FAILED" : "ok");
	return failures != 0;
}

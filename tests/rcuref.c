// SPDX-License-Identifier: MIT
/*
 * tests/rcuref.c - rcuref_t and file_ref_t at every zone boundary
 *
 * Each operation (get, put, read; for file_ref_t also inc and put_close)
 * starts from the edges of every zone: ONEREF, ONEREF + 1, MAXREF - 1,
 * MAXREF, the first saturated value, SATURATED, the last saturated value,
 * RELEASED, DEAD, NOREF - 1 and NOREF.  The table holds what the kernel does
 * there (include/linux/rcuref.h, lib/rcuref.c, include/linux/file_ref.h,
 * fs/file.c; docs/rcuref.md, 'Zones'): the final value, the return value and
 * the report.  The expectations are written from those semantics, not from
 * the library's code.
 *
 * Built with RCUREF_NO_URCU (the zone logic does not depend on how the
 * memory rule is met, and the qemu builds have no foreign liburcu) and
 * RCUREF_DEBUG (the counters that show a get is one atomic instruction).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include <refcount/file_ref.h>
#include <refcount/rcuref.h>

#include "helpers.h"

#define NONE NO_REPORT

/* One row: the starting stored value and what each operation does. */
struct zrow {
	const char *name;
	unsigned long start;
	/* get */
	unsigned long get_final;
	bool get_ret;
	int get_report;
	/* put */
	unsigned long put_final;
	bool put_ret;
	int put_report;
	/* read */
	unsigned long read;
};

/*
 * rcuref_get(): a get that lands in the saturation zone pins SATURATED,
 * reports and succeeds; one that lands in the dead zone stores DEAD and
 * fails.  A get on NOREF revives the counter (the deconstruction race).
 * A put that lands in the saturation zone pins SATURATED silently (from
 * RELEASED too); one that lands in the dead zone is imbalanced.
 */
#define SATR REFCOUNT_ADD_NOT_ZERO_OVF
#define UAF REFCOUNT_SUB_UAF
#define R(x) RCUREF_##x
static const struct zrow rcuref_rows[] = {
	{ "ONEREF", 0, 1, true, NONE, R(DEAD), true, NONE, 1 },
	{ "ONEREF+1", 1, 2, true, NONE, 0, false, NONE, 2 },
	{ "MAXREF-1", R(MAXREF) - 1, R(MAXREF), true, NONE, R(MAXREF) - 2,
	  false, NONE, R(MAXREF) },
	{ "MAXREF", R(MAXREF), R(SATURATED), true, SATR, R(MAXREF) - 1, false,
	  NONE, R(MAXREF) + 1UL },
	{ "MAXREF+1", R(MAXREF) + 1, R(SATURATED), true, SATR, R(MAXREF), false,
	  NONE, R(MAXREF) + 2UL },
	{ "SATURATED", R(SATURATED), R(SATURATED), true, SATR, R(SATURATED),
	  false, NONE, R(SATURATED) + 1 },
	{ "RELEASED-1", R(RELEASED) - 1, R(DEAD), false, NONE, R(SATURATED),
	  false, NONE, R(RELEASED) },
	{ "RELEASED", R(RELEASED), R(DEAD), false, NONE, R(SATURATED), false,
	  NONE, 0 },
	{ "DEAD", R(DEAD), R(DEAD), false, NONE, R(DEAD), false, UAF, 0 },
	{ "NOREF-1", R(NOREF) - 1, R(DEAD), false, NONE, R(DEAD), false, UAF,
	  0 },
	{ "NOREF", R(NOREF), 0, true, NONE, R(DEAD), false, UAF, 0 },
};
#undef R

/*
 * file_ref_get(): no slow path; a get outside the valid zone fails and
 * leaves the counter as the add made it, without a report.  Puts as
 * rcuref's.
 */
#define F(x) FILE_REF_##x
static const struct zrow file_ref_rows[] = {
	{ "ONEREF", 0, 1, true, NONE, F(DEAD), true, NONE, 1 },
	{ "ONEREF+1", 1, 2, true, NONE, 0, false, NONE, 2 },
	{ "MAXREF-1", F(MAXREF) - 1, F(MAXREF), true, NONE, F(MAXREF) - 2,
	  false, NONE, F(MAXREF) },
	{ "MAXREF", F(MAXREF), F(MAXREF) + 1, false, NONE, F(MAXREF) - 1, false,
	  NONE, F(MAXREF) + 1 },
	{ "MAXREF+1", F(MAXREF) + 1, F(MAXREF) + 2, false, NONE, F(MAXREF),
	  false, NONE, F(MAXREF) + 2 },
	{ "SATURATED", F(SATURATED), F(SATURATED) + 1, false, NONE,
	  F(SATURATED), false, NONE, F(SATURATED) + 1 },
	{ "RELEASED-1", F(RELEASED) - 1, F(RELEASED), false, NONE, F(SATURATED),
	  false, NONE, F(RELEASED) },
	{ "RELEASED", F(RELEASED), F(RELEASED) + 1, false, NONE, F(SATURATED),
	  false, NONE, 0 },
	{ "DEAD", F(DEAD), F(DEAD) + 1, false, NONE, F(DEAD), false, UAF, 0 },
	{ "NOREF-1", F(NOREF) - 1, F(NOREF), false, NONE, F(DEAD), false, UAF,
	  0 },
	{ "NOREF", F(NOREF), 0, true, NONE, F(DEAD), false, UAF, 0 },
};
#undef F

#define NR_ROWS (sizeof(rcuref_rows) / sizeof(rcuref_rows[0]))

TestSuite(rcuref, .init = quiet_install);
TestSuite(file_ref, .init = quiet_install);

static unsigned long rc_val(rcuref_t *r)
{
	return (unsigned int)atomic_load(&r->refcnt);
}

static unsigned long fr_val(file_ref_t *r)
{
	return (unsigned long)atomic_load(&r->refcnt);
}

static void rc_set(rcuref_t *r, unsigned long v)
{
	atomic_store(&r->refcnt, (int)(unsigned int)v);
}

static void fr_set(file_ref_t *r, unsigned long v)
{
	atomic_store(&r->refcnt, (long)v);
}

static void expect_report(const struct report_counts *before, int type,
			  const char *what, const char *row)
{
	const char *why = "";

	cr_expect(report_counts_delta_ok(before, type, type == NONE ? 0 : 1,
					 &why),
		  "%s from %s: %s", what, row, why);
}

Test(rcuref, get)
{
	for (size_t i = 0; i < NR_ROWS; i++) {
		const struct zrow *z = &rcuref_rows[i];
		struct report_counts before;
		rcuref_t r;
		bool ret;

		rc_set(&r, z->start);
		report_counts_snap(&before);
		ret = rcuref_get(&r);
		cr_expect_eq(ret, z->get_ret, "get from %s returned %d",
			     z->name, ret);
		cr_expect_eq(rc_val(&r), z->get_final,
			     "get from %s left %#lx, not %#lx", z->name,
			     rc_val(&r), z->get_final);
		expect_report(&before, z->get_report, "get", z->name);
	}
}

Test(rcuref, put)
{
	for (size_t i = 0; i < NR_ROWS; i++) {
		const struct zrow *z = &rcuref_rows[i];
		struct report_counts before;
		rcuref_t r;
		bool ret;

		rc_set(&r, z->start);
		report_counts_snap(&before);
		ret = rcuref_put(&r);
		cr_expect_eq(ret, z->put_ret, "put from %s returned %d",
			     z->name, ret);
		cr_expect_eq(rc_val(&r), z->put_final,
			     "put from %s left %#lx, not %#lx", z->name,
			     rc_val(&r), z->put_final);
		expect_report(&before, z->put_report, "put", z->name);

		rc_set(&r, z->start);
		report_counts_snap(&before);
		ret = rcuref_put_rcusafe(&r);
		cr_expect_eq(ret, z->put_ret, "put_rcusafe from %s", z->name);
		cr_expect_eq(rc_val(&r), z->put_final, "put_rcusafe from %s",
			     z->name);
		expect_report(&before, z->put_report, "put_rcusafe", z->name);
	}
}

Test(rcuref, read)
{
	for (size_t i = 0; i < NR_ROWS; i++) {
		const struct zrow *z = &rcuref_rows[i];
		rcuref_t r;

		rc_set(&r, z->start);
		cr_expect_eq(rcuref_read(&r), (unsigned int)z->read,
			     "read at %s gave %u, not %lu", z->name,
			     rcuref_read(&r), z->read);
		cr_expect_eq(rc_val(&r), z->start, "read at %s wrote", z->name);
	}
}

Test(rcuref, init)
{
	rcuref_t a = RCUREF_INIT(1), b = RCUREF_INIT(5), c;

	cr_expect_eq(rc_val(&a), RCUREF_ONEREF);
	cr_expect_eq(rcuref_read(&b), 5);
	rcuref_init(&c, 3);
	cr_expect_eq(rcuref_read(&c), 3);
	rcuref_init(&c, 0); /* no references: NOREF, read as 0 */
	cr_expect_eq(rc_val(&c), RCUREF_NOREF);
	cr_expect_eq(rcuref_read(&c), 0);
}

/* A whole life: one reference, gets and puts, one release, then no gets. */
Test(rcuref, life)
{
	rcuref_t r = RCUREF_INIT(1);
	int released = 0;

	for (int i = 0; i < 100; i++)
		cr_assert(rcuref_get(&r));
	for (int i = 0; i < 101; i++)
		released += rcuref_put(&r);
	cr_expect_eq(released, 1);
	cr_expect_eq(rc_val(&r), RCUREF_DEAD);
	for (int i = 0; i < 100; i++)
		cr_expect(!rcuref_get(&r), "get %d after the release", i);
	cr_expect_eq(rc_val(&r), RCUREF_DEAD);
	cr_expect_eq(quiet_calls(REFCOUNT_SUB_UAF), 0);
}

/* The debug counters: every get is exactly one read-modify-write. */
Test(rcuref, get_is_one_rmw)
{
	struct rcuref_debug_stats a, b;
	rcuref_t r = RCUREF_INIT(1);

	rcuref_debug_read(&a);
	for (size_t i = 0; i < NR_ROWS; i++) {
		rc_set(&r, rcuref_rows[i].start);
		(void)!rcuref_get(&r);
	}
	rcuref_debug_read(&b);
	cr_expect_eq(b.gets - a.gets, NR_ROWS);
	cr_expect_eq(b.get_rmw - a.get_rmw, NR_ROWS);
	/* MAXREF .. NOREF-1 take the slow path: 7 of the 11 rows */
	cr_expect_eq(b.get_slow - a.get_slow, 7);
}

Test(file_ref, get)
{
	for (size_t i = 0; i < NR_ROWS; i++) {
		const struct zrow *z = &file_ref_rows[i];
		struct report_counts before;
		file_ref_t r;
		bool ret;

		fr_set(&r, z->start);
		report_counts_snap(&before);
		ret = file_ref_get(&r);
		cr_expect_eq(ret, z->get_ret, "get from %s returned %d",
			     z->name, ret);
		cr_expect_eq(fr_val(&r), z->get_final,
			     "get from %s left %#lx, not %#lx", z->name,
			     fr_val(&r), z->get_final);
		expect_report(&before, z->get_report, "get", z->name);
	}
}

Test(file_ref, put)
{
	for (size_t i = 0; i < NR_ROWS; i++) {
		const struct zrow *z = &file_ref_rows[i];
		struct report_counts before;
		file_ref_t r;
		bool ret;

		fr_set(&r, z->start);
		report_counts_snap(&before);
		ret = file_ref_put(&r);
		cr_expect_eq(ret, z->put_ret, "put from %s returned %d",
			     z->name, ret);
		cr_expect_eq(fr_val(&r), z->put_final,
			     "put from %s left %#lx, not %#lx", z->name,
			     fr_val(&r), z->put_final);
		expect_report(&before, z->put_report, "put", z->name);

		/* put_close: ONEREF goes straight to DEAD; else a put */
		fr_set(&r, z->start);
		report_counts_snap(&before);
		ret = file_ref_put_close(&r);
		cr_expect_eq(ret, z->put_ret, "put_close from %s", z->name);
		cr_expect_eq(fr_val(&r), z->put_final, "put_close from %s",
			     z->name);
		expect_report(&before, z->put_report, "put_close", z->name);
	}
}

Test(file_ref, put_close_is_one_cas)
{
	struct rcuref_debug_stats a, b;
	file_ref_t r = FILE_REF_INIT(1);

	rcuref_debug_read(&a);
	cr_expect(file_ref_put_close(&r));
	rcuref_debug_read(&b);
	cr_expect_eq(b.put_rmw - a.put_rmw, 1);
	cr_expect_eq(b.put_slow - a.put_slow, 0);
	cr_expect_eq(fr_val(&r), FILE_REF_DEAD);
}

Test(file_ref, inc)
{
	for (size_t i = 0; i < NR_ROWS; i++) {
		const struct zrow *z = &file_ref_rows[i];
		struct report_counts before;
		file_ref_t r;
		int type = (long)z->start < 0 ? REFCOUNT_ADD_UAF : NONE;

		fr_set(&r, z->start);
		report_counts_snap(&before);
		file_ref_inc(&r);
		cr_expect_eq(fr_val(&r), z->start + 1, "inc from %s", z->name);
		expect_report(&before, type, "inc", z->name);
	}
}

Test(file_ref, read)
{
	for (size_t i = 0; i < NR_ROWS; i++) {
		const struct zrow *z = &file_ref_rows[i];
		file_ref_t r;

		fr_set(&r, z->start);
		cr_expect_eq(file_ref_read(&r), z->read, "read at %s gave %lu",
			     z->name, file_ref_read(&r));
	}
}

Test(file_ref, init)
{
	file_ref_t a = FILE_REF_INIT(1), b;

	cr_expect_eq(fr_val(&a), FILE_REF_ONEREF);
	file_ref_init(&b, 7);
	cr_expect_eq(file_ref_read(&b), 7);
	cr_expect_eq(sizeof(file_ref_t), sizeof(long));
	cr_expect_eq(sizeof(rcuref_t), sizeof(refcount_t));
}

/* What the default handler prints: the kernel's texts, once each. */
static void misuse(void *arg)
{
	rcuref_t r = RCUREF_INIT(1);
	file_ref_t f = FILE_REF_INIT(1);

	(void)arg;
	for (int i = 0; i < 3; i++) {
		rc_set(&r, RCUREF_SATURATED);
		(void)!rcuref_get(&r);
		rc_set(&r, RCUREF_DEAD);
		(void)!rcuref_put(&r);
		fr_set(&f, FILE_REF_DEAD);
		(void)!file_ref_put(&f);
		file_ref_inc(&f);
	}
}

Test(rcuref, default_handler_messages)
{
	static const char *const texts[] = {
		"rcuref saturated - leaking memory (rcuref_t 0x",
		"rcuref - imbalanced put() (rcuref_t 0x",
		"imbalanced put on file reference count (file_ref_t 0x",
		"file_ref_inc() on a released file reference (file_ref_t 0x",
	};
	char out[4096];
	int st = run_captured(misuse, NULL, NULL, out, sizeof(out));

	cr_assert_eq(st, 0, "child status %#x: %s", st, out);
	cr_expect_eq(count_lines(out), 4, "once each:\n%s", out);
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		cr_expect(strstr(out, texts[i]), "no \"%s\" in:\n%s", texts[i],
			  out);
}

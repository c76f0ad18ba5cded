// SPDX-License-Identifier: MIT
/*
 * tests/ref_tracker.c - the ref_tracker: reports, quarantine, counts,
 * capture backends, the tracked wrappers and holders in misuse reports
 *
 * The report texts are compared with their expected form after masking:
 * every hexadecimal number becomes 0x?, and each run of frame lines
 * (indented) becomes one "<stack>" line.  Which frames a stack holds is
 * checked separately from the raw return addresses, so the checks hold
 * without symbolisation (the cross builds have no libdw).  Each test runs
 * in its own process (Criterion), so the process-wide depot and backend
 * start fresh.  Built with -fno-omit-frame-pointer (mk/unit.mk), so that
 * the frame-pointer walk passes through the test's own functions.
 */
#define REFCOUNT_TRACKER
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include <refcount/impl/stackdepot.h>
#include <refcount/impl/tracker-internal.h>
#include <refcount/ref_tracker.h>

#include "helpers.h"

#ifdef __clang__
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noclone))
#endif
/* A function's code is within this many bytes of its start. */
#define FN_SPAN 4096

/*
 * The test's own functions that stacks are checked against, so that an
 * address is attributed to the nearest start below it, not to any function
 * within FN_SPAN (their order in memory depends on the compiler).
 */
struct ref_tracker;
static void take_a(void);
static void take_b(void);
static void take_c(void);
static void drop_one(struct ref_tracker **t, int expect);
static void tobj_get(struct ref_tracker **t);
static void capture_inner(void);
static void capture_outer(void);
static void check_backend(enum refcount_stack_backend b);

#define FN(f) ((void (*)(void))(f))
static void (*const known_fns[])(void) = {
	take_a,	      take_b,	     take_c,	    FN(drop_one),
	FN(tobj_get), capture_inner, capture_outer, FN(check_backend),
};
#define nr_known_fns (sizeof(known_fns) / sizeof(known_fns[0]))

static bool in_fn(uintptr_t addr, void (*fn)(void))
{
	uintptr_t start = (uintptr_t)fn;

	if (addr <= start || addr >= start + FN_SPAN)
		return false;
	for (size_t i = 0; i < nr_known_fns; i++) {
		uintptr_t other = (uintptr_t)known_fns[i];

		if (other > start && other < addr)
			return false;
	}
	return true;
}

/* Mask addresses and collapse stacks, as the file comment says. */
static char *mask(const char *in)
{
	char *out = malloc(strlen(in) + 64), *o = out;
	bool in_stack = false;

	cr_assert_not_null(out);
	while (*in) {
		const char *eol = strchr(in, '\n');
		size_t len = eol ? (size_t)(eol - in + 1) : strlen(in);

		if (in[0] == ' ') {
			if (!in_stack)
				o += sprintf(o, "<stack>\n");
			in_stack = true;
			in += len;
			continue;
		}
		in_stack = false;
		for (size_t i = 0; i < len; i++) {
			if (in[i] == '0' && in[i + 1] == 'x') {
				o += sprintf(o, "0x?");
				for (i += 2; i < len &&
					     strchr("0123456789abcdef", in[i]);
				     i++)
					;
				i--;
			} else {
				*o++ = in[i];
			}
		}
		in += len;
	}
	*o = '\0';
	return out;
}

/* Run @fn with reports going to a memory stream; return what it printed. */
static char *captured(void (*fn)(void *), void *arg)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	cr_assert_not_null(f);
	__ref_tracker_output(f);
	fn(arg);
	__ref_tracker_output(NULL);
	fclose(f);
	return buf;
}

static struct ref_tracker_dir dir;
static struct ref_tracker *tr[64];

/* Three trackers from one call site (a loop the compiler can't unroll). */
static NOINLINE void take_a(void)
{
	volatile int three = 3;

	for (int i = 0; i < three; i++)
		cr_assert_eq(ref_tracker_alloc(&dir, &tr[i]), 0);
}

static NOINLINE void take_b(void)
{
	cr_assert_eq(ref_tracker_alloc(&dir, &tr[3]), 0);
}

static NOINLINE void take_c(void)
{
	cr_assert_eq(ref_tracker_alloc(&dir, &tr[4]), 0);
}

static NOINLINE void drop_one(struct ref_tracker **t, int expect)
{
	cr_assert_eq(ref_tracker_free(&dir, t), expect);
}

/* The first return address of tracker @t's allocation or free stack. */
static uintptr_t first_frame(const struct ref_tracker *t, bool freed)
{
	const uintptr_t *e;
	unsigned int n = __refcount_stack_depot_fetch(
		__ref_tracker_stack_of(t, freed), &e);

	cr_assert_gt(n, 0, "no stack saved");
	return e[0];
}

Test(ref_tracker, leaks_grouped_by_stack)
{
	char buf[8192], *m;
	int n;

	ref_tracker_dir_init(&dir, 4, "obj");
	take_a();
	take_b();
	n = ref_tracker_dir_snprint(&dir, buf, sizeof(buf));
	cr_assert_eq(n, (int)strlen(buf));
	m = mask(buf);
	cr_assert_str_eq(m, "obj@0x? has 3/4 users at\n<stack>\n\n"
			    "obj@0x? has 1/4 users at\n<stack>\n\n");
	/* Frames indented as stack_depot_snprint(..., 4): 5 blanks. */
	cr_assert(strstr(buf, "users at\n     ") != NULL, "%s", buf);
	for (int i = 0; i < 3; i++)
		cr_assert(in_fn(first_frame(tr[i], false), take_a));
	cr_assert(in_fn(first_frame(tr[3], false), take_b));
	/* One depot entry for the three trackers taken at one place. */
	cr_assert_eq(__ref_tracker_stack_of(tr[0], false),
		     __ref_tracker_stack_of(tr[2], false));
	free(m);
}

Test(ref_tracker, symbolised_when_printing)
{
	char buf[8192], sym[512];

	ref_tracker_dir_init(&dir, 4, "obj");
	take_b();
	ref_tracker_dir_snprint(&dir, buf, sizeof(buf));
	__refcount_symbolize((uintptr_t)take_b + 1, sym, sizeof(sym));
	/* Only where names are known (libdw, or a dynamic symbol). */
	if (!strncmp(sym, "take_b+", 7))
		cr_assert(strstr(buf, "     take_b+0x") != NULL, "%s", buf);
	/* The module and offset, for addr2line, always. */
	cr_assert(strstr(buf, "+0x") != NULL, "%s", buf);
}

static void print_limit_2(void *arg)
{
	(void)arg;
	ref_tracker_dir_print(&dir, 2);
}

Test(ref_tracker, display_limit)
{
	char *out, *m;

	ref_tracker_dir_init(&dir, 4, "obj");
	take_a();
	take_b();
	take_c();
	out = captured(print_limit_2, NULL);
	m = mask(out);
	cr_assert_str_eq(m, "obj@0x? has 3/5 users at\n<stack>\n\n"
			    "obj@0x? has 1/5 users at\n<stack>\n\n"
			    "obj@0x? skipped reports about 1/5 users.\n");
	free(m);
	free(out);
}

static void double_put(void *arg)
{
	(void)arg;
	drop_one(&tr[3], 0);
	drop_one(&tr[3], -EINVAL);
}

Test(ref_tracker, double_put_both_stacks)
{
	char *out, *m;

	ref_tracker_dir_init(&dir, 4, "obj");
	take_b();
	out = captured(double_put, NULL);
	m = mask(out);
	cr_assert_str_eq(m, "reference already released.\n"
			    "allocated in:\n<stack>\n"
			    "freed in:\n<stack>\n"
			    "released again in:\n<stack>\n");
	cr_assert(in_fn(first_frame(tr[3], false), take_b));
	cr_assert(in_fn(first_frame(tr[3], true), FN(drop_one)));
	cr_assert_eq(__ref_tracker_double_puts, 1);
	/* The dir is balanced: the second put did nothing. */
	cr_assert_not(ref_tracker_dir_exit(&dir));
	free(m);
	free(out);
}

Test(ref_tracker, quarantine_bound)
{
	struct __ref_tracker_dir_stats s;
	struct ref_tracker *old[10];

	ref_tracker_dir_init(&dir, 4, "q");
	for (int i = 0; i < 10; i++)
		cr_assert_eq(ref_tracker_alloc(&dir, &old[i]), 0);
	for (int i = 0; i < 10; i++)
		cr_assert_eq(ref_tracker_free(&dir, &old[i]), 0);
	__ref_tracker_dir_stats(&dir, &s);
	cr_assert_eq(s.live, 0);
	cr_assert_eq(s.quarantined, 4, "quarantine holds %lu, not 4",
		     s.quarantined);
	/* The last four released are still caught on a second put. */
	__ref_tracker_output(fopen("/dev/null", "w"));
	for (int i = 6; i < 10; i++)
		cr_assert_eq(ref_tracker_free(&dir, &old[i]), -EINVAL);
	/* Memory stays bounded: trackers leaving the quarantine are reused. */
	for (int i = 0; i < 100000; i++) {
		struct ref_tracker *t;

		cr_assert_eq(ref_tracker_alloc(&dir, &t), 0);
		cr_assert_eq(ref_tracker_free(&dir, &t), 0);
	}
	__ref_tracker_dir_stats(&dir, &s);
	cr_assert_eq(s.quarantined, 4);
	cr_assert_eq(s.chunks, 1, "%lu chunks for 5 trackers", s.chunks);
	cr_assert_not(ref_tracker_dir_exit(&dir));
}

Test(ref_tracker, bytes_per_live_reference)
{
	struct __ref_tracker_dir_stats s;
	static struct ref_tracker *t[10000];

	ref_tracker_dir_init(&dir, 0, "mem");
	for (int i = 0; i < 10000; i++)
		cr_assert_eq(ref_tracker_alloc(&dir, &t[i]), 0);
	__ref_tracker_dir_stats(&dir, &s);
	cr_assert_eq(s.live, 10000);
	cr_assert_leq(s.bytes / s.live, 32, "%lu bytes per live reference",
		      (unsigned long)(s.bytes / s.live));
	cr_assert_leq(__refcount_stack_depot_count(), 2);
	__ref_tracker_output(fopen("/dev/null", "w"));
	cr_assert(ref_tracker_dir_exit(&dir));
}

static void print_16(void *arg)
{
	(void)arg;
	ref_tracker_dir_print(&dir, 16);
}

Test(ref_tracker, null_tracker_and_oom_counts)
{
	struct ref_tracker *t = (struct ref_tracker *)&t;
	char *out, *m;

	ref_tracker_dir_init(&dir, 4, "c");
	cr_assert_eq(ref_tracker_alloc(&dir, NULL), 0);
	__ref_tracker_inject_oom(1);
	cr_assert_eq(ref_tracker_alloc(&dir, &t), -ENOMEM);
	cr_assert_null(t);
	out = captured(print_16, NULL);
	m = mask(out);
	cr_assert_str_eq(
		m, "c@0x? has 1 untracked users (tracker allocation failed).\n"
		   "c@0x? has 1 users without a tracker.\n");
	free(m);
	free(out);
	cr_assert_eq(ref_tracker_free(&dir, &t), -EEXIST);
	cr_assert_eq(ref_tracker_free(&dir, NULL), 0);
	cr_assert_not(ref_tracker_dir_exit(&dir));
}

static void exit_dir(void *arg)
{
	*(bool *)arg = ref_tracker_dir_exit(&dir);
}

Test(ref_tracker, exit_reports_leaks)
{
	bool leak = false;
	char *out, *m;

	ref_tracker_dir_init(&dir, 4, "x");
	take_b();
	take_c();
	drop_one(&tr[4], 0);
	out = captured(exit_dir, &leak);
	cr_assert(leak);
	m = mask(out);
	cr_assert_str_eq(m, "x@0x? has 1/1 users at\n<stack>\n\n");
	free(m);
	free(out);
}

Test(ref_tracker, exit_quiet_when_balanced)
{
	bool leak = true;
	char *out;

	ref_tracker_dir_init(&dir, 4, "x");
	take_b();
	drop_one(&tr[3], 0);
	out = captured(exit_dir, &leak);
	cr_assert_not(leak);
	cr_assert_str_eq(out, "");
	free(out);
}

/* A dir initialised twice (a misuse) still works: no cycle in the registry. */
Test(ref_tracker, init_twice)
{
	static struct ref_tracker_dir second;
	struct ref_tracker *t;

	ref_tracker_dir_init(&second, 4, "second");
	ref_tracker_dir_init(&dir, 4, "x");
	ref_tracker_dir_init(&dir, 4, "x");
	cr_assert_eq(ref_tracker_alloc(&dir, &t), 0);
	cr_assert_eq(ref_tracker_free(&dir, &t), 0);
	cr_assert_not(ref_tracker_dir_exit(&dir));
	cr_assert_not(ref_tracker_dir_exit(&second));
}

/* --- capture backends --------------------------------------------------- */

static uintptr_t cap[REF_TRACKER_STACK_ENTRIES];
static unsigned int ncap;

static NOINLINE void capture_inner(void)
{
	ncap = __refcount_stack_capture(cap, REF_TRACKER_STACK_ENTRIES, 0);
	__asm__ volatile("" ::: "memory");
}

static NOINLINE void capture_outer(void)
{
	capture_inner();
	__asm__ volatile("" ::: "memory");
}

/* Frame 0: the return of capture_inner() (the capture's caller). */
static NOINLINE void check_backend(enum refcount_stack_backend b)
{
	if (!__refcount_stack_force(b))
		cr_skip_test("%s: not available here",
			     __refcount_stack_backend_name(b));
	capture_outer();
	cr_assert_geq(ncap, 2, "%s: %u frames",
		      __refcount_stack_backend_name(b), ncap);
	cr_assert(in_fn(cap[0], capture_outer), "%s: frame 0",
		  __refcount_stack_backend_name(b));
	cr_assert(in_fn(cap[1], FN(check_backend)), "%s: frame 1",
		  __refcount_stack_backend_name(b));
}

Test(capture, frame_pointer_walk)
{
	check_backend(REFCOUNT_STACK_FP);
}

Test(capture, backtrace)
{
	check_backend(REFCOUNT_STACK_BACKTRACE);
}

/* libunwind's unw_backtrace(), where libunwind.so.8 is installed. */
Test(capture, libunwind)
{
	check_backend(REFCOUNT_STACK_LIBUNWIND);
}

Test(capture, chosen_once)
{
	enum refcount_stack_backend b = __refcount_stack_select();

	cr_assert(b == REFCOUNT_STACK_FP || b == REFCOUNT_STACK_BACKTRACE ||
		  b == REFCOUNT_STACK_LIBUNWIND);
	cr_assert_eq(__refcount_stack_select(), b);
}

/* A corrupt chain ends the walk instead of reading outside the stack. */
Test(capture, bad_chain_is_bounded)
{
	uintptr_t e[REF_TRACKER_STACK_ENTRIES];
	static uintptr_t heap_chain[2];
	uintptr_t loop[2], down[4];

	/* A record outside the stack: nothing is read. */
	heap_chain[0] = (uintptr_t)heap_chain;
	heap_chain[1] = 0x1234;
	cr_assert_eq(__refcount_stack_fp_walk_from(heap_chain, e, 16), 0);
	/* A record pointing at itself: one frame, then stop. */
	loop[0] = (uintptr_t)loop;
	loop[1] = 0x1234;
	cr_assert_eq(__refcount_stack_fp_walk_from(loop, e, 16), 1);
	/* A chain going down the stack, then into unmapped memory. */
	down[2] = (uintptr_t)&down[0];
	down[3] = 0x5678;
	down[0] = (uintptr_t)16; /* the page at 0: never mapped */
	down[1] = 0x9abc;
	cr_assert_eq(__refcount_stack_fp_walk_from(&down[2], e, 16), 1);
	/* Misaligned. */
	cr_assert_eq(__refcount_stack_fp_walk_from((char *)loop + 1, e, 16), 0);
}

Test(stackdepot, dedup_and_bounded)
{
	uintptr_t e[4] = { 1, 2, 3, 4 };
	depot_stack_handle_t h, h2;

	h = __refcount_stack_depot_save(e, 4);
	cr_assert_neq(h, 0);
	cr_assert_eq(__refcount_stack_depot_save(e, 4), h);
	h2 = __refcount_stack_depot_save(e, 3);
	cr_assert_neq(h2, h);
	for (uintptr_t i = 0; i < REFCOUNT_STACK_DEPOT_MAX + 10; i++) {
		e[0] = 100 + i;
		__refcount_stack_depot_save(e, 4);
	}
	cr_assert_eq(__refcount_stack_depot_count(), REFCOUNT_STACK_DEPOT_MAX);
	cr_assert_eq(__refcount_stack_dropped(), 12);
	e[0] = 1;
	cr_assert_eq(__refcount_stack_depot_save(e, 4), h, "still found");
	e[0] = 99999;
	cr_assert_eq(__refcount_stack_depot_save(e, 4), 0, "full: dropped");
}

/* --- the tracked wrappers, in this unit's breed ------------------------- */

struct tobj {
	struct kref ref;
	struct ref_tracker_dir dir;
	int released;
};

static struct tobj tobj;

static void tobj_release(struct kref *k)
{
	(void)k;
	tobj.released++;
}

static NOINLINE void tobj_get(struct ref_tracker **t)
{
	kref_get_tracked(&tobj.ref, &tobj.dir, t);
}

Test(tracked, kref_get_put)
{
	struct ref_tracker *a, *b;
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	struct __ref_tracker_dir_stats s;

	kref_init(&tobj.ref);
	ref_tracker_dir_init(&tobj.dir, 4, "tobj");
	tobj_get(&a);
	cr_assert(kref_get_unless_zero_tracked(&tobj.ref, &tobj.dir, &b));
	cr_assert_eq(kref_read(&tobj.ref), 3);
	__ref_tracker_dir_stats(&tobj.dir, &s);
	cr_assert_eq(s.live, 2);
	cr_assert(in_fn(first_frame(a, false), FN(tobj_get)));
	cr_assert_eq(kref_put_tracked(&tobj.ref, tobj_release, &tobj.dir, &a),
		     0);
	/* The double put is reported and not done: the count stays. */
	__ref_tracker_output(fopen("/dev/null", "w"));
	cr_assert_eq(kref_put_tracked(&tobj.ref, tobj_release, &tobj.dir, &a),
		     0);
	cr_assert_eq(kref_read(&tobj.ref), 2);
	cr_assert_eq(kref_put_mutex_tracked(&tobj.ref, tobj_release, &m,
					    &tobj.dir, &b),
		     0);
	cr_assert_eq(kref_put(&tobj.ref, tobj_release), 1);
	cr_assert_eq(tobj.released, 1);
	cr_assert_not(ref_tracker_dir_exit(&tobj.dir));
}

Test(tracked, refcount_inc_dec)
{
	refcount_t r = REFCOUNT_INIT(1);
	struct ref_tracker *a, *b = NULL;

	ref_tracker_dir_init(&tobj.dir, 4, "r");
	refcount_inc_tracked(&r, &tobj.dir, &a);
	cr_assert(refcount_inc_not_zero_tracked(&r, &tobj.dir, &b));
	cr_assert_not(refcount_dec_and_test_tracked(&r, &tobj.dir, &a));
	cr_assert_not(refcount_dec_and_test_tracked(&r, &tobj.dir, &b));
	cr_assert(refcount_dec_and_test(&r));
	b = NULL;
	cr_assert_not(refcount_inc_not_zero_tracked(&r, &tobj.dir, &b));
	cr_assert_null(b, "no tracker without a reference");
	cr_assert_not(ref_tracker_dir_exit(&tobj.dir));
}

/* Underflow a tracked counter that still has a holder (two puts, one get). */
static void misuse_tracked(void *arg)
{
	refcount_t r = REFCOUNT_INIT(1);
	struct ref_tracker *a;

	(void)arg;
	ref_tracker_dir_init(&tobj.dir, 4, "held");
	refcount_inc_tracked(&r, &tobj.dir, &a);
	refcount_dec(&r);
	refcount_dec(&r);
	refcount_dec(&r);
}

Test(tracked, misuse_report_names_holders)
{
	char out[16384];
	int status = run_captured(misuse_tracked, NULL, NULL, out, sizeof(out));

	cr_assert_eq(status, 0);
	if (THIS_BREED == B_ATOMIC) {
		cr_assert_str_eq(out, "", "the atomic breed reports nothing");
		return;
	}
	cr_assert(strstr(out, "refcount_t") == out, "%s", out);
	cr_assert(strstr(out, "is tracked by held@") != NULL, "%s", out);
	cr_assert(strstr(out, "held@") && strstr(out, "has 1/1 users at"), "%s",
		  out);
}

// SPDX-License-Identifier: MIT
/*
 * tests/percpu_ref.c - percpu_ref: every state transition, the mode bits
 * under concurrent get and put, kill racing every thread, and every misuse
 * the hardened atomic mode reports
 *
 * The expectations follow the kernel's state machine (lib/percpu-refcount.c:
 * live per-CPU, atomic, dead, zero, exited) and this library's userspace
 * contract (include/refcount/percpu_ref.h), not the library's code.
 *
 * PERCPU_EXPECT_PATH, if set, is the prefix percpu_ref_fast_path() must
 * have: the make target runs this program once as it is ("rseq" on x86-64)
 * and once with GLIBC_TUNABLES=glibc.pthread.rseq=0 ("atomic-slots").
 * PERCPU_RACE_ROUNDS scales the threaded tests (qemu runs fewer).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include <refcount/percpu_ref.h>

#include "helpers.h"

#define ATOMIC_BIT 1UL
#define DEAD_BIT 2UL

static int released, confirmed;
static struct percpu_ref *released_ref;

static void rel(struct percpu_ref *ref)
{
	__atomic_fetch_add(&released, 1, __ATOMIC_SEQ_CST);
	released_ref = ref;
}

static void setup(void)
{
	quiet_install();
	released = confirmed = 0;
	released_ref = NULL;
}

TestSuite(percpu_ref, .init = setup);

static unsigned long bits(struct percpu_ref *ref)
{
	return ref->percpu_count_ptr & (ATOMIC_BIT | DEAD_BIT);
}

static long exact(struct percpu_ref *ref)
{
	cr_assert(bits(ref) & ATOMIC_BIT, "exact() needs atomic mode");
	return ref->data->count;
}

static int rounds(int dflt)
{
	const char *v = getenv("PERCPU_RACE_ROUNDS");

	return v ? atoi(v) : dflt;
}

Test(percpu_ref, fast_path_is_the_expected_one)
{
	struct percpu_ref r;
	const char *want = getenv("PERCPU_EXPECT_PATH");

	cr_assert_eq(percpu_ref_init(&r, rel, 0), 0);
	cr_assert_str_neq(percpu_ref_fast_path(), "none");
	cr_assert_gt(percpu_ref_nr_slots(), 0);
	if (want)
		cr_assert_eq(
			strncmp(percpu_ref_fast_path(), want, strlen(want)), 0,
			"fast path %s, expected %s", percpu_ref_fast_path(),
			want);
	cr_assert_eq(sizeof(struct percpu_ref), 2 * sizeof(void *));
	percpu_ref_exit(&r);
}

/* live per-CPU -> dead atomic -> zero: release() at the last put only. */
Test(percpu_ref, kill_then_last_put_releases_once)
{
	struct percpu_ref r;

	cr_assert_eq(percpu_ref_init(&r, rel, 0), 0);
	cr_assert_eq(bits(&r), 0);
	cr_assert(!percpu_ref_is_zero(&r));
	cr_assert(!percpu_ref_is_dying(&r));
	for (int i = 0; i < 3; i++)
		percpu_ref_get(&r);
	percpu_ref_get_many(&r, 4);
	percpu_ref_put_many(&r, 4);
	cr_assert(percpu_ref_tryget(&r));
	cr_assert(percpu_ref_tryget_live(&r));
	percpu_ref_put(&r);
	percpu_ref_put(&r);
	percpu_ref_kill(&r);
	cr_assert_eq(bits(&r), ATOMIC_BIT | DEAD_BIT);
	cr_assert(percpu_ref_is_dying(&r));
	cr_assert_eq(exact(&r), 3);
	cr_assert(!percpu_ref_tryget_live(&r));
	cr_assert(percpu_ref_tryget(&r)); /* dead, not zero */
	percpu_ref_put(&r);
	percpu_ref_put(&r);
	percpu_ref_put(&r);
	cr_assert_eq(released, 0);
	percpu_ref_put(&r);
	cr_assert_eq(released, 1);
	cr_assert_eq(released_ref, &r);
	cr_assert(percpu_ref_is_zero(&r));
	cr_assert(!percpu_ref_tryget(&r));
	percpu_ref_exit(&r);
	cr_assert(percpu_ref_is_zero(&r), "is_zero works after exit");
	cr_assert_eq(quiet_calls(REFCOUNT_SUB_UAF) +
			     quiet_calls(REFCOUNT_ADD_UAF),
		     0);
}

/* A kill with no other reference releases inside percpu_ref_kill(). */
Test(percpu_ref, kill_of_last_reference_releases_in_kill)
{
	struct percpu_ref r;

	cr_assert_eq(percpu_ref_init(&r, rel, 0), 0);
	percpu_ref_kill(&r);
	cr_assert_eq(released, 1);
	cr_assert(percpu_ref_is_zero(&r));
	percpu_ref_exit(&r);
}

static struct percpu_ref *confirm_ref;
static void confirm(struct percpu_ref *ref)
{
	cr_assert_eq(ref, confirm_ref);
	cr_assert_eq(released, 0, "confirm before release");
	cr_assert(!percpu_ref_tryget_live(ref), "dead when confirmed");
	cr_assert(bits(ref) & ATOMIC_BIT);
	confirmed++;
}

Test(percpu_ref, kill_and_confirm_confirms_before_release)
{
	struct percpu_ref r;

	cr_assert_eq(percpu_ref_init(&r, rel, 0), 0);
	confirm_ref = &r;
	percpu_ref_kill_and_confirm(&r, confirm);
	cr_assert_eq(confirmed, 1);
	cr_assert_eq(released, 1);
	percpu_ref_exit(&r);
}

/* INIT_ATOMIC: exact from the start; the initial put releases. */
Test(percpu_ref, init_atomic)
{
	struct percpu_ref r;

	cr_assert_eq(percpu_ref_init(&r, rel, PERCPU_REF_INIT_ATOMIC), 0);
	cr_assert_eq(bits(&r), ATOMIC_BIT);
	cr_assert_eq(exact(&r), 1);
	percpu_ref_get(&r);
	cr_assert_eq(exact(&r), 2);
	cr_assert(percpu_ref_tryget_live(&r));
	percpu_ref_put_many(&r, 2);
	/* INIT_ATOMIC allows the switch back to per-CPU (sticky until then). */
	percpu_ref_switch_to_percpu(&r);
	cr_assert_eq(bits(&r), 0);
	percpu_ref_get(&r);
	percpu_ref_put(&r);
	cr_assert_eq(released, 0);
	percpu_ref_put(&r); /* the initial reference, in per-CPU mode */
	cr_assert_eq(released, 0, "no release in per-CPU mode");
	percpu_ref_get(&r);
	percpu_ref_kill(&r);
	cr_assert_eq(released, 1);
	percpu_ref_exit(&r);
}

/* INIT_DEAD: zero and dying; reinit makes it live with one reference. */
Test(percpu_ref, init_dead_then_reinit)
{
	struct percpu_ref r;

	cr_assert_eq(percpu_ref_init(&r, rel, PERCPU_REF_INIT_DEAD), 0);
	cr_assert_eq(bits(&r), ATOMIC_BIT | DEAD_BIT);
	cr_assert(percpu_ref_is_zero(&r));
	cr_assert(percpu_ref_is_dying(&r));
	cr_assert(!percpu_ref_tryget(&r));
	percpu_ref_reinit(&r);
	cr_assert_eq(bits(&r), 0, "INIT_DEAD allows reinit to per-CPU mode");
	cr_assert(!percpu_ref_is_zero(&r));
	cr_assert(percpu_ref_tryget_live(&r));
	percpu_ref_put(&r);
	percpu_ref_kill(&r);
	cr_assert_eq(released, 1);
	cr_assert_eq(quiet_calls(REFCOUNT_ADD_UAF), 0);
	percpu_ref_exit(&r);
}

/* Switches keep the count; switch_to_atomic is sticky across resurrect. */
Test(percpu_ref, switch_round_trip_keeps_the_count)
{
	struct percpu_ref r;

	cr_assert_eq(percpu_ref_init(&r, rel, PERCPU_REF_ALLOW_REINIT), 0);
	percpu_ref_get_many(&r, 5);
	confirm_ref = &r;
	percpu_ref_switch_to_atomic(&r, NULL);
	cr_assert_eq(bits(&r), ATOMIC_BIT);
	cr_assert_eq(exact(&r), 6);
	cr_assert(percpu_ref_tryget_live(&r), "atomic but live");
	percpu_ref_switch_to_percpu(&r);
	cr_assert_eq(bits(&r), 0);
	percpu_ref_put_many(&r, 6);
	percpu_ref_switch_to_atomic_sync(&r);
	cr_assert_eq(exact(&r), 1);
	cr_assert(!percpu_ref_is_zero(&r));
	cr_assert_eq(released, 0, "a switch never releases");
	percpu_ref_kill(&r);
	cr_assert_eq(released, 1);
	percpu_ref_exit(&r);
}

Test(percpu_ref, switch_to_percpu_needs_allow_reinit)
{
	struct percpu_ref r;

	cr_assert_eq(percpu_ref_init(&r, rel, 0), 0);
	percpu_ref_switch_to_atomic_sync(&r);
	cr_assert_eq(bits(&r), ATOMIC_BIT);
	percpu_ref_switch_to_percpu(&r);
	cr_assert_eq(bits(&r), ATOMIC_BIT, "stays atomic without ALLOW_REINIT");
	cr_assert_eq(exact(&r), 1);
	percpu_ref_kill(&r);
	cr_assert_eq(released, 1);
	percpu_ref_exit(&r);
}

Test(percpu_ref, sticky_atomic_survives_resurrect)
{
	struct percpu_ref r;

	cr_assert_eq(percpu_ref_init(&r, rel, PERCPU_REF_ALLOW_REINIT), 0);
	percpu_ref_get(&r);
	percpu_ref_switch_to_atomic_sync(&r);
	percpu_ref_kill(&r);
	cr_assert_eq(exact(&r), 1);
	percpu_ref_resurrect(&r);
	cr_assert_eq(bits(&r), ATOMIC_BIT, "forced atomic stays atomic");
	cr_assert_eq(exact(&r), 2);
	percpu_ref_switch_to_percpu(&r);
	cr_assert_eq(bits(&r), 0);
	percpu_ref_put(&r);
	percpu_ref_kill(&r);
	cr_assert_eq(released, 1);
	percpu_ref_exit(&r);
}

/* dead, not zero -> resurrect -> live per-CPU again. */
Test(percpu_ref, resurrect_a_dying_ref)
{
	struct percpu_ref r;

	cr_assert_eq(percpu_ref_init(&r, rel, PERCPU_REF_ALLOW_REINIT), 0);
	percpu_ref_get(&r);
	percpu_ref_kill(&r);
	cr_assert(percpu_ref_is_dying(&r));
	percpu_ref_resurrect(&r);
	cr_assert(!percpu_ref_is_dying(&r));
	cr_assert_eq(bits(&r), 0);
	cr_assert(percpu_ref_tryget_live(&r));
	percpu_ref_put(&r);
	percpu_ref_put(&r);
	cr_assert_eq(released, 0);
	percpu_ref_kill(&r);
	cr_assert_eq(released, 1);
	/* A resurrect of a live ref does nothing. */
	percpu_ref_exit(&r);
}

/* zero -> reinit -> live: release() may run once per life. */
Test(percpu_ref, reinit_after_release)
{
	struct percpu_ref r;

	cr_assert_eq(percpu_ref_init(&r, rel, PERCPU_REF_ALLOW_REINIT), 0);
	percpu_ref_kill(&r);
	cr_assert_eq(released, 1);
	percpu_ref_reinit(&r);
	cr_assert(!percpu_ref_is_zero(&r));
	cr_assert(!percpu_ref_is_dying(&r));
	cr_assert_eq(bits(&r), 0);
	percpu_ref_get(&r);
	percpu_ref_put(&r);
	percpu_ref_kill(&r);
	cr_assert_eq(released, 2);
	/* reinit of a ref that is not zero: nothing happens. */
	percpu_ref_exit(&r);
	cr_assert_eq(quiet_calls(REFCOUNT_ADD_UAF) +
			     quiet_calls(REFCOUNT_SUB_UAF),
		     0);
}

Test(percpu_ref, reinit_of_a_live_ref_does_nothing)
{
	struct percpu_ref r;

	cr_assert_eq(percpu_ref_init(&r, rel, PERCPU_REF_ALLOW_REINIT), 0);
	percpu_ref_reinit(&r);
	percpu_ref_resurrect(&r);
	percpu_ref_switch_to_atomic_sync(&r);
	cr_assert_eq(exact(&r), 1);
	percpu_ref_kill(&r);
	cr_assert_eq(released, 1);
	percpu_ref_exit(&r);
}

/* Exit on an error path: initialised, never killed, only the initial ref. */
Test(percpu_ref, exit_of_an_unused_ref_is_quiet)
{
	struct percpu_ref r;

	cr_assert_eq(percpu_ref_init(&r, rel, 0), 0);
	percpu_ref_get(&r);
	percpu_ref_put(&r);
	percpu_ref_exit(&r);
	cr_assert_eq(quiet_calls(REFCOUNT_SUB_UAF), 0);
	cr_assert(!percpu_ref_is_zero(&r));
}

/* --- misuse -------------------------------------------------------------- */

static struct refcount_report last;
static char last_msg[256];
static void ex_handler(const struct refcount_report *rep)
{
	last = *rep;
	snprintf(last_msg, sizeof(last_msg), "%s", rep->message);
}

static void expect_report(struct percpu_ref *r, enum refcount_saturation_type t,
			  const char *msg)
{
	cr_assert_eq(last.type, t, "type %d, expected %d", last.type, t);
	cr_assert_str_eq(last_msg, msg);
	cr_assert_eq(last.kind, REFCOUNT_KIND_PERCPU_REF);
	cr_assert_null(last.breed);
	cr_assert_eq((void *)last.counter, (void *)r);
	cr_assert_not_null(last.caller);
	memset(&last, 0, sizeof(last));
	last_msg[0] = '\0';
}

static void ex_setup(void)
{
	setup();
	refcount_set_report_handler(ex_handler);
	memset(&last, 0, sizeof(last));
	last_msg[0] = '\0';
}

TestSuite(percpu_misuse, .init = ex_setup);

Test(percpu_misuse, double_kill)
{
	struct percpu_ref r;

	cr_assert_eq(percpu_ref_init(&r, rel, 0), 0);
	percpu_ref_get(&r);
	percpu_ref_kill(&r);
	percpu_ref_kill(&r);
	expect_report(&r, REFCOUNT_SUB_UAF,
		      "percpu_ref_kill_and_confirm called more than once");
	cr_assert_eq(exact(&r), 1, "the second kill drops nothing");
	percpu_ref_put(&r);
	cr_assert_eq(released, 1);
	percpu_ref_exit(&r);
}

Test(percpu_misuse, put_after_release)
{
	struct percpu_ref r;

	cr_assert_eq(percpu_ref_init(&r, rel, 0), 0);
	percpu_ref_kill(&r);
	percpu_ref_put(&r);
	expect_report(&r, REFCOUNT_SUB_UAF,
		      "percpu_ref: put after release; use-after-free.");
	cr_assert_eq(exact(&r), PERCPU_REF_SATURATED);
	percpu_ref_put(&r);
	cr_assert_eq(released, 1, "release() once");
	percpu_ref_exit(&r);
	percpu_ref_put(&r); /* after exit */
	expect_report(&r, REFCOUNT_SUB_UAF,
		      "percpu_ref: put after release; use-after-free.");
}

Test(percpu_misuse, underflow_in_atomic_mode)
{
	struct percpu_ref r;

	cr_assert_eq(percpu_ref_init(&r, rel, PERCPU_REF_INIT_ATOMIC), 0);
	percpu_ref_get(&r);
	percpu_ref_put_many(&r, 3);
	expect_report(&r, REFCOUNT_SUB_UAF,
		      "percpu_ref: underflow; use-after-free.");
	cr_assert_eq(exact(&r), PERCPU_REF_SATURATED);
	cr_assert_eq(released, 0);
	percpu_ref_exit(&r);
}

Test(percpu_misuse, overflow_in_atomic_mode)
{
	struct percpu_ref r;

	cr_assert_eq(percpu_ref_init(&r, rel, PERCPU_REF_INIT_ATOMIC), 0);
	percpu_ref_get_many(&r, LONG_MAX);
	expect_report(&r, REFCOUNT_ADD_OVF,
		      "percpu_ref: saturated; leaking memory.");
	cr_assert_eq(exact(&r), PERCPU_REF_SATURATED);
	cr_assert(percpu_ref_tryget(&r), "a saturated ref gives references");
	percpu_ref_put(&r);
	cr_assert_eq(exact(&r), PERCPU_REF_SATURATED, "and stays saturated");
	cr_assert_eq(released, 0);
	/* Saturated: the switch back to per-CPU would bring it to 0. */
	percpu_ref_switch_to_percpu(&r);
	cr_assert_eq(bits(&r), ATOMIC_BIT);
	percpu_ref_exit(&r);
}

Test(percpu_misuse, tryget_overflow)
{
	struct percpu_ref r;

	cr_assert_eq(percpu_ref_init(&r, rel, PERCPU_REF_INIT_ATOMIC), 0);
	cr_assert(percpu_ref_tryget_many(&r, LONG_MAX));
	expect_report(&r, REFCOUNT_ADD_OVF,
		      "percpu_ref: saturated; leaking memory.");
	percpu_ref_exit(&r);
}

Test(percpu_misuse, get_on_released)
{
	struct percpu_ref r;

	cr_assert_eq(percpu_ref_init(&r, rel, PERCPU_REF_INIT_ATOMIC), 0);
	percpu_ref_put(&r);
	cr_assert_eq(released, 1);
	percpu_ref_get(&r);
	expect_report(&r, REFCOUNT_ADD_UAF,
		      "percpu_ref: get on a released ref; use-after-free.");
	percpu_ref_exit(&r);
}

/* Per-CPU mode sees nothing; the switch sees the sum. */
Test(percpu_misuse, extra_put_in_percpu_mode_is_seen_at_the_switch)
{
	struct percpu_ref r;

	cr_assert_eq(percpu_ref_init(&r, rel, 0), 0);
	percpu_ref_put(&r);
	percpu_ref_put(&r);
	cr_assert_eq(last_msg[0], '\0', "per-CPU mode detects nothing");
	cr_assert_eq(released, 0);
	percpu_ref_kill(&r);
	expect_report(&r, REFCOUNT_SUB_UAF,
		      "percpu ref <= 0 after switching to atomic");
	cr_assert_eq(exact(&r), PERCPU_REF_SATURATED);
	cr_assert_eq(released, 0, "no release from a bad sum");
	percpu_ref_exit(&r);
}

Test(percpu_misuse, exit_while_live)
{
	struct percpu_ref r;

	cr_assert_eq(percpu_ref_init(&r, rel, 0), 0);
	percpu_ref_get(&r);
	percpu_ref_exit(&r);
	expect_report(&r, REFCOUNT_SUB_UAF,
		      "percpu_ref: exit while references are held; "
		      "use-after-free.");
	cr_assert_eq(percpu_ref_init(&r, rel, PERCPU_REF_INIT_ATOMIC), 0);
	percpu_ref_get(&r);
	percpu_ref_kill(&r);
	percpu_ref_exit(&r);
	expect_report(&r, REFCOUNT_SUB_UAF,
		      "percpu_ref: exit while references are held; "
		      "use-after-free.");
}

/* The default handler prints the report once, naming the type. */
static void put_twice(void *arg)
{
	struct percpu_ref *r = arg;

	percpu_ref_init(r, rel, 0);
	percpu_ref_kill(r);
	percpu_ref_put(r);
	percpu_ref_put(r);
}

Test(percpu_misuse, default_handler_prints_once)
{
	struct percpu_ref r;
	char out[4096];
	int st;

	refcount_set_report_handler(NULL);
	st = run_captured(put_twice, &r, NULL, out, sizeof(out));
	cr_assert_eq(st, 0);
	cr_assert_not_null(strstr(out, "percpu_ref: put after release; "
				       "use-after-free. (percpu_ref 0x"),
			   "%s", out);
	cr_assert_eq(count_lines(out), 1, "%s", out);
}

/* --- threads ------------------------------------------------------------- */

#define NTHREADS 4

struct mode_arg {
	struct percpu_ref *ref;
	int stop;
	long pairs;
};

static void *pairs(void *p)
{
	struct mode_arg *a = p;

	percpu_ref_get(a->ref); /* this thread's base reference */
	while (!__atomic_load_n(&a->stop, __ATOMIC_RELAXED)) {
		percpu_ref_get(a->ref);
		if (percpu_ref_tryget_live(a->ref))
			percpu_ref_put(a->ref);
		percpu_ref_put(a->ref);
		__atomic_fetch_add(&a->pairs, 1, __ATOMIC_RELAXED);
	}
	percpu_ref_put(a->ref);
	return NULL;
}

/*
 * The mode bits under concurrent get and put: the main thread switches back
 * and forth; every switch to atomic must find the initial reference, the
 * threads' base references and at most two in-flight ones per thread.
 */
Test(percpu_ref, switches_under_concurrent_get_put)
{
	struct percpu_ref r;
	struct mode_arg a = { .ref = &r };
	pthread_t t[NTHREADS];
	int n = rounds(2000);

	cr_assert_eq(percpu_ref_init(&r, rel, PERCPU_REF_ALLOW_REINIT), 0);
	percpu_ref_get_many(&r, NTHREADS); /* the base refs, until they start */
	for (int i = 0; i < NTHREADS; i++)
		cr_assert_eq(pthread_create(&t[i], NULL, pairs, &a), 0);
	for (int i = 0; i < n; i++) {
		long c;

		percpu_ref_switch_to_atomic_sync(&r);
		cr_assert_eq(bits(&r), ATOMIC_BIT);
		c = exact(&r);
		cr_assert(c >= 1 + NTHREADS && c <= 1 + 4 * NTHREADS,
			  "count %ld at switch %d", c, i);
		percpu_ref_switch_to_percpu(&r);
		cr_assert_eq(bits(&r), 0);
	}
	__atomic_store_n(&a.stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	percpu_ref_put_many(&r, NTHREADS);
	cr_assert_eq(released, 0);
	percpu_ref_kill(&r);
	cr_assert_eq(released, 1);
	cr_assert_eq(quiet_calls(REFCOUNT_SUB_UAF), 0);
	percpu_ref_exit(&r);
}

/*
 * Kill racing gets and puts from every thread: each thread holds a base
 * reference, takes and drops more until it sees the ref dying, then drops
 * its base.  release() runs exactly once, and only when the shadow count
 * of references held (decremented before each put) is 0.
 */
struct race {
	struct percpu_ref ref;
	long shadow;
	int releases;
	long long ops;
};

static void race_release(struct percpu_ref *ref)
{
	struct race *o = (struct race *)ref;

	cr_assert_eq(__atomic_load_n(&o->shadow, __ATOMIC_SEQ_CST), 0,
		     "release() with references held");
	__atomic_fetch_add(&o->releases, 1, __ATOMIC_SEQ_CST);
}

static void *racer(void *p)
{
	struct race *o = p;

	while (!percpu_ref_is_dying(&o->ref)) {
		__atomic_fetch_add(&o->shadow, 1, __ATOMIC_SEQ_CST);
		percpu_ref_get(&o->ref);
		__atomic_fetch_sub(&o->shadow, 1, __ATOMIC_SEQ_CST);
		percpu_ref_put(&o->ref);
		__atomic_fetch_add(&o->ops, 1, __ATOMIC_RELAXED);
	}
	__atomic_fetch_sub(&o->shadow, 1, __ATOMIC_SEQ_CST);
	percpu_ref_put(&o->ref); /* the base reference */
	return NULL;
}

Test(percpu_ref, kill_racing_every_thread)
{
	int n = rounds(200);

	for (int round = 0; round < n; round++) {
		struct race *o = calloc(1, sizeof(*o));
		pthread_t t[NTHREADS];

		cr_assert_eq(percpu_ref_init(&o->ref, race_release, 0), 0);
		o->shadow = NTHREADS;
		percpu_ref_get_many(&o->ref, NTHREADS);
		for (int i = 0; i < NTHREADS; i++)
			cr_assert_eq(pthread_create(&t[i], NULL, racer, o), 0);
		while (__atomic_load_n(&o->ops, __ATOMIC_RELAXED) < round * 10)
			;
		percpu_ref_kill(&o->ref);
		for (int i = 0; i < NTHREADS; i++)
			pthread_join(t[i], NULL);
		cr_assert_eq(o->releases, 1, "round %d", round);
		percpu_ref_exit(&o->ref);
		free(o);
	}
	cr_assert_eq(quiet_calls(REFCOUNT_SUB_UAF), 0);
}

// SPDX-License-Identifier: MIT
/*
 * regress.c - real reference-counting bug patterns, per breed
 *
 * Built once per breed, with AddressSanitizer (tests/stress.mk).  Each
 * pattern is a bug that shipped somewhere; the test replays it against the
 * breed and asserts what docs/kernel-semantics.md (the section of each breed,
 * and 'LKDTM tests') says that breed does: the protected breeds turn it into a
 * report and a leak, the atomic breed (and, for increments from 0, the fast
 * breed) let it through, and then we assert that it does get through.
 *
 *  wrap      CVE-2016-0728 (keyring): a reference leaked on every call,
 *            repeated until the count wraps to 0; then one more get + put
 *            frees the object while its owner still holds a reference.
 *            atomic: the object is freed under the owner, and AddressSanitizer
 *            reports the owner's next access (run in a child; we assert the
 *            report).  Protected breeds: the count saturates at MAX + 1 and
 *            the object is never freed.
 *            `wrap` starts near the edge (the count the real loop would have
 *            reached a few steps before it: -K for atomic, MAX - K for the
 *            others); `wrap-full` is the real loop of 2^32 - 1 leaked gets
 *            from 1 (make stress).
 *  sticky    A language runtime whose saturation dropped increments but let
 *            decrements through, so the matching decrements reached 0 while
 *            references were left, and double-freed.  Take MAX references,
 *            3 more, then drop MAX of them in large batches and single puts:
 *            the object must not be released (protected: it stays
 *            SATURATED and leaks; atomic: exact modulo 2^32, released by the
 *            very last put only).
 *  lookup    A lookup against the final put: the final dec_and_test has
 *            happened, the object is still in the table.  A lookup with
 *            inc_not_zero under the lock must refuse it (every breed).  A
 *            buggy lookup with plain refcount_inc() revives it:
 *            saturating/full report "addition on 0" (ADD_UAF) and the
 *            looker's put never releases it again; fast/atomic don't detect
 *            it, and the looker's put releases it a second time.
 *  double    A put after the last put: an underflow report (SUB_UAF; the
 *            atomic breed: none) and never a second release; likewise a
 *            refcount_dec() and a refcount_dec_and_lock() after the last put.
 *
 * Usage: regress-<breed> [wrap|wrap-full|sticky|lookup|double|all]
 * ("all" is everything but wrap-full).  Released objects go to a
 * quarantine (never freed during a pattern) so that a second release or a
 * use after release is observed instead of crashing; the wrap pattern of the
 * atomic breed really frees, for AddressSanitizer.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <refcount/kref.h>
#include <refcount/refcount.h>

#if defined(__SANITIZE_ADDRESS__)
#define HAVE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAVE_ASAN 1
#endif
#endif

#define IS(breed) (REFCOUNT_BREED == REFCOUNT_BREED_##breed)
#define PROTECTED (!IS(ATOMIC))
/* The saturating breed's design: saturating, nonatomic. */
#define SATURATES (IS(SATURATING) || IS(NONATOMIC))

struct obj {
	struct kref kref;
	int released; /* release() calls */
	bool really_free; /* release() frees (for ASan) instead of keeping */
	long payload;
};

static unsigned long reports[REFCOUNT_NR_SATURATION_TYPES];
static int failures;

static void count_report(const struct refcount_report *rep)
{
	reports[rep->type]++;
}

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "regress-%s: %s:%d: FAILED: %s: ",     \
				REFCOUNT_BREED_NAME, __func__, __LINE__,       \
				#cond);                                        \
			fprintf(stderr, __VA_ARGS__);                          \
			fputc('\n', stderr);                                   \
			failures++;                                            \
		}                                                              \
	} while (0)

static struct obj *obj_new(void)
{
	struct obj *o = calloc(1, sizeof(*o));

	if (!o)
		abort();
	kref_init(&o->kref);
	o->payload = 42;
	return o;
}

static void release(struct kref *k)
{
	struct obj *o = (struct obj *)((char *)k - offsetof(struct obj, kref));

	o->released++;
	if (o->really_free)
		free(o);
}

static unsigned int val(struct obj *o)
{
	return kref_read(&o->kref);
}

static void reset_reports(void)
{
	memset(reports, 0, sizeof(reports));
}

static unsigned long nr_reports(void)
{
	unsigned long n = 0;

	for (int t = 0; t < REFCOUNT_NR_SATURATION_TYPES; t++)
		n += reports[t];
	return n;
}

/* Leak @n references: the buggy path that forgets its put. */
static void leak_gets(struct obj *o, unsigned long long n)
{
	for (unsigned long long k = 0; k < n; k++)
		kref_get(&o->kref);
}

/* The wrap pattern after the leaks: another user's get + put, then the owner. */
static void wrap_finish(struct obj *o)
{
	kref_get(&o->kref);
	kref_put(&o->kref, release); /* atomic: the count was 0: frees */
	o->payload++; /* the owner, who still holds its reference */
	kref_put(&o->kref, release);
}

static void wrap_run(bool full)
{
	struct obj *o = obj_new();
	unsigned long long leaks = 0xffffffffull; /* 2^32 - 1: back to 0 */
	const int K = 1000;

	reset_reports();
	if (!full) {
		/* the count after all but the last leaks (see the top) */
		if (PROTECTED) {
			refcount_set(&o->kref.refcount,
				     (int)(REFCOUNT_MAX - K));
			leaks = 2 * K;
		} else {
			refcount_set(&o->kref.refcount, -K);
			leaks = K;
		}
	}
	o->really_free = !PROTECTED;
	leak_gets(o, leaks);
	if (!PROTECTED) {
		CHECK(val(o) == 0, "wrapped to %u", val(o));
		wrap_finish(o); /* use after free: ASan aborts here */
#ifdef HAVE_ASAN
		fprintf(stderr, "no AddressSanitizer report\n");
		exit(1);
#endif
		return;
	}
	CHECK(val(o) == (unsigned int)REFCOUNT_SATURATED, "value %#x", val(o));
	CHECK(reports[REFCOUNT_ADD_OVF] >= 1, "no ADD_OVF report");
	wrap_finish(o);
	CHECK(!o->released, "released %d times", o->released);
	CHECK(val(o) == (unsigned int)REFCOUNT_SATURATED, "value %#x", val(o));
	free(o); /* leaked by design; keep LeakSanitizer quiet */
}

/*
 * atomic breed: the wrap frees the object under its owner.  Under ASan, run
 * it in a child and assert the heap-use-after-free report; without ASan,
 * the object is kept and we assert the premature release instead.
 */
static void test_wrap(bool full)
{
#ifdef HAVE_ASAN
	if (!PROTECTED) {
		char buf[65536];
		size_t len = 0;
		ssize_t n;
		int pfd[2], status;
		pid_t pid;

		fflush(NULL);
		if (pipe(pfd) || (pid = fork()) < 0)
			abort();
		if (!pid) {
			dup2(pfd[1], 2);
			close(pfd[0]);
			wrap_run(full);
			_exit(0);
		}
		close(pfd[1]);
		while ((n = read(pfd[0], buf + len, sizeof(buf) - 1 - len)) > 0)
			len += (size_t)n;
		buf[len] = '\0';
		close(pfd[0]);
		waitpid(pid, &status, 0);
		CHECK(!(WIFEXITED(status) && WEXITSTATUS(status) == 0),
		      "the child survived the wrap");
		CHECK(strstr(buf, "heap-use-after-free"),
		      "no heap-use-after-free report; child said:\n%s", buf);
		return;
	}
#else
	if (!PROTECTED) {
		struct obj *o = obj_new();

		refcount_set(&o->kref.refcount, full ? 1 : -1000);
		leak_gets(o, full ? 0xffffffffull : 1000);
		kref_get(&o->kref);
		CHECK(kref_put(&o->kref, release) == 1,
		      "the wrap did not release");
		CHECK(o->released == 1, "released %d times", o->released);
		free(o);
		return;
	}
#endif
	wrap_run(full);
}

/* Add references in batches until the count is @target (< 2^32). */
static void add_up_to(struct obj *o, unsigned int target)
{
	while (val(o) < target) {
		unsigned int step = target - val(o);

		refcount_add(step > (1u << 30) ? 1 << 30 : (int)step,
			     &o->kref.refcount);
	}
}

static void test_sticky(void)
{
	struct obj *o = obj_new();
	unsigned int max = (unsigned int)REFCOUNT_MAX, left = max;

	reset_reports();
	add_up_to(o, max); /* MAX references, all legal */
	CHECK(val(o) == max && !nr_reports(), "value %#x, %lu reports", val(o),
	      nr_reports());
	for (int k = 0; k < 3; k++) /* 3 more: past MAX */
		kref_get(&o->kref);
	if (PROTECTED)
		CHECK(val(o) == (unsigned int)REFCOUNT_SATURATED &&
			      reports[REFCOUNT_ADD_OVF] >= 1,
		      "value %#x, %lu ADD_OVF", val(o),
		      reports[REFCOUNT_ADD_OVF]);
	/* drop MAX of the MAX + 3: large batches, then single puts */
	while (left > 16) {
		int step = left - 16 > (1u << 30) ? 1 << 30 : (int)(left - 16);

		CHECK(!refcount_sub_and_test(step, &o->kref.refcount),
		      "a batch put of %d took it to 0", step);
		left -= (unsigned int)step;
	}
	while (left--)
		kref_put(&o->kref, release);
	CHECK(!o->released, "released with 3 references left (value %#x)",
	      val(o));
	if (PROTECTED) {
		CHECK(val(o) == (unsigned int)REFCOUNT_SATURATED,
		      "not sticky: value %#x", val(o));
		for (int k = 0; k < 3; k++)
			kref_put(&o->kref, release);
		CHECK(!o->released, "a saturated object was released");
	} else {
		CHECK(val(o) == 3, "value %u", val(o));
		for (int k = 0; k < 3; k++)
			kref_put(&o->kref, release);
		CHECK(o->released == 1, "released %d times", o->released);
	}
	free(o);
}

static void test_lookup(void)
{
	pthread_spinlock_t lock;
	struct obj *o = obj_new(), *slot = o;
	bool last;

	pthread_spin_init(&lock, PTHREAD_PROCESS_PRIVATE);
	reset_reports();
	/* the owner's final put: 1 -> 0, still published in slot */
	last = refcount_dec_and_test(&o->kref.refcount);
	CHECK(last, "the final put did not return true");

	/* a correct lookup under the lock refuses it */
	pthread_spin_lock(&lock);
	CHECK(!kref_get_unless_zero(&slot->kref),
	      "inc_not_zero revived a dying object");
	pthread_spin_unlock(&lock);
	CHECK(val(o) == 0 && !nr_reports(), "value %u, %lu reports", val(o),
	      nr_reports());

	/* a buggy lookup takes it with a plain get */
	pthread_spin_lock(&lock);
	kref_get(&slot->kref);
	pthread_spin_unlock(&lock);
	if (SATURATES || IS(FULL)) {
		CHECK(reports[REFCOUNT_ADD_UAF] == 1, "%lu ADD_UAF reports",
		      reports[REFCOUNT_ADD_UAF]);
		CHECK(val(o) ==
			      (IS(FULL) ? 0 : (unsigned int)REFCOUNT_SATURATED),
		      "value %#x", val(o));
	} else {
		CHECK(!nr_reports() && val(o) == 1, "value %u, %lu reports",
		      val(o), nr_reports());
	}

	/* the owner goes on: unpublish and release */
	pthread_spin_lock(&lock);
	slot = NULL;
	pthread_spin_unlock(&lock);
	release(&o->kref);

	/* the looker drops the reference it should never have had */
	kref_put(&o->kref, release);
	if (SATURATES || IS(FULL))
		CHECK(o->released == 1 && reports[REFCOUNT_SUB_UAF] == 1,
		      "released %d times, %lu SUB_UAF", o->released,
		      reports[REFCOUNT_SUB_UAF]);
	else /* undetected: the second release happens */
		CHECK(o->released == 2, "released %d times", o->released);
	(void)slot;
	pthread_spin_destroy(&lock);
	free(o);
}

static void test_double_put(void)
{
	pthread_spinlock_t lock;
	struct obj *o = obj_new();
	unsigned int want = IS(FULL)  ? 0 :
			    PROTECTED ? (unsigned int)REFCOUNT_SATURATED :
					UINT_MAX;

	pthread_spin_init(&lock, PTHREAD_PROCESS_PRIVATE);
	reset_reports();
	CHECK(kref_put(&o->kref, release) == 1 && o->released == 1,
	      "the last put did not release");
	CHECK(!nr_reports(), "%lu reports for a legal put", nr_reports());

	CHECK(kref_put(&o->kref, release) == 0, "the second put released");
	CHECK(o->released == 1, "released %d times", o->released);
	CHECK(reports[REFCOUNT_SUB_UAF] == (PROTECTED ? 1u : 0u),
	      "%lu SUB_UAF reports", reports[REFCOUNT_SUB_UAF]);
	CHECK(val(o) == want, "value %#x, want %#x", val(o), want);

	/* refcount_dec() after the last put */
	refcount_set(&o->kref.refcount, 0);
	reset_reports();
	refcount_dec(&o->kref.refcount);
	CHECK(reports[REFCOUNT_DEC_LEAK] == (PROTECTED ? 1u : 0u),
	      "%lu DEC_LEAK reports", reports[REFCOUNT_DEC_LEAK]);
	CHECK(val(o) == want, "value %#x, want %#x", val(o), want);

	/* refcount_dec_and_lock() after the last put: dec_not_one sees 0 */
	refcount_set(&o->kref.refcount, 0);
	reset_reports();
	CHECK(!kref_put_lock(&o->kref, release, &lock),
	      "dec_and_lock released at 0");
	CHECK(o->released == 1, "released %d times", o->released);
	CHECK(reports[REFCOUNT_SUB_UAF] == 1 && val(o) == 0,
	      "%lu SUB_UAF reports, value %#x", reports[REFCOUNT_SUB_UAF],
	      val(o));
	CHECK(pthread_spin_trylock(&lock) == 0, "lock left held");
	pthread_spin_unlock(&lock);
	pthread_spin_destroy(&lock);
	free(o);
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "all";
	bool all = !strcmp(what, "all");

	refcount_set_report_handler(count_report);
	if (all || !strcmp(what, "wrap"))
		test_wrap(false);
	if (!strcmp(what, "wrap-full"))
		test_wrap(true);
	if (all || !strcmp(what, "sticky"))
		test_sticky();
	if (all || !strcmp(what, "lookup"))
		test_lookup();
	if (all || !strcmp(what, "double"))
		test_double_put();
	if (failures)
		return 1;
	printf("regress-%s %s: ok\n", REFCOUNT_BREED_NAME, what);
	return 0;
}

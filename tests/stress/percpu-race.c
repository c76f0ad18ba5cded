// SPDX-License-Identifier: MIT
/*
 * tests/stress/percpu-race.c - percpu_ref_kill() racing gets and puts from
 * every thread, under ASan or TSan
 *
 *   percpu-race ROUNDS THREADS
 *
 * Each round allocates an object with a percpu_ref and per-thread payload
 * words.  Every thread holds a base reference and, until it sees the ref
 * dying, takes a reference (get or tryget_live), writes its payload word and
 * drops it; then it drops its base.  The main thread kills the ref once the
 * threads are running (each round a little later; odd rounds with
 * PERCPU_REF_ALLOW_REINIT kill and resurrect it once before, while holding a
 * reference, and the threads that saw it dying stop).  release() reads every
 * payload word and frees the object, so:
 *   - a release before the last put is a use after free for ASan (the late
 *     put) and is caught by the shadow count of references held;
 *   - a put whose accesses are not ordered before release() is a data race
 *     for TSan;
 *   - release() must run exactly once per round.
 * Run it on both fast paths (GLIBC_TUNABLES=glibc.pthread.rseq=0 forces the
 * atomic slots); PERCPU_EXPECT_PATH names the path it must find.
 *
 * Built against a library whose switch forgets the per-CPU slots
 * (tests/mutants/percpu-switch-forgets-slots.patch), it must fail.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <refcount/percpu_ref.h>

#define MAX_THREADS 16

struct obj {
	struct percpu_ref ref;
	long shadow; /* references the threads hold, dropped before each put */
	long started;
	long payload[MAX_THREADS];
};

static int nthreads;
static int releases;
static long sum_seen;

static void fail(const char *what)
{
	fprintf(stderr, "percpu-race: %s\n", what);
	exit(1);
}

static void obj_release(struct percpu_ref *ref)
{
	struct obj *o = (struct obj *)ref;

	if (__atomic_load_n(&o->shadow, __ATOMIC_SEQ_CST) != 0)
		fail("release() while references were held");
	for (int i = 0; i < nthreads; i++)
		sum_seen += o->payload[i];
	__atomic_fetch_add(&releases, 1, __ATOMIC_SEQ_CST);
	percpu_ref_exit(ref);
	free(o);
}

struct arg {
	struct obj *o;
	int id;
};

static void *racer(void *p)
{
	struct arg *a = p;
	struct obj *o = a->o;
	long n = 0;

	__atomic_fetch_add(&o->started, 1, __ATOMIC_RELAXED);
	while (!percpu_ref_is_dying(&o->ref)) {
		__atomic_fetch_add(&o->shadow, 1, __ATOMIC_SEQ_CST);
		if (n & 1) {
			percpu_ref_get(&o->ref);
		} else if (!percpu_ref_tryget_live(&o->ref)) {
			__atomic_fetch_sub(&o->shadow, 1, __ATOMIC_SEQ_CST);
			break;
		}
		o->payload[a->id]++;
		__atomic_fetch_sub(&o->shadow, 1, __ATOMIC_SEQ_CST);
		percpu_ref_put(&o->ref);
		n++;
	}
	o->payload[a->id]++;
	__atomic_fetch_sub(&o->shadow, 1, __ATOMIC_SEQ_CST);
	percpu_ref_put(&o->ref); /* the base reference; o may be gone now */
	return NULL;
}

int main(int argc, char **argv)
{
	const char *want = getenv("PERCPU_EXPECT_PATH");
	int rounds;

	if (argc != 3)
		fail("usage: percpu-race ROUNDS THREADS");
	rounds = atoi(argv[1]);
	nthreads = atoi(argv[2]);
	if (rounds < 1 || nthreads < 1 || nthreads > MAX_THREADS)
		fail("ROUNDS >= 1, 1 <= THREADS <= 16");
	for (int r = 0; r < rounds; r++) {
		struct obj *o = calloc(1, sizeof(*o));
		pthread_t t[MAX_THREADS];
		struct arg a[MAX_THREADS];

		/* odd rounds: a ref that may revive (the compare-and-swap slots) */
		bool reinit = r & 1;

		if (!o || percpu_ref_init(&o->ref, obj_release,
					  reinit ? PERCPU_REF_ALLOW_REINIT : 0))
			fail("out of memory");
		if (r == 0 && want &&
		    strncmp(percpu_ref_fast_path(), want, strlen(want))) {
			fprintf(stderr,
				"percpu-race: fast path %s, expected %s\n",
				percpu_ref_fast_path(), want);
			return 1;
		}
		o->shadow = nthreads;
		percpu_ref_get_many(&o->ref, (unsigned long)nthreads);
		for (int i = 0; i < nthreads; i++) {
			a[i] = (struct arg){ o, i };
			if (pthread_create(&t[i], NULL, racer, &a[i]))
				fail("pthread_create");
		}
		while (__atomic_load_n(&o->started, __ATOMIC_RELAXED) <
		       nthreads)
			;
		for (volatile int spin = 0; spin < (r % 64) * 100; spin++)
			;
		if (reinit) {
			/* kill and revive while they run, holding a reference */
			percpu_ref_get(&o->ref);
			percpu_ref_kill(&o->ref);
			percpu_ref_resurrect(&o->ref);
			percpu_ref_put(&o->ref);
		}
		percpu_ref_kill(&o->ref); /* o may be gone after this */
		for (int i = 0; i < nthreads; i++)
			pthread_join(t[i], NULL);
		if (releases != r + 1)
			fail("release() did not run exactly once");
	}
	printf("percpu-race: %d rounds x %d threads on %s: release() once "
	       "per round, after the last put (%ld payload writes)\n",
	       rounds, nthreads, percpu_ref_fast_path(), sum_seen);
	return 0;
}

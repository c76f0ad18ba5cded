// SPDX-License-Identifier: MIT
/*
 * stress.c - threads racing lookups, gets and puts on shared objects
 *
 * Built once per breed, with ThreadSanitizer and with AddressSanitizer
 * (`make stress`).  NSLOTS buckets, each with a pthread spinlock and at most
 * one published object.  Every thread loops over random operations:
 *
 *   lookup  lock the bucket; no object: create one (count 1, ours) and
 *           publish it; else refcount_inc_not_zero() (a count of 0 means
 *           it is being destroyed: leave it); unlock
 *   get     refcount_inc() on an object we hold
 *   put     drop one of our references with one of: refcount_dec_and_test(),
 *           refcount_dec_and_lock(), refcount_dec_if_one() (else
 *           dec_and_test), refcount_dec_not_one() (else dec_and_lock),
 *           refcount_dec() (when we hold another reference to it),
 *           __refcount_sub_and_test(1)
 *
 * The put that takes a count to 0 unpublishes the object under the bucket
 * lock and releases it.  Checks:
 *  - every object is released exactly once (an atomic flag, exchanged), and
 *    at the end every created object has been released and every bucket is
 *    empty;
 *  - no object is used after its release: released objects go to a
 *    quarantine (a FIFO of QUARANTINE objects) before their memory is
 *    reused, and every use first checks the object's state and generation
 *    (atomics, so a use after release is seen, not crashed on);
 *  - message passing: before each put a thread bumps its own plain slot in
 *    the object; the releaser checks that the slots add up to the number of
 *    references taken (TSan also sees any missing release/acquire there);
 *  - no report (refcount_report_count() stays 0): the usage is correct.
 *
 * Usage: stress-<breed> [OPS [THREADS]]   (defaults 10^7, 4)
 * STRESS_INJECT_BUG=1 in the environment adds one unbalanced put every
 * 2^16 operations: the control that shows the checks can fail.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <refcount/refcount.h>

#define MAX_THREADS 16
#define NSLOTS 8
#define HOLD 8 /* references a thread holds at most */
#define QUARANTINE 64

enum { OBJ_LIVE = 0x11fe, OBJ_DEAD = 0xdead };

struct obj {
	refcount_t ref;
	atomic_uint state;
	atomic_ulong gen;
	atomic_int released;
	atomic_ulong taken; /* references taken in this generation */
	int slot;
	unsigned long msg[MAX_THREADS]; /* plain: thread t's puts */
	struct obj *qnext;
};

struct held {
	struct obj *o;
	unsigned long gen;
};

static struct {
	pthread_spinlock_t lock;
	struct obj *obj;
} bucket[NSLOTS];

static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static struct obj *qhead, *qtail, *freelist;
static unsigned int qlen;
static unsigned long next_gen;
static atomic_ulong nr_created, nr_released, nr_errors;
static unsigned long ops_per_thread;
static int inject_bug;

static void error(const char *what, struct obj *o, unsigned long gen)
{
	if (atomic_fetch_add(&nr_errors, 1) < 10)
		fprintf(stderr,
			"stress-%s: %s (object %p, generation %lu, now %lu, "
			"state %#x, count %#x)\n",
			REFCOUNT_BREED_NAME, what, (void *)o, gen,
			atomic_load_explicit(&o->gen, memory_order_relaxed),
			atomic_load_explicit(&o->state, memory_order_relaxed),
			refcount_read(&o->ref));
}

/* Called with bucket[slot].lock held. */
static struct obj *obj_create(int slot)
{
	struct obj *o;
	unsigned long gen;

	pthread_mutex_lock(&qlock);
	o = freelist;
	if (o)
		freelist = o->qnext;
	gen = ++next_gen;
	pthread_mutex_unlock(&qlock);
	if (!o) {
		o = calloc(1, sizeof(*o));
		if (!o)
			abort();
	}
	atomic_store_explicit(&o->gen, gen, memory_order_relaxed);
	o->slot = slot;
	memset(o->msg, 0, sizeof(o->msg));
	atomic_store_explicit(&o->released, 0, memory_order_relaxed);
	atomic_store_explicit(&o->taken, 1, memory_order_relaxed);
	atomic_store_explicit(&o->state, OBJ_LIVE, memory_order_relaxed);
	refcount_set(&o->ref, 1);
	atomic_fetch_add_explicit(&nr_created, 1, memory_order_relaxed);
	return o;
}

static void obj_release(struct obj *o)
{
	unsigned long sum = 0;

	if (atomic_exchange(&o->released, 1))
		error("released twice", o, 0);
	if (atomic_exchange(&o->state, OBJ_DEAD) != OBJ_LIVE)
		error("released a dead object", o, 0);
	for (int t = 0; t < MAX_THREADS; t++)
		sum += o->msg[t];
	if (sum != atomic_load_explicit(&o->taken, memory_order_relaxed))
		error("the puts' messages don't add up at the release", o, sum);
	atomic_fetch_add_explicit(&nr_released, 1, memory_order_relaxed);

	pthread_mutex_lock(&qlock);
	o->qnext = NULL;
	if (qtail)
		qtail->qnext = o;
	else
		qhead = o;
	qtail = o;
	if (++qlen > QUARANTINE) { /* the oldest may be reused now */
		struct obj *old = qhead;

		qhead = old->qnext;
		qlen--;
		old->qnext = freelist;
		freelist = old;
	}
	pthread_mutex_unlock(&qlock);
}

/* Is our reference still to a live object of the generation we took? */
static void check(struct held *h)
{
	struct obj *o = h->o;
	unsigned int v = refcount_read(&o->ref);

	if (atomic_load_explicit(&o->state, memory_order_relaxed) != OBJ_LIVE ||
	    atomic_load_explicit(&o->released, memory_order_relaxed))
		error("use after release", o, h->gen);
	else if (atomic_load_explicit(&o->gen, memory_order_relaxed) != h->gen)
		error("use after reuse", o, h->gen);
	else if (v < 1 || v > (unsigned int)REFCOUNT_MAX)
		error("count out of range while referenced", o, h->gen);
}

static void unpublish_release(struct obj *o, bool locked)
{
	if (!locked)
		pthread_spin_lock(&bucket[o->slot].lock);
	if (bucket[o->slot].obj != o)
		error("the dying object is not in its bucket", o, 0);
	else
		bucket[o->slot].obj = NULL;
	pthread_spin_unlock(&bucket[o->slot].lock);
	obj_release(o);
}

static bool lookup(int slot, struct held *h)
{
	struct obj *o;
	bool got = true;

	pthread_spin_lock(&bucket[slot].lock);
	o = bucket[slot].obj;
	if (!o)
		o = bucket[slot].obj = obj_create(slot);
	else if ((got = refcount_inc_not_zero(&o->ref)))
		atomic_fetch_add_explicit(&o->taken, 1, memory_order_relaxed);
	if (got) {
		h->o = o;
		h->gen = atomic_load_explicit(&o->gen, memory_order_relaxed);
	}
	pthread_spin_unlock(&bucket[slot].lock);
	return got;
}

/* Drop the reference @h with put form @form; @dup: we hold another one. */
static void put(struct held *h, int tid, unsigned int form, bool dup)
{
	struct obj *o = h->o;
	refcount_t *r = &o->ref;
	int old;

	check(h);
	o->msg[tid]++; /* the message: a plain store before the put */
	switch (form) {
	case 0:
		if (refcount_dec_and_test(r))
			unpublish_release(o, false);
		break;
	case 1:
		if (refcount_dec_and_lock(r, &bucket[o->slot].lock))
			unpublish_release(o, true);
		break;
	case 2:
		if (refcount_dec_if_one(r)) {
			/*
			 * dec_if_one is RELEASE only (docs/kernel-semantics.md,
			 * 'Memory ordering', case 8): the
			 * kernel's control dependency orders the free, but
			 * reading the other threads' messages needs an
			 * ACQUIRE, which C11 makes us ask for.
			 */
			(void)__atomic_load_n(&r->refs, __ATOMIC_ACQUIRE);
			unpublish_release(o, false);
		} else if (refcount_dec_and_test(r)) {
			unpublish_release(o, false);
		}
		break;
	case 3:
		if (!refcount_dec_not_one(r) &&
		    refcount_dec_and_lock(r, &bucket[o->slot].lock))
			unpublish_release(o, true);
		break;
	case 4:
		if (dup) {
			refcount_dec(r);
			break;
		}
		/* fall through */
	default:
		if (__refcount_sub_and_test(1, r, &old))
			unpublish_release(o, false);
		break;
	}
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void *worker(void *arg)
{
	int tid = (int)(intptr_t)arg;
	uint64_t seed = 0x9e3779b97f4a7c15ull * (uint64_t)(tid + 1);
	struct held held[HOLD];
	int n = 0;

	for (unsigned long i = 0; i < ops_per_thread; i++) {
		unsigned int r = (unsigned int)(rnd(&seed) % 100);

		if (!n || (r < 30 && n < HOLD)) {
			if (lookup((int)(rnd(&seed) % NSLOTS), &held[n]))
				check(&held[n++]);
		} else if (r < 45 && n < HOLD) {
			struct held *h = &held[rnd(&seed) % (unsigned int)n];

			check(h);
			refcount_inc(&h->o->ref);
			atomic_fetch_add_explicit(&h->o->taken, 1,
						  memory_order_relaxed);
			held[n++] = *h;
		} else {
			int k = (int)(rnd(&seed) % (unsigned int)n);
			bool dup = false;

			for (int j = 0; j < n; j++)
				dup |= j != k && held[j].o == held[k].o &&
				       held[j].gen == held[k].gen;
			if (inject_bug && !(i & 0xffff) && !dup) {
				/* the bug: one put too many */
				held[k].o->msg[tid]--;
				put(&held[k], tid, 0, false);
			}
			put(&held[k], tid, (unsigned int)(rnd(&seed) % 6), dup);
			held[k] = held[--n];
		}
	}
	while (n) {
		n--;
		put(&held[n], tid, 0, false);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long ops = argc > 1 ? strtoul(argv[1], NULL, 0) : 10000000;
	int nthreads = argc > 2 ? atoi(argv[2]) : 4;
	pthread_t th[MAX_THREADS];
	const char *inject = getenv("STRESS_INJECT_BUG");
	unsigned long reports = 0;
	int rc = 0;

	if (nthreads < 1 || nthreads > MAX_THREADS) {
		fprintf(stderr, "usage: %s [OPS [THREADS<=%d]]\n", argv[0],
			MAX_THREADS);
		return 2;
	}
	inject_bug = inject && !strcmp(inject, "1");
	if (inject_bug) /* the bug is reported: keep the output short */
		refcount_set_report_handler(NULL);
	ops_per_thread = ops / (unsigned long)nthreads;
	for (int s = 0; s < NSLOTS; s++)
		pthread_spin_init(&bucket[s].lock, PTHREAD_PROCESS_PRIVATE);
	for (int t = 0; t < nthreads; t++)
		if (pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t))
			abort();
	for (int t = 0; t < nthreads; t++)
		pthread_join(th[t], NULL);

	for (int s = 0; s < NSLOTS; s++)
		if (bucket[s].obj) {
			fprintf(stderr, "stress-%s: bucket %d not empty\n",
				REFCOUNT_BREED_NAME, s);
			rc = 1;
		}
	for (int t = 0; t < REFCOUNT_NR_SATURATION_TYPES; t++)
		reports += refcount_report_count(t);
	if (atomic_load(&nr_created) != atomic_load(&nr_released) ||
	    atomic_load(&nr_errors) || reports)
		rc = 1;
	printf("stress-%s: %lu operations, %d threads: %lu objects created, "
	       "%lu released, %lu errors, %lu reports: %s\n",
	       REFCOUNT_BREED_NAME, ops_per_thread * (unsigned long)nthreads,
	       nthreads, atomic_load(&nr_created), atomic_load(&nr_released),
	       atomic_load(&nr_errors), reports, rc ? "FAILED" : "ok");

	while (qhead) {
		struct obj *o = qhead;

		qhead = o->qnext;
		free(o);
	}
	while (freelist) {
		struct obj *o = freelist;

		freelist = o->qnext;
		free(o);
	}
	return rc;
}

// SPDX-License-Identifier: MIT
/*
 * ordering.c - message passing through refcount_t, checked by ThreadSanitizer
 *
 * Built once per breed with -fsanitize=thread.  The threads share nothing but
 * the objects and their counters: no barrier, no lock between them (other than
 * the lock a dec_and_lock form takes), so the only happens-before edges TSan
 * can find between one thread's plain stores and another's plain loads are
 * the ones the refcount operations provide (docs/kernel-semantics.md,
 * 'Memory ordering'):
 *
 * put      Every object starts with one reference per thread (thread 0 holds
 *          two, and drops the extra one with refcount_dec()).  Each thread
 *          writes its slot of the object with plain stores, then drops its
 *          reference with one of the put forms below; the thread whose put
 *          is the last one reads every slot with plain loads, checks them,
 *          and free()s the object.  If a put lost its RELEASE, or the final
 *          one its ACQUIRE, TSan reports a data race (and the sums may be
 *          wrong).
 * publish  A writer initialises an object's fields with plain stores and
 *          makes it live with refcount_set_release(); a reader spins on
 *          refcount_inc_not_zero_acquire() (and the add / limited forms) and
 *          then reads the fields.  A missing RELEASE or ACQUIRE is a race.
 *
 * Usage: ordering-<breed> [put|publish|mutant-put|mutant-publish]
 * The mutant-* modes are the controls that show the test can fail: they
 * replace the library's put with a relaxed fetch_sub, or set_release with the
 * relaxed refcount_set(), and TSan must report a race (the Makefile expects
 * them to fail).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <refcount/kref.h>
#include <refcount/refcount.h>

#define NT 4 /* threads */
#define NOBJ 3000 /* objects per run */

struct obj {
	struct kref kref;
	long slot[NT]; /* plain: written by thread t before its put */
	long a, b; /* plain: the published fields */
};

static struct obj *objs[NOBJ];
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_spinlock_t spin;
static bool mutant;
static atomic_long nr_freed;

static void fail(const char *what, int r)
{
	fprintf(stderr, "ordering-%s: object %d: %s\n", REFCOUNT_BREED_NAME, r,
		what);
	abort();
}

/* The last put: read every thread's message, then free. */
static void destroy(struct obj *o, int r)
{
	long sum = 0;

	for (int t = 0; t < NT; t++)
		sum += o->slot[t];
	if (sum != (long)NT * r + NT * (NT - 1) / 2)
		fail("a thread's message is missing at the final put", r);
	free(o);
	atomic_fetch_add_explicit(&nr_freed, 1, memory_order_relaxed);
}

static struct obj *to_obj(struct kref *k)
{
	return (struct obj *)((char *)k - offsetof(struct obj, kref));
}

static _Thread_local int cur_r;

static void release(struct kref *k)
{
	destroy(to_obj(k), cur_r);
}

static void release_mutex(struct kref *k)
{
	pthread_mutex_unlock(&mutex);
	destroy(to_obj(k), cur_r);
}

static void release_spin(struct kref *k)
{
	pthread_spin_unlock(&spin);
	destroy(to_obj(k), cur_r);
}

enum { NR_PUT_FORMS = 9 };

/* Drop one reference with put form @f; true if it was the last. */
static bool put(struct obj *o, int f)
{
	refcount_t *r = &o->kref.refcount;
	int old;

	if (mutant) /* the control: no RELEASE, no ACQUIRE */
		return __REFCOUNT_WORD(__atomic_fetch_add(
			       &r->refs, __REFCOUNT_ENCODED ? 1 : -1,
			       __ATOMIC_RELAXED)) == 1; /* the breed's word */
	switch (f) {
	case 0:
		return refcount_dec_and_test(r);
	case 1:
		return refcount_sub_and_test(1, r);
	case 2:
		return __refcount_dec_and_test(r, &old);
	case 3:
		return __refcount_sub_and_test(1, r, &old);
	case 4:
		/* dec_not_one (RELEASE) unless last, then dec_and_test */
		return !refcount_dec_not_one(r) && refcount_dec_and_test(r);
	case 5:
		if (refcount_dec_and_lock(r, &spin)) {
			pthread_spin_unlock(&spin);
			return true;
		}
		return false;
	case 6:
		if (refcount_dec_and_mutex_lock(r, &mutex)) {
			pthread_mutex_unlock(&mutex);
			return true;
		}
		return false;
	default:
		return false;
	}
}

static void *put_thread(void *arg)
{
	int t = (int)(long)arg;

	for (int r = 0; r < NOBJ; r++) {
		struct obj *o = objs[r];
		int f = (t + r) % NR_PUT_FORMS;

		cur_r = r;
		o->slot[t] = r + t;
		if (t == 0)
			refcount_dec(&o->kref.refcount); /* not the last */
		if (f == 7 && !mutant) {
			kref_put(&o->kref, release);
		} else if (f == 8 && !mutant) {
			if (r & 1)
				kref_put_mutex(&o->kref, release_mutex, &mutex);
			else
				kref_put_lock(&o->kref, release_spin, &spin);
		} else if (put(o, f)) {
			destroy(o, r);
		}
	}
	return NULL;
}

static void *writer(void *arg)
{
	(void)arg;
	for (int r = 0; r < NOBJ; r++) {
		struct obj *o = objs[r];

		o->a = r;
		o->b = 2L * r;
		if (mutant)
			refcount_set(&o->kref.refcount, 1);
		else
			refcount_set_release(&o->kref.refcount, 1);
	}
	return NULL;
}

static bool get_acquire(struct obj *o, int r)
{
	refcount_t *c = &o->kref.refcount;
	int old;

	switch (r % 4) {
	case 0:
		return refcount_inc_not_zero_acquire(c);
	case 1:
		return refcount_add_not_zero_acquire(2, c);
	case 2:
		return __refcount_inc_not_zero_acquire(c, &old);
	default:
#if REFCOUNT_BREED == REFCOUNT_BREED_SATURATING
		return __refcount_inc_not_zero_limited_acquire(c, &old, 100);
#else
		return __refcount_add_not_zero_acquire(1, c, &old);
#endif
	}
}

static void *reader(void *arg)
{
	(void)arg;
	for (int r = 0; r < NOBJ; r++) {
		struct obj *o = objs[r];

		while (!get_acquire(o, r))
			;
		if (o->a != r || o->b != 2L * r)
			fail("fields not initialised after the acquire", r);
	}
	return NULL;
}

static void run(void *(*fn[])(void *), int n)
{
	pthread_t th[NT];

	for (long t = 0; t < n; t++)
		if (pthread_create(&th[t], NULL, fn[t], (void *)t))
			abort();
	for (int t = 0; t < n; t++)
		pthread_join(th[t], NULL);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "put";

	mutant = !strncmp(mode, "mutant-", 7);
	if (mutant)
		mode += 7;
	pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
	for (int r = 0; r < NOBJ; r++) {
		objs[r] = calloc(1, sizeof(*objs[r]));
		if (!objs[r])
			abort();
	}
	if (!strcmp(mode, "put")) {
		void *(*fn[NT])(void *) = { put_thread, put_thread, put_thread,
					    put_thread };

		for (int r = 0; r < NOBJ; r++)
			refcount_set(&objs[r]->kref.refcount, NT + 1);
		run(fn, NT);
		if (atomic_load(&nr_freed) != NOBJ)
			fail("not every object was freed exactly once", -1);
	} else if (!strcmp(mode, "publish")) {
		void *(*fn[2])(void *) = { writer, reader };

		run(fn, 2);
		for (int r = 0; r < NOBJ; r++)
			free(objs[r]);
	} else {
		fprintf(stderr, "usage: %s [mutant-]put|publish\n", argv[0]);
		return 2;
	}
	printf("ordering-%s %s%s: ok (%d objects)\n", REFCOUNT_BREED_NAME,
	       mutant ? "mutant-" : "", mode, NOBJ);
	return 0;
}

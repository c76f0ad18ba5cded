// SPDX-License-Identifier: MIT
/*
 * examples/percpu-example.c - docs/percpu_ref.md's example: an object
 * shared by every thread, whose gets and puts stay on the CPU they run on,
 * killed at shutdown while the threads still use it.  `make check-examples`
 * compiles it with -Werror and runs it against
 * examples/percpu-example.expected.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <refcount/percpu_ref.h>

#define NWORKERS 4

struct service {
	struct percpu_ref ref; /* was: refcount_t ref, one shared line */
	int stopped; /* workers that dropped their own reference */
	long served;
};

/* Called once, by the thread that drops the last reference. */
static void service_release(struct percpu_ref *ref)
{
	struct service *s = (struct service *)ref; /* ref is the first member */

	printf("released after %d of %d workers stopped, %s\n",
	       __atomic_load_n(&s->stopped, __ATOMIC_RELAXED), NWORKERS,
	       s->served > 0 ? "having served requests" : "idle");
	percpu_ref_exit(ref);
	free(s);
}

static void *worker(void *arg)
{
	struct service *s = arg;
	long served = 0;

	/* a request: take a reference unless the service is shutting down */
	while (percpu_ref_tryget_live(&s->ref)) {
		served++;
		percpu_ref_put(&s->ref); /* per-CPU: no shared cache line */
	}
	__atomic_fetch_add(&s->served, served, __ATOMIC_RELAXED);
	__atomic_fetch_add(&s->stopped, 1, __ATOMIC_RELAXED);
	percpu_ref_put(&s->ref); /* the worker's own reference */
	return NULL;
}

int main(void)
{
	struct service *s = calloc(1, sizeof(*s));
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	pthread_t t[NWORKERS];

	if (!s || percpu_ref_init(&s->ref, service_release, 0))
		return 1;
	for (int i = 0; i < NWORKERS; i++) {
		percpu_ref_get(&s->ref); /* the worker's own reference */
		pthread_create(&t[i], NULL, worker, s);
	}
	nanosleep(&tick, NULL);
	percpu_ref_kill(&s->ref); /* shutdown: drop the initial reference */
	for (int i = 0; i < NWORKERS; i++)
		pthread_join(t[i], NULL);
	return 0;
}

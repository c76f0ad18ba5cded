/* check.h - what every fixture test does: checks, threaded get/put, the end */
#ifndef CHECK_H
#define CHECK_H

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "track.h"

#define NTHREADS 4
#define ITERATIONS 5000

#define CHECK(expr)                                                            \
	do {                                                                   \
		if (!(expr)) {                                                 \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
				__LINE__, #expr);                              \
			exit(1);                                               \
		}                                                              \
	} while (0)

struct hammer {
	void *obj;
	void (*get)(void *obj);
	void (*put)(void *obj);
};

static void *hammer_thread(void *arg)
{
	struct hammer *h = arg;
	int i;

	for (i = 0; i < ITERATIONS; i++) {
		h->get(h->obj);
		h->put(h->obj);
	}
	return NULL;
}

/* NTHREADS threads each get and put OBJ ITERATIONS times while the caller
 * holds a reference: OBJ must be alive before and after. */
static inline void hammer(void *obj, void (*get)(void *), void (*put)(void *))
{
	struct hammer h = { obj, get, put };
	pthread_t tid[NTHREADS];
	int i;

	CHECK(track_alive(obj));
	for (i = 0; i < NTHREADS; i++)
		CHECK(pthread_create(&tid[i], NULL, hammer_thread, &h) == 0);
	for (i = 0; i < NTHREADS; i++)
		CHECK(pthread_join(tid[i], NULL) == 0);
	CHECK(track_alive(obj));
}

/* The end of a test: every object created was destroyed. */
static inline int done(const char *name)
{
	if (track_count()) {
		fprintf(stderr, "%s: %lu objects never destroyed\n", name,
			track_count());
		return 1;
	}
	printf("%s: ok\n", name);
	return 0;
}

/* The whole life of a fresh OBJ whose creator holds the one reference: a get
 * and a put on the live object, gets and puts (from NTHREADS threads when
 * THREADED), then the creator's put destroys it, and nothing else is left
 * alive. */
static inline int lifecycle_of(const char *name, void *obj, void (*get)(void *),
			       void (*put)(void *), int threaded)
{
	int i;

	CHECK(obj && track_alive(obj));
	get(obj);
	put(obj);
	CHECK(track_alive(obj));
	for (i = 0; i < 3; i++)
		get(obj);
	for (i = 0; i < 3; i++)
		put(obj);
	CHECK(track_alive(obj));
	if (threaded)
		hammer(obj, get, put);
	put(obj);
	CHECK(!track_alive(obj));
	return done(name);
}

#define lifecycle(name, obj, get, put) lifecycle_of(name, obj, get, put, 1)
#define lifecycle_serial(name, obj, get, put)                                  \
	lifecycle_of(name, obj, get, put, 0)

#endif

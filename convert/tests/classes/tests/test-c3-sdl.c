/* test-c3-sdl.c - a texture's whole life (src/c3-sdl.c), with references
 * taken several at a time */
#include "c3.h"
#include "check.h"

static void get(void *o)
{
	texture_hold(o, 1);
}

static void put(void *o)
{
	texture_unref(o);
}

static void *hold3(void *o)
{
	int i, j;

	for (i = 0; i < ITERATIONS; i++) {
		texture_hold(o, 3);
		for (j = 0; j < 3; j++)
			texture_unref(o);
	}
	return NULL;
}

int main(void)
{
	struct texture *t = texture_new();
	pthread_t tid[NTHREADS];
	int i;

	CHECK(t);
	for (i = 0; i < NTHREADS; i++)
		CHECK(pthread_create(&tid[i], NULL, hold3, t) == 0);
	for (i = 0; i < NTHREADS; i++)
		CHECK(pthread_join(tid[i], NULL) == 0);
	CHECK(track_alive(t));
	return lifecycle("c3-sdl", t, get, put);
}

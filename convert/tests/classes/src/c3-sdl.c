/* c3-sdl.c - an SDL-like atomics API: SDL_AtomicAdd (old value, any step)
 * and the IncRef/DecRef macros over it */
#include <stdlib.h>

#include "c3.h"
#include "track.h"

typedef struct {
	int value;
} SDL_atomic_t;

static inline int SDL_AtomicSet(SDL_atomic_t *a, int v)
{
	return __sync_lock_test_and_set(&a->value, v);
}

static inline int SDL_AtomicAdd(SDL_atomic_t *a, int v)
{
	return __sync_fetch_and_add(&a->value, v);
}

#define SDL_AtomicIncRef(a) SDL_AtomicAdd(a, 1)
#define SDL_AtomicDecRef(a) (SDL_AtomicAdd(a, -1) == 1)

struct texture {
	int w, h;
	SDL_atomic_t refcount;
};

static void texture_destroy(struct texture *t)
{
	track_gone(t);
	free(t);
}

struct texture *texture_new(void)
{
	struct texture *t = malloc(sizeof(*t));

	if (!t)
		return NULL;
	t->w = t->h = 16;
	SDL_AtomicSet(&t->refcount, 1);
	track_born(t);
	return t;
}

void texture_hold(struct texture *t, int n)
{
	if (n == 1)
		SDL_AtomicIncRef(&t->refcount);
	else
		SDL_AtomicAdd(&t->refcount, n);
}

void texture_unref(struct texture *t)
{
	if (SDL_AtomicDecRef(&t->refcount))
		texture_destroy(t);
}

/* c9-macro.c - a user count behind macros over __atomic builtins: the
 * first user allocates a buffer, the last one frees it; the watch lives on */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>

#include "c9.h"
#include "track.h"

#define USERS_GET(w) __atomic_add_fetch(&(w)->users, 1, __ATOMIC_ACQ_REL)
#define USERS_PUT(w) __atomic_sub_fetch(&(w)->users, 1, __ATOMIC_ACQ_REL)

struct watch {
	pthread_mutex_t lock;
	unsigned int users;
	char *buffer;
	unsigned int starts, stops;
};

struct watch *watch_new(void)
{
	struct watch *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	pthread_mutex_init(&w->lock, NULL);
	track_born(w);
	return w;
}

int watch_use(struct watch *w)
{
	int ret = 0;

	pthread_mutex_lock(&w->lock);
	if (__atomic_load_n(&w->users, __ATOMIC_ACQUIRE) == UINT_MAX)
		ret = -1;
	else if (USERS_GET(w) == 1) {
		w->buffer = malloc(64);
		w->starts++;
	}
	pthread_mutex_unlock(&w->lock);
	return ret;
}

void watch_unuse(struct watch *w)
{
	pthread_mutex_lock(&w->lock);
	if (USERS_PUT(w) == 0) {
		free(w->buffer);
		w->buffer = NULL;
		w->stops++;
	}
	pthread_mutex_unlock(&w->lock);
}

unsigned int watch_starts(struct watch *w)
{
	return w->starts;
}

unsigned int watch_stops(struct watch *w)
{
	return w->stops;
}

void watch_destroy(struct watch *w)
{
	track_gone(w);
	pthread_mutex_destroy(&w->lock);
	free(w);
}

/* c9-c11.c - a listener count over C11 atomics: the old value 0 starts the
 * monitor, the old value 1 releases its descriptor, given the object */
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "c9.h"
#include "track.h"

struct monitor {
	pthread_mutex_t lock;
	atomic_uint listeners;
	int fd;
	unsigned int starts, stops;
};

static void monitor_start(struct monitor *m)
{
	m->fd = 4;
	m->starts++;
}

static void monitor_release_fd(struct monitor *m)
{
	m->fd = -1;
	m->stops++;
}

struct monitor *monitor_new(void)
{
	struct monitor *m = malloc(sizeof(*m));

	if (!m)
		return NULL;
	pthread_mutex_init(&m->lock, NULL);
	atomic_init(&m->listeners, 0);
	m->fd = -1;
	m->starts = m->stops = 0;
	track_born(m);
	return m;
}

int monitor_listen(struct monitor *m)
{
	if (atomic_load(&m->listeners) == UINT_MAX)
		return -1;
	pthread_mutex_lock(&m->lock);
	if (atomic_fetch_add(&m->listeners, 1) == 0)
		monitor_start(m);
	pthread_mutex_unlock(&m->lock);
	return 0;
}

void monitor_unlisten(struct monitor *m)
{
	pthread_mutex_lock(&m->lock);
	if (atomic_fetch_sub(&m->listeners, 1) == 1)
		monitor_release_fd(m);
	pthread_mutex_unlock(&m->lock);
}

unsigned int monitor_starts(struct monitor *m)
{
	return m->starts;
}

unsigned int monitor_stops(struct monitor *m)
{
	return m->stops;
}

void monitor_destroy(struct monitor *m)
{
	track_gone(m);
	pthread_mutex_destroy(&m->lock);
	free(m);
}

/* c9-sync.c - a subscriber count over __sync: the first subscription
 * creates a source, the last one releases it; the channel lives on */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>

#include "c9.h"
#include "track.h"

struct source {
	int fd;
};

struct channel {
	pthread_mutex_t lock;
	unsigned int subs;
	struct source *source;
	unsigned int starts, stops;
};

static struct source *source_new(void)
{
	struct source *s = malloc(sizeof(*s));

	if (s)
		s->fd = 3;
	return s;
}

static void source_release(struct source *s)
{
	free(s);
}

struct channel *channel_new(void)
{
	struct channel *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	pthread_mutex_init(&c->lock, NULL);
	track_born(c);
	return c;
}

int channel_subscribe(struct channel *c)
{
	pthread_mutex_lock(&c->lock);
	if (c->subs == UINT_MAX) {
		pthread_mutex_unlock(&c->lock);
		return -1;
	}
	if (!c->subs) {
		c->source = source_new();
		c->starts++;
	}
	__sync_fetch_and_add(&c->subs, 1);
	pthread_mutex_unlock(&c->lock);
	return 0;
}

void channel_unsubscribe(struct channel *c)
{
	pthread_mutex_lock(&c->lock);
	if (__sync_sub_and_fetch(&c->subs, 1)) {
		pthread_mutex_unlock(&c->lock);
		return;
	}
	source_release(c->source);
	c->source = NULL;
	c->stops++;
	pthread_mutex_unlock(&c->lock);
}

unsigned int channel_starts(struct channel *c)
{
	return c->starts;
}

unsigned int channel_stops(struct channel *c)
{
	return c->stops;
}

void channel_free(struct channel *c)
{
	track_gone(c);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

/* track.c - the live objects of every fixture */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "track.h"

#define MAX_ALIVE 256

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const void *alive[MAX_ALIVE];
static unsigned long nalive;

static long slot(const void *obj)
{
	unsigned long i;

	for (i = 0; i < nalive; i++)
		if (alive[i] == obj)
			return (long)i;
	return -1;
}

void track_born(const void *obj)
{
	pthread_mutex_lock(&lock);
	if (nalive == MAX_ALIVE || slot(obj) >= 0) {
		fprintf(stderr, "track: %p created while alive\n", obj);
		abort();
	}
	alive[nalive++] = obj;
	pthread_mutex_unlock(&lock);
}

void track_gone(const void *obj)
{
	long i;

	pthread_mutex_lock(&lock);
	i = slot(obj);
	if (i < 0) {
		fprintf(stderr, "track: %p destroyed but not alive\n", obj);
		abort();
	}
	alive[i] = alive[--nalive];
	pthread_mutex_unlock(&lock);
}

bool track_alive(const void *obj)
{
	bool yes;

	pthread_mutex_lock(&lock);
	yes = slot(obj) >= 0;
	pthread_mutex_unlock(&lock);
	return yes;
}

unsigned long track_count(void)
{
	unsigned long n;

	pthread_mutex_lock(&lock);
	n = nalive;
	pthread_mutex_unlock(&lock);
	return n;
}

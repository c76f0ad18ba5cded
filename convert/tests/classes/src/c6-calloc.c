/* c6-calloc.c - calloc, then the object's own get */
#include <stdlib.h>

#include "c6.h"
#include "track.h"

struct queue {
	int ref_count;
	int len;
};

static void queue_destroy(struct queue *q)
{
	track_gone(q);
	free(q);
}

struct queue *queue_new(void)
{
	struct queue *q = calloc(1, sizeof(*q));

	if (!q)
		return NULL;
	track_born(q);
	return queue_ref(q);
}

struct queue *queue_ref(struct queue *q)
{
	__sync_fetch_and_add(&q->ref_count, 1);
	return q;
}

void queue_unref(struct queue *q)
{
	if (__sync_sub_and_fetch(&q->ref_count, 1))
		return;
	queue_destroy(q);
}

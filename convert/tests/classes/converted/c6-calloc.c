/* c6-calloc.c converted by hand: the creation sets 1 where the object is
 * fresh; queue_ref stays an increment for the objects in use */
#include <stdlib.h>

#include <refcount/refcount.h>

#include "c6.h"
#include "track.h"

struct queue {
	refcount_t ref_count;
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
	refcount_set(&q->ref_count, 1);
	return q;
}

struct queue *queue_ref(struct queue *q)
{
	refcount_inc(&q->ref_count);
	return q;
}

void queue_unref(struct queue *q)
{
	if (!refcount_dec_and_test(&q->ref_count))
		return;
	queue_destroy(q);
}

/* A count of listeners that is 0 when idle: the first listener starts a
 * timer, the last one stops it; the source itself is freed elsewhere.  Its
 * put is tested ("references remain: return"), and what follows releases
 * another resource, not the object: never converted. */
#include <stdlib.h>

struct source {
	unsigned long listeners;
	int timer;
	int running;
};

void start_timer(struct source *s);
void stop_timer(int timer);

void source_listen(struct source *s)
{
	if (!s->running) {
		s->running = 1;
		start_timer(s);
	}
	__atomic_add_fetch(&s->listeners, 1, __ATOMIC_SEQ_CST);
}

void source_unlisten(struct source *s)
{
	if (__atomic_sub_fetch(&s->listeners, 1, __ATOMIC_SEQ_CST))
		return;
	stop_timer(s->timer);
	s->running = 0;
}

/* A count of pending jobs, decremented as a statement and never tested:
 * nothing frees anything at 0. */
struct queue {
	int pending;
};

void queue_add(struct queue *q)
{
	__sync_fetch_and_add(&q->pending, 1);
}

void queue_done(struct queue *q)
{
	__sync_fetch_and_sub(&q->pending, 1);
}

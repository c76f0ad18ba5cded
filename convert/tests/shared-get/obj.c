#include <stdlib.h>
/* a pending-work count taken through one function, for a fresh batch and
 * for one in use: the fresh batch's get is an increment from 0, so the
 * count is not a reference count (its "release" is a completion callback) */
struct batch { int pending; void (*done)(struct batch *b); };
void batch_add(struct batch *b)
{
	__atomic_add_fetch(&b->pending, 1, __ATOMIC_RELAXED);
}
void batch_finish(struct batch *b)
{
	if (__atomic_sub_fetch(&b->pending, 1, __ATOMIC_ACQ_REL) == 0)
		b->done(b);
}
struct batch *batch_start(void (*done)(struct batch *b))
{
	struct batch *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->done = done;
	batch_add(b);
	return b;
}
void batch_more(struct batch *b)
{
	batch_add(b);
}

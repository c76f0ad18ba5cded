#include <stdatomic.h>
#include <stdlib.h>
/* Creation by an atomic store after the allocation: atomic_init (ffmpeg's
 * AVBuffer style) and an explicit store, each a set, not an escape */
struct buf { atomic_uint refcount; void *data; };
struct buf *buf_create(void)
{
	struct buf *b = malloc(sizeof(*b));
	if (!b)
		return NULL;
	b->data = NULL;
	atomic_init(&b->refcount, 1);
	return b;
}
void buf_ref(struct buf *b) { atomic_fetch_add_explicit(&b->refcount, 1, memory_order_relaxed); }
void buf_unref(struct buf *b)
{
	if (atomic_fetch_sub_explicit(&b->refcount, 1, memory_order_acq_rel) == 1) {
		free(b->data);
		free(b);
	}
}
struct pool { int size; atomic_int refs; };
struct pool *pool_new(void)
{
	struct pool *p = calloc(1, sizeof(*p));
	if (p)
		atomic_store_explicit(&p->refs, 1, memory_order_relaxed);
	return p;
}
void pool_get(struct pool *p) { atomic_fetch_add(&p->refs, 1); }
void pool_put(struct pool *p)
{
	if (atomic_fetch_sub(&p->refs, 1) == 1)
		free(p);
}

/* c3-apr.c - an APR-like atomics API: apr_atomic_inc32 returns the old
 * value, apr_atomic_dec32 zero when the value becomes zero */
#include <stdlib.h>

#include "c3.h"
#include "track.h"

typedef unsigned int apr_uint32_t;

static inline void apr_atomic_set32(volatile apr_uint32_t *mem,
				    apr_uint32_t val)
{
	__atomic_store_n(mem, val, __ATOMIC_SEQ_CST);
}

static inline apr_uint32_t apr_atomic_inc32(volatile apr_uint32_t *mem)
{
	return __atomic_fetch_add(mem, 1, __ATOMIC_SEQ_CST);
}

static inline int apr_atomic_dec32(volatile apr_uint32_t *mem)
{
	return __atomic_sub_fetch(mem, 1, __ATOMIC_SEQ_CST);
}

struct bucket {
	const char *data;
	volatile apr_uint32_t refcount;
};

static void bucket_destroy(struct bucket *b)
{
	track_gone(b);
	free(b);
}

struct bucket *bucket_new(void)
{
	struct bucket *b = malloc(sizeof(*b));

	if (!b)
		return NULL;
	b->data = "";
	apr_atomic_set32(&b->refcount, 1);
	track_born(b);
	return b;
}

void bucket_ref(struct bucket *b)
{
	apr_atomic_inc32(&b->refcount);
}

void bucket_unref(struct bucket *b)
{
	if (!apr_atomic_dec32(&b->refcount))
		bucket_destroy(b);
}

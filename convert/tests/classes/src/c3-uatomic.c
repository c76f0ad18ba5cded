/* c3-uatomic.c - a liburcu-like reference type over an add-return that is
 * inline assembly on x86 (lock; xadd), a builtin elsewhere */
#include <assert.h>
#include <stddef.h>
#include <stdlib.h>

#include "c3.h"
#include "track.h"

static inline long ua_add_return(long *addr, long v)
{
#if defined(__x86_64__)
	long r = v;

	__asm__ __volatile__("lock; xaddq %0, %1"
			     : "+r"(r), "+m"(*addr)
			     :
			     : "memory");
	return r + v;
#else
	return __atomic_add_fetch(addr, v, __ATOMIC_SEQ_CST);
#endif
}

#define ua_sub_return(addr, v) ua_add_return((addr), -(long)(v))
#define ua_set(addr, v) __atomic_store_n((addr), (v), __ATOMIC_RELAXED)

struct ua_ref {
	long refcount;
};

static inline void ua_ref_set(struct ua_ref *ref, long val)
{
	ua_set(&ref->refcount, val);
}

static inline void ua_ref_get(struct ua_ref *ref)
{
	(void)ua_add_return(&ref->refcount, 1);
}

static inline void ua_ref_put(struct ua_ref *ref,
			      void (*release)(struct ua_ref *))
{
	long res = ua_sub_return(&ref->refcount, 1);

	assert(res >= 0);
	if (res == 0)
		release(ref);
}

struct completion {
	int barrier_done;
	struct ua_ref ref;
};

static void free_completion(struct ua_ref *ref)
{
	struct completion *c =
		(struct completion *)((char *)ref -
				      offsetof(struct completion, ref));

	track_gone(c);
	free(c);
}

struct completion *completion_new(void)
{
	struct completion *c = malloc(sizeof(*c));

	if (!c)
		return NULL;
	c->barrier_done = 0;
	ua_ref_set(&c->ref, 1);
	track_born(c);
	return c;
}

void completion_get(struct completion *c)
{
	ua_ref_get(&c->ref);
}

void completion_put(struct completion *c)
{
	ua_ref_put(&c->ref, free_completion);
}

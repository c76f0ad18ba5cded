/* c10-typedef.c - a typedef of a C11 atomic type and statement-expression
 * macros that assert, shared by two counts and a statistics counter */
#include <assert.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "c10.h"
#include "track.h"

typedef atomic_uint kr_t;

#define KR_INIT(r, n) atomic_init((r), (n))
#define KR_GET(r)                                                              \
	({                                                                     \
		unsigned int _old = atomic_fetch_add((r), 1);                  \
		assert(_old != UINT_MAX);                                      \
		_old;                                                          \
	})
#define KR_PUT(r)                                                              \
	({                                                                     \
		unsigned int _old = atomic_fetch_sub((r), 1);                  \
		assert(_old != 0);                                             \
		_old == 1;                                                     \
	})
#define KR_READ(r) atomic_load(r)

struct route {
	kr_t refs;
	int metric;
};

struct hop {
	int ttl;
	kr_t refs;
};

static struct {
	kr_t lookups;
} stats;

static void route_free(struct route *r)
{
	track_gone(r);
	free(r);
}

struct route *route_new(void)
{
	struct route *r = malloc(sizeof(*r));

	if (!r)
		return NULL;
	KR_INIT(&r->refs, 1);
	r->metric = 10;
	track_born(r);
	return r;
}

void route_ref(struct route *r)
{
	KR_GET(&stats.lookups);
	KR_GET(&r->refs);
}

void route_unref(struct route *r)
{
	if (KR_PUT(&r->refs))
		route_free(r);
}

unsigned int route_lookups(void)
{
	return KR_READ(&stats.lookups);
}

static void hop_free(struct hop *h)
{
	track_gone(h);
	free(h);
}

struct hop *hop_new(void)
{
	struct hop *h = malloc(sizeof(*h));

	if (!h)
		return NULL;
	KR_INIT(&h->refs, 1);
	h->ttl = 64;
	track_born(h);
	return h;
}

void hop_ref(struct hop *h)
{
	KR_GET(&h->refs);
}

void hop_unref(struct hop *h)
{
	if (KR_PUT(&h->refs))
		hop_free(h);
}

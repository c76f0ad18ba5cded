/* c6-zalloc.c - malloc and memset in a function of the project, then the
 * object's own get */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "c6.h"
#include "track.h"

static void *zalloc(size_t size)
{
	void *p = malloc(size);

	if (p)
		memset(p, 0, size);
	return p;
}

struct stream {
	char *buf;
	atomic_int refs;
};

static void stream_free(struct stream *s)
{
	track_gone(s);
	free(s);
}

struct stream *stream_new(void)
{
	struct stream *s = zalloc(sizeof(*s));

	if (!s)
		return NULL;
	track_born(s);
	return stream_ref(s);
}

struct stream *stream_ref(struct stream *s)
{
	atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed);
	return s;
}

void stream_unref(struct stream *s)
{
	if (atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) == 1)
		stream_free(s);
}

#include <stdlib.h>

#include "ref.h"

struct buffer {
	char *data;
	struct obj_ref refs;
};

struct channel {
	struct obj_ref ref;
	struct buffer *pending;
};

struct buffer *buffer_new(void)
{
	struct buffer *b = malloc(sizeof(*b));

	if (!b)
		return NULL;
	b->data = NULL;
	OBJ_REF_SET(&b->refs, 1);
	return b;
}

struct buffer *buffer_get(struct buffer *b)
{
	OBJ_REF_GET(&b->refs);
	return b;
}

void buffer_put(struct buffer *b)
{
	if (OBJ_REF_PUT(&b->refs) == 0) {
		free(b->data);
		free(b);
	}
}

struct channel *channel_new(void)
{
	struct channel *c = calloc(1, sizeof(*c));

	if (c)
		OBJ_REF_SET(&c->ref, 1);
	return c;
}

void channel_get(struct channel *c)
{
	OBJ_REF_GET(&c->ref);
}

void channel_put(struct channel *c)
{
	if (OBJ_REF_PUT(&c->ref) > 0)
		return;
	if (c->pending)
		buffer_put(c->pending);
	free(c);
}

/* c6-macro.c - a zeroing allocator macro (memset of a checked malloc), then
 * the object's own get */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c6.h"
#include "track.h"

static void *xmalloc(size_t size)
{
	void *p = malloc(size);

	if (!p) {
		fputs("out of memory\n", stderr);
		abort();
	}
	return p;
}

#define NEW0(T) ((T *)memset(xmalloc(sizeof(T)), 0, sizeof(T)))

struct token {
	unsigned int kind;
	unsigned int n_refs;
};

static void token_delete(struct token *t)
{
	track_gone(t);
	free(t);
}

struct token *token_new(void)
{
	struct token *t = NEW0(struct token);

	t->kind = 2;
	track_born(t);
	return token_ref(t);
}

struct token *token_ref(struct token *t)
{
	__atomic_add_fetch(&t->n_refs, 1, __ATOMIC_RELAXED);
	return t;
}

void token_unref(struct token *t)
{
	if (__atomic_sub_fetch(&t->n_refs, 1, __ATOMIC_ACQ_REL) == 0)
		token_delete(t);
}

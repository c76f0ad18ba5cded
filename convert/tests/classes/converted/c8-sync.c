/* c8-sync.c converted by hand: the old value through oldp, the kept new
 * value computed from it, traced and tested as before */
#include <stdlib.h>

#include <refcount/refcount.h>

#include "c8.h"
#include "track.h"

static trace_fn *trace;

struct session {
	int id;
	refcount_t refs;
};

void session_set_trace(trace_fn *fn)
{
	trace = fn;
}

static void debug_log(const struct session *s, int refs)
{
	if (trace)
		trace(s, refs);
}

static void session_free(struct session *s)
{
	track_gone(s);
	free(s);
}

struct session *session_new(void)
{
	struct session *s = malloc(sizeof(*s));

	if (!s)
		return NULL;
	s->id = 1;
	refcount_set(&s->refs, 1);
	track_born(s);
	return s;
}

void session_ref(struct session *s)
{
	int refs, old;

	__refcount_inc(&s->refs, &old);
	refs = old + 1;
	debug_log(s, refs);
}

void session_unref(struct session *s)
{
	int refs, old;

	__refcount_dec_and_test(&s->refs, &old);
	refs = old - 1;
	debug_log(s, refs);
	if (refs > 0)
		return;
	session_free(s);
}

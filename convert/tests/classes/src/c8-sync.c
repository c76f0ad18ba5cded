/* c8-sync.c - refs = __sync_*_and_fetch(...) kept, traced, then tested */
#include <stdlib.h>

#include "c8.h"
#include "track.h"

static trace_fn *trace;

struct session {
	int id;
	int refs;
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
	s->refs = 1;
	track_born(s);
	return s;
}

void session_ref(struct session *s)
{
	int refs;

	refs = __sync_add_and_fetch(&s->refs, 1);
	debug_log(s, refs);
}

void session_unref(struct session *s)
{
	int refs;

	refs = __sync_sub_and_fetch(&s->refs, 1);
	debug_log(s, refs);
	if (refs > 0)
		return;
	session_free(s);
}

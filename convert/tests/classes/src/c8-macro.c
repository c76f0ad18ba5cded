/* c8-macro.c - new-value macros over __atomic builtins, the result kept
 * in a declaration, traced only while references remain */
#include <stdlib.h>

#include "c8.h"
#include "track.h"

#define INC_NV(p) __atomic_add_fetch((p), 1, __ATOMIC_RELAXED)
#define DEC_NV(p) __atomic_sub_fetch((p), 1, __ATOMIC_ACQ_REL)

static trace_fn *peer_trace;

struct peer {
	unsigned short port;
	int n;
};

void peer_set_trace(trace_fn *fn)
{
	peer_trace = fn;
}

static void peer_release(struct peer *p)
{
	if (peer_trace)
		peer_trace(p, 0);
	track_gone(p);
	free(p);
}

struct peer *peer_new(void)
{
	struct peer *p = malloc(sizeof(*p));

	if (!p)
		return NULL;
	p->port = 80;
	p->n = 1;
	track_born(p);
	return p;
}

void peer_ref(struct peer *p)
{
	const int now = INC_NV(&p->n);

	if (peer_trace)
		peer_trace(p, now);
}

void peer_unref(struct peer *p)
{
	const int left = DEC_NV(&p->n);

	if (left) {
		if (peer_trace)
			peer_trace(p, left);
		return;
	}
	peer_release(p);
}

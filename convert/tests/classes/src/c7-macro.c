/* c7-macro.c - the public get is a macro in the header (PIPE_REF); the
 * tree applies it only to a pipe it has just calloc'ed */
#include <stdlib.h>

#include "c7.h"
#include "track.h"

static void pipe_free(struct pipe *p)
{
	track_gone(p);
	free(p);
}

struct pipe *pipe_new(void)
{
	struct pipe *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->ends[0] = p->ends[1] = -1;
	track_born(p);
	return PIPE_REF(p);
}

void pipe_unref(struct pipe *p)
{
	if (atomic_fetch_sub_explicit(&p->refs, 1, memory_order_acq_rel) == 1)
		pipe_free(p);
}

#include <stdlib.h>
#include <string.h>
/* A count used through `.` on a named object (shared.refcount), not
 * through `->`: no spelled-source pass reads that use, and without a
 * compile database nothing tells whose field it is, so the field stays
 * report-only (job).  What is not a use through `.` does not count: a
 * designated initialiser, a comment (b.refs), a string, a #define body
 * (buf).  The release after buf's final put is a call through the object
 * (b->done(b)): the inventory lists it. */
struct job { int refcount; void (*done)(struct job *); };
struct buf { int refs; char *data; void (*done)(struct buf *); };
#define BUF_REFS(b) ((b).refs)
static struct job shared = { 1, NULL };
static struct buf empty = { .refs = 1, .data = NULL };
void job_get(struct job *j) { __atomic_add_fetch(&j->refcount, 1, __ATOMIC_RELAXED); }
void job_put(struct job *j)
{
	if (__atomic_sub_fetch(&j->refcount, 1, __ATOMIC_ACQ_REL) == 0)
		j->done(j);
}
void shared_get(void)
{
	__atomic_add_fetch(&shared.refcount, 1, __ATOMIC_SEQ_CST);
}
struct buf *buf_get(struct buf *b)
{
	__atomic_add_fetch(&b->refs, 1, __ATOMIC_RELAXED);
	return b;
}
void buf_put(struct buf *b)
{
	if (__atomic_sub_fetch(&b->refs, 1, __ATOMIC_ACQ_REL) == 0) {
		free(b->data);
		b->done(b);
	}
}
const char *buf_name(void)
{
	return strlen("empty.refs") ? "empty.refs" : empty.data;
}

/* A store of 0 after the final put, before the object's release (a
 * teardown that clears the count), is not a creation at 0: struct obj is
 * converted.  struct pool is stored 0 at its creation and then got, with
 * a release on its error path: still created at 0, report-only. */
#include <stdlib.h>

struct obj { int type; int refcount; };

struct obj *obj_new(void)
{
	struct obj *o = calloc(1, sizeof(*o));

	if (o)
		o->refcount = 1;
	return o;
}

void obj_get(struct obj *o)
{
	__atomic_add_fetch(&o->refcount, 1, __ATOMIC_SEQ_CST);
}

void obj_put(struct obj *o)
{
	if (__atomic_sub_fetch(&o->refcount, 1, __ATOMIC_SEQ_CST) == 0) {
		o->refcount = 0;
		free(o);
	}
}

struct pool { int users; void *mem; };

void pool_get(struct pool *p)
{
	__atomic_add_fetch(&p->users, 1, __ATOMIC_SEQ_CST);
}

void pool_put(struct pool *p)
{
	if (__atomic_sub_fetch(&p->users, 1, __ATOMIC_SEQ_CST) == 0)
		free(p);
}

struct pool *pool_new(size_t n)
{
	struct pool *p = malloc(sizeof(*p));

	if (!p)
		return NULL;
	p->users = 0;
	p->mem = malloc(n);
	if (!p->mem) {
		free(p);
		return NULL;
	}
	pool_get(p);
	return p;
}

#include <stdlib.h>

struct obj { int type; int refcount; };

/* a static instance, created at 1 by its initialiser */
static struct obj shared = { 2, 1 };

struct obj *other_get(struct obj *o)
{
	__atomic_add_fetch(&o->refcount, 1, __ATOMIC_SEQ_CST);
	return o;
}

void other_put(struct obj *o)
{
	if (__atomic_sub_fetch(&o->refcount, 1, __ATOMIC_SEQ_CST) == 0)
		free(o);
}

struct obj *other_shared(void)
{
	return other_get(&shared);
}

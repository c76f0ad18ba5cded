#include <stdlib.h>
/* calloc then get: 0 is not a live state after conversion (libgit2) */
struct obj { int refcount; };
struct obj *obj_new(void)
{
	struct obj *o = calloc(1, sizeof(*o));
	if (!o)
		return NULL;
	__atomic_add_fetch(&o->refcount, 1, __ATOMIC_SEQ_CST);
	return o;
}
void obj_put(struct obj *o)
{
	if (__atomic_sub_fetch(&o->refcount, 1, __ATOMIC_SEQ_CST) == 0)
		free(o);
}

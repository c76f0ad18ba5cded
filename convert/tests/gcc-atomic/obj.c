#include <stdlib.h>
/* GCC __atomic, new value, in a macro (jansson); a sentinel and a positional initialiser */
struct obj { int type; volatile size_t refcount; };
#define OBJ_INCREF(o) __atomic_add_fetch(&o->refcount, 1, __ATOMIC_ACQUIRE)
#define OBJ_DECREF(o) __atomic_sub_fetch(&o->refcount, 1, __ATOMIC_RELEASE)
static struct obj the_null = {0, (size_t)-1};
struct obj *obj_null(void) { return &the_null; }
void obj_get(struct obj *o) { if (o && o->refcount != (size_t)-1) OBJ_INCREF(o); }
void obj_put(struct obj *o)
{
	if (o && o->refcount != (size_t)-1 && OBJ_DECREF(o) == 0)
		free(o);
}
int obj_shared(struct obj *o) { return o->refcount > 1; }

/* struct obj is declared here and again, the same, in other.c (two
 * translation units, one struct name, one type): one field, and apply
 * retypes both declarations, and reads the initialisers of each. */
#include <stdlib.h>

struct obj { int type; int refcount; };

void obj_get(struct obj *o)
{
	__atomic_add_fetch(&o->refcount, 1, __ATOMIC_SEQ_CST);
}

void obj_put(struct obj *o)
{
	if (__atomic_sub_fetch(&o->refcount, 1, __ATOMIC_SEQ_CST) == 0)
		free(o);
}

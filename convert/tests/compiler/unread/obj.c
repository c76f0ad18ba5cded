#include <stdlib.h>
#include "obj.h"

void obj_ref(void *p)
{
	__atomic_add_fetch(&AS_OBJ(p)->refcount, 1, __ATOMIC_SEQ_CST);
}

void obj_unref(struct obj *o)
{
	if (__atomic_sub_fetch(&o->refcount, 1, __ATOMIC_SEQ_CST) == 0)
		free(o);
}

/* Uses through `.` the spelled-source passes do not read: the compiler
 * names their struct, and they count against the name-keyed field. */
int obj_local(void)
{
	struct obj s;

	s.refcount = 7;
	s.refcount += 3;
	return s.type + s.refcount;
}

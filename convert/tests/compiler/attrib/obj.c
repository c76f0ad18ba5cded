#include <stdlib.h>
#include "obj.h"

void obj_ref(struct gobj *o) { __atomic_add_fetch(&o->ref_count, 1, __ATOMIC_RELAXED); }
void obj_unref(struct gobj *o)
{
	if (__atomic_sub_fetch(&o->ref_count, 1, __ATOMIC_ACQ_REL) == 0)
		free(o);
}

#include <stdlib.h>
/* GCC __atomic, old value (cairo) */
struct obj { int ref_count; };
void obj_get(struct obj *o) { __atomic_fetch_add(&o->ref_count, 1, __ATOMIC_SEQ_CST); }
void obj_put(struct obj *o)
{
	if (__atomic_fetch_sub(&o->ref_count, 1, __ATOMIC_SEQ_CST) == 1)
		obj_destroy(o);
}

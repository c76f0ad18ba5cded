#include <stdlib.h>
/* __sync, old value (fontconfig fallback, dbus's +1) */
struct obj { int ref; int ref2; };
void obj_get(struct obj *o) { __sync_fetch_and_add(&o->ref, 1); }
void obj_put(struct obj *o)
{
	if (__sync_fetch_and_add(&o->ref, -1) == 1)
		obj_free(o);
}
void obj_put2(struct obj *o)
{
	if (__sync_sub_and_fetch(&o->ref2, 1) + 1 == 1)
		obj_free(o);
}
void obj_get2(struct obj *o) { __sync_add_and_fetch(&o->ref2, 1); }

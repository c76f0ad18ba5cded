#include <stdlib.h>
#include <stdint.h>
/* __sync, inverted early return, threading off by default (json-c) */
struct obj { uint32_t _ref_count; };
void obj_get(struct obj *o)
{
#ifdef ENABLE_THREADING
	__sync_add_and_fetch(&o->_ref_count, 1);
#else
	++o->_ref_count;
#endif
}
int obj_put(struct obj *o)
{
#ifdef ENABLE_THREADING
	if (__sync_sub_and_fetch(&o->_ref_count, 1) > 0)
		return 0;
#else
	if (--o->_ref_count > 0)
		return 0;
#endif
	free(o);
	return 1;
}

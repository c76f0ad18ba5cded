/* Sees both structs: the read below is struct gobj's, which only the
 * expansion of AS_OBJ tells. */
#include "obj.h"
#include "src.h"

int obj_refs(void *p)
{
	return AS_OBJ(p)->ref_count;
}

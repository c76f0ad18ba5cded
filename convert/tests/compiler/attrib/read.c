/* Sees both structs: the read below is struct gobj's, which only the
 * expansion of AS_OBJ tells. */
#include "obj.h"
#include "src.h"

int obj_refs(void *p)
{
	return AS_OBJ(p)->ref_count;
}

/* The address of the same untyped use escapes: without the compiler's
 * view it could be either struct's, so it counts against both. */
void stash(int *ref);
void obj_stash(void *p)
{
	stash(&AS_OBJ(p)->ref_count);
}

#include "count.h"
void rel_put(struct rel *r)
{
	if (REL_PUT(r) == 0) {
		free(r->name);
		free(r);
	}
}

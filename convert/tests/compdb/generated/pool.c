#include <stdlib.h>
#include "pool.h"

void pool_get(struct pool *p) { __atomic_add_fetch(&p->users, 1, __ATOMIC_RELAXED); }
void pool_put(struct pool *p)
{
	if (__atomic_sub_fetch(&p->users, 1, __ATOMIC_ACQ_REL) == 0)
		free(p);
}

#include <stdlib.h>
#include "conn.h"

void conn_get(struct conn *c) { __atomic_add_fetch(&c->refs, 1, __ATOMIC_RELAXED); }
void conn_put(struct conn *c)
{
	if (__atomic_sub_fetch(&c->refs, 1, __ATOMIC_ACQ_REL) == 0)
		free(c);
}

#include <stdlib.h>
#include "src.h"

void source_ref(struct source *s) { __atomic_add_fetch(&s->ref_count, 1, __ATOMIC_RELAXED); }
void source_unref(struct source *s)
{
	if (__atomic_sub_fetch(&s->ref_count, 1, __ATOMIC_ACQ_REL) == 0)
		free(s);
}

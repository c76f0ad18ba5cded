#include "count.h"
struct made *made_alloc(extra)
	int extra;
{
	struct made *m = calloc(1, sizeof(*m) + extra);
	return m;
}

#include <stdlib.h>
#include "wrap.h"

struct client { int id; ext_count_t ref; };

void client_unref(struct client *c)
{
	if (ext_dec(&c->ref) == 0)
		free(c);
}

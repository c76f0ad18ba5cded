/* A source the build does not compile (an option turned off): read with
 * its neighbour's flags, which it needs (wrap.h through -I.., and the
 * put under WITH_OPTIONAL). */
#include <stdlib.h>
#include "wrap.h"

struct esd { ext_count_t ref; };

#ifdef WITH_OPTIONAL
void esd_unref(struct esd *e)
{
	if (ext_dec(&e->ref) == 0)
		free(e);
}
#endif

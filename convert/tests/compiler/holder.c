/* holder_get/holder_put name no primitive: they are walked in the round
 * after ext_inc/ext_dec are known to be wrappers.  Each file's own static
 * `struct client` is a field of its own. */
#include <stdlib.h>
#include "wrap.h"

static int hits;
struct holder { ext_count_t refs; int x; };
struct client { ext_count_t ref; };

void note_hit(void) { (void)__atomic_add_fetch(&hits, 1, __ATOMIC_RELAXED); }
void holder_get(struct holder *h) { ext_inc(&h->refs); }
void holder_put(struct holder *h)
{
	if (ext_dec(&h->refs) == 0)
		free(h);
}
void client_put(struct client *c) { if (ext_dec(&c->ref) == 0) free(c); }

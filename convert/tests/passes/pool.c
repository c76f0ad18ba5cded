#include "count.h"
/* elements of an array of counted objects, reached by index: spatch's
 * `E->f` matches `a[i].f` (its ptr_to_array isomorphism) */
static struct slot slots[8];
void slot_reset(int i)
{
	slots[i] . uses = 0;
}

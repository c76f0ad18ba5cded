#include "count.h"
/* a pattern whose text opens a comment inside a string */
static const char *pattern = "/*";
int seen_busy(struct seen *s)
{
	return s-> /* the count */
		ref > s->limit;
}
/* the pattern above ends here: */
const char *seen_pattern(void)
{
	return pattern;
}

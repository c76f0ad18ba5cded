/*
 * jansson through its public API, for check-convert: `misuse` puts one
 * reference too many (the object's memory is kept, so the count itself is
 * what tells before from after); `cost N` times N create/get/put/free.
 * Built against the original and the converted jansson.
 */
#include <jansson.h>
#include <string.h>

#include "cost.h"

static int frees;
static void keep(void *p)
{
	(void)p;
	frees++; /* never freed: the count stays readable after the last put */
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "misuse")) {
		json_set_alloc_funcs(malloc, keep);
		json_t *o = json_object();
		json_decref(o);
		json_decref(o); /* once too often */
#ifdef REFCOUNT_LONG_INIT
		long v = refcount_long_read(&o->refcount);
		printf("%s, %d frees\n",
		       refcount_long_is_immortal(&o->refcount) ? "immortal" :
		       v < 0 ? "saturated" : "count changed", frees);
#else
		printf("%s, %d frees\n",
		       o->refcount == (size_t)-1 ? "wrapped to immortal" : "count changed",
		       frees);
#endif
		return 0;
	}
	COST_LOOP(argc > 2 ? atol(argv[2]) : 1000000, i, {
		json_t *o = json_integer(i);
		json_incref(o);
		json_decref(o);
		json_decref(o);
	});
	return 0;
}

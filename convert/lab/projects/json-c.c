/*
 * json-c through its public API, for check-convert: `misuse` takes 2^32
 * references it never puts, then puts one, and prints the ns per get of
 * the first 2^31 in CPU time (the converted count is still in range) and of the next
 * (past INT_MAX: every get of the converted build takes the saturated
 * count's cold path); `cost N` times N create/get/put/free.  Built against
 * the original and the converted json-c.
 */
#include <json.h>
#include <stdint.h>
#include <string.h>

#include "cost.h"

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "misuse")) {
		struct json_object *o = json_object_new_object();

		MISUSE_GETS_2_32(json_object_get(o));
		int freed = json_object_put(o);
		printf("%s\n", freed ? "wrapped, freed while referenced" : "not freed");
		return 0;
	}
	COST_LOOP(argc > 2 ? atol(argv[2]) : 1000000, i, {
		struct json_object *o = json_object_new_int((int)i);
		json_object_get(o);
		json_object_put(o);
		json_object_put(o);
	});
	return 0;
}

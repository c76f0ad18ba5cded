/*
 * json-c through its public API, for check-convert: `misuse` takes 2^32
 * references it never puts, then puts one; `cost N` times N
 * create/get/put/free.  Built against the original and the converted json-c.
 */
#include <json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "misuse")) {
		struct json_object *o = json_object_new_object();
		for (uint64_t i = 0; i < (1ull << 32); i++)
			json_object_get(o); /* leaked */
		int freed = json_object_put(o);
		printf("%s\n", freed ? "wrapped, freed while referenced" : "not freed");
		return 0;
	}
	long n = argc > 2 ? atol(argv[2]) : 1000000;
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++) {
		struct json_object *o = json_object_new_int((int)i);
		json_object_get(o);
		json_object_put(o);
		json_object_put(o);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.3f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n);
	return 0;
}

/* test-c10-typedef.c - the whole life of each object of src/c10-typedef.c */
#include "c10.h"
#include "check.h"

static void get_route(void *o)
{
	route_ref(o);
}

static void put_route(void *o)
{
	route_unref(o);
}

static void get_hop(void *o)
{
	hop_ref(o);
}

static void put_hop(void *o)
{
	hop_unref(o);
}

int main(void)
{
	if (lifecycle("c10-typedef route", route_new(), get_route, put_route) ||
	    lifecycle("c10-typedef hop", hop_new(), get_hop, put_hop))
		return 1;
	CHECK(route_lookups() == 4 + NTHREADS * ITERATIONS);
	return 0;
}

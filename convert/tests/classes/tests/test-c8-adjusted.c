/* test-c8-adjusted.c - a layer's whole life (src/c8-adjusted.c), with the counts its trace
 * hook is given: the new value after each get and put */
#include <stdatomic.h>

#include "c8.h"
#include "check.h"

static const void *traced;
static int last = -1;
static atomic_int wrong; /* a count below 1 traced while the test holds one */

static void record(const void *obj, int refs)
{
	traced = obj;
	last = refs;
}

static void at_least_1(const void *obj, int refs)
{
	(void)obj;
	if (refs < 1)
		atomic_fetch_add(&wrong, 1);
}

static void get(void *o)
{
	layer_ref(o);
}

static void put(void *o)
{
	layer_unref(o);
}

int main(void)
{
	struct layer *o = layer_new();

	CHECK(o);
	layer_set_trace(record);
	get(o);
	CHECK(traced == o && last == 2);
	get(o);
	CHECK(last == 3);
	put(o);
	CHECK(last == 2);
	put(o);
	CHECK(last == 1 && track_alive(o));
	layer_set_trace(at_least_1);
	hammer(o, get, put);
	CHECK(atomic_load(&wrong) == 0);
	layer_set_trace(record);
	put(o);
	CHECK(last == 0 && !track_alive(o));
	return done("c8-adjusted");
}

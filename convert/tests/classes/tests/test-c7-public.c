/* test-c7-public.c - capture handles (src/c7-public.c) as an application
 * uses them: capture_ref() on a live handle */
#include "c7.h"
#include "check.h"

static void get(void *o)
{
	CHECK(capture_ref(o) == o);
}

static void put(void *o)
{
	capture_unref(o);
}

int main(void)
{
	return lifecycle("c7-public open", capture_open("eth0"), get, put) ||
	       lifecycle("c7-public default", capture_open_default(), get, put);
}

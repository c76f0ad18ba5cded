/* test-c6-zalloc.c - the whole life of each object of src/c6-zalloc.c */
#include "c6.h"
#include "check.h"

static void get_stream(void *o)
{
	CHECK(stream_ref(o) == o);
}

static void put_stream(void *o)
{
	stream_unref(o);
}

int main(void)
{
	return lifecycle("c6-zalloc stream", stream_new(), get_stream,
			 put_stream);
}

/* test-c10-family.c - the whole life of each object of src/c10-family.c */
#include "c10.h"
#include "check.h"

static void get_mixer(void *o)
{
	CHECK(mixer_ref(o) == o);
}

static void put_mixer(void *o)
{
	mixer_unref(o);
}

static void get_sink(void *o)
{
	CHECK(sink_ref(o) == o);
}

static void put_sink(void *o)
{
	sink_unref(o);
}

int main(void)
{
	return lifecycle("c10-family mixer", mixer_new(), get_mixer,
			 put_mixer) ||
	       lifecycle("c10-family sink", sink_new(), get_sink, put_sink);
}

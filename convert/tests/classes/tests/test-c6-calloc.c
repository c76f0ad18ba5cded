/* test-c6-calloc.c - the whole life of each object of src/c6-calloc.c */
#include "c6.h"
#include "check.h"

static void get_queue(void *o)
{
	CHECK(queue_ref(o) == o);
}

static void put_queue(void *o)
{
	queue_unref(o);
}

int main(void)
{
	return lifecycle("c6-calloc queue", queue_new(), get_queue, put_queue);
}

/* test-c7-macro.c - pipes (src/c7-macro.c) as an application uses them:
 * PIPE_REF() on a live pipe */
#include "c7.h"
#include "check.h"

static void get(void *o)
{
	struct pipe *p = o;

	CHECK(PIPE_REF(p) == p);
}

static void put(void *o)
{
	pipe_unref(o);
}

int main(void)
{
	return lifecycle("c7-macro", pipe_new(), get, put);
}

/* test-c4-cleanup.c - a req's whole life (src/c4-cleanup.c) */
#include "c4.h"
#include "check.h"

static void get(void *o)
{
	CHECK(req_dup(o) == o);
}

static void put(void *o)
{
	req_unref(o);
}

int main(void)
{
	return lifecycle("c4-cleanup", req_new("/a/b"), get, put);
}

/* test-c3-apr.c - a bucket's whole life (src/c3-apr.c) */
#include "c3.h"
#include "check.h"

static void get(void *o)
{
	bucket_ref(o);
}

static void put(void *o)
{
	bucket_unref(o);
}

int main(void)
{
	return lifecycle("c3-apr", bucket_new(), get, put);
}

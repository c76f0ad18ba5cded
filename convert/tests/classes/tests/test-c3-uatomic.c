/* test-c3-uatomic.c - a completion's whole life (src/c3-uatomic.c) */
#include "c3.h"
#include "check.h"

static void get(void *o)
{
	completion_get(o);
}

static void put(void *o)
{
	completion_put(o);
}

int main(void)
{
	return lifecycle("c3-uatomic", completion_new(), get, put);
}

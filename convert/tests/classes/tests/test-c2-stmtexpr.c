/* test-c2-stmtexpr.c - a kettle's whole life (src/c2-stmtexpr.c) */
#include "c2.h"
#include "check.h"

static void get(void *o)
{
	kettle_ref(o);
}

static void put(void *o)
{
	kettle_unref(o);
}

int main(void)
{
	return lifecycle("c2-stmtexpr", kettle_new(), get, put);
}

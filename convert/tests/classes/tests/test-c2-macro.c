/* test-c2-macro.c - a lamp's whole life (src/c2-macro.c) */
#include "c2.h"
#include "check.h"

static void get(void *o)
{
	lamp_ref(o);
}

static void put(void *o)
{
	lamp_unref(o);
}

int main(void)
{
	return lifecycle("c2-macro", lamp_new(), get, put);
}

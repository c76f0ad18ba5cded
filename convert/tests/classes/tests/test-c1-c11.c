/* test-c1-c11.c - a gadget's whole life (src/c1-c11.c) */
#include "c1.h"
#include "check.h"

static void get(void *o)
{
	gadget_ref(o);
}

static void put(void *o)
{
	gadget_unref(o);
}

int main(void)
{
	return lifecycle("c1-c11", gadget_new(), get, put);
}

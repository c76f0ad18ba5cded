/* test-c1-sync.c - a widget's whole life (src/c1-sync.c) */
#include "c1.h"
#include "check.h"

static void get(void *o)
{
	widget_ref(o);
}

static void put(void *o)
{
	widget_unref(o);
}

int main(void)
{
	return lifecycle("c1-sync", widget_new(), get, put);
}

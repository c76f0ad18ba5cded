/* test-c4-autotype.c - an item's whole life (src/c4-autotype.c) */
#include "c4.h"
#include "check.h"

static void get(void *o)
{
	item_ref(o);
}

static void put(void *o)
{
	item_unref(o);
}

static void peek(void *o)
{
	CHECK(item_peek(o) == 42);
}

static void nothing(void *o)
{
	(void)o;
}

int main(void)
{
	struct item *it = item_new();

	CHECK(it);
	hammer(it, peek, nothing);
	return lifecycle("c4-autotype", it, get, put);
}

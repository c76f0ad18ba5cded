/* test-c1-vtable.c - a sprite's whole life (src/c1-vtable.c) */
#include "c1.h"
#include "check.h"

static void get(void *o)
{
	sprite_ref(o);
}

static void put(void *o)
{
	sprite_unref(o);
}

int main(void)
{
	return lifecycle("c1-vtable", sprite_new(), get, put);
}

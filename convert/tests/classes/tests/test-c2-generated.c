/* test-c2-generated.c - an apple's and a pear's whole life (src/c2-generated.c) */
#include "c2.h"
#include "check.h"

static void get_apple(void *o)
{
	CHECK(apple_ref(o) == o);
}

static void put_apple(void *o)
{
	apple_unref(o);
}

static void get_pear(void *o)
{
	CHECK(pear_ref(o) == o);
}

static void put_pear(void *o)
{
	pear_unref(o);
}

int main(void)
{
	return lifecycle("c2-generated apple", apple_new(), get_apple,
			 put_apple) ||
	       lifecycle("c2-generated pear", pear_new(), get_pear, put_pear);
}

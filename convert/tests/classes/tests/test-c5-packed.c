/* test-c5-packed.c - the whole life of each object of src/c5-packed.c */
#include "c5.h"
#include "check.h"

static void get_closure(void *o)
{
	closure_ref(o);
}

static void put_closure(void *o)
{
	closure_unref(o);
}

int main(void)
{
	return lifecycle("c5-packed closure", closure_new(), get_closure,
			 put_closure);
}

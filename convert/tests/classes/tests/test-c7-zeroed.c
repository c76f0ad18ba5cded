/* test-c7-zeroed.c - handles (src/c7-zeroed.c) as an application uses
 * them: handle_get() on a live handle */
#include "c7.h"
#include "check.h"

static void get(void *o)
{
	handle_get(o);
}

static void put(void *o)
{
	handle_put(o);
}

int main(void)
{
	return lifecycle("c7-zeroed", handle_new(1), get, put);
}

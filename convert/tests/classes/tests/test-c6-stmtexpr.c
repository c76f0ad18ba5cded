/* test-c6-stmtexpr.c - the whole life of each object of src/c6-stmtexpr.c */
#include "c6.h"
#include "check.h"

static void get_evsrc(void *o)
{
	CHECK(evsrc_ref(o) == o);
}

static void put_evsrc(void *o)
{
	evsrc_unref(o);
}

int main(void)
{
	return lifecycle("c6-stmtexpr evsrc", evsrc_new(), get_evsrc,
			 put_evsrc);
}

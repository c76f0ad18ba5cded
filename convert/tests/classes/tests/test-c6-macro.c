/* test-c6-macro.c - the whole life of each object of src/c6-macro.c */
#include "c6.h"
#include "check.h"

static void get_token(void *o)
{
	CHECK(token_ref(o) == o);
}

static void put_token(void *o)
{
	token_unref(o);
}

int main(void)
{
	return lifecycle("c6-macro token", token_new(), get_token, put_token);
}

/* test-c4-autoptr.c - a conn's whole life (src/c4-autoptr.c) */
#include "c4.h"
#include "check.h"

static void get(void *o)
{
	conn_ref(o);
}

static void put(void *o)
{
	conn_unref(o);
}

static void send_get(void *o)
{
	CHECK(conn_send(o) == -1);
}

static void nothing(void *o)
{
	(void)o;
}

int main(void)
{
	conn *c = conn_new();

	CHECK(c);
	hammer(c, send_get, nothing);
	return lifecycle("c4-autoptr", c, get, put);
}

/* c4-autoptr.c - AUTOPTR(T) x = NULL;, a type macro that expands to a
 * cleanup attribute, in the functions that create and that get */
#include <stdlib.h>

#include "c4.h"
#include "track.h"

#define AUTOPTR(T) __attribute__((cleanup(T##_autoptr_cleanup))) T *

struct conn {
	int fd;
	int ref_count;
};

static void conn_free(conn *c)
{
	track_gone(c);
	free(c);
}

static void conn_autoptr_cleanup(conn **cp)
{
	if (*cp)
		conn_unref(*cp);
}

static conn *steal(conn **cp)
{
	conn *c = *cp;

	*cp = NULL;
	return c;
}

conn *conn_new(void)
{
	AUTOPTR(conn) c = NULL;

	c = malloc(sizeof(*c));
	if (!c)
		return NULL;
	c->ref_count = 1;
	c->fd = -1;
	track_born(c);
	return steal(&c);
}

void conn_ref(conn *c)
{
	__atomic_add_fetch(&c->ref_count, 1, __ATOMIC_RELAXED);
}

void conn_unref(conn *c)
{
	if (__atomic_sub_fetch(&c->ref_count, 1, __ATOMIC_ACQ_REL) == 0)
		conn_free(c);
}

int conn_send(conn *c)
{
	AUTOPTR(conn) hold = c;

	__atomic_add_fetch(&hold->ref_count, 1, __ATOMIC_RELAXED);
	return hold->fd;
}

/* c2-macro.c - macros over __sync builtins, one level deep: the primitive
 * is applied to the macro's pointer argument */
#include <stdlib.h>

#include "c2.h"
#include "track.h"

#define ATOM_INC(p) __sync_fetch_and_add((p), 1)
#define ATOM_DEC(p) __sync_sub_and_fetch((p), 1)
#define LAMP_GET(l) ATOM_INC(&(l)->users)
#define LAMP_PUT(l) ATOM_DEC(&(l)->users)

struct lamp {
	unsigned int watts;
	volatile unsigned int users;
};

static void lamp_destroy(struct lamp *l)
{
	track_gone(l);
	free(l);
}

struct lamp *lamp_new(void)
{
	struct lamp *l = malloc(sizeof(*l));

	if (!l)
		return NULL;
	l->watts = 40;
	l->users = 1;
	track_born(l);
	return l;
}

void lamp_ref(struct lamp *l)
{
	LAMP_GET(l);
}

void lamp_unref(struct lamp *l)
{
	if (!LAMP_PUT(l))
		lamp_destroy(l);
}

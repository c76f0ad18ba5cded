/* c2-stmtexpr.c - statement-expression macros over __atomic builtins */
#include <stdlib.h>

#include "c2.h"
#include "track.h"

#define REF_GET(p)                                                             \
	({                                                                     \
		__typeof__(p) _p = (p);                                        \
		__atomic_fetch_add(_p, 1, __ATOMIC_RELAXED);                   \
	})
#define REF_PUT(p)                                                             \
	({                                                                     \
		int _left = __atomic_sub_fetch((p), 1, __ATOMIC_ACQ_REL);      \
		_left == 0;                                                    \
	})

struct kettle {
	int litres;
	int count;
};

static void kettle_release(struct kettle *k)
{
	track_gone(k);
	free(k);
}

struct kettle *kettle_new(void)
{
	struct kettle *k = malloc(sizeof(*k));

	if (!k)
		return NULL;
	k->litres = 2;
	__atomic_store_n(&k->count, 1, __ATOMIC_RELAXED);
	track_born(k);
	return k;
}

void kettle_ref(struct kettle *k)
{
	REF_GET(&k->count);
}

void kettle_unref(struct kettle *k)
{
	if (REF_PUT(&k->count))
		kettle_release(k);
}

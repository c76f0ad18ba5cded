/* c6-stmtexpr.c - a zeroing allocator as a statement expression, then the
 * object's own get, over GLib-like macros defined here */
#include <stdlib.h>
#include <string.h>

#include "c6.h"
#include "track.h"

#define new0(T, n)                                                             \
	({                                                                     \
		size_t _size = sizeof(T) * (n);                                \
		T *_p = malloc(_size);                                         \
		if (_p)                                                        \
			memset(_p, 0, _size);                                  \
		_p;                                                            \
	})

#define my_atomic_int_inc(p)                                                   \
	((void)__atomic_fetch_add((p), 1, __ATOMIC_SEQ_CST))
#define my_atomic_int_dec_and_test(p)                                          \
	(__atomic_fetch_sub((p), 1, __ATOMIC_SEQ_CST) == 1)

struct evsrc {
	int priority;
	volatile int ref_count;
};

static void evsrc_finalize(struct evsrc *e)
{
	track_gone(e);
	free(e);
}

struct evsrc *evsrc_new(void)
{
	struct evsrc *e = new0(struct evsrc, 1);

	if (!e)
		return NULL;
	track_born(e);
	return evsrc_ref(e);
}

struct evsrc *evsrc_ref(struct evsrc *e)
{
	my_atomic_int_inc(&e->ref_count);
	return e;
}

void evsrc_unref(struct evsrc *e)
{
	if (my_atomic_int_dec_and_test(&e->ref_count))
		evsrc_finalize(e);
}

/* A count revived from 0 by its own release path: the final put
 * increments it again so that a dispose callback may use the object, then
 * puts it again (glib's GSource).  A refcount_t reports that increment as
 * an addition on 0: report-only.  The plain count beside it converts, and
 * so does an unref that undoes an underflowing put (below). */
#include <stdlib.h>

struct src {
	int ref;
	void (*dispose)(struct src *);
};

struct plain {
	int ref;
};

void src_ref(struct src *s)
{
	__atomic_add_fetch(&s->ref, 1, __ATOMIC_RELAXED);
}

void src_unref(struct src *s)
{
	if (__atomic_sub_fetch(&s->ref, 1, __ATOMIC_ACQ_REL) == 0) {
		if (s->dispose) {
			__atomic_add_fetch(&s->ref, 1, __ATOMIC_RELAXED);
			s->dispose(s);
			if (__atomic_sub_fetch(&s->ref, 1, __ATOMIC_ACQ_REL) != 0)
				return;
		}
		free(s);
	}
}

void plain_ref(struct plain *p)
{
	__atomic_add_fetch(&p->ref, 1, __ATOMIC_RELAXED);
}

void plain_unref(struct plain *p)
{
	if (__atomic_sub_fetch(&p->ref, 1, __ATOMIC_ACQ_REL) == 0)
		free(p);
}

/* An unref that undoes a put it should not have made (the old value was
 * already 0 or below) and returns: an increment after the put, but only on
 * the underflow path, never after the last put.  Converts. */
struct undo {
	int ref;
};

void undo_ref(struct undo *u)
{
	__atomic_fetch_add(&u->ref, 1, __ATOMIC_RELAXED);
}

void undo_unref(struct undo *u)
{
	int old;

	old = __atomic_fetch_sub(&u->ref, 1, __ATOMIC_ACQ_REL);

	if (old <= 0) {
		__atomic_fetch_add(&u->ref, 1, __ATOMIC_RELAXED);
		return;
	}
	if (old == 1)
		free(u);
}

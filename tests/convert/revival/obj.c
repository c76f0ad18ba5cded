/* A count revived from 0 by its own release path: the final put
 * increments it again so that a dispose callback may use the object, then
 * puts it again (glib's GSource).  A refcount_t reports that increment as
 * an addition on 0: report-only.  The plain count beside it converts. */
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

/* c2-generated.c - one macro generates T_ref() and T_unref() for several
 * types, over C11 atomics */
#include <stdatomic.h>
#include <stdlib.h>

#include "c2.h"
#include "track.h"

#define DEFINE_REFCOUNTED(T, field, destroy)                                   \
	T *T##_ref(T *o)                                                       \
	{                                                                      \
		atomic_fetch_add_explicit(&o->field, 1, memory_order_relaxed); \
		return o;                                                      \
	}                                                                      \
	void T##_unref(T *o)                                                   \
	{                                                                      \
		if (atomic_fetch_sub_explicit(&o->field, 1,                    \
					      memory_order_acq_rel) == 1)      \
			destroy(o);                                            \
	}

struct apple {
	atomic_uint refcnt;
	int seeds;
};

struct pear {
	char name[8];
	atomic_uint refcnt;
};

static void apple_free(apple *a)
{
	track_gone(a);
	free(a);
}

static void pear_free(pear *p)
{
	track_gone(p);
	free(p);
}

DEFINE_REFCOUNTED(apple, refcnt, apple_free)
DEFINE_REFCOUNTED(pear, refcnt, pear_free)

apple *apple_new(void)
{
	apple *a = malloc(sizeof(*a));

	if (!a)
		return NULL;
	atomic_store(&a->refcnt, 1);
	a->seeds = 5;
	track_born(a);
	return a;
}

pear *pear_new(void)
{
	pear *p = malloc(sizeof(*p));

	if (!p)
		return NULL;
	atomic_store_explicit(&p->refcnt, 1, memory_order_relaxed);
	p->name[0] = 0;
	track_born(p);
	return p;
}

/* Discovery on the compiled code: a one-member atomic type behind inline
 * functions and a macro, a primitive chosen by #if, a same-named plain
 * field in another struct, and a counter of the same shape. */
#include <stdlib.h>

typedef struct { volatile int v; } my_atomic_t;

static inline int my_add(my_atomic_t *a, int i)
{
#if defined(__GNUC__)
	return __atomic_add_fetch(&a->v, i, __ATOMIC_SEQ_CST);
#else
	return a->v += i;
#endif
}
static inline int my_dec(my_atomic_t *a) { return my_add(a, -1); }
static inline void my_inc(my_atomic_t *a) { (void)my_add(a, 1); }
#define OBJ_UNREF(p) (my_dec(&(p)->ref) == 0)

struct obj { my_atomic_t ref; int x; };
struct other { int ref; };
struct pool { my_atomic_t users; };

void obj_get(struct obj *o) { my_inc(&o->ref); }
void obj_put(struct obj *o)
{
	if (OBJ_UNREF(o))
		free(o);
}
int other_get(struct other *t) { return ++t->ref; }
void pool_enter(struct pool *p) { my_inc(&p->users); }

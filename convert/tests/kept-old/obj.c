#include <stdlib.h>
/* dbus: old-value wrappers, the old value kept for a trace and tested
 * later, asserted reads, and creation sites through an allocation
 * function and a cache of objects at 0 */
#define obj_assert(c) ((c) ? (void)0 : abort())
typedef int obj_int32_t;
struct atom { volatile obj_int32_t value; };
struct obj { struct atom refcount; struct obj *next; };
void obj_trace(struct obj *o, int old, int new);
static struct obj *cache;
static void obj_cache_or_free(struct obj *o)
{
	obj_assert(atom_get(&o->refcount) == 0);
	if (cache)
		free(o);
	else
		cache = o;
}
obj_int32_t atom_inc(struct atom *a)
{
#if USE_SYNC
	return __sync_add_and_fetch(&a->value, 1) - 1;
#else
	return a->value++;
#endif
}
obj_int32_t atom_dec(struct atom *a)
{
#if USE_SYNC
	return __sync_sub_and_fetch(&a->value, 1) + 1;
#else
	return a->value--;
#endif
}
obj_int32_t atom_get(struct atom *a)
{
#if USE_SYNC
	__sync_synchronize();
	return a->value;
#else
	return a->value;
#endif
}
static struct obj *obj_cached(void)
{
	struct obj *o;
	if (!cache)
		return NULL;
	o = cache;
	cache = NULL;
	obj_assert(atom_get(&o->refcount) == 0);
	return o;
}
static struct obj *obj_alloc(void)
{
	struct obj *o;
	o = calloc(1, sizeof(*o));
	if (o == NULL)
		return NULL;
	o->next = NULL;
	return o;
}
struct obj *obj_new(void)
{
	struct obj *o;
	o = obj_cached();
	if (o == NULL) {
		o = obj_alloc();
		if (o == NULL)
			return NULL;
	}
	atom_inc(&o->refcount);
	return o;
}
struct obj *obj_new_traced(void)
{
	struct obj *o;
	obj_int32_t old;
	o = calloc(1, sizeof(*o));
	if (!o)
		return NULL;
	old = atom_inc(&o->refcount);
	obj_trace(o, old, old + 1);
	return o;
}
struct obj *obj_ref(struct obj *o)
{
	obj_int32_t old;
	old = atom_inc(&o->refcount);
	obj_assert(old > 0);
	obj_trace(o, old, old + 1);
	return o;
}
void obj_unref(struct obj *o)
{
	obj_int32_t old;
	old = atom_dec(&o->refcount);
	obj_assert(old > 0);
	obj_trace(o, old, old - 1);
	if (old == 1)
		obj_cache_or_free(o);
}
int obj_shared(struct obj *o)
{
	obj_int32_t n;
	n = atom_get(&o->refcount);
	return n > 1;
}

#include <assert.h>
#include <stdlib.h>
/* must stay untouched: an old value kept in a long (the library writes an
 * int), an increment from 0 of a parameter's count (dbus's
 * _dbus_server_init_base, called here with an object that is not fresh),
 * a get that is from 0 on one path only (a pool without an assertion), and
 * a struct-typed counter whose member is stored directly (dbus's
 * subtree->refcount.value = 1 in other versions) */
struct a { int ref; };
struct b { int ref; };
void trace(long old);
void a_get(struct a *o)
{
	long old;
	old = __sync_fetch_and_add(&o->ref, 1);
	trace(old);
}
void a_put(struct a *o)
{
	if (__sync_fetch_and_sub(&o->ref, 1) == 1)
		free(o);
}
void b_init(struct b *o)
{
	int old = __sync_fetch_and_add(&o->ref, 1);
	assert(old == 0);
}
struct b *b_new(void)
{
	struct b *o = calloc(1, sizeof(*o));
	if (o)
		b_init(o);
	return o;
}
void b_reinit(struct b *o)
{
	b_init(o);
}
void b_put(struct b *o)
{
	if (__sync_fetch_and_sub(&o->ref, 1) == 1)
		free(o);
}
struct c { int ref; };
struct c *pool_take(void);
struct c *c_new(void)
{
	struct c *o = pool_take();
	if (!o)
		o = calloc(1, sizeof(*o));
	if (!o)
		return NULL;
	__sync_fetch_and_add(&o->ref, 1);
	return o;
}
void c_put(struct c *o)
{
	if (__sync_fetch_and_sub(&o->ref, 1) == 1)
		free(o);
}
struct atom { volatile int value; };
int atom_dec(struct atom *a)
{
#if USE_SYNC
	return __sync_sub_and_fetch(&a->value, 1) + 1;
#else
	return a->value--;
#endif
}
struct d { struct atom ref; };
struct d *d_new(void)
{
	struct d *o = calloc(1, sizeof(*o));
	if (o)
		o->ref.value = 1;
	return o;
}
void d_put(struct d *o)
{
	if (atom_dec(&o->ref) == 1)
		free(o);
}

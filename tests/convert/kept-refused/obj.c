#include <assert.h>
#include <stdlib.h>
/* must stay untouched: an old value kept in a long (the library writes an
 * int), and an increment from 0 of a parameter's count (dbus's
 * _dbus_server_init_base, called here with an object that is not fresh) */
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

#include <assert.h>
#include <stdlib.h>
/* dbus's _dbus_server_init_base: the first get of a parameter's count, in
 * both branches of an #if, the old value asserted 0; every caller passes a
 * member of a freshly zeroed object */
struct base { int ref; int x; };
struct sub { int y; struct base base; };
int init_base(struct base *o, int x)
{
	o->x = x;
#ifdef NDEBUG
	__sync_fetch_and_add(&o->ref, 1);
#else
	{
		int old = __sync_fetch_and_add(&o->ref, 1);
		assert(old == 0);
	}
#endif
	return 1;
}
struct sub *sub_new(void)
{
	struct sub *s;
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return NULL;
	if (!init_base(&s->base, 3))
		return NULL;
	return s;
}
void base_get(struct base *o)
{
	__sync_fetch_and_add(&o->ref, 1);
}
void base_put(struct base *o)
{
	if (__sync_fetch_and_sub(&o->ref, 1) == 1)
		free(o);
}

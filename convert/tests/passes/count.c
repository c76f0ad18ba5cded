#include "count.h"
void seen_get(struct seen *s)
{
	__sync_add_and_fetch(&s->ref, 1);
}
void seen_put(struct seen *s)
{
	if (__sync_sub_and_fetch(&s->ref, 1) == 0)
		free(s);
}
struct made *made_new(void)
{
	struct made *m = made_alloc(0);
	if (m == NULL)
		return NULL;
	__sync_add_and_fetch(&m->refs, 1);
	return m;
}
void made_put(struct made *m)
{
	if (__sync_sub_and_fetch(&m->refs, 1) == 0)
		free(m);
}
void rel_get(struct rel *r)
{
	__sync_add_and_fetch(&r->users, 1);
}
void fresh_init(struct fresh *f)
{
	__sync_add_and_fetch(&f->count, 1);
}
struct fresh *fresh_new(void)
{
	struct fresh *f = calloc(1, sizeof(*f));
	if (f == NULL)
		return NULL;
	fresh_init(f);
	return f;
}
void fresh_put(struct fresh *f)
{
	if (__sync_sub_and_fetch(&f->count, 1) == 0)
		free(f);
}
void hooked_init(struct hooked *h)
{
	__sync_add_and_fetch(&h->holds, 1);
}
struct hooked *hooked_new(void)
{
	struct hooked *h = calloc(1, sizeof(*h));
	if (h == NULL)
		return NULL;
	hooked_init(h);
	return h;
}
void hooked_put(struct hooked *h)
{
	if (__sync_sub_and_fetch(&h->holds, 1) == 0)
		free(h);
}
void shared_init(struct shared *s)
{
	__sync_add_and_fetch(&s->pins, 1);
}
struct shared *shared_new(void)
{
	struct shared *s = calloc(1, sizeof(*s));
	if (s == NULL)
		return NULL;
	shared_init(s);
	return s;
}
void shared_put(struct shared *s)
{
	if (__sync_sub_and_fetch(&s->pins, 1) == 0)
		free(s);
}
void slot_get(struct slot *s)
{
	__sync_add_and_fetch(&s->uses, 1);
}
void slot_put(struct slot *s)
{
	if (__sync_sub_and_fetch(&s->uses, 1) == 0)
		free(s);
}

/* c1-vtable.c - GLib-like inline helpers defined here (a void increment, a
 * dec-and-test); the release is the class's finalize, through a vtable */
#include <stdlib.h>

#include "c1.h"
#include "track.h"

static inline void lk_atomic_int_inc(volatile int *atomic)
{
	(void)__atomic_add_fetch(atomic, 1, __ATOMIC_SEQ_CST);
}

static inline int lk_atomic_int_dec_and_test(volatile int *atomic)
{
	return __atomic_sub_fetch(atomic, 1, __ATOMIC_SEQ_CST) == 0;
}

struct sprite_class {
	void (*finalize)(struct sprite *s);
};

struct sprite {
	const struct sprite_class *klass;
	volatile int ref_count;
};

static void sprite_finalize(struct sprite *s)
{
	track_gone(s);
	free(s);
}

static const struct sprite_class sprite_class = { sprite_finalize };

struct sprite *sprite_new(void)
{
	struct sprite *s = malloc(sizeof(*s));

	if (!s)
		return NULL;
	s->klass = &sprite_class;
	s->ref_count = 1;
	track_born(s);
	return s;
}

void sprite_ref(struct sprite *s)
{
	lk_atomic_int_inc(&s->ref_count);
}

void sprite_unref(struct sprite *s)
{
	if (lk_atomic_int_dec_and_test(&s->ref_count))
		s->klass->finalize(s);
}

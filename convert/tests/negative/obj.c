#include <stdlib.h>
#include <stdint.h>
/* must stay untouched: pixman's plain ++/--, a statistics counter, a
 * reader count compared with a threshold */
struct image { int32_t ref_count; };
struct stats { long hits; int pending; int readers; int limit; };
void image_ref(struct image *i) { i->ref_count++; }
int image_unref(struct image *i)
{
	if (--i->ref_count == 0) {
		free(i);
		return 1;
	}
	return 0;
}
void hit(struct stats *s) { __atomic_add_fetch(&s->hits, 1, __ATOMIC_RELAXED); }
int done(struct stats *s) { return __atomic_sub_fetch(&s->pending, 1, __ATOMIC_RELAXED) == 0; }
void reader_exit(struct stats *s)
{
	if (__atomic_sub_fetch(&s->readers, 1, __ATOMIC_RELAXED) == 0)
		wake(s);
	if (s->readers > s->limit)
		throttle(s);
}

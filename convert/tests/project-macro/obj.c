#include <stdlib.h>
/* a project macro over a project wrapper (libgit2: GIT_INLINE, git_atomic32_dec, GIT_REFCOUNT_DEC) */
#define GIT_INLINE(type) static inline type
typedef struct { volatile int val; } git_atomic32;
GIT_INLINE(int) git_atomic32_dec(git_atomic32 *a)
{
	return __atomic_sub_fetch(&a->val, 1, __ATOMIC_SEQ_CST);
}
GIT_INLINE(int) git_atomic32_inc(git_atomic32 *a)
{
	return __atomic_add_fetch(&a->val, 1, __ATOMIC_SEQ_CST);
}
typedef struct { git_atomic32 refcount; void *owner; } git_refcount;
#define GIT_REFCOUNT_INC(r) git_atomic32_inc(&((git_refcount *)(r))->refcount)
#define GIT_REFCOUNT_DEC(_r, do_free) do { \
	git_refcount *r = (git_refcount *)(_r); \
	if (git_atomic32_dec(&r->refcount) <= 0 && r->owner == NULL) \
		do_free(_r); \
} while (0)
struct cfg { git_refcount rc; int x; };
void cfg_free(struct cfg *c) { free(c); }
void cfg_get(struct cfg *c) { GIT_REFCOUNT_INC(c); }
void cfg_put(struct cfg *c) { GIT_REFCOUNT_DEC(c, cfg_free); }

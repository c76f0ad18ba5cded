#include <stdlib.h>
/* a project macro over a project wrapper (libgit2 GIT_INLINE, git_atomic32_dec) */
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
struct cfg { int refcount; };
void cfg_get(struct cfg *c) { __atomic_add_fetch(&c->refcount, 1, __ATOMIC_SEQ_CST); }
void cfg_put(struct cfg *c)
{
	if (__atomic_sub_fetch(&c->refcount, 1, __ATOMIC_SEQ_CST) <= 0)
		cfg_free(c);
}

/* kernel-like names (libdrm xf86atomic.h) */
struct bo { atomic_t refcnt; };
void bo_ref(struct bo *b) { atomic_inc(&b->refcnt); }
void bo_del(struct bo *b)
{
	if (!atomic_dec_and_test(&b->refcnt))
		return;
	bo_free(b);
}

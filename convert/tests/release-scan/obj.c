#include <stdlib.h>
/* The final put's release is found on any line of its function: a member
 * freed first, then the object (tree); a release through the object's own
 * vtable callback (conn).  A count with a negative sentinel, -1 for static
 * "immortal" instances, stays report-only (desc).  Two differently named
 * structs with a same-named field are two fields (node, leaf). */
struct tree { int refs; struct tree **kids; };
struct conn_ops { void (*finalize)(void *); };
struct conn { const struct conn_ops *vtable; int refs; };
struct desc { int refs; const char *name; };
struct node { int users; };
struct leaf { int users; };
void tree_get(struct tree *t) { __atomic_add_fetch(&t->refs, 1, __ATOMIC_RELAXED); }
void tree_put(struct tree *t)
{
	if (__atomic_sub_fetch(&t->refs, 1, __ATOMIC_ACQ_REL) == 0) {
		free(t->kids);
		free(t);
	}
}
void conn_get(struct conn *c) { __atomic_add_fetch(&c->refs, 1, __ATOMIC_RELAXED); }
void conn_put(struct conn *c)
{
	if (__atomic_sub_fetch(&c->refs, 1, __ATOMIC_ACQ_REL) == 0)
		(*c->vtable->finalize)(c);
}
static struct desc builtin = { -1, "builtin" };
void desc_get(struct desc *d)
{
	if (d->refs == -1)
		return;
	__atomic_add_fetch(&d->refs, 1, __ATOMIC_RELAXED);
}
void desc_put(struct desc *d)
{
	if (__atomic_load_n(&d->refs, __ATOMIC_RELAXED) == -1)
		return;
	if (__atomic_sub_fetch(&d->refs, 1, __ATOMIC_ACQ_REL) == 0) {
		free((void *)d->name);
		free(d);
	}
}
void node_get(struct node *n) { __atomic_add_fetch(&n->users, 1, __ATOMIC_RELAXED); }
void node_put(struct node *n)
{
	if (__atomic_sub_fetch(&n->users, 1, __ATOMIC_ACQ_REL) == 0)
		free(n);
}
void leaf_get(struct leaf *l) { __atomic_add_fetch(&l->users, 1, __ATOMIC_RELAXED); }
void leaf_put(struct leaf *l)
{
	if (__atomic_sub_fetch(&l->users, 1, __ATOMIC_ACQ_REL) == 0)
		free(l);
}

/* A project's own refcount abstraction: a one-member atomic struct behind
 * inline functions, and a macro family declaring and operating the count
 * (the put gives the new value).  A pool of workers shares the family as a counter: idle at
 * 0, its first get tested for (0 -> 1 -> 0 in normal use). */
#include <stdlib.h>

typedef struct my_atomic { volatile int v; } my_atomic_t;

static inline int my_atomic_get(const my_atomic_t *a) { return __atomic_load_n(&a->v, __ATOMIC_SEQ_CST); }
static inline void my_atomic_put(my_atomic_t *a, int i) { __atomic_store_n(&a->v, i, __ATOMIC_SEQ_CST); }
static inline int my_atomic_add(my_atomic_t *a, int i) { return __atomic_fetch_add(&a->v, i, __ATOMIC_SEQ_CST); }
static inline int my_atomic_sub(my_atomic_t *a, int i) { return my_atomic_add(a, -i); }
static inline int my_atomic_inc(my_atomic_t *a) { return my_atomic_add(a, 1); }
static inline int my_atomic_dec(my_atomic_t *a) { return my_atomic_sub(a, 1); }

#define OBJ_REF_FIELD my_atomic_t refs
#define OBJ_REF_COUNT(o) my_atomic_get(&(o)->refs)
#define OBJ_REF_START(o) my_atomic_put(&(o)->refs, 1)
#define OBJ_REF_GET(o) my_atomic_inc(&(o)->refs)
#define OBJ_REF_PUT(o) (my_atomic_dec(&(o)->refs) - 1)

struct node {
	OBJ_REF_FIELD;
	int payload;
};

struct graph {
	int flags;
	OBJ_REF_FIELD;
	struct node *root;
};

struct node *node_new(void)
{
	struct node *n = calloc(1, sizeof(*n));
	if (n)
		OBJ_REF_START(n);
	return n;
}

struct node *node_ref(struct node *n)
{
	OBJ_REF_GET(n);
	return n;
}

void node_unref(struct node *n)
{
	if (OBJ_REF_PUT(n) > 0)
		return;
	free(n);
}

int node_shared(struct node *n)
{
	return OBJ_REF_COUNT(n) > 1;
}

struct graph *graph_new(void)
{
	struct graph *g = calloc(1, sizeof(*g));
	if (g)
		OBJ_REF_START(g);
	return g;
}

void graph_unref(struct graph *g)
{
	if (OBJ_REF_PUT(g) <= 0) {
		node_unref(g->root);
		free(g);
	}
}

void graph_ref(struct graph *g)
{
	OBJ_REF_GET(g);
}

struct pool {
	OBJ_REF_FIELD; /* busy workers */
	int wake;
};

void pool_enter(struct pool *p)
{
	if (OBJ_REF_GET(p) == 0)
		p->wake = 1;
}

void pool_leave(struct pool *p)
{
	if (OBJ_REF_PUT(p) == 0)
		free(p);
}

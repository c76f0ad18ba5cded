/* A project's own refcount family (converted where it is defined) and, in
 * another struct, a count of the same member name used through the GCC
 * builtins (converted at its call sites).  Which fields the family covers
 * goes by Struct.field: the other struct's count is not the family's. */
#include <stdlib.h>

typedef struct my_atomic { volatile int v; } my_atomic_t;

static inline int my_atomic_get(const my_atomic_t *a) { return __atomic_load_n(&a->v, __ATOMIC_SEQ_CST); }
static inline void my_atomic_put(my_atomic_t *a, int i) { __atomic_store_n(&a->v, i, __ATOMIC_SEQ_CST); }
static inline int my_atomic_add(my_atomic_t *a, int i) { return __atomic_fetch_add(&a->v, i, __ATOMIC_SEQ_CST); }
static inline int my_atomic_sub(my_atomic_t *a, int i) { return my_atomic_add(a, -i); }
static inline int my_atomic_inc(my_atomic_t *a) { return my_atomic_add(a, 1); }
static inline int my_atomic_dec(my_atomic_t *a) { return my_atomic_sub(a, 1); }

#define OBJ_REF_FIELD my_atomic_t refs
#define OBJ_REF_START(o) my_atomic_put(&(o)->refs, 1)
#define OBJ_REF_GET(o) my_atomic_inc(&(o)->refs)
#define OBJ_REF_PUT(o) (my_atomic_dec(&(o)->refs) - 1)

struct node {
	OBJ_REF_FIELD;
	int payload;
};

struct node *node_new(void)
{
	struct node *n = calloc(1, sizeof(*n));
	if (n)
		OBJ_REF_START(n);
	return n;
}

void node_ref(struct node *n)
{
	OBJ_REF_GET(n);
}

void node_unref(struct node *n)
{
	if (OBJ_REF_PUT(n) > 0)
		return;
	free(n);
}

/* the same member name, not the family's */
struct blob {
	int refs;
	char *data;
};

struct blob *blob_new(void)
{
	struct blob *b = calloc(1, sizeof(*b));
	if (b)
		b->refs = 1;
	return b;
}

void blob_ref(struct blob *b)
{
	__atomic_add_fetch(&b->refs, 1, __ATOMIC_SEQ_CST);
}

void blob_unref(struct blob *b)
{
	if (__atomic_sub_fetch(&b->refs, 1, __ATOMIC_ACQ_REL) == 0) {
		free(b->data);
		free(b);
	}
}

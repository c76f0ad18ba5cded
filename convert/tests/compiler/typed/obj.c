/* A project's typedef'd count behind its own functions, on a primitive a
 * generated header token-pastes, shared by a count created at 1 (converted
 * at its call sites), a count created at 0 and then taken, and a counter
 * idle at 0 (both report-only).  The count's type has a mutex member in
 * builds without atomics. */
#include <stdlib.h>
#include <pthread.h>
#include "gen.h"

typedef struct {
	int n;
#if !HAVE_ATOMICS
	pthread_mutex_t m;
#endif
} xa_t;

static inline void xa_init(xa_t *a, int v)
{
	a->n = v;
#if !HAVE_ATOMICS
	pthread_mutex_init(&a->m, NULL);
#endif
}
static inline int xa_add(xa_t *a, int v) { return MY_OP(add, fetch, &a->n, v); }
static inline int xa_sub(xa_t *a, int v) { return MY_OP(sub, fetch, &a->n, v); }
static inline int xa_get(xa_t *a) { return MY_OP(fetch, add, &a->n, 0); }

typedef xa_t ref_t;
#define ref_init(R, v) xa_init(R, v)
#define ref_get(R) xa_add(R, 1)
#define ref_count(R) xa_get(R)
static inline int ref_put0(ref_t *R)
{
	int r = xa_sub(R, 1);

	if (r < 0)
		abort();
	return r;
}
#define ref_put(R) ref_put0(R)
#define ref_fini(R) do { } while (0)
#define ref_put_release(R, RELEASE)                                            \
	do {                                                                   \
		if (ref_put(R) > 0)                                            \
			break;                                                 \
		RELEASE;                                                       \
	} while (0)

struct page { ref_t refs; char *data; };
struct session { ref_t refs; int id; };
struct pool { ref_t users; int size; };
struct blob { ref_t hold; char *bytes; };

void blob_free(struct blob *b);
#define blob_get(b) ref_get(&(b)->hold)
#define blob_put(b) ref_put_release(&(b)->hold, blob_free(b))

struct page *page_new(void)
{
	struct page *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	ref_init(&p->refs, 1);
	return p;
}

void page_get(struct page *p)
{
	ref_get(&p->refs);
}

void page_put(struct page *p)
{
	if (ref_put(&p->refs) > 0)
		return;
	ref_fini(&p->refs);
	free(p->data);
	free(p);
}

struct session *session_new(int id)
{
	struct session *s = calloc(1, sizeof(*s));

	ref_init(&s->refs, 0);
	s->id = id;
	return s;
}

void session_keep(struct session *s)
{
	ref_get(&s->refs);
}

void session_drop(struct session *s)
{
	if (ref_put(&s->refs) == 0)
		free(s);
}

void pool_enter(struct pool *p)
{
	if (ref_get(&p->users) == 1)
		p->size++;
}

void pool_leave(struct pool *p)
{
	if (ref_put(&p->users) == 0)
		free(p);
}

void blob_free(struct blob *b)
{
	free(b->bytes);
	free(b);
}

struct blob *blob_new(void)
{
	struct blob *b = calloc(1, sizeof(*b));

	if (b)
		ref_init(&b->hold, 1);
	return b;
}

void blob_share(struct blob *b, struct blob **to)
{
	blob_get(b);
	*to = b;
}

void blob_drop(struct blob *b)
{
	blob_put(b);
}

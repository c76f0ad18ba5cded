/* A count type with an owner beside the count: while an owner holds the
 * object, 0 is a live state (the owner frees it when it lets go).  Found,
 * never converted. */
#include <stdatomic.h>
#include <stdlib.h>

typedef struct {
	atomic_int value;
	void *holder;
} ref_t;

#define REF_INIT(x, n) atomic_init(&(x)->value, (n))
#define REF_GET(x) atomic_fetch_add(&(x)->value, 1)
#define REF_PUT(x) atomic_fetch_sub(&(x)->value, 1)

struct item {
	ref_t ref;
	int key;
};

struct item *item_new(int key)
{
	struct item *it = malloc(sizeof(*it));

	if (!it)
		return NULL;
	it->key = key;
	REF_INIT(&it->ref, 1);
	it->ref.holder = NULL;
	return it;
}

void item_get(struct item *it)
{
	REF_GET(&it->ref);
}

void item_put(struct item *it)
{
	if (REF_PUT(&it->ref) == 1 && it->ref.holder == NULL)
		free(it);
}

/* test-c10-owner.c - a blob's life (src/c10-owner.c), unowned and then
 * owned by a store, where it lives on at 0 and is found again */
#include "c10.h"
#include "check.h"

static void get(void *o)
{
	blob_ref(o);
}

static void put(void *o)
{
	blob_unref(o);
}

static void find(void *o)
{
	CHECK(store_find(o) != NULL);
}

static void drop(void *o)
{
	struct store *st = o;
	struct blob *b = store_find(st);

	blob_unref(b);
	blob_unref(b);
}

int main(void)
{
	struct store *st;
	struct blob *b;
	int i;

	if (lifecycle("c10-owner unowned", blob_new(), get, put))
		return 1;
	st = store_new();
	CHECK(st);
	b = blob_new();
	CHECK(b);
	store_add(st, b);
	blob_unref(b); /* 0, owned: alive */
	CHECK(track_alive(b));
	for (i = 0; i < 3; i++) {
		CHECK(store_find(st) == b); /* from 0 */
		blob_ref(b);
		blob_unref(b);
		blob_unref(b);
		CHECK(track_alive(b));
	}
	CHECK(store_find(st) == b);
	hammer(st, find, drop);
	blob_unref(b);
	CHECK(track_alive(b));
	store_destroy(st);
	CHECK(!track_alive(b));
	return done("c10-owner");
}

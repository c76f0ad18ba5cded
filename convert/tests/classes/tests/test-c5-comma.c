/* test-c5-comma.c - the whole life of each object of src/c5-comma.c */
#include "c5.h"
#include "check.h"

static void get_shelf(void *o)
{
	shelf_ref(o);
}

static void put_shelf(void *o)
{
	shelf_unref(o);
}

static void get_book(void *o)
{
	book_ref(o);
}

static void put_book(void *o)
{
	book_unref(o);
}

int main(void)
{
	return lifecycle("c5-comma shelf", shelf_new(), get_shelf, put_shelf) ||
	       lifecycle_serial("c5-comma book", book_new(), get_book,
				put_book);
}

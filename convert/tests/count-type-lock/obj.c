/* Not a count type: a read-write lock whose macros count its readers and
 * writers through its pointer, beside the lock itself.  The struct holds
 * more than a count (and an owner), so it is an object of its own: no
 * family is found, and its counters are not candidates. */
#include <stdlib.h>

typedef struct rw {
	int lock;
	long readers;
	long writers;
} rw_t;

#define RW_RDLOCK(l) __sync_fetch_and_add(&(l)->readers, 1)
#define RW_RDUNLOCK(l) (__sync_sub_and_fetch(&(l)->readers, 1) == 0)
#define RW_WRLOCK(l) __sync_fetch_and_add(&(l)->writers, 1)

struct table {
	rw_t rwl;
	void *rows;
};

void release_writers(struct table *t);

void table_read_done(struct table *t)
{
	if (RW_RDUNLOCK(&t->rwl))
		release_writers(t);
}

void table_read(struct table *t)
{
	RW_RDLOCK(&t->rwl);
}

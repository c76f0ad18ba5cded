/* Counts whose uses are spread over several files: each spatch pass must
 * read the files where what it looks for is (convert/tests/check-passes.py). */
#include <stdlib.h>
/* a threshold test in look.c, spelled `s->` comment, line break, `ref` */
struct seen { int ref; int limit; };
/* created from made_alloc(), defined K&R style in alloc.c */
struct made { int refs; };
/* put through a macro; its release in put.c, which names no count: a
 * member's, then the object's (the check's own scan finds the object's,
 * only the fields pass records the member's) */
struct rel { int users; char *name; };
#define REL_PUT(r) __sync_sub_and_fetch(&(r)->users, 1)
/* first get in fresh_init(), every call passes a fresh object */
struct fresh { int count; };
/* first get in hooked_init(), whose address caller.c takes */
struct hooked { int holds; };
/* first get in shared_init(), which caller.c calls on an object it did not make */
struct shared { int pins; };
/* set to 0 in pool.c, on an array element */
struct slot { int uses; };
struct made *made_alloc();
void fresh_init(struct fresh *f);
void hooked_init(struct hooked *h);
void shared_init(struct shared *s);

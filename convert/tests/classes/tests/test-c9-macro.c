/* test-c9-macro.c - a watch's users (src/c9-macro.c) come and go, from 0 and back to 0,
 * several times; the watch lives on until watch_destroy() */
#include "c9.h"
#include "check.h"

static void on(void *o)
{
	CHECK(watch_use(o) == 0);
}

static void off(void *o)
{
	watch_unuse(o);
}

int main(void)
{
	struct watch *x = watch_new();
	unsigned int i;

	CHECK(x);
	for (i = 1; i <= 3; i++) {
		on(x);
		CHECK(watch_starts(x) == i && watch_stops(x) == i - 1);
		on(x);
		off(x);
		CHECK(watch_stops(x) == i - 1);
		off(x);
		CHECK(watch_starts(x) == i && watch_stops(x) == i &&
		      track_alive(x));
	}
	on(x);
	hammer(x, on, off);
	off(x);
	CHECK(watch_starts(x) == 4 && watch_stops(x) == 4);
	watch_destroy(x);
	return done("c9-macro");
}

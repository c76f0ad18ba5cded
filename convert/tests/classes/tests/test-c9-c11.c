/* test-c9-c11.c - a monitor's users (src/c9-c11.c) come and go, from 0 and back to 0,
 * several times; the monitor lives on until monitor_destroy() */
#include "c9.h"
#include "check.h"

static void on(void *o)
{
	CHECK(monitor_listen(o) == 0);
}

static void off(void *o)
{
	monitor_unlisten(o);
}

int main(void)
{
	struct monitor *x = monitor_new();
	unsigned int i;

	CHECK(x);
	for (i = 1; i <= 3; i++) {
		on(x);
		CHECK(monitor_starts(x) == i && monitor_stops(x) == i - 1);
		on(x);
		off(x);
		CHECK(monitor_stops(x) == i - 1);
		off(x);
		CHECK(monitor_starts(x) == i && monitor_stops(x) == i &&
		      track_alive(x));
	}
	on(x);
	hammer(x, on, off);
	off(x);
	CHECK(monitor_starts(x) == 4 && monitor_stops(x) == 4);
	monitor_destroy(x);
	return done("c9-c11");
}

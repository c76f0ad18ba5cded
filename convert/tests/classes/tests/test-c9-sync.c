/* test-c9-sync.c - a channel's users (src/c9-sync.c) come and go, from 0 and back to 0,
 * several times; the channel lives on until channel_free() */
#include "c9.h"
#include "check.h"

static void on(void *o)
{
	CHECK(channel_subscribe(o) == 0);
}

static void off(void *o)
{
	channel_unsubscribe(o);
}

int main(void)
{
	struct channel *x = channel_new();
	unsigned int i;

	CHECK(x);
	for (i = 1; i <= 3; i++) {
		on(x);
		CHECK(channel_starts(x) == i && channel_stops(x) == i - 1);
		on(x);
		off(x);
		CHECK(channel_stops(x) == i - 1);
		off(x);
		CHECK(channel_starts(x) == i && channel_stops(x) == i &&
		      track_alive(x));
	}
	on(x);
	hammer(x, on, off);
	off(x);
	CHECK(channel_starts(x) == 4 && channel_stops(x) == 4);
	channel_free(x);
	return done("c9-sync");
}

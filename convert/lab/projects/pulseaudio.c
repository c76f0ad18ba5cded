/*
 * pulseaudio's client library through its public API, for check-convert:
 * `misuse` takes 2^32 references on one context (the count wraps to a
 * negative value, or saturates); `cost N` times N get/put pairs on a
 * context (creating one reads the client configuration, which would be
 * most of the time).  Built against the original and the converted
 * libpulse; no server is needed (the context is never connected).
 */
#include <pulse/context.h>
#include <pulse/mainloop.h>
#include <string.h>

#include "cost.h"

int main(int argc, char **argv)
{
	pa_mainloop *m = pa_mainloop_new();
	pa_context *c = pa_context_new(pa_mainloop_get_api(m), "check-convert");

	if (!c)
		return 1;
	if (argc > 1 && !strcmp(argv[1], "misuse")) {
		MISUSE_GETS_2_32(pa_context_ref(c));
		printf("not freed\n");
		return 0;
	}
	COST_LOOP(argc > 2 ? atol(argv[2]) : 1000000, i, {
		pa_context_ref(c);
		pa_context_unref(c);
	});
	pa_context_unref(c);
	pa_mainloop_free(m);
	return 0;
}

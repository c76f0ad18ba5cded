/*
 * libdbus through its public API, for check-convert: `misuse` unrefs a
 * message twice; `cost N` times N create/ref/unref/unref of a method call.
 * Built against the original and the converted libdbus.
 *
 * The misuse's message is bigger than libdbus's message cache takes (10
 * KiB), so its last unref finalizes it, and this program's free() keeps
 * the memory meanwhile (as jansson.c's allocator does): the second unref
 * then meets the count itself, at 0, not reused memory.  A cached message
 * would be caught by libdbus's own check of in_cache first, whatever the
 * count.
 */
#define _GNU_SOURCE
#include <dbus/dbus.h>
#include <dlfcn.h>
#include <string.h>

#include "cost.h"

static void (*real_free)(void *);
static int keeping, kept;

void free(void *p)
{
	if (keeping)
		kept += p != NULL;
	else if (real_free)
		real_free(p);
}

static DBusMessage *call(void)
{
	return dbus_message_new_method_call("org.example.Service", "/org/example/Object",
					    "org.example.Interface", "Method");
}

int main(int argc, char **argv)
{
	real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
	if (argc > 1 && !strcmp(argv[1], "misuse")) {
		static char big[16384];
		const char *arg = big;
		DBusMessage *m = call();

		memset(big, 'x', sizeof(big) - 1);
		if (!m || !dbus_message_append_args(m, DBUS_TYPE_STRING, &arg,
						    DBUS_TYPE_INVALID))
			return 2;
		keeping = 1;
		dbus_message_unref(m);
		int after_last = kept;
		dbus_message_unref(m); /* once too often */
		keeping = 0;
		printf("returned, %d frees at the last unref, %d at the second\n",
		       after_last, kept - after_last);
		return 0;
	}
	COST_LOOP(argc > 2 ? atol(argv[2]) : 200000, i, {
		DBusMessage *m = call();
		dbus_message_ref(m);
		dbus_message_unref(m);
		dbus_message_unref(m);
	});
	return 0;
}

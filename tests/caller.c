// SPDX-License-Identifier: MIT
/*
 * tests/caller.c - a report names the user's call site, at every -O level
 *
 * Built by tests/caller.sh with gcc and clang at -O0, -O1, -O2, -O3 and -Os,
 * once per breed, linked with -rdynamic.  Each misuse is in a function of
 * its own (a "site"); a report handler of the richer form checks that the
 * reported caller is in that site, not in a frame of the library's headers,
 * and prints "site LINE caller MODULE+OFFSET" for the script to look up
 * with addr2line.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <refcount/kref.h>

static const char *site;
static int line, reports, wrong;

static void handler(const struct refcount_report *rep)
{
	struct refcount_report printable = *rep;
	const char *sym = "-", *mod;
	char text[1024];
	Dl_info info;

	reports++;
	/* gcc's hot/cold splitting can leave the call in an unexported
	 * site.cold part: no symbol then, but never another function's. */
	if (dladdr(rep->caller, &info) && info.dli_sname) {
		sym = info.dli_sname;
		if (strcmp(sym, site)) {
			printf("WRONG %s: the report names %s\n", site, sym);
			wrong++;
		}
	}
	/* "... (refcount_t 0x..., caller [symbol+0x1c (]module+0xoff[)], ..." */
	printable.message = "refcount_t: x.";
	refcount_report_format(&printable, text, sizeof(text));
	mod = strstr(text, "caller ");
	if (!mod) {
		printf("WRONG %s: no caller in \"%s\"\n", site, text);
		wrong++;
		return;
	}
	mod += strlen("caller ");
	if (strstr(mod, " ("))
		mod = strstr(mod, " (") + 2;
	printf("site %s %d at %.*s sym %s\n", site, line,
	       (int)strcspn(mod, "),"), mod, sym);
}

static void release(struct kref *k)
{
	(void)k;
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

#define SITE(name, setup, stmt)                                                \
	__attribute__((noinline)) void name(refcount_t *r);                    \
	__attribute__((noinline)) void name(refcount_t *r)                     \
	{                                                                      \
		site = #name;                                                  \
		refcount_set(r, (int)(setup));                                 \
		line = __LINE__, stmt;                                         \
	}

SITE(site_inc_on_0, 0, refcount_inc(r))
SITE(site_add_on_0, 0, refcount_add(2, r))
SITE(site_dec_and_test_on_0, 0, (void)!refcount_dec_and_test(r))
SITE(site_dec_to_0, 1, refcount_dec(r))
SITE(site_inc_at_max, REFCOUNT_MAX, refcount_inc(r))
SITE(site_inc_not_zero_at_max, REFCOUNT_MAX, (void)!refcount_inc_not_zero(r))
SITE(site_dec_not_one_on_0, 0, (void)!refcount_dec_not_one(r))
#define PUT_MUTEX(r) (void)!kref_put_mutex((struct kref *)(r), release, &lock)
SITE(site_kref_put_mutex_on_0, 0, PUT_MUTEX(r))

/*
 * The same misuses one after the other in one function, as user code has
 * them: each report must name this function, and (with gcc) its own line.
 * Separate counters, so that each misuse starts from its own value.
 */
#define STEP(setup, stmt)                                                      \
	refcount_set(&c[n], (int)(setup));                                     \
	line = __LINE__, stmt;                                                 \
	n++
__attribute__((noinline)) void site_many(refcount_t *c);
__attribute__((noinline)) void site_many(refcount_t *c)
{
	int n = 0;

	site = "site_many";
	STEP(0, refcount_inc(&c[n]));
	STEP(0, refcount_add(2, &c[n]));
	STEP(0, (void)!refcount_dec_and_test(&c[n]));
	STEP(1, refcount_dec(&c[n]));
	STEP(REFCOUNT_MAX, refcount_inc(&c[n]));
	STEP(REFCOUNT_MAX, (void)!refcount_inc_not_zero(&c[n]));
	STEP(0, (void)!refcount_dec_not_one(&c[n]));
}

int main(void)
{
	static void (*const sites[])(refcount_t *) = {
		site_inc_on_0,		site_add_on_0,
		site_dec_and_test_on_0, site_dec_to_0,
		site_inc_at_max,	site_inc_not_zero_at_max,
		site_dec_not_one_on_0,	site_kref_put_mutex_on_0,
	};
	refcount_t r;

	refcount_set_report_handler(handler);
	refcount_t many[8];

	for (unsigned int i = 0; i < sizeof(sites) / sizeof(sites[0]); i++)
		sites[i](&r);
	site_many(many);
	printf("breed %s: %d reports, %d wrong\n", REFCOUNT_BREED_NAME, reports,
	       wrong);
	return wrong || reports < 2;
}

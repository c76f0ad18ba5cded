// SPDX-License-Identifier: MIT
/*
 * tests/mixed.c - all four breeds in one program
 *
 * Links tests/mixed-unit.c compiled once per breed, with the library (the
 * static archive for mixed-static, the shared object for mixed-shared).
 * That it links at all shows that the breeds' symbols do not clash; the
 * tests show that each unit behaves as its own breed in the same process:
 * every LKDTM scenario gives that breed's column of tests/lkdtm-table.h.
 */
#include <criterion/criterion.h>

#include "helpers.h"
#include "mixed.h"

#define RUN(b, NAME, ...) [B_##NAME] = mixed_lkdtm_##b,
#define BNAME(b, NAME, ...) [B_##NAME] = mixed_breed_name_##b,
#define KREF(b, NAME, ...) [B_##NAME] = mixed_kref_##b,

static void (*const run[NR_BREEDS])(enum lkdtm_id, refcount_t *,
				    struct lkdtm_result *) = {
	REFCOUNT_FOR_EACH_BREED(RUN)
};

static const char *(*const name[NR_BREEDS])(void) = {
	REFCOUNT_FOR_EACH_BREED(BNAME)
};

static int (*const kref[NR_BREEDS])(void) = { REFCOUNT_FOR_EACH_BREED(KREF) };

Test(mixed, names)
{
	for (int b = 0; b < NR_BREEDS; b++)
		cr_assert_str_eq(name[b](), breed_names[b]);
}

/* Interleaved: each scenario in each breed, in turn, in one process. */
Test(mixed, lkdtm_every_breed, .init = quiet_install)
{
	for (int id = 0; id < NR_LKDTM; id++) {
		for (int b = 0; b < NR_BREEDS; b++) {
			struct report_counts before;
			struct lkdtm_result res;
			refcount_t r;
			const char *bad;

			report_counts_snap(&before);
			run[b](id, &r, &res);
			bad = lkdtm_mismatch(id, b, &res, &before);
			cr_assert_null(bad, "%s", bad);
		}
	}
}

Test(mixed, kref_every_breed)
{
	for (int b = 0; b < NR_BREEDS; b++)
		cr_assert_eq(kref[b](), 2, "%s: kref_put_mutex/_lock",
			     breed_names[b]);
}

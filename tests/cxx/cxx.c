// SPDX-License-Identifier: MIT
/*
 * tests/cxx/cxx.c - C and C++ units of one program agree, in every breed
 *
 * Links tests/cxx/ops.h compiled as C (ops_*_c_<breed>) and as C++17
 * (ops_*_cxx_<breed>).  For every operation at every boundary value, the two
 * must leave the same value, return the same result and raise the same
 * reports; and a counter handed back and forth between the C and the C++
 * unit must behave as one counter.
 */
#include <criterion/criterion.h>
#include <limits.h>

#include <refcount/breed/registry.h>

#include "../helpers.h"
#include "ops.h"

#define DECLARE(b, ...)                                                        \
	int ops_apply_c_##b(int op, refcount_t *r, int i);                     \
	int ops_apply_cxx_##b(int op, refcount_t *r, int i);                   \
	int ops_releases_c_##b(void);                                          \
	int ops_releases_cxx_##b(void);                                        \
	const char *ops_breed_c_##b(void);                                     \
	const char *ops_breed_cxx_##b(void);
REFCOUNT_FOR_EACH_BREED(DECLARE)

struct unit {
	int (*apply)(int op, refcount_t *r, int i);
	int (*releases)(void);
	const char *(*breed)(void);
};

#define UNITS(b, NAME, ...)                                                    \
	[B_##NAME] = {                                                         \
		{ ops_apply_c_##b, ops_releases_c_##b, ops_breed_c_##b },      \
		{ ops_apply_cxx_##b, ops_releases_cxx_##b, ops_breed_cxx_##b } \
	},
static const struct unit units[NR_BREEDS][2] = { REFCOUNT_FOR_EACH_BREED(
	UNITS) };

#define F_MAX(name, NAME, id, max, saturated) [B_##NAME] = (int)(max),
#define F_SAT(name, NAME, id, max, saturated) [B_##NAME] = (int)(saturated),
static const int max[NR_BREEDS] = { REFCOUNT_FOR_EACH_BREED(F_MAX) };
static const int sat[NR_BREEDS] = { REFCOUNT_FOR_EACH_BREED(F_SAT) };

static int starts(int b, int *v)
{
	int n = 0;

	v[n++] = 0;
	v[n++] = 1;
	v[n++] = 2;
	v[n++] = max[b] - 1;
	v[n++] = max[b];
	v[n++] = sat[b];
	v[n++] = -1;
	v[n++] = INT_MIN;
	v[n++] = INT_MAX;
	return n;
}

struct outcome {
	int value, ret, releases;
	struct report_counts delta;
};

static struct outcome run(const struct unit *u, int op, int start, int i)
{
	struct report_counts before, after;
	struct outcome o;
	int rel = u->releases();
	refcount_t r;

	/* The unit's own refcount_set(): each breed stores its own word. */
	u->apply(CXX_OP_SET, &r, start);

	report_counts_snap(&before);
	o.ret = u->apply(op, &r, i);
	report_counts_snap(&after);
	o.value = __atomic_load_n(&r.refs, __ATOMIC_RELAXED);
	o.releases = u->releases() - rel;
	for (int t = 0; t < REFCOUNT_NR_SATURATION_TYPES; t++)
		o.delta.n[t] = after.n[t] - before.n[t];
	return o;
}

Test(cxx, same_breed_names)
{
	for (int b = 0; b < NR_BREEDS; b++) {
		cr_assert_str_eq(units[b][0].breed(), breed_names[b]);
		cr_assert_str_eq(units[b][1].breed(), breed_names[b]);
	}
}

Test(cxx, every_op_at_every_boundary, .init = quiet_install)
{
	static const int args[] = { 1, 3 };
	int v[16], n, checked = 0;

	for (int b = 0; b < NR_BREEDS; b++) {
		n = starts(b, v);
		for (int op = 0; op < NR_CXX_OPS; op++)
			for (int s = 0; s < n; s++)
				for (unsigned int a = 0; a < 2; a++) {
					struct outcome c = run(&units[b][0], op,
							       v[s], args[a]);
					struct outcome x = run(&units[b][1], op,
							       v[s], args[a]);

					cr_assert(
						c.value == x.value &&
							c.ret == x.ret &&
							c.releases ==
								x.releases &&
							!memcmp(&c.delta,
								&x.delta,
								sizeof(c.delta)),
						"%s op %d from %d (arg %d): C "
						"gives %d ret %d, C++ %d ret "
						"%d",
						breed_names[b], op, v[s],
						args[a], c.value, c.ret,
						x.value, x.ret);
					cr_assert(c.ret != -2);
					checked++;
				}
	}
	cr_assert_gt(checked, 1000);
}

/* One counter, operated on by the C unit and the C++ unit in turn. */
Test(cxx, one_counter_shared, .init = quiet_install)
{
	static const int seq[] = { CXX_OP_INC,		CXX_OP_ADD,
				   CXX_OP_INC_NOT_ZERO, CXX_OP_DEC,
				   CXX_OP_DEC_NOT_ONE,	CXX_OP_SUB_AND_TEST,
				   CXX_OP_DEC_AND_TEST, CXX_OP_KREF_PUT };

	for (int b = 0; b < NR_BREEDS; b++) {
		refcount_t shared, alone;
		int cxx_rel = units[b][1].releases();
		int c_rel = units[b][0].releases();

		/* The breed's own refcount_set(): its word, in each unit. */
		units[b][0].apply(CXX_OP_SET, &shared, 2);
		units[b][0].apply(CXX_OP_SET, &alone, 2);

		for (unsigned int k = 0; k < sizeof(seq) / sizeof(seq[0]);
		     k++) {
			int rs = units[b][k & 1].apply(seq[k], &shared, 2);
			int ra = units[b][0].apply(seq[k], &alone, 2);

			cr_assert_eq(rs, ra, "%s step %u", breed_names[b], k);
			cr_assert_eq(
				__atomic_load_n(&shared.refs, __ATOMIC_RELAXED),
				__atomic_load_n(&alone.refs, __ATOMIC_RELAXED),
				"%s step %u", breed_names[b], k);
		}
		/* The last step, a kref_put() by the C++ unit, released. */
		cr_assert_eq(units[b][1].releases() - cxx_rel, 1);
		cr_assert_eq(units[b][0].releases() - c_rel, 1);
	}
}

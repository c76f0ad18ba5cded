// SPDX-License-Identifier: MIT
/*
 * lab/bench/nonatomic-cost-sat.c - lab/bench/nonatomic-cost.c's saturating row, in
 * its own unit (one breed per translation unit)
 */
#include <stdlib.h>

#include <refcount/refcount.h>

#include "nonatomic-cost.h"

refcount_t *nonatomic_cost_sat_new(void)
{
	refcount_t *r = malloc(sizeof(*r));

	if (!r)
		abort();
	refcount_set(r, 1);
	return r;
}

__attribute__((noinline)) void nonatomic_cost_sat_get(refcount_t *r)
{
	refcount_inc(r);
}

__attribute__((noinline)) int nonatomic_cost_sat_put(refcount_t *r)
{
	return refcount_dec_and_test(r);
}

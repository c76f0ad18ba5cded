/* SPDX-License-Identifier: MIT */
/* lab/bench/nonatomic-cost.h - the saturating row of lab/bench/nonatomic-cost.c */
#ifndef BENCH_NONATOMIC_COST_H
#define BENCH_NONATOMIC_COST_H

#include <refcount/types.h>

refcount_t *nonatomic_cost_sat_new(void);
void nonatomic_cost_sat_get(refcount_t *r);
int nonatomic_cost_sat_put(refcount_t *r);

#endif /* BENCH_NONATOMIC_COST_H */

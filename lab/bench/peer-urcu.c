/* SPDX-License-Identifier: MIT */
/*
 * lab/bench/peer-urcu.c - the urcu_ref row: liburcu's <urcu/ref.h>
 *
 * urcu_ref_get() is a cmpxchg loop that abort()s at LONG_MAX;
 * urcu_ref_put() is a fetch-and-sub with assert(res >= 0) that calls the
 * release function at 0.  The counter is a long.  There is no untested
 * decrement, so the dec-to-zero probe does not apply.
 */
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <urcu/ref.h>

/* A counted object: release() marks it, as a real one would free it. */
struct urcu_obj {
	struct urcu_ref ref;
	bool released;
};

static void urcu_obj_release(struct urcu_ref *ref)
{
	struct urcu_obj *o =
		(struct urcu_obj *)((char *)ref -
				    offsetof(struct urcu_obj, ref));

	o->released = true;
}

static inline void urcu_obj_set(struct urcu_obj *o, long v)
{
	urcu_ref_set(&o->ref, v);
	o->released = false;
}

static inline bool urcu_obj_put(struct urcu_obj *o)
{
	urcu_ref_put(&o->ref, urcu_obj_release);
	return o->released;
}

#define BENCH_SFX urcu
#define BENCH_NAME "urcu_ref"
#define BENCH_KIND BENCH_ROW_PEER
#define BENCH_API "urcu_ref_get, urcu_ref_put, urcu_ref_get_unless_zero"
#define BENCH_LOOKUP_NOTE NULL
#define BENCH_T struct urcu_obj
#define BENCH_SET(o, v) urcu_obj_set(o, (long)(v))
#define BENCH_READ(o) ((long long)uatomic_read(&(o)->ref.refcount))
#define BENCH_INC(o) urcu_ref_get(&(o)->ref)
#define BENCH_DEC_AND_TEST(o) urcu_obj_put(o)
#define BENCH_INC_NOT_ZERO(o) urcu_ref_get_unless_zero(&(o)->ref)
#define BENCH_MAX LONG_MAX
#define BENCH_IS_SATURATED(o) false
#define BENCH_FORKED true

#include "loops.h"

/* SPDX-License-Identifier: MIT */
/*
 * lab/bench/peer-percpu.c - the percpu_ref row: <refcount/percpu_ref.h>
 *
 * The counter is a struct percpu_ref, live in per-CPU mode, so every get
 * and put is the fast path the process chose (rseq, or the atomic slots
 * under GLIBC_TUNABLES=glibc.pthread.rseq=0; the header says which).  A
 * put never says "last" in per-CPU mode, so the timing loop is this row's
 * own: from 1, n - 1 gets and n - 1 puts, then percpu_ref_kill(), whose
 * put of the initial reference calls release(): the same 2n - 1 operations
 * and one release as the other rows' loop, the kill included in the time.
 * The try-get of the lookup pattern is percpu_ref_tryget().
 *
 * The value a loop sets and reads is the exact count: a set of 0 is a ref
 * initialised dead (PERCPU_REF_INIT_DEAD), a read switches to atomic mode
 * and back (untimed).  The scenarios run in per-CPU mode where they can,
 * which detects nothing, as the header says; on a dead ref (count 0) they
 * run in the hardened atomic mode.
 *
 * Kind BENCH_ROW_PEER: not a refcount_t breed; the percpu_ref claims find it
 * by its percpu_target field (lab/bench/targets.c).
 */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include <refcount/percpu_ref.h>
#include <refcount/report.h>

#include "bench.h"

#define PCPU_MAGIC 0x7065726370752172ULL /* the slot holds a live ref */

struct pcpu_bench {
	struct percpu_ref ref;
	uint64_t magic;
	bool released;
};
_Static_assert(sizeof(struct pcpu_bench) <= 64, "one bench slot");

/*
 * The slot holds a ref this row initialised: the other rows overwrite the
 * slot's first words, so the mark depends on them (a ref another row
 * clobbered is leaked, not exited).
 */
static uint64_t pcpu_magic(const struct pcpu_bench *b)
{
	return PCPU_MAGIC ^ (b->ref.percpu_count_ptr & ~7UL) ^
	       (uint64_t)(uintptr_t)b->ref.data;
}

static void pcpu_release(struct percpu_ref *ref)
{
	((struct pcpu_bench *)ref)->released = true;
}

/* The exact count: atomic mode for a moment (untimed). */
static long long pcpu_read(struct pcpu_bench *b)
{
	struct percpu_ref *r = &b->ref;
	bool percpu = !(r->percpu_count_ptr & 1UL);
	long long c;

	if (!r->data)
		return 0;
	if (percpu)
		percpu_ref_switch_to_atomic_sync(r);
	c = r->data->count;
	if (c == PERCPU_REF_SATURATED)
		c = LLONG_MIN;
	if (percpu)
		percpu_ref_switch_to_percpu(r);
	return c;
}

/*
 * A ref with @v references: per-CPU mode, or dead at 0.  A ref this row
 * set in the same slot before is exited first, so that the objects suite,
 * which sets every object each round, gives the pool slots back; but not
 * a probe scenario's counter, on the stack, whose count a misuse left
 * anywhere: its exit would report, inside the next scenario's probe.  That
 * one is leaked.
 */
static void pcpu_set(struct pcpu_bench *b, long long v)
{
	char here;
	ptrdiff_t d = (char *)b - &here;

	if (b->magic == pcpu_magic(b) && (d > 1 << 20 || d < -(1 << 20)))
		percpu_ref_exit(&b->ref);
	b->magic = 0;
	b->released = false;
	if (percpu_ref_init(&b->ref, pcpu_release,
			    (v ? 0 : PERCPU_REF_INIT_DEAD) |
				    PERCPU_REF_ALLOW_REINIT))
		bench_fail("percpu_ref_init: out of memory");
	b->magic = pcpu_magic(b);
	if (v > 1)
		percpu_ref_get_many(&b->ref, (unsigned long)v - 1);
}

static inline __attribute__((always_inline)) bool pcpu_put(struct pcpu_bench *b)
{
	percpu_ref_put(&b->ref);
	return b->released;
}

#define BENCH_SFX percpu
#define BENCH_NAME "percpu_ref"
#define BENCH_KIND BENCH_ROW_PEER
#define BENCH_PERCPU_TARGET true
/* The timing loop's last operation: the kill, which calls release(). */
#define BENCH_FINAL_PUT(r) (percpu_ref_kill(&(r)->ref), (r)->released)
#define BENCH_API "percpu_ref_get, percpu_ref_put, percpu_ref_tryget"
#define BENCH_LOOKUP_NOTE                                                      \
	"percpu_ref: percpu_ref_tryget(), the per-CPU add, no loop"
#define BENCH_T struct pcpu_bench
#define BENCH_SET(r, v) pcpu_set(r, (long long)(v))
#define BENCH_READ(r) pcpu_read(r)
#define BENCH_INC(r) percpu_ref_get(&(r)->ref)
#define BENCH_DEC_AND_TEST(r) pcpu_put(r)
#define BENCH_INC_NOT_ZERO(r) percpu_ref_tryget(&(r)->ref)
#define BENCH_MAX (LONG_MAX / 2)
#define BENCH_IS_SATURATED(r) (pcpu_read(r) == LLONG_MIN)
#define BENCH_REFCOUNT_PROBE
#define BENCH_FORKED false

#include "loops.h"

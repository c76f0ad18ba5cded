/* SPDX-License-Identifier: MIT */
/*
 * lab/bench/bench.h - what the rows of refcount-bench share with its driver
 *
 * A row is one counter implementation: the plain C11 atomic_t, one of the
 * breeds, or a peer library.  Each row is built from lab/bench/loops.h, a
 * template included once per row with the row's operations defined as
 * macros, so that every timed loop is compiled with its operations inlined.
 * The driver (lab/bench/driver.h) calls a row's loops through the function
 * pointers in struct bench_impl: one indirect call per loop, never one per
 * operation.
 *
 * This header is the rows' side only and includes nothing of the driver.
 * The functions a row may call are declared here and defined in
 * lab/bench/util.c: bench_fail() and bench_progress_draw() (behind
 * bench_tick()).
 */
#ifndef REFCOUNT_BENCH_H
#define REFCOUNT_BENCH_H

#include <refcount/breed/registry.h>
#include <stdbool.h>
#include <stdint.h>

#include "peers.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define BENCH_HAVE_TSC 1
#else
#include <time.h>
#endif

/* Every row's counter fits in one slot; a slot is a cache line. */
#define BENCH_SLOT 64

/* Operations between progress ticks in the timing loop. */
#define BENCH_CHUNK (1u << 20)

/* The misuses the protections column is probed with. */
enum bench_violation {
	BENCH_OVERFLOW, /* increment past the largest legal count */
	BENCH_DEC_TO_ZERO, /* untested decrement (refcount_dec) to 0 */
	BENCH_INC_FROM_ZERO, /* increment of a counter at 0 */
	BENCH_UNDERFLOW, /* dec_and_test of a counter at 0 */
	BENCH_NR_VIOLATIONS
};

/* What one probe saw; filled in by a row's scenario and its probe. */
struct bench_probe {
	bool applies; /* the row has an operation for this scenario */
	bool reported; /* the library reported it (handler, log, ...) */
	bool aborted; /* the process died of SIGABRT (forked probes) */
	bool safe; /* the counter ended saturated or refused to move */
};

struct bench_progress;

/* What a row is, for the driver: which tables and comparisons it is in. */
enum bench_row_kind {
	BENCH_ROW_BASELINE, /* atomic_t: every ratio is to this row */
	BENCH_ROW_BREED, /* a refcount_t breed, from lab/bench/breed.c */
	BENCH_ROW_PEER, /* another library, from lab/bench/peer-*.c */
};

/* One row of every table. */
struct bench_impl {
	const char *name; /* "atomic_t", "refcount-full", "glib", ... */
	enum bench_row_kind kind;
	bool target; /* the targets are about this row: the default breed */
	bool tryget_target; /* the rcuref_t claims are about this row */
	bool percpu_target; /* the percpu_ref claims are about this row */
	const char *key; /* BENCH_SFX: names its code size call sites */
	const char *api; /* the operations, for the header */
	const char *lookup_note; /* how the lookup pattern is built, or NULL */
	/* ATOMIC_TIMING: n - 1 increments from 1, then n dec_and_test */
	uint64_t (*timing)(void *slot, uint64_t n, struct bench_progress *p);
	void (*init)(void *slot, int v);
	long long (*read)(void *slot);
	/* Contention: pairs of get/put, or of inc_not_zero/dec_and_test */
	void (*getput)(void *slot, uint64_t pairs);
	void (*lookup)(void *slot, uint64_t pairs);
	/* Many objects: the same pairs, slot base + order[i] * BENCH_SLOT */
	void (*objs_getput)(char *base, const uint32_t *order, uint32_t n,
			    uint32_t passes);
	void (*objs_lookup)(char *base, const uint32_t *order, uint32_t n,
			    uint32_t passes);
	/*
	 * Run one misuse on a scratch counter.  forked: the driver runs it in
	 * a child process and sets ->aborted itself; otherwise it runs here.
	 */
	void (*probe)(enum bench_violation v, struct bench_probe *out);
	bool forked;
	/*
	 * The lookup pattern again, untimed, with the failed compare-and-swaps
	 * of its inc_not_zero counted: the total over @pairs pairs.  NULL for a
	 * row whose inc_not_zero is not a loop we can count (glib, ck,
	 * urcu_ref); the rcuref rows run their real get, which has no loop.
	 */
	uint64_t (*lookup_retries)(void *slot, uint64_t pairs);
};

/*
 * The rows: bench_impl_<name>, one per breed of the registry (lab/bench/breed.c,
 * built once per breed), and the baseline and the peers (lab/bench/peer-*.c,
 * listed in lab/bench/peers.h).
 */
#define BENCH_DECLARE_BREED(name, NAME, id, max, saturated)                    \
	extern const struct bench_impl bench_impl_##name;
REFCOUNT_FOR_EACH_THREADED_BREED(BENCH_DECLARE_BREED)
#define BENCH_DECLARE_PEER(file, deb, pc)                                      \
	extern const struct bench_impl bench_impl_##file;
BENCH_FOR_EACH_PEER(BENCH_DECLARE_PEER)
extern const struct bench_impl bench_impl_c11;

/* Stop with a message: a counter did something a correct one can't. */
void bench_fail(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2), cold));

/* Timestamps: the TSC where there is one, else nanoseconds. */
static inline uint64_t bench_now(void)
{
#ifdef BENCH_HAVE_TSC
	unsigned int aux;

	return __rdtscp(&aux);
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

/* Progress of the timing loop, drawn on stderr between chunks. */
struct bench_progress {
	bool on;
	uint64_t next; /* timestamp of the next redraw */
	uint64_t done; /* operations done in this row */
	uint64_t total; /* operations in this row */
};

void bench_progress_draw(struct bench_progress *p);

static inline void bench_tick(struct bench_progress *p, uint64_t done)
{
	if (__builtin_expect(p->on, 0)) {
		p->done = done;
		if (bench_now() >= p->next)
			bench_progress_draw(p);
	}
}

#endif /* REFCOUNT_BENCH_H */

/* SPDX-License-Identifier: MIT */
/*
 * instrument.h: what the checked and counting builds of blk.c add, and
 * nothing else: op counts (-DNULLBLK_COUNT_OPS), object accounting and
 * injected faults (-DNULLBLK_DEBUG), the BUG report, and the library's
 * warning count.  Breed-free: no refcount_t in here.
 *
 * The macros take the device (anything with a struct nb_instr named instr)
 * and the name of one of its counters, and compile to nothing but the
 * evaluation of @dev in the engine's own build.
 */
#ifndef NULLBLK_INSTRUMENT_H
#define NULLBLK_INSTRUMENT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <refcount/report.h>

#include "nullblk.h"

/* A device's counters: what it reports in struct nb_stats at teardown. */
struct nb_instr {
	_Atomic uint64_t ios; /* COUNT_OPS or DEBUG */
	_Atomic uint64_t io_rmws; /* COUNT_OPS */
	_Atomic uint64_t setup_rmws; /* COUNT_OPS */
	atomic_long live_bios, live_rqs; /* DEBUG */
	atomic_int inject; /* DEBUG: the fault still to commit */
	unsigned long saturations_before;
};

#ifdef NULLBLK_COUNT_OPS
#define count_rmw(dev, what)                                                   \
	atomic_fetch_add_explicit(&(dev)->instr.what, 1, memory_order_relaxed)
#else
#define count_rmw(dev, what) ((void)(dev))
#endif

#if defined(NULLBLK_COUNT_OPS) || defined(NULLBLK_DEBUG)
#define count_io(dev)                                                          \
	atomic_fetch_add_explicit(&(dev)->instr.ios, 1, memory_order_relaxed)
#else
#define count_io(dev) ((void)(dev))
#endif

#ifdef NULLBLK_DEBUG
#define live_add(dev, what, n)                                                 \
	atomic_fetch_add_explicit(&(dev)->instr.what, n, memory_order_relaxed)
#else
#define live_add(dev, what, n) ((void)(dev))
#endif

/*
 * NULLBLK_INJECT=bio-double-free|request-double-free|bio-leak (checked
 * builds only) commits that fault once, so the tests can show that ASan and
 * the accounting catch it.
 */
enum {
	INJECT_NONE,
	INJECT_BIO_DOUBLE_FREE,
	INJECT_RQ_DOUBLE_FREE,
	INJECT_BIO_LEAK
};

#ifdef NULLBLK_DEBUG
#define injected(dev, what)                                                    \
	(atomic_load_explicit(&(dev)->instr.inject, memory_order_relaxed) ==   \
		 (what) &&                                                     \
	 atomic_exchange(&(dev)->instr.inject, INJECT_NONE) == (what))

static int inject_from_env(void)
{
	const char *e = getenv("NULLBLK_INJECT");

	if (!e)
		return INJECT_NONE;
	if (!strcmp(e, "bio-double-free"))
		return INJECT_BIO_DOUBLE_FREE;
	if (!strcmp(e, "request-double-free"))
		return INJECT_RQ_DOUBLE_FREE;
	if (!strcmp(e, "bio-leak"))
		return INJECT_BIO_LEAK;
	return INJECT_NONE;
}
#else
#define injected(dev, what) ((void)(dev), false)
#define inject_from_env() INJECT_NONE
#endif

static void nb_bug(const char *what, const void *obj)
{
	fprintf(stderr, "nullblk: BUG: %s (%p)\n", what, obj);
	abort();
}

/* refcount_t warnings so far, of every type (a device reports its share) */
static unsigned long saturations_now(void)
{
	unsigned long n = 0;

	for (int ty = REFCOUNT_ADD_NOT_ZERO_OVF; ty <= REFCOUNT_DEC_LEAK; ty++)
		n += refcount_report_count(ty);
	return n;
}

/* at device creation (the rest of *in is zero) */
static void instr_init(struct nb_instr *in)
{
	atomic_store(&in->inject, inject_from_env());
	in->saturations_before = saturations_now();
}

/* at teardown: what the device counted */
static void instr_report(struct nb_instr *in, struct nb_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->ios = atomic_load(&in->ios);
	st->io_rmws = atomic_load(&in->io_rmws);
	st->setup_rmws = atomic_load(&in->setup_rmws);
	st->live_bios = atomic_load(&in->live_bios);
	st->live_rqs = atomic_load(&in->live_rqs);
	st->saturations = saturations_now() - in->saturations_before;
#ifdef NULLBLK_COUNT_OPS
	st->counted = true;
#endif
#ifdef NULLBLK_DEBUG
	st->checked = true;
#endif
}

#endif /* NULLBLK_INSTRUMENT_H */

/* SPDX-License-Identifier: MIT */
/*
 * lab/bench/peer-glib.c - the glib row: GLib's gatomicrefcount
 *
 * Built as a GLib program is by default (without G_DISABLE_CHECKS), so
 * g_atomic_ref_count_inc() and g_atomic_ref_count_dec() are calls into
 * libglib-2.0, which check their arguments and report misuse as
 * g_critical().  GLib has no inc_not_zero and no untested decrement: the
 * lookup pattern uses GLib's own compare-and-exchange.
 */
#include <glib.h>
#include <limits.h>

static inline gboolean glib_inc_not_zero(gatomicrefcount *r)
{
	gint c;

	do {
		c = g_atomic_int_get(r);
		if (c == 0)
			return FALSE;
	} while (!g_atomic_int_compare_and_exchange(r, c, c + 1));
	return TRUE;
}

#define BENCH_SFX glib
#define BENCH_NAME "glib"
#define BENCH_KIND BENCH_ROW_PEER
#define BENCH_API "g_atomic_ref_count_inc, _dec (calls into libglib)"
#define BENCH_LOOKUP_NOTE                                                      \
	"glib: no inc_not_zero; built from g_atomic_int_compare_and_exchange"
#define BENCH_T gatomicrefcount
#define BENCH_SET(r, v) g_atomic_int_set(r, (gint)(v))
#define BENCH_READ(r) ((long long)g_atomic_int_get(r))
#define BENCH_INC(r) g_atomic_ref_count_inc(r)
#define BENCH_DEC_AND_TEST(r) g_atomic_ref_count_dec(r)
#define BENCH_INC_NOT_ZERO(r) glib_inc_not_zero(r)
#define BENCH_MAX G_MAXINT
#define BENCH_IS_SATURATED(r) false
#define BENCH_OWN_PROBE
#define BENCH_FORKED true

#include "loops.h"

static unsigned int glib_criticals;

static void glib_count(const gchar *domain, GLogLevelFlags level,
		       const gchar *msg, gpointer data)
{
	(void)domain;
	(void)msg;
	(void)data;
	if (level & (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING))
		glib_criticals++;
}

/* Reported: GLib logged a critical or a warning (runs in a child). */
static void BN(probe)(enum bench_violation v, struct bench_probe *out)
{
	g_log_set_default_handler(glib_count, NULL);
	glib_criticals = 0;
	BN(scenario)(v, out);
	out->reported = glib_criticals != 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * lab/bench/peers.h - refcount-bench's peers, written once
 *
 * One X(file, deb, pc) line per peer, in the order of the tables:
 *   file  lab/bench/peer-<file>.c defines the row bench_impl_<file>;
 *   deb   the Debian package that has its headers ("" for none), which
 *         mk/need installs;
 *   pc    its pkg-config module ("" for none), whose --cflags build the
 *         row and whose --libs link refcount-bench.
 * lab/bench/bench.mk reads these lines with sed (one per line, as they
 * are); bench.h declares the rows and run.c lists them from the macro.
 * The baseline, atomic_t (peer-c11.c), is not a peer.
 */
#ifndef REFCOUNT_BENCH_PEERS_H
#define REFCOUNT_BENCH_PEERS_H

/* clang-format off */
#define BENCH_FOR_EACH_PEER(X) \
	X(urcu, "liburcu-dev", "") \
	X(glib, "libglib2.0-dev", "glib-2.0") \
	X(ck, "libck-dev", "") \
	X(rcuref, "", "") \
	X(fileref, "", "") \
	X(percpu, "", "")
/* clang-format on */

#define BENCH_COUNT_PEER(file, deb, pc) +1
#define BENCH_NR_PEERS (0 BENCH_FOR_EACH_PEER(BENCH_COUNT_PEER))

#endif /* REFCOUNT_BENCH_PEERS_H */

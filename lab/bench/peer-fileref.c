/* SPDX-License-Identifier: MIT */
/*
 * lab/bench/peer-fileref.c - the file_ref row: <refcount/file_ref.h>
 *
 * file_ref_get() is one fully ordered atomic add with no slow path;
 * file_ref_put() one atomic subtract (and a compare-and-swap for the last
 * reference).  As the rcuref row, both patterns use the one get, and a count
 * of 0 is stored as FILE_REF_DEAD.  Kind BENCH_ROW_PEER; key "fileref"
 * (lab/bench/codesize.sh's keys have no underscore).
 */
#include <refcount/file_ref.h>
#include <refcount/report.h>

#define BENCH_SFX fileref
#define BENCH_NAME "file_ref"
#define BENCH_KIND BENCH_ROW_PEER
#define BENCH_API "file_ref_get, file_ref_put"
#define BENCH_LOOKUP_NOTE "file_ref: file_ref_get(), one atomic add, no loop"
#define BENCH_T file_ref_t
#define BENCH_COUNT_T unsigned long
#define BENCH_INIT(r, v) file_ref_init(r, v)
#define BENCH_DEAD_WORD __FILE_REF_VAL(FILE_REF_DEAD)
#define BENCH_READ(r) ((long long)file_ref_read(r))
#define BENCH_INC(r) ((void)!file_ref_get(r))
#define BENCH_DEC_AND_TEST(r) file_ref_put(r)
#define BENCH_INC_NOT_ZERO(r) file_ref_get(r)
/* no loop: the real get, which never retries */
#define BENCH_INC_NOT_ZERO_RETRIES(r, n) ((void)(n), file_ref_get(r))
#define BENCH_MAX (FILE_REF_MAXREF + 1UL)
#define BENCH_IS_SATURATED(r)                                                  \
	((unsigned long)atomic_load(&(r)->refcnt) == FILE_REF_SATURATED)
#define BENCH_REFCOUNT_PROBE
#define BENCH_FORKED false

#include "loops.h"

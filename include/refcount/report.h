/* SPDX-License-Identifier: MIT */
/*
 * refcount/report.h - what happens when a refcount_t is misused
 *
 * Included by <refcount/refcount.h>.  Every violation that a checking breed
 * detects is counted process-wide, then handed to one report handler.  The
 * default handler prints the kernel's message once per type to stderr, and
 * aborts after printing when REFCOUNT_ABORT=1 is set in the environment (the
 * userspace panic_on_warn).
 *
 * The out-of-line entry points are cold and never inlined, so the inline fast
 * paths only carry a conditional branch to them.
 */
#ifndef REFCOUNT_REPORT_H
#define REFCOUNT_REPORT_H

#include <refcount/impl/compiler.h>
#include <refcount/types.h>

/**
 * enum refcount_saturation_type - type of a detected reference count misuse
 * @REFCOUNT_ADD_NOT_ZERO_OVF: refcount_add_not_zero() or refcount_inc_not_zero()
 *	(and their _acquire forms) overflowed, or ran on a saturated counter.
 * @REFCOUNT_ADD_OVF: refcount_add() or refcount_inc() overflowed, or ran on a
 *	saturated counter.
 * @REFCOUNT_ADD_UAF: refcount_add() or refcount_inc() on a counter at 0: the
 *	object may already be freed (use-after-free).
 * @REFCOUNT_SUB_UAF: refcount_sub_and_test(), refcount_dec_and_test() or
 *	refcount_dec_not_one() went below 0, or ran on a saturated counter.
 * @REFCOUNT_DEC_LEAK: refcount_dec() took the counter to 0 (it can't free, so
 *	the object leaks) or below 0, or ran on a saturated counter.
 *
 * Same names and values (0..4) as the kernel's include/linux/refcount.h.  The
 * type follows the operation that detected the misuse in every breed.
 */
enum refcount_saturation_type {
	REFCOUNT_ADD_NOT_ZERO_OVF,
	REFCOUNT_ADD_OVF,
	REFCOUNT_ADD_UAF,
	REFCOUNT_SUB_UAF,
	REFCOUNT_DEC_LEAK,
};

/** REFCOUNT_NR_SATURATION_TYPES - number of enum refcount_saturation_type values */
#define REFCOUNT_NR_SATURATION_TYPES 5

/**
 * typedef refcount_report_fn - a report handler
 * @r: the counter that was misused (its value is already final: saturated,
 *     or left alone by the full breed)
 * @t: what was detected
 *
 * Called once per detected violation, on the thread that detected it, after
 * the process-wide count for @t has been incremented.  It may be called from
 * many threads at once and must be thread safe.  It must not call
 * refcount_set_report_handler().
 */
typedef void (*refcount_report_fn)(refcount_t *r,
				   enum refcount_saturation_type t);

/**
 * refcount_report_count() - how many violations of one type were detected
 * @t: the type to read
 *
 * Context: any thread.  Memory ordering: a relaxed atomic load.  Follows no
 * kernel function (the kernel only warns); it is this library's addition.
 *
 * Return: the number of violations of type @t detected since the process
 * started, by every breed, every thread and every counter.  Counts only grow.
 * An out-of-range @t returns 0.
 *
 * Misuse: none.  The atomic breed detects nothing, so it never adds to the
 * count (except in refcount_dec_not_one(), which was checked in every 2017
 * breed; see there).
 */
unsigned long refcount_report_count(enum refcount_saturation_type t);

/**
 * refcount_set_report_handler() - install the report handler
 * @fn: the new handler, or NULL to restore refcount_report_default()
 *
 * Context: any thread.  Memory ordering: a sequentially consistent exchange;
 * reports already running in other threads may still call the previous
 * handler.  This library's addition: the kernel has no such hook.
 *
 * Return: the previous handler (never NULL), so a caller can chain to it or
 * restore it.
 */
refcount_report_fn refcount_set_report_handler(refcount_report_fn fn);

/**
 * refcount_report_default() - the default report handler
 * @r: the misused counter
 * @t: the violation type
 *
 * Prints the kernel's warning for this violation to stderr the first time it
 * is seen, followed by the counter's address, the caller (symbol+offset where
 * the dynamic symbol table has it) and program[pid]:
 * "refcount_t: saturated; leaking memory." for the saturating breed, the
 * 2017 wording (e.g. "refcount_t: increment on 0; use-after-free.") for the
 * full breed, and the 2017 x86 handler's "refcount_t overflow at ..." lines
 * for the fast breed.  Where the 2017 kernel stayed silent (the fast breed
 * saturating an already negative counter, the full breed refusing to move a
 * saturated one), it prints nothing.  Each (type, message) pair prints once
 * per process, as WARN_ONCE does.
 *
 * If REFCOUNT_ABORT=1 (exactly "1") is set in the environment, it calls
 * abort() after printing, like the kernel's panic_on_warn.  Like
 * panic_on_warn it only fires on a report that prints: the silent cases
 * above are counted but do not abort.  To stop on every detected misuse,
 * install a handler that aborts.
 *
 * Context: thread safe; not async-signal-safe (it uses stdio).  Memory
 * ordering: none promised.  Follows lib/refcount.c refcount_warn_saturate()
 * (v5.5+) and, for the fast breed, kernel/panic.c refcount_error_report().
 *
 * Called directly (not from a report) it prints the saturating breed's
 * message for @t.
 *
 * rcuref_t and file_ref_t (<refcount/rcuref.h>, <refcount/file_ref.h>)
 * report through the same counts and handler, with the kernel's WARN_ONCE
 * texts and these types: a get that found a saturated counter
 * ("rcuref saturated - leaking memory") is REFCOUNT_ADD_NOT_ZERO_OVF, since
 * rcuref_get() is a try-get like refcount_inc_not_zero(); a put on a
 * released counter ("rcuref - imbalanced put()", "imbalanced put on file
 * reference count") is REFCOUNT_SUB_UAF; file_ref_inc() on a released or
 * saturated counter ("file_ref_inc() on a released file reference") is
 * REFCOUNT_ADD_UAF.  For these reports @r is the address of the rcuref_t or
 * file_ref_t, converted: rcuref_t has refcount_t's layout (one atomic int),
 * and a file_ref_t is at least as large, so reading r->refs stays inside the
 * object (on a 64-bit file_ref_t it reads one half of the counter).
 */
void refcount_report_default(refcount_t *r, enum refcount_saturation_type t);

/**
 * refcount_warn_saturate() - saturate a counter and report it
 * @r: the counter
 * @t: what was detected
 *
 * The saturating breed's slow path, as lib/refcount.c since v5.5: stores
 * REFCOUNT_SATURATED (INT_MIN / 2) with a relaxed store, then counts and
 * reports @t with the kernel's message.
 *
 * Context: any thread.  Cold and out of line.
 */
void refcount_warn_saturate(refcount_t *r,
			    enum refcount_saturation_type t) __refcount_cold;

/*
 * Internal: the message a report carries.  Not part of the API; the breeds'
 * slow paths pass it to __refcount_report() so that the default handler can
 * print the wording of the kernel the breed reproduces.
 */
enum __refcount_msg {
	__REFCOUNT_MSG_SILENT, /* counted, handler called, nothing printed */
	__REFCOUNT_MSG_SATURATED, /* "saturated; leaking memory." */
	__REFCOUNT_MSG_ADD_ON_0, /* "addition on 0; use-after-free." */
	__REFCOUNT_MSG_INC_ON_0, /* "increment on 0; use-after-free." */
	__REFCOUNT_MSG_UNDERFLOW, /* "underflow; use-after-free." */
	__REFCOUNT_MSG_DEC_HIT_0, /* "decrement hit 0; leaking memory." */
	__REFCOUNT_MSG_X86_OVERFLOW, /* "refcount_t overflow at ..." */
	__REFCOUNT_MSG_X86_HIT_ZERO, /* "refcount_t hit zero at ..." */
	__REFCOUNT_MSG_X86_UNEXPECTED, /* "refcount_t unexpected saturation..." */
	__REFCOUNT_MSG_RCUREF_SATURATED, /* "rcuref saturated - leaking memory" */
	__REFCOUNT_MSG_RCUREF_IMBALANCED, /* "rcuref - imbalanced put()" */
	__REFCOUNT_MSG_FILE_REF_IMBALANCED, /* "imbalanced put on file ..." */
	__REFCOUNT_MSG_FILE_REF_INC_DEAD, /* "file_ref_inc() on a released ..." */
	__REFCOUNT_NR_MSGS
};

/* Internal: count and hand one violation to the handler (cold). */
void __refcount_report(refcount_t *r, enum refcount_saturation_type t,
		       enum __refcount_msg msg, const void *ip) __refcount_cold;

#endif /* REFCOUNT_REPORT_H */

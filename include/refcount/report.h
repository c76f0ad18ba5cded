/* SPDX-License-Identifier: MIT */
/*
 * refcount/report.h - what happens when a refcount_t is misused
 *
 * Included by <refcount/refcount.h>.  Every violation that a checking breed
 * detects is counted process-wide, then handed to one report handler.  The
 * default handler prints the kernel's message to stderr once per type and
 * message, and aborts after printing when REFCOUNT_ABORT=1 is set in the
 * environment (the userspace panic_on_warn); REFCOUNT_REPORT_LOG=FILE
 * records every report.
 *
 * The out-of-line entry points are cold and never inlined, so the inline fast
 * paths only carry a conditional branch to them.
 */
#ifndef REFCOUNT_REPORT_H
#define REFCOUNT_REPORT_H

#include <stddef.h>

#include <refcount/impl/compiler.h>
#include <refcount/types.h>

__REFCOUNT_BEGIN_DECLS

/**
 * enum refcount_saturation_type - type of a detected reference count misuse
 * @REFCOUNT_ADD_NOT_ZERO_OVF: refcount_add_not_zero() or
 *	refcount_inc_not_zero() (and, except in the saturating breed, their
 *	_acquire forms) overflowed, or ran on a saturated counter.
 * @REFCOUNT_ADD_OVF: refcount_add() or refcount_inc() overflowed, or ran on a
 *	saturated counter.
 * @REFCOUNT_ADD_UAF: refcount_add() or refcount_inc() on a counter at 0: the
 *	object may already be freed (use-after-free).
 * @REFCOUNT_SUB_UAF: refcount_sub_and_test() or refcount_dec_and_test() went
 *	below 0 or ran on a saturated counter, or refcount_dec_not_one() (and
 *	so the lock helpers) ran on a counter at 0.
 * @REFCOUNT_DEC_LEAK: refcount_dec() took the counter to 0 (it can't free, so
 *	the object leaks) or below 0, or ran on a saturated counter.
 * @REFCOUNT_NR_SATURATION_TYPES: not a type: how many there are (valid
 *	types are 0 to REFCOUNT_NR_SATURATION_TYPES - 1).  This library's
 *	addition; it stays last, so that it counts every type.
 *
 * Similar to the kernel's enum refcount_saturation_type: the same names and
 * values (0..4).  The type follows the operation that detected the misuse in
 * every breed.
 *
 * Follows include/linux/refcount.h (v5.5+); the 2017 kernels had no type
 * (docs/kernel-semantics.md, 'Saturation types').
 */
enum refcount_saturation_type {
	REFCOUNT_ADD_NOT_ZERO_OVF,
	REFCOUNT_ADD_OVF,
	REFCOUNT_ADD_UAF,
	REFCOUNT_SUB_UAF,
	REFCOUNT_DEC_LEAK,
	REFCOUNT_NR_SATURATION_TYPES
};

/**
 * enum refcount_report_kind - the type of the counter a report is about
 * @REFCOUNT_KIND_REFCOUNT: a refcount_t or refcount_long_t (a kref too)
 * @REFCOUNT_KIND_RCUREF: an rcuref_t (<refcount/rcuref.h>)
 * @REFCOUNT_KIND_FILE_REF: a file_ref_t (<refcount/file_ref.h>)
 * @REFCOUNT_KIND_PERCPU_REF: a struct percpu_ref (<refcount/percpu_ref.h>)
 *
 * This library's addition.
 */
enum refcount_report_kind {
	REFCOUNT_KIND_REFCOUNT,
	REFCOUNT_KIND_RCUREF,
	REFCOUNT_KIND_FILE_REF,
	REFCOUNT_KIND_PERCPU_REF
};

/**
 * struct refcount_report - what a report handler is told
 * @counter: the misused counter, converted: its value is already what the
 *	operation leaves (saturated, or left alone by the full breed or by
 *	refcount_dec_not_one()).  For the other kinds it is the address of the
 *	rcuref_t, file_ref_t or struct percpu_ref.
 * @type: what was detected
 * @kind: the type of the counter
 * @message: what the default handler prints for it: the kernel's words, e.g.
 *	"refcount_t: saturated; leaking memory.", or, for the fast breed, its
 *	2017 "overflow" / "hit zero" / "unexpected saturation"; NULL for a
 *	silent report (one the 2017 kernel did not print)
 * @breed: for a refcount_t, the breed whose check caught it: "saturating",
 *	"full", "fast", "atomic" or "nonatomic" (REFCOUNT_BREED_NAME of the
 *	code that misused the counter); NULL for the other kinds
 * @caller: the return address in the code that misused the counter: the
 *	user's call site, or a lock helper's caller
 *
 * No kernel counterpart.  Valid only during the handler call.
 */
struct refcount_report {
	refcount_t *counter;
	enum refcount_saturation_type type;
	enum refcount_report_kind kind;
	const char *message;
	const char *breed;
	const void *caller;
};

/**
 * typedef refcount_report_fn - a report handler
 * @rep: the report; valid only during the call
 *
 * Similar to the kernel's WARN in refcount_warn_saturate(), made a hook; the
 * kernel has none.
 *
 * Context: called once per detected violation, on the thread that detected
 * it, after the process-wide count for the type has been incremented.  It
 * may be called from many threads at once and must be thread safe.  It must
 * not call refcount_set_report_handler().
 *
 * This library's addition.
 */
typedef void (*refcount_report_fn)(const struct refcount_report *rep);

/**
 * refcount_set_report_handler() - install the report handler
 * @fn: the new handler, or NULL to restore refcount_report_default()
 *
 * No kernel counterpart: the kernel has no such hook.
 *
 * Memory ordering: a sequentially consistent exchange; reports already
 * running in other threads may still call the previous handler.
 *
 * Context: any thread.
 *
 * Return: the previous handler (never NULL), so a caller can chain to it or
 * restore it.
 *
 * This library's addition.
 */
refcount_report_fn refcount_set_report_handler(refcount_report_fn fn);

/**
 * refcount_report_default() - the default report handler
 * @rep: the report
 *
 * Similar to the kernel's WARN_ONCE in refcount_warn_saturate(): prints the
 * kernel's warning for this violation to stderr the first time it is seen,
 * as refcount_report_format() writes it (the counter's address, the caller
 * as symbol+offset and module+offset for addr2line, and program[pid]):
 * "refcount_t: saturated; leaking memory." for the saturating breed, the
 * 2017 wording (e.g. "refcount_t: increment on 0; use-after-free.") for the
 * full breed, and the 2017 x86 handler's "refcount_t overflow at ..." lines
 * for the fast breed.  Where the 2017 kernel stayed silent (the fast breed
 * saturating an already negative counter, the full breed refusing to move a
 * saturated one), it prints nothing.  Each (type, message) pair prints once
 * per process, as WARN_ONCE does; REFCOUNT_REPORT_LOG (below) records every
 * report.
 *
 * With REFCOUNT_ABORT=1 in the environment it calls abort() after printing,
 * like the kernel's panic_on_warn; with 0 (or unset) it does not; any other
 * value is named once on stderr and treated as 0.  Like panic_on_warn it
 * only fires on a report that prints: the silent cases above are counted
 * but do not abort.  To stop on every detected misuse, install a handler
 * that aborts.
 *
 * With REFCOUNT_REPORT_LOG=FILE, every report (silent ones too, whatever
 * handler is installed) appends one line to FILE, opened with O_APPEND and
 * written with one write() so that the processes of a test suite can share
 * it: "pid TAB breed TAB type TAB caller TAB message", breed being the
 * refcount_t's breed or, for the other kinds, the counter's type (e.g.
 * rcuref_t), type as refcount_report_type_name() names it, caller as
 * refcount_report_format() writes it, message empty for a silent report.
 * FILE is not created when nothing is reported; one that cannot be opened
 * or written is said once on stderr.  Both variables are read at the first
 * report, and again after refcount_report_reset() or
 * refcount_set_report_handler() (a test that sets them with setenv() calls
 * one of those).
 *
 * Memory ordering: none promised.
 *
 * Context: thread safe; not async-signal-safe (it uses stdio).
 *
 * rcuref_t and file_ref_t report through the same counts and handler, with
 * the kernel's WARN_ONCE texts and these types: a get that found a saturated
 * counter ("rcuref saturated - leaking memory") is REFCOUNT_ADD_NOT_ZERO_OVF,
 * since rcuref_get() is a try-get like refcount_inc_not_zero(); a put on a
 * released counter ("rcuref - imbalanced put()", "imbalanced put on file
 * reference count") is REFCOUNT_SUB_UAF; file_ref_inc() on a released or
 * saturated counter ("file_ref_inc() on a released file reference") is
 * REFCOUNT_ADD_UAF.
 *
 * Follows lib/refcount.c refcount_warn_saturate() (v5.5+) and, for the fast
 * breed, kernel/panic.c refcount_error_report().
 */
void refcount_report_default(const struct refcount_report *rep);

/**
 * refcount_report_format() - the line the default handler prints for a report
 * @rep: the report
 * @buf: where to write it, NUL-terminated, without a newline
 * @len: the size of @buf in bytes (160 is always enough but for long
 *	program and module names, which are cut)
 *
 * For a handler that logs reports itself.  The caller appears as
 * "symbol+0xoff (module+0xoff)": `addr2line -i -e module 0xoff` names the
 * line of the call (the offset is that of the call instruction), for
 * executables and shared objects, PIE or not.
 *
 * Context: any thread; not async-signal-safe.
 *
 * Return: what snprintf() returns: the length of the whole line.  An empty
 * line for a silent report.
 *
 * This library's addition.
 */
int refcount_report_format(const struct refcount_report *rep, char *buf,
			   size_t len);

/**
 * refcount_report_type_name() - the name of a saturation type
 * @t: the type
 *
 * Return: the enumerator's name without its REFCOUNT_ prefix, e.g.
 * "ADD_UAF", as REFCOUNT_REPORT_LOG writes it; "unknown" for a value out of
 * range.
 *
 * Context: any thread.  This library's addition.
 */
const char *refcount_report_type_name(enum refcount_saturation_type t);

/**
 * refcount_report_reset() - forget every report so far, for test suites
 *
 * Sets every refcount_report_count() back to 0, and lets the default handler
 * print each message once more.
 *
 * Memory ordering: relaxed stores.  Context: any thread, but reports racing
 * with it may or may not be counted.
 *
 * This library's addition.
 */
void refcount_report_reset(void);

/**
 * refcount_report_count() - how many violations of one type were detected
 * @t: the type to read, 0 to REFCOUNT_NR_SATURATION_TYPES - 1
 *
 * No kernel counterpart: the kernel only warns, and keeps no count.
 *
 * Memory ordering: a relaxed atomic load.
 *
 * Context: any thread.
 *
 * Return: the number of violations of type @t detected since the process
 * started (or since the last refcount_report_reset()), by every breed, every
 * thread and every counter.  An out-of-range @t returns 0.
 *
 * Misuse: none.  The atomic breed detects nothing, so it never adds to the
 * count (except in refcount_dec_not_one(), which was checked in every 2017
 * breed; see there).
 *
 * Follows no kernel function; it is this library's addition.
 */
unsigned long refcount_report_count(enum refcount_saturation_type t);

/**
 * refcount_warn_saturate() - saturate a counter and report it
 * @r: the counter
 * @t: what was detected
 *
 * Similar to the kernel's refcount_warn_saturate(): the saturating breed's
 * slow path, as lib/refcount.c since v5.5: stores REFCOUNT_SATURATED
 * (INT_MIN / 2) with a relaxed store, then counts and reports @t with the
 * kernel's message.
 *
 * Memory ordering: none (a relaxed store).
 *
 * Context: any thread.  Cold and out of line.
 *
 * Misuse: it stores the saturating breed's INT_MIN / 2 whatever breed the
 * caller was built with, so call it only on a counter of the saturating
 * breed (the library calls it from that breed's slow paths alone).
 *
 * Follows lib/refcount.c refcount_warn_saturate() (v5.5+).
 */
void refcount_warn_saturate(refcount_t *r,
			    enum refcount_saturation_type t) __refcount_cold;

/*
 * Internal: refcount_warn_saturate() naming @ip as the caller, for the
 * exported operations of src/extern.c (whose caller is the user's line),
 * and @breed as the breed (the nonatomic breed's cold path).
 */
void __refcount_saturate_at(refcount_t *r, enum refcount_saturation_type t,
			    const char *breed, const void *ip) __refcount_cold;
/* Internal: the nonatomic breed's refcount_warn_saturate(). */
void __refcount_nonatomic_warn_saturate(
	refcount_t *r, enum refcount_saturation_type t) __refcount_cold;
/*
 * Internal: the same for a refcount_long_t (src/long.c), which stores
 * REFCOUNT_LONG_SATURATED; the report's counter is @r converted.
 */
void __refcount_long_saturate_at(refcount_long_t *r,
				 enum refcount_saturation_type t,
				 const char *breed,
				 const void *ip) __refcount_cold;
void __refcount_long_warn_saturate(refcount_long_t *r,
				   enum refcount_saturation_type t,
				   const char *breed) __refcount_cold;

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
	__REFCOUNT_MSG_PERCPU_SATURATED, /* "percpu_ref: saturated; ..." */
	__REFCOUNT_MSG_PERCPU_GET_RELEASED, /* "percpu_ref: get on a released" */
	__REFCOUNT_MSG_PERCPU_UNDERFLOW, /* "percpu_ref: underflow; ..." */
	__REFCOUNT_MSG_PERCPU_PUT_RELEASED, /* "percpu_ref: put after release" */
	__REFCOUNT_MSG_PERCPU_SWITCH_LE_0, /* "percpu ref <= 0 after ..." */
	__REFCOUNT_MSG_PERCPU_DOUBLE_KILL, /* "... called more than once" */
	__REFCOUNT_MSG_PERCPU_EXIT_LIVE, /* "percpu_ref: exit while ..." */
	__REFCOUNT_NR_MSGS
};

/*
 * Internal: count and hand one violation to the handler (cold).  @breed is
 * the REFCOUNT_BREED_NAME of the check that caught a refcount_t's misuse,
 * NULL for the other kinds, which @msg tells (src/report.c).
 */
void __refcount_report(refcount_t *r, enum refcount_saturation_type t,
		       enum __refcount_msg msg, const void *ip,
		       const char *breed) __refcount_cold;

/* Internal: the saturating breed's message for @t (lib/refcount.c, v5.5+). */
enum __refcount_msg __refcount_modern_msg(enum refcount_saturation_type t);

__REFCOUNT_END_DECLS

#endif /* REFCOUNT_REPORT_H */

/* SPDX-License-Identifier: MIT */
/*
 * tests/helpers.h - what every test program shares: a quiet counting report
 * handler, snapshots of refcount_report_count(), running a piece of code in a
 * child process with the default handler and capturing its stderr, and the
 * breed this translation unit was built for as an index.
 *
 * Breed-independent: helpers.c uses only <refcount/report.h>.
 */
#ifndef TESTS_HELPERS_H
#define TESTS_HELPERS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include <refcount/breed/registry.h>
#include <refcount/report.h>

/* The breeds as table indexes, B_<NAME>, in the registry's order. */
#define HELPERS_BREED_IDX(name, NAME, ...) B_##NAME,
enum breed_idx { REFCOUNT_FOR_EACH_BREED(HELPERS_BREED_IDX) NR_BREEDS };

/* Their names, "atomic", ..., indexed by enum breed_idx. */
extern const char *const breed_names[NR_BREEDS];

/*
 * THIS_BREED - the index of the breed this unit was built with (only in
 * units that include <refcount/refcount.h>)
 */
#define HELPERS_THIS_BREED(name, NAME, ...) B_##NAME
#define THIS_BREED REFCOUNT_BREED_ROW(HELPERS_THIS_BREED)

/* "No report expected" in a table's type column. */
#define NO_REPORT (-1)

/* A snapshot of refcount_report_count() for every type. */
struct report_counts {
	unsigned long n[REFCOUNT_NR_SATURATION_TYPES];
};

void report_counts_snap(struct report_counts *c);

/*
 * report_counts_delta_ok() - did exactly @nr reports of @type (NO_REPORT: none
 * at all) happen between @before and now?  On a mismatch, describes it in
 * @why (a static buffer) and returns false.
 */
bool report_counts_delta_ok(const struct report_counts *before, int type,
			    unsigned long nr, const char **why);

/*
 * The quiet handler: counts what it is handed, remembers the last counter,
 * prints nothing.  quiet_install() installs it and resets its counts.
 */
void quiet_install(void);
unsigned long quiet_calls(enum refcount_saturation_type t);
void *quiet_last_counter(void);

/*
 * run_captured() - run fn(arg) in a child process, capture its stderr
 * @fn, @arg: what to run; the child installs the default report handler first
 * @abort_env: value for REFCOUNT_ABORT in the child, or NULL to unset it
 * @out, @len: receives the child's stderr, NUL-terminated
 *
 * Return: the child's wait status.  The child exits 0 after @fn returns.
 */
int run_captured(void (*fn)(void *), void *arg, const char *abort_env,
		 char *out, size_t len);

/* Number of '\n'-terminated lines in @s. */
unsigned int count_lines(const char *s);

/*
 * Ask another thread: pthread_mutex_trylock() / pthread_spin_trylock(); if
 * it got the lock it unlocks it again.  Returns the trylock result (0 or
 * EBUSY).
 */
int trylock_from_other_thread(pthread_mutex_t *m);
int spin_trylock_from_other_thread(pthread_spinlock_t *l);

/* An error-checking mutex (unlock by a non-owner fails with EPERM). */
void errorcheck_mutex_init(pthread_mutex_t *m);

#endif /* TESTS_HELPERS_H */

/* SPDX-License-Identifier: MIT */
/*
 * refcount/impl/tracker-internal.h - what the ref_tracker's sources, the
 * report path and the tests share
 *
 * Internal; not part of the API.
 */
#ifndef REFCOUNT_IMPL_TRACKER_INTERNAL_H
#define REFCOUNT_IMPL_TRACKER_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>

struct ref_tracker_dir;

/* Where reports go (NULL: stderr).  Return: the previous stream. */
FILE *__ref_tracker_output(FILE *f);
/* The stream reports go to now. */
FILE *__ref_tracker_stream(void);
/* Tests: make the next @n tracker allocations fail. */
void __ref_tracker_inject_oom(unsigned int n);
/* Puts of already released trackers caught, process-wide. */
extern atomic_ulong __ref_tracker_double_puts;

/* Tests: the allocation (@freed false) or free stack of a tracker. */
struct ref_tracker;
unsigned int __ref_tracker_stack_of(const struct ref_tracker *t, _Bool freed);

struct __ref_tracker_dir_stats {
	unsigned long live, quarantined, chunks;
	size_t bytes; /* of the chunks */
};
void __ref_tracker_dir_stats(struct ref_tracker_dir *dir,
			     struct __ref_tracker_dir_stats *s);

/*
 * The counters the tracked wrappers saw, by address (src/tracker-holders.c):
 * a small table under one lock, looked up only when a report prints.
 */
void __ref_tracker_bind(struct ref_tracker_dir *dir, const void *counter);
void __ref_tracker_unbind_dir(struct ref_tracker_dir *dir);
/* Print the live trackers of @counter's dir, if it has one; true if so. */
_Bool __ref_tracker_print_holders(const void *counter);
/* Counters that could not be registered because the table was full. */
unsigned long __ref_tracker_unregistered(void);

#endif /* REFCOUNT_IMPL_TRACKER_INTERNAL_H */

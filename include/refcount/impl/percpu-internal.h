/* SPDX-License-Identifier: MIT */
/*
 * refcount/impl/percpu-internal.h - what src/percpu_ref.c and
 * src/percpu-pool.c share (internal, not part of the API)
 */
#ifndef REFCOUNT_IMPL_PERCPU_INTERNAL_H
#define REFCOUNT_IMPL_PERCPU_INTERNAL_H

#include <refcount/percpu_ref.h>

/* Choose the fast path and size the pool, once (pthread_once). */
void __percpu_ref_setup(void);
/* An object's slot in CPU 0's region (8-byte aligned), or 0: no memory. */
unsigned long __percpu_ref_slot_alloc(void);
void __percpu_ref_slot_free(unsigned long slot0);
/* membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ); aborts if it fails. */
void __percpu_ref_membarrier(void);

#endif /* REFCOUNT_IMPL_PERCPU_INTERNAL_H */

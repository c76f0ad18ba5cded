// SPDX-License-Identifier: MIT
/*
 * tests/boundary-long.c - tests/boundary.c on refcount_long_t
 *
 * The same rows and checks, at refcount_long_t's boundary values
 * (REFCOUNT_LONG_MAX, REFCOUNT_LONG_SATURATED, REFCOUNT_LONG_IMMORTAL,
 * LONG_MAX, LONG_MIN, ULONG_MAX), through boundary.c's BT_*() macros.
 */
#define BOUNDARY_LONG 1
#include "boundary.c"

/* SPDX-License-Identifier: MIT */
/*
 * refcount/version.h - which librefcount this is
 *
 * The Makefile reads the version from here (for the .so name and
 * refcount.pc), so it is written once.
 */
#ifndef REFCOUNT_VERSION_H
#define REFCOUNT_VERSION_H

/** REFCOUNT_VERSION_MAJOR - incompatible changes of the API or ABI */
#define REFCOUNT_VERSION_MAJOR 0
/** REFCOUNT_VERSION_MINOR - compatible additions */
#define REFCOUNT_VERSION_MINOR 4
/** REFCOUNT_VERSION_PATCH - fixes */
#define REFCOUNT_VERSION_PATCH 1

/**
 * REFCOUNT_VERSION - the version as one number, for comparisons
 *
 * MAJOR * 10000 + MINOR * 100 + PATCH: `#if REFCOUNT_VERSION >= 200` means
 * 0.2.0 or later.  REFCOUNT_VERSION_STRING is "MAJOR.MINOR.PATCH".
 */
#define REFCOUNT_VERSION                                                       \
	(REFCOUNT_VERSION_MAJOR * 10000 + REFCOUNT_VERSION_MINOR * 100 +       \
	 REFCOUNT_VERSION_PATCH)
#define __REFCOUNT_VERSION_STR(a, b, c) #a "." #b "." #c
#define __REFCOUNT_VERSION_XSTR(a, b, c) __REFCOUNT_VERSION_STR(a, b, c)
/** REFCOUNT_VERSION_STRING - "MAJOR.MINOR.PATCH" */
#define REFCOUNT_VERSION_STRING                                                \
	__REFCOUNT_VERSION_XSTR(REFCOUNT_VERSION_MAJOR,                        \
				REFCOUNT_VERSION_MINOR,                        \
				REFCOUNT_VERSION_PATCH)

#endif /* REFCOUNT_VERSION_H */

/* SPDX-License-Identifier: MIT */
/*
 * refcount/arch/aarch64.h - the fast breed's aarch64 fetch-and-add
 *
 * Included by <refcount/breed/fast.h>.  The 2017 x86 idea carried to arm64:
 * one atomic add that returns the old value, then one branch on the sign of
 * the result to a cold handler that saturates at INT_MIN / 2.  (Will Deacon's
 * 2017 arm64 proposal, "arm64: Implement fast refcount protection", had the
 * same shape; the kernel never merged an arm64 fast breed.)
 *
 * With ARMv8.1 LSE atomics (__ARM_FEATURE_ATOMICS, e.g. -march=armv8.1-a) the
 * add is one LDADD (relaxed) or LDADDL (release).  Without them it is an
 * exclusive-monitor LL/SC loop: LDXR/ADD/STXR, or STLXR for release.
 */
#ifndef REFCOUNT_ARCH_AARCH64_H
#define REFCOUNT_ARCH_AARCH64_H

#define __REFCOUNT_A64_CTR(r) ((r)->refs)

#if defined(__ARM_FEATURE_ATOMICS)
#define __REFCOUNT_A64_FETCH_ADD(name, ldadd, clobber)                         \
	static __refcount_always_inline int name(refcount_t *r, int i)         \
	{                                                                      \
		int old;                                                       \
		__asm__ __volatile__(                                          \
			ldadd " %w[i], %w[old], %[v]"                          \
			: [old] "=r"(old), [v] "+Q"(__REFCOUNT_A64_CTR(r))     \
			: [i] "r"(i)                                           \
			: clobber);                                            \
		return old;                                                    \
	}
__REFCOUNT_A64_FETCH_ADD(__refcount_fast_fetch_add_relaxed, "ldadd", "cc")
__REFCOUNT_A64_FETCH_ADD(__refcount_fast_fetch_add_release, "ldaddl", "memory")
#else
#define __REFCOUNT_A64_FETCH_ADD(name, stxr, clobber)                          \
	static __refcount_always_inline int name(refcount_t *r, int i)         \
	{                                                                      \
		int old, res;                                                  \
		unsigned int fail;                                             \
		__asm__ __volatile__(                                          \
			"prfm pstl1strm, %[v]\n"                               \
			"1:\tldxr %w[old], %[v]\n\t"                           \
			"add %w[res], %w[old], %w[i]\n\t" stxr                 \
			" %w[fail], %w[res], %[v]\n\t"                         \
			"cbnz %w[fail], 1b"                                    \
			: [old] "=&r"(old), [res] "=&r"(res),                  \
			  [fail] "=&r"(fail), [v] "+Q"(__REFCOUNT_A64_CTR(r))  \
			: [i] "r"(i)                                           \
			: clobber);                                            \
		return old;                                                    \
	}
__REFCOUNT_A64_FETCH_ADD(__refcount_fast_fetch_add_relaxed, "stxr", "cc")
__REFCOUNT_A64_FETCH_ADD(__refcount_fast_fetch_add_release, "stlxr", "memory")
#endif

#endif /* REFCOUNT_ARCH_AARCH64_H */

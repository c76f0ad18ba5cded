/* SPDX-License-Identifier: MIT */
/*
 * refcount/impl/compiler.h - compiler attributes and sanitizer detection
 *
 * Internal to librefcount's headers; not part of the API.
 */
#ifndef REFCOUNT_IMPL_COMPILER_H
#define REFCOUNT_IMPL_COMPILER_H

#if defined(__GNUC__) || defined(__clang__)
#define __refcount_must_check __attribute__((warn_unused_result))
#define __refcount_cold __attribute__((cold, noinline))
#define __refcount_nonnull __attribute__((nonnull))
#define __refcount_always_inline inline __attribute__((always_inline))
/*
 * __refcount_inline: the operations, always inline, at every -O level: so
 * that what they report names the user's call site, not a frame in these
 * headers or a clone of one the compiler made (gcc -O2 otherwise clones
 * __refcount_add() and kref_put() and calls the clone), as the kernel
 * forces its atomics inline.
 */
#define __refcount_inline __refcount_always_inline
#define __refcount_likely(x) __builtin_expect(!!(x), 1)
#define __refcount_unlikely(x) __builtin_expect(!!(x), 0)
#else
#define __refcount_must_check
#define __refcount_cold
#define __refcount_nonnull
#define __refcount_always_inline inline
#define __refcount_inline inline
#define __refcount_likely(x) (x)
#define __refcount_unlikely(x) (x)
#endif

/* Built with ThreadSanitizer (gcc or clang)? */
#if defined(__SANITIZE_THREAD__)
#define __REFCOUNT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define __REFCOUNT_TSAN 1
#endif
#endif

/*
 * Labels of asm goto paths, marked likely or not for gcc's block placement
 * (clang has no such label attributes; it lays them out well without).
 */
#if defined(__GNUC__) && !defined(__clang__)
#define __refcount_hot_label __attribute__((hot))
#define __refcount_cold_label __attribute__((cold))
#else
#define __refcount_hot_label
#define __refcount_cold_label
#endif

/*
 * The section of the x86 asm's out-of-line stubs: ".pushsection" this, the
 * stub, ".popsection".  Never a section the compiler is emitting into, so a
 * stub never lands after the instructions that fall through past it: an
 * operation inlined into cold code (a function gcc splits, a cold caller)
 * is itself in .text.unlikely, and a stub pushed to that same section
 * would sit right after it, on the path of the common case.  The name
 * still matches the linker's .text.unlikely.* rule; no function name gives
 * a second dot.
 */
#define __REFCOUNT_STUB_SECTION ".text.unlikely..refcount"

/*
 * __refcount_opaque_false(): an opaque copy of false, for the error paths of
 * asm goto operations that return bool.  Without it gcc merges the error
 * path's "return false" with the common one and moves both to the cold
 * section, so that the common case would jump there and back.
 */
#define __refcount_opaque_false()                                              \
	__extension__({                                                        \
		bool __no = false;                                             \
		__asm__("" : "+r"(__no));                                      \
		__no;                                                          \
	})
/* The same for true: the error paths of the saturating try-get. */
#define __refcount_opaque_true() (!__refcount_opaque_false())

/*
 * __refcount_no_tail(): after a call into the library that may report, it
 * keeps the call from being compiled as a tail call (a jump), so that the
 * library's return address, which a report names as the caller, is in the
 * code that called the operation and not in that code's own caller.
 * __refcount_call() and __refcount_call_void() make such a call.
 */
#define __refcount_no_tail() __asm__ __volatile__("")
#define __refcount_call(call)                                                  \
	__extension__({                                                        \
		__typeof__(call) __refcount_ret = (call);                      \
		__refcount_no_tail();                                          \
		__refcount_ret;                                                \
	})
#define __refcount_call_void(call)                                             \
	do {                                                                   \
		call;                                                          \
		__refcount_no_tail();                                          \
	} while (0)

/* C linkage for the out-of-line functions, when included from C++. */
#ifdef __cplusplus
#define __REFCOUNT_BEGIN_DECLS extern "C" {
#define __REFCOUNT_END_DECLS }
#else
#define __REFCOUNT_BEGIN_DECLS
#define __REFCOUNT_END_DECLS
#endif

/*
 * ISO C mode (-std=c11, not gnu11) hides POSIX.1-2001's pthread_spinlock_t
 * unless a feature macro asks for it (-pthread alone gives POSIX 1995).
 */
#if defined(__STRICT_ANSI__) &&                                                \
	!(defined(_POSIX_C_SOURCE) && _POSIX_C_SOURCE >= 200112L) &&           \
	!defined(_XOPEN_SOURCE) && !defined(_GNU_SOURCE) &&                    \
	!defined(_DEFAULT_SOURCE)
#define __REFCOUNT_NO_POSIX_2001 1
#endif

/* Token pasting and stringification through one level of expansion. */
#define __REFCOUNT_PASTE_(a, b, c) a##b##c
#define __REFCOUNT_PASTE(a, b, c) __REFCOUNT_PASTE_(a, b, c)
#define __REFCOUNT_STR_(x) #x
#define __REFCOUNT_STR(x) __REFCOUNT_STR_(x)

#endif /* REFCOUNT_IMPL_COMPILER_H */

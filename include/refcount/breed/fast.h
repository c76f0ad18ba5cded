/* SPDX-License-Identifier: MIT */
/*
 * refcount/breed/fast.h - the fast breed: 2017 x86 ARCH_HAS_REFCOUNT
 *
 * Included by <refcount/refcount.h> when REFCOUNT_BREED is
 * REFCOUNT_BREED_FAST.  Follows arch/x86/include/asm/refcount.h and the
 * ex_handler_refcount() exception handler of v4.14..v5.4: atomic_t's locked
 * instruction plus a branch on the flags.  When the result is negative
 * (refcount_dec(): zero or negative) a cold handler stores INT_MIN / 2 and
 * reports according to the flags the instruction left:
 *
 *   OF (crossed INT_MAX -> INT_MIN)     "refcount_t overflow at ..."
 *   ZF (refcount_dec() reached 0)       "refcount_t hit zero at ..."
 *   SF only (stepped on a negative or   silent: counted and handed to the
 *   saturated counter, or 0 -> -1)      handler, but not printed
 *
 * What it detects is its column of the misuse table in <refcount/refcount.h>.
 * It does not detect an increment from 0, exactly as in 2017 (only the
 * _not_zero forms refuse 0).
 *
 * Architecture code lives apart: <refcount/arch/x86.h> (x86-64 and i386, the
 * asm) and <refcount/arch/aarch64.h> (LSE LDADD with an LL/SC fallback, and
 * the flag test in C).  Other architectures get an #error.  Built with
 * ThreadSanitizer, which cannot see inside asm, the x86 fast paths are
 * replaced by the same fetch-and-add plus flag test in C11 atomics.
 *
 * The __refcount_*(..., oldp) forms (a 2020 API, after this breed was gone)
 * use `lock xadd` (aarch64: the same LDADD) and test the flags in C.
 */
#ifndef REFCOUNT_BREED_FAST_H
#define REFCOUNT_BREED_FAST_H

#ifndef REFCOUNT_H
#error "include <refcount/refcount.h>, not <refcount/breed/fast.h>"
#endif

/* REFCOUNT_IMMORTAL is a no-op here: the trap handler keeps it. */
#define __REFCOUNT_KEEPS_IMMORTAL 1

/* The x86 flags the 2017 exception handler looked at. */
#define __REFCOUNT_X86_OF 1u
#define __REFCOUNT_X86_ZF 2u
#define __REFCOUNT_X86_SF 4u

/*
 * __refcount_fast_error() - the fast breed's trap handler (internal)
 * @r: the counter
 * @t: the operation's report type
 * @flags: the __REFCOUNT_X86_* flags of the faulting operation
 *
 * Stores INT_MIN / 2 unconditionally, then reports as ex_handler_refcount()
 * did: OF or ZF print, SF alone is silent, no flag at all prints "unexpected
 * saturation".  Cold and out of line.
 */
void __refcount_fast_error(refcount_t *r, enum refcount_saturation_type t,
			   unsigned int flags) __refcount_cold;

#if (defined(__x86_64__) || defined(__i386__))
#include <refcount/arch/x86.h>
#if defined(__REFCOUNT_TSAN) || defined(REFCOUNT_FAST_NO_ASM)
#undef __REFCOUNT_FAST_HAVE_ASM
#endif
#elif defined(__aarch64__)
#include <refcount/arch/aarch64.h>
#else
#error "librefcount: REFCOUNT_BREED_FAST is the 2017 x86 design and exists for x86-64, i386 and aarch64 only; use REFCOUNT_BREED_SATURATING (the default), which is portable and as cheap"
#endif

/* The flags an x86 `add i` / `sub i` on @old would set. */
static __refcount_always_inline unsigned int __refcount_fast_flags(int res,
								   bool ovf)
{
	return (ovf ? __REFCOUNT_X86_OF : 0) | (!res ? __REFCOUNT_X86_ZF : 0) |
	       (res < 0 ? __REFCOUNT_X86_SF : 0);
}

static __refcount_always_inline unsigned int __refcount_fast_add_flags(int old,
								       int i)
{
	int res = __refcount_wrap_add(old, i);

	return __refcount_fast_flags(res, ((old ^ res) & (i ^ res)) < 0);
}

static __refcount_always_inline unsigned int __refcount_fast_sub_flags(int old,
								       int i)
{
	int res = __refcount_wrap_sub(old, i);

	return __refcount_fast_flags(res, ((old ^ i) & (old ^ res)) < 0);
}

/* The __refcount_*() forms below are documented in <refcount/refcount.h>. */

/* The 2017 C cmpxchg loop, fully ordered (atomic_try_cmpxchg). */
static __refcount_inline __refcount_must_check bool
__refcount_add_not_zero(int i, refcount_t *r, int *oldp)
{
	int c = __atomic_load_n(&r->refs, __ATOMIC_RELAXED);
	int result;

	do {
		if (__refcount_unlikely(c == 0))
			break;
		result = __refcount_wrap_add(c, i);
		/*
		 * Did we try to increment from/to an undesirable state?  The
		 * 2017 trap took the flags this test left: gcc and clang (-O2,
		 * -Os) compile it, for a constant i, as `cmp $(INT_MAX - i), c;
		 * ja`, so a negative c has OF when c - (INT_MAX - i) wraps
		 * (c < -1 - i, a saturated counter: "overflow"), else SF alone
		 * (silent).  docs/kernel-semantics.md, 'The fast breed'.
		 */
		if (__refcount_unlikely(c < 0 || c == INT_MAX || result < c)) {
			__refcount_call_void(__refcount_fast_error(
				r, REFCOUNT_ADD_NOT_ZERO_OVF,
				c >= 0 ? __REFCOUNT_X86_OF | __REFCOUNT_X86_SF :
				(long long)c < -1LL - i ? __REFCOUNT_X86_OF :
							  __REFCOUNT_X86_SF));
			break;
		}
	} while (!__atomic_compare_exchange_n(&r->refs, &c, result, true,
					      __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	if (oldp)
		*oldp = c;
	return c != 0;
}

static __refcount_inline __refcount_must_check bool
__refcount_add_not_zero_acquire(int i, refcount_t *r, int *oldp)
{
	return __refcount_add_not_zero(i, r, oldp);
}

static __refcount_always_inline void __refcount_add(int i, refcount_t *r,
						    int *oldp)
{
	int old;

#ifdef __REFCOUNT_FAST_HAVE_ASM
	if (__refcount_likely(!oldp)) {
		__refcount_fast_asm_add(i, r);
		return;
	}
#endif
	old = __refcount_fast_fetch_add_relaxed(r, i);
	if (oldp)
		*oldp = old;
	/* One branch on the sign; the flags are worked out on the cold side. */
	if (__refcount_unlikely(__refcount_wrap_add(old, i) < 0))
		__refcount_call_void(__refcount_fast_error(
			r, REFCOUNT_ADD_OVF,
			__refcount_fast_add_flags(old, i)));
}

#define __REFCOUNT_HAVE_INC 1
static __refcount_always_inline void __refcount_inc(refcount_t *r, int *oldp)
{
#ifdef __REFCOUNT_FAST_HAVE_ASM
	if (__refcount_likely(!oldp)) {
		__refcount_fast_asm_inc(r);
		return;
	}
#endif
	__refcount_add(1, r, oldp);
}

/* The C path of sub_and_test and dec_and_test (oldp forms, TSan, aarch64). */
static __refcount_always_inline bool
__refcount_fast_sub_and_test(int i, refcount_t *r, int *oldp)
{
	int old =
		__refcount_fast_fetch_add_release(r, __refcount_wrap_sub(0, i));
	int res = __refcount_wrap_sub(old, i);

	if (oldp)
		*oldp = old;
	if (__refcount_unlikely(res < 0)) {
		__refcount_call_void(__refcount_fast_error(
			r, REFCOUNT_SUB_UAF,
			__refcount_fast_sub_flags(old, i)));
		return false;
	}
	if (!res) {
		__refcount_acquire_after_dec(r);
		return true;
	}
	return false;
}

static __refcount_always_inline __refcount_must_check bool
__refcount_sub_and_test(int i, refcount_t *r, int *oldp)
{
#ifdef __REFCOUNT_FAST_HAVE_ASM
	if (__refcount_likely(!oldp))
		return __refcount_fast_asm_sub_and_test(i, r);
#endif
	return __refcount_fast_sub_and_test(i, r, oldp);
}

#define __REFCOUNT_HAVE_DEC_AND_TEST 1
static __refcount_always_inline __refcount_must_check bool
__refcount_dec_and_test(refcount_t *r, int *oldp)
{
#ifdef __REFCOUNT_FAST_HAVE_ASM
	if (__refcount_likely(!oldp))
		return __refcount_fast_asm_dec_and_test(r);
#endif
	return __refcount_fast_sub_and_test(1, r, oldp);
}

static __refcount_always_inline void __refcount_dec(refcount_t *r, int *oldp)
{
	int old;

#ifdef __REFCOUNT_FAST_HAVE_ASM
	if (__refcount_likely(!oldp)) {
		__refcount_fast_asm_dec(r);
		return;
	}
#endif
	old = __refcount_fast_fetch_add_release(r, -1);
	if (oldp)
		*oldp = old;
	/* REFCOUNT_CHECK_LE_ZERO: the result 0 or negative, i.e. old <= 1 */
	if (__refcount_unlikely(__refcount_wrap_sub(old, 1) <= 0))
		__refcount_call_void(__refcount_fast_error(
			r, REFCOUNT_DEC_LEAK,
			__refcount_fast_sub_flags(old, 1)));
}

#endif /* REFCOUNT_BREED_FAST_H */

/* SPDX-License-Identifier: MIT */
/*
 * refcount/impl/saturating-ops.h - the saturating design's operations, for
 * one counter type and one way of touching it
 *
 * Written once, instantiated by including this file (it has no include
 * guard) with these macros defined, which it undefines at its end:
 *
 *   __RC_T            the counter type (refcount_t, refcount_long_t)
 *   __RC_V, __RC_UV   its value type and that type's unsigned form
 *   __RC_F(op)        the name of the function for op, e.g.
 *                     __refcount_##op or __refcount_long_##op
 *   __RC_WARN(r, t)   the cold call that saturates @r and reports @t
 *   __RC_IMMORTAL(v)  whether @v is an immortal count
 *   __RC_ATOMIC       1 for the __atomic builtins, 0 for plain loads and
 *                     stores (the nonatomic breed)
 *   __RC_ASM          (optional) the x86 increments and decrements of
 *                     <refcount/arch/x86-saturating.h> (refcount_t only)
 *
 * It defines __RC_F() of add_not_zero_limited_acquire,
 * inc_not_zero_limited_acquire, add_not_zero (and its general loop,
 * add_not_zero_loop), add_not_zero_acquire, add,
 * sub_and_test and dec, the __refcount_*() forms that
 * <refcount/refcount.h> documents.  The design is the kernel's since v5.5
 * (include/linux/refcount.h, lib/refcount.c; Will Deacon): one
 * fetch-and-add or fetch-and-sub, then a check of the old value; a bad one
 * goes to the cold path, which stores the saturated value (or puts an
 * immortal one back) and reports.
 *
 * The word is MIN - count (__RC_ENC, its own inverse; docs/design.md, 'The
 * increment and the flags'): a get subtracts from it, a put adds.  Every
 * outcome is the kernel's on the decoded count but one, the word 0 (the
 * count MIN: zeroed memory, since a set stores no negative count but
 * SATURATED and the immortal band): a try-get refuses it like 0, a get
 * reports it as an add to 0, and a put on it moves it silently to MAX (a
 * leak), as the x86 flags of <refcount/arch/x86-saturating.h> do; these C
 * paths give the same outcomes on every word the API stores.  (The word
 * -1, the count -MAX, is not one: the x86 put of 1 moves it silently to 0,
 * these paths report it.)
 *
 * Internal to librefcount's headers; not part of the API.
 */

#if __RC_ATOMIC
#define __RC_LOAD(p) __atomic_load_n(p, __ATOMIC_RELAXED)
#define __RC_FETCH_ADD(p, i, mo) __atomic_fetch_add(p, i, mo)
#define __RC_FETCH_SUB(p, i, mo) __atomic_fetch_sub(p, i, mo)
#define __RC_CAS(p, oldp, new, mo)                                             \
	__atomic_compare_exchange_n(p, oldp, new, true, mo, __ATOMIC_RELAXED)
#define __RC_ACQUIRE_AFTER_DEC(r) __refcount_acquire_after_dec(r)
#else
/* One thread: plain loads and stores, in wrapping arithmetic. */
#define __RC_LOAD(p) (*(p))
#define __RC_FETCH_ADD(p, i, mo)                                               \
	__extension__({                                                        \
		__RC_V __rc_old = *(p);                                        \
		*(p) = __RC_WRAP_ADD(__rc_old, i);                             \
		__rc_old;                                                      \
	})
#define __RC_FETCH_SUB(p, i, mo)                                               \
	__extension__({                                                        \
		__RC_V __rc_old = *(p);                                        \
		*(p) = __RC_WRAP_SUB(__rc_old, i);                             \
		__rc_old;                                                      \
	})
#define __RC_CAS(p, oldp, new, mo)                                             \
	__extension__({                                                        \
		bool __rc_same = *(p) == *(oldp);                              \
		if (__rc_same)                                                 \
			*(p) = (new);                                          \
		else                                                           \
			*(oldp) = *(p);                                        \
		__rc_same;                                                     \
	})
#define __RC_ACQUIRE_AFTER_DEC(r) ((void)(r))
#endif

/* Wrapping arithmetic without signed-overflow undefined behaviour. */
#define __RC_WRAP_ADD(a, b) ((__RC_V)((__RC_UV)(a) + (__RC_UV)(b)))
/* The largest value of __RC_V (INT_MAX, LONG_MAX). */
#define __RC_MAXV ((__RC_V)((__RC_UV)-1 >> 1))
#define __RC_WRAP_SUB(a, b) ((__RC_V)((__RC_UV)(a) - (__RC_UV)(b)))
/* The smallest value, MIN; the word of a count and the count of a word. */
#define __RC_MINV ((__RC_V)(~((__RC_UV)-1 >> 1)))
#define __RC_ENC(v) __RC_WRAP_SUB(__RC_MINV, v)
/* Is the word @w that of 0 or the hole (MIN; zeroed memory)? */
#define __RC_ZERO_OR_HOLE(w) (!((w)&__RC_MAXV))

/**
 * __refcount_add_not_zero_limited_acquire() - add unless 0 or over a limit
 * @i: the value to add (a count of references)
 * @r: the refcount
 * @oldp: if not NULL, receives the value seen before the operation
 * @limit: the largest count this call may produce (inclusive); INT_MAX means
 *	no limit
 *
 * Follows the 2025 kernel (Suren Baghdasaryan), for objects whose memory may
 * be reused for another object of the same type (SLAB_TYPESAFE_BY_RCU).
 * Saturating breed only.
 *
 * Memory ordering: ACQUIRE on success (the compare-and-swap), nothing on
 * failure.  Context: any thread; lock-free.
 *
 * Return: false if the count was 0 (or the word is the hole: zeroed
 * memory, see above) or if @i would take it past @limit (then
 * nothing changes and nothing is reported); true otherwise, and for an
 * immortal counter.  As in the kernel, "past @limit" is tested as
 * `i > limit - old` in wrapping arithmetic, so a saturated counter (old < 0)
 * also returns false, without a report.
 *
 * Misuse: a result that overflows saturates and reports ADD_NOT_ZERO_OVF.
 */
static __refcount_inline __refcount_must_check bool
__RC_F(add_not_zero_limited_acquire)(__RC_V i, __RC_T *r, __RC_V *oldp,
				     __RC_V limit)
{
	__RC_V w = __RC_LOAD(&r->refs), old;

	do {
		old = __RC_ENC(w);
		if (__RC_ZERO_OR_HOLE(w))
			break;
		if (i > __RC_WRAP_SUB(limit, old)) {
			if (oldp)
				*oldp = old;
			/* Refused, but an immortal counter is always taken. */
			return __refcount_unlikely(__RC_IMMORTAL(old));
		}
	} while (
		!__RC_CAS(&r->refs, &w, __RC_WRAP_SUB(w, i), __ATOMIC_ACQUIRE));

	if (oldp)
		*oldp = old;
	if (!w)
		return false; /* the hole: refused, silently */
	if (__refcount_unlikely(old < 0 || __RC_WRAP_ADD(old, i) < 0))
		__refcount_call_void(__RC_WARN(r, REFCOUNT_ADD_NOT_ZERO_OVF));
	return old;
}

/**
 * __refcount_inc_not_zero_limited_acquire() - increment unless 0 or at a limit
 * @r: the refcount
 * @oldp: if not NULL, receives the value seen before the operation
 * @limit: the largest count this call may produce (inclusive)
 *
 * __refcount_add_not_zero_limited_acquire() with @i = 1.  Saturating breed
 * only.  Return: as there.
 */
static __refcount_inline __refcount_must_check bool
__RC_F(inc_not_zero_limited_acquire)(__RC_T *r, __RC_V *oldp, __RC_V limit)
{
	return __RC_F(add_not_zero_limited_acquire)(1, r, oldp, limit);
}

/*
 * The try-get's general loop: refuse 0 and the hole, else swap; a swap from
 * a negative count or one past MAX - @i saturates and reports (or puts an
 * immortal one back, judged on the swapped value, as the kernel's).  @w is
 * the word last read.  Returns the count seen (0: refused).
 */
static __refcount_inline __RC_V __RC_F(add_not_zero_loop)(__RC_V i, __RC_T *r,
							  __RC_V *oldp,
							  __RC_V w)
{
	__RC_V old;

	do {
		if (__RC_ZERO_OR_HOLE(w))
			break;
	} while (
		!__RC_CAS(&r->refs, &w, __RC_WRAP_SUB(w, i), __ATOMIC_RELAXED));

	old = __RC_ENC(w);
	if (oldp)
		*oldp = old;
	if (!w)
		return 0; /* the hole: refused, silently */
	if (__refcount_unlikely(old < 0 || __RC_WRAP_ADD(old, i) < 0))
		__refcount_call_void(__RC_WARN(r, REFCOUNT_ADD_NOT_ZERO_OVF));
	return old;
}

/* The __refcount_*() forms below are documented in <refcount/refcount.h>. */

static __refcount_inline __refcount_must_check bool
__RC_F(add_not_zero)(__RC_V i, __RC_T *r, __RC_V *oldp)
{
	__RC_V w = __RC_LOAD(&r->refs);

	/*
	 * For a constant 0 < i < MAX this is atomic_t's try-get, instruction
	 * for instruction: one compare and branch before each swap, and after
	 * it only the branch on the swap's own ZF.  The words above i are the
	 * counts 1 to MAX - i, the only ones an add of i takes to a good count
	 * (the word is MIN - count), so `w > i` (cmp $i, jle for i = 1) is the
	 * whole test and the success path tests nothing more.  Every other
	 * word (0 and the hole, refused; a negative count or one past MAX - i,
	 * swapped, saturated and reported) goes to the general loop, laid out
	 * as cold.  An instruction after a locked one costs on some CPUs even
	 * when it does not wait for it (docs/design.md, 'The try-get'); the
	 * shapes measured and dropped are in lab/results.md, "Measured and not
	 * taken".
	 */
	if (__builtin_constant_p(i) && i > 0 && i < __RC_MAXV) {
		do {
			if (__refcount_unlikely(w <= i))
				goto edge;
		} while (!__RC_CAS(&r->refs, &w, __RC_WRAP_SUB(w, i),
				   __ATOMIC_RELAXED));
		if (oldp)
			*oldp = __RC_ENC(w);
		return true;
	edge:
		__refcount_cold_label;
		return __RC_F(add_not_zero_loop)(i, r, oldp, w);
	}
	return __RC_F(add_not_zero_loop)(i, r, oldp, w);
}

static __refcount_inline __refcount_must_check bool
__RC_F(add_not_zero_acquire)(__RC_V i, __RC_T *r, __RC_V *oldp)
{
	return __RC_F(add_not_zero_limited_acquire)(i, r, oldp,
						    (__RC_V)((__RC_UV)-1 >> 1));
}

static __refcount_inline void __RC_F(add)(__RC_V i, __RC_T *r, __RC_V *oldp)
{
	__RC_V w;

#ifdef __RC_ASM
	if (__refcount_likely(!oldp && __builtin_constant_p(i) && i > 0 &&
			      i < __RC_MAXV)) {
		__refcount_sat_asm_add(i, r);
		return;
	}
#endif
	w = __RC_FETCH_SUB(&r->refs, i, __ATOMIC_RELAXED);
	if (oldp)
		*oldp = __RC_ENC(w);
	/*
	 * For a constant 0 < i < MAX, the bad cases (old == 0, old < 0,
	 * old + i past MAX) are together "word <= i": one compare of the old
	 * word (x86's `lock sub; jle` on the new one).  The cold path then
	 * tells them apart: an add to 0 or to the hole (zeroed memory) is
	 * ADD_UAF.
	 */
	if (__builtin_constant_p(i) && i > 0 && i < __RC_MAXV) {
		if (__refcount_unlikely(w <= i)) {
			if (__RC_ZERO_OR_HOLE(w))
				__refcount_call_void(
					__RC_WARN(r, REFCOUNT_ADD_UAF));
			else
				__refcount_call_void(
					__RC_WARN(r, REFCOUNT_ADD_OVF));
		}
		return;
	}
	if (__refcount_unlikely(__RC_ZERO_OR_HOLE(w)))
		__refcount_call_void(__RC_WARN(r, REFCOUNT_ADD_UAF));
	else if (__refcount_unlikely(__RC_ENC(w) < 0 ||
				     __RC_WRAP_ADD(__RC_ENC(w), i) < 0))
		__refcount_call_void(__RC_WARN(r, REFCOUNT_ADD_OVF));
}

static __refcount_inline __refcount_must_check bool
__RC_F(sub_and_test)(__RC_V i, __RC_T *r, __RC_V *oldp)
{
	__RC_V old;

#ifdef __RC_ASM
	if (__refcount_likely(!oldp && __builtin_constant_p(i) && i > 0))
		return __refcount_sat_asm_sub_and_test(i, r);
#endif
	old = __RC_ENC(__RC_FETCH_ADD(&r->refs, i, __ATOMIC_RELEASE));

	if (oldp)
		*oldp = old;
	if (old > 0 && old == i) {
		__RC_ACQUIRE_AFTER_DEC(r);
		return true;
	}
	/* The hole (a put on the word 0) moves on silently, as on x86. */
	if (__refcount_unlikely(old <= 0 || __RC_WRAP_SUB(old, i) < 0) &&
	    !(old == __RC_MINV && i > 0))
		__refcount_call_void(__RC_WARN(r, REFCOUNT_SUB_UAF));
	return false;
}

static __refcount_inline void __RC_F(dec)(__RC_T *r, __RC_V *oldp)
{
	__RC_V old;

#ifdef __RC_ASM
	if (__refcount_likely(!oldp)) {
		__refcount_sat_asm_dec(r);
		return;
	}
#endif
	old = __RC_ENC(__RC_FETCH_ADD(&r->refs, 1, __ATOMIC_RELEASE));

	if (oldp)
		*oldp = old;
	/* The hole (a put on the word 0) moves on silently, as on x86. */
	if (__refcount_unlikely(old <= 1) && old != __RC_MINV)
		__refcount_call_void(__RC_WARN(r, REFCOUNT_DEC_LEAK));
}

#undef __RC_LOAD
#undef __RC_FETCH_ADD
#undef __RC_FETCH_SUB
#undef __RC_CAS
#undef __RC_ACQUIRE_AFTER_DEC
#undef __RC_WRAP_ADD
#undef __RC_MAXV
#undef __RC_WRAP_SUB
#undef __RC_MINV
#undef __RC_ENC
#undef __RC_ZERO_OR_HOLE
#undef __RC_T
#undef __RC_V
#undef __RC_UV
#undef __RC_F
#undef __RC_WARN
#undef __RC_IMMORTAL
#undef __RC_ATOMIC
#undef __RC_ASM

// SPDX-License-Identifier: MIT
/*
 * fast-trap.c - the fast breed's trap handler
 *
 * Follows ex_handler_refcount() (arch/x86/mm/extable.c, v4.14..v5.4): store
 * INT_MIN / 2 first, unconditionally, then report according to the flags the
 * faulting instruction left.
 */
#include <refcount/breed/registry.h>
#ifdef REFCOUNT_HAVE_BREED_FAST
#undef REFCOUNT_BREED /* this file is the fast breed, whatever -D says */
#define REFCOUNT_BREED REFCOUNT_BREED_FAST
#include <refcount/refcount.h>

void __refcount_fast_error(refcount_t *r, enum refcount_saturation_type t,
			   unsigned int flags)
{
	enum __refcount_msg msg = __REFCOUNT_MSG_SILENT;

	/* Immortal (REFCOUNT_IMMORTAL, maybe moved by a racing op): no-op. */
	if (__REFCOUNT_IMMORTAL_VALUE(
		    __atomic_load_n(&r->refs, __ATOMIC_RELAXED))) {
		__atomic_store_n(&r->refs, REFCOUNT_IMMORTAL, __ATOMIC_RELAXED);
		return;
	}
	__atomic_store_n(&r->refs, REFCOUNT_SATURATED, __ATOMIC_RELAXED);

	/*
	 * OF: crossed INT_MAX -> INT_MIN.  ZF: refcount_dec() hit 0.  Both are
	 * boundary conditions worth a report.  SF alone means a step below 0
	 * or on an already saturated counter: silent.  No flag at all should
	 * be impossible: report it.
	 */
	if (flags & (__REFCOUNT_X86_OF | __REFCOUNT_X86_ZF))
		msg = (flags & __REFCOUNT_X86_ZF) ?
			      __REFCOUNT_MSG_X86_HIT_ZERO :
			      __REFCOUNT_MSG_X86_OVERFLOW;
	else if (!(flags & __REFCOUNT_X86_SF))
		msg = __REFCOUNT_MSG_X86_UNEXPECTED;
	__refcount_report(r, t, msg, __builtin_return_address(0),
			  REFCOUNT_BREED_NAME);
}
#endif /* REFCOUNT_HAVE_BREED_FAST */

// SPDX-License-Identifier: MIT
/*
 * tests/flags-only.c - the default breed's hot paths, one per function, for
 * tests/flags-only.sh to disassemble
 *
 * Each hp_<op>() holds one operation on a counter it is given, so that its
 * code is the operation's inline fast path (and its .cold part the report
 * call).  The checker reads the locked instructions of each.  Built -O2 with
 * gcc and clang, for x86-64 and i386; never run.
 */
#define RCUREF_NO_URCU
#include <refcount/kref.h>
#include <refcount/rcuref.h>
#include <refcount/refcount.h>

#define HP __attribute__((noinline))

HP void hp_inc(refcount_t *r)
{
	refcount_inc(r);
}

HP void hp_add(refcount_t *r)
{
	refcount_add(2, r);
}

HP bool hp_dec_and_test(refcount_t *r)
{
	return refcount_dec_and_test(r);
}

HP bool hp_sub_and_test(refcount_t *r)
{
	return refcount_sub_and_test(2, r);
}

HP void hp_dec(refcount_t *r)
{
	refcount_dec(r);
}

HP void hp_kref_get(struct kref *k)
{
	kref_get(k);
}

static void release(struct kref *k)
{
	(void)k;
}

HP int hp_kref_put(struct kref *k)
{
	return kref_put(k, release);
}

/* The try-gets: a compare-and-swap loop, whose flags end it. */
HP bool hp_try_inc_not_zero(refcount_t *r)
{
	return refcount_inc_not_zero(r);
}

HP int hp_try_kref_get_unless_zero(struct kref *k)
{
	return kref_get_unless_zero(k);
}

HP bool hp_rcuref_get(rcuref_t *r)
{
	return rcuref_get(r);
}

HP bool hp_rcuref_put(rcuref_t *r)
{
	return rcuref_put(r);
}

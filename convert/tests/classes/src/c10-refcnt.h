/* c10-refcnt.h - the project's atomic type and reference count macros; the
 * primitive is chosen by #if */
#ifndef C10_REFCNT_H
#define C10_REFCNT_H

typedef struct prj_atomic {
	volatile int value;
} prj_atomic_t;

#if defined(__ATOMIC_SEQ_CST) && !defined(PRJ_NO_ATOMIC_BUILTINS)
#define prj_atomic_add(a, i)                                                   \
	__atomic_fetch_add(&(a)->value, (i), __ATOMIC_SEQ_CST)
#define prj_atomic_store(a, i)                                                 \
	__atomic_store_n(&(a)->value, (i), __ATOMIC_SEQ_CST)
#define prj_atomic_load(a) __atomic_load_n(&(a)->value, __ATOMIC_SEQ_CST)
#elif defined(__GNUC__)
#define prj_atomic_add(a, i) __sync_fetch_and_add(&(a)->value, (i))
#define prj_atomic_store(a, i)                                                 \
	((void)__sync_lock_test_and_set(&(a)->value, (i)))
#define prj_atomic_load(a) __sync_fetch_and_add(&(a)->value, 0)
#else
int prj_atomic_add_locked(prj_atomic_t *a, int i);
#define prj_atomic_add(a, i) prj_atomic_add_locked((a), (i))
#define prj_atomic_store(a, i) ((a)->value = (i))
#define prj_atomic_load(a) prj_atomic_add_locked((a), 0)
#endif

#define PRJ_REFCNT_DECLARE prj_atomic_t _ref
#define PRJ_REFCNT_INIT(p) prj_atomic_store(&(p)->_ref, 1)
#define PRJ_REFCNT_INC(p) prj_atomic_add(&(p)->_ref, 1)
#define PRJ_REFCNT_DEC(p) (prj_atomic_add(&(p)->_ref, -1) - 1)
#define PRJ_REFCNT_VALUE(p) prj_atomic_load(&(p)->_ref)

#endif

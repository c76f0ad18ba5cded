/* A count type: a tagged one-member struct, its operations macros over
 * inline functions chosen by #if, embedded in two objects. */
#ifndef REF_H
#define REF_H

#ifdef USE_LEGACY_SYNC
static inline void ref_atomic_add(long *p) { __sync_fetch_and_add(p, 1); }
static inline long ref_atomic_sub(long *p) { return __sync_sub_and_fetch(p, 1); }
#else
static inline void ref_atomic_add(long *p) { __atomic_add_fetch(p, 1, __ATOMIC_RELAXED); }
static inline long ref_atomic_sub(long *p) { return __atomic_sub_fetch(p, 1, __ATOMIC_ACQ_REL); }
#endif

struct obj_ref {
	long cnt;
};

#define OBJ_REF_SET(r, v) ((r)->cnt = (v))
#define OBJ_REF_GET(r) ref_atomic_add(&(r)->cnt)
#define OBJ_REF_PUT(r) ref_atomic_sub(&(r)->cnt)

#endif

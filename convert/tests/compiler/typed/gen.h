/* What a configure step writes: the primitive, token-pasted. */
#define HAVE_ATOMICS 1
#define MY_OP(A, B, P, V) __atomic_##A##_##B(P, V, __ATOMIC_SEQ_CST)

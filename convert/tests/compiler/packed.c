/* A count packed in a bitfield beside other fields, the word they share
 * updated by a compare-and-swap loop on a union of the struct and an int:
 * the field changed by += on the local copy is the one counted; a field
 * only stored (=) is not. */
struct closure { unsigned ref_count : 15; unsigned in_use : 1; unsigned flags : 16; };
typedef union { struct closure closure; int vint; } closure_int;

#define CHANGE(cl, f, OP, v)                                                    \
	do {                                                                    \
		closure_int *u = (closure_int *)(cl);                           \
		closure_int tmp;                                                \
		int o, n;                                                       \
		do {                                                            \
			tmp.vint = o = u->vint;                                 \
			tmp.closure.f OP v;                                     \
			n = tmp.vint;                                           \
		} while (!__atomic_compare_exchange_n(&u->vint, &o, n, 0,       \
				__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));           \
	} while (0)

void closure_ref(struct closure *c) { CHANGE(c, ref_count, +=, 1); }
void closure_unref(struct closure *c) { CHANGE(c, ref_count, -=, 1); }
void closure_set_flags(struct closure *c) { CHANGE(c, flags, =, 3); }

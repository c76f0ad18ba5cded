#include <stdatomic.h>
/* C11 explicit (OpenSSL CRYPTO_DOWN_REF style) */
struct obj { atomic_int references; };
void obj_up(struct obj *o) { atomic_fetch_add_explicit(&o->references, 1, memory_order_relaxed); }
void obj_free(struct obj *o)
{
	if (atomic_fetch_sub_explicit(&o->references, 1, memory_order_release) - 1 == 0)
		obj_cleanup(o);
}

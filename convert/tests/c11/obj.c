#include <stdatomic.h>
#include <stdlib.h>
/* C11 through function wrappers (libusb usbi_atomic_inc/dec) */
typedef atomic_long usbi_atomic_t;
static inline long usbi_atomic_inc(usbi_atomic_t *a)
{
	return atomic_fetch_add(a, 1) + 1;
}
static inline long usbi_atomic_dec(usbi_atomic_t *a)
{
	return atomic_fetch_add(a, -1) - 1;
}
struct dev { atomic_long refcnt; };
void dev_ref(struct dev *d) { usbi_atomic_inc(&d->refcnt); }
void dev_unref(struct dev *d)
{
	if (usbi_atomic_dec(&d->refcnt) == 0)
		dev_destroy(d);
}

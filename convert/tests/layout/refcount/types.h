/* The fixtures' layout probe: refcount_t from the library, and the
 * long-sized count of the conversion contract (convert/README.md), so that
 * the fixtures' expected output does not depend on which library features
 * are merged.  Not installed. */
#include "../../../../include/refcount/types.h"
#ifndef REFCOUNT_LONG_INIT
typedef struct refcount_long_struct {
	long refs;
} refcount_long_t;
#endif

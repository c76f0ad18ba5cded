#include "wrap.h"

int ext_dec(ext_count_t *c) { return __atomic_sub_fetch(&c->n, 1, __ATOMIC_ACQ_REL); }
void ext_inc(ext_count_t *c) { (void)__atomic_add_fetch(&c->n, 1, __ATOMIC_RELAXED); }

# mk/breeds.mk - the breeds, as make sees them
#
# Read from the C registry, include/refcount/breed/registry.h, so that the
# list is written once: one `__REFCOUNT_ROW_<name>(X) X(<name>, <NAME>, ...)`
# line per breed.
#
#   BREEDS               the breed names, in the registry's order
#   BREEDS_THREADED      the same without the breeds for one thread
#                        (nonatomic), for tests and benchmarks with threads;
#                        BREED_ROWS_THREADED their rows
#   BREED_VARIANTS       $(BREEDS), fast-noasm and saturating-noasm (the
#                        fast and saturating breeds built with their portable
#                        C fast paths instead of their x86 asm:
#                        -DREFCOUNT_FAST_NO_ASM, -DREFCOUNT_SATURATING_NO_ASM)
#   BREED_CFLAGS_<v>     the compiler flags that select variant <v>
#   breed_cflags         $(call breed_cflags,<v>): the same, as a function

BREED_REGISTRY := include/refcount/breed/registry.h
# (the sed script is in a variable: make would count its parentheses)
BREED_SED := s/^.define __REFCOUNT_ROW_\([a-z0-9_]*\)(X) *X(\1, *\([A-Z0-9_]*\),.*/\1:\2/p
BREED_ROWS := $(shell sed -n '$(BREED_SED)' $(BREED_REGISTRY))
ifeq ($(strip $(BREED_ROWS)),)
$(error mk/breeds.mk: no breed rows in $(BREED_REGISTRY))
endif
BREEDS := $(foreach r,$(BREED_ROWS),$(firstword $(subst :, ,$(r))))
$(foreach r,$(BREED_ROWS),$(eval BREED_CFLAGS_$(firstword $(subst :, ,$(r))) := \
	-DREFCOUNT_BREED=REFCOUNT_BREED_$(lastword $(subst :, ,$(r)))))

# The breeds for one thread only (registry.h's __REFCOUNT_ONE_THREAD_<name>
# lines), which tests and benchmarks with threads leave out.
BREEDS_ONE_THREAD := $(shell sed -n 's/^.define __REFCOUNT_ONE_THREAD_\([a-z0-9_]*\) 1$$/\1/p' $(BREED_REGISTRY))
BREEDS_THREADED := $(filter-out $(BREEDS_ONE_THREAD),$(BREEDS))
BREED_ROWS_THREADED := $(filter-out $(BREEDS_ONE_THREAD:%=%:%),$(foreach r,$(BREED_ROWS),$(r)))
BREED_VARIANTS := $(BREEDS) fast-noasm saturating-noasm
BREED_CFLAGS_fast-noasm := $(BREED_CFLAGS_fast) -DREFCOUNT_FAST_NO_ASM
BREED_CFLAGS_saturating-noasm := $(BREED_CFLAGS_saturating) \
	-DREFCOUNT_SATURATING_NO_ASM

breed_cflags = $(or $(BREED_CFLAGS_$(1)),$(error unknown breed variant '$(1)'; known: $(BREED_VARIANTS)))

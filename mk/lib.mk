# mk/lib.mk - the library, built from src/ for one variant
#
# One recipe for every copy of the library: the installed one (the
# Makefile), the test variants (tests/unit.mk), the sanitizer and fuzzing
# flavours and the qemu cross builds (tests/stress.mk).
#
#   $(eval $(call LIB_VARIANT,DIR,CC,CFLAGS,ORDER-ONLY[,SRCDIR]))
#       DIR/librefcount.a and DIR/librefcount.so (with its .so.$(SOVER)
#       link name), from objects in DIR/lib/; CFLAGS must hold -fPIC for
#       the .so.  LIB_OBJS_DIR names the objects.  ORDER-ONLY: what must
#       exist before compiling (a stamp that installs the compiler).
#       SRCDIR: a copy of src/ to build from instead (a mutant's,
#       tests/mutants/mutants.mk).
#
# src/dec-and-lock.c is built once per breed (liburcu-style flavours): every
# symbol it defines carries the breed's name (__refcount_<breed>_*), so units
# built with different breeds link into one program.  The other sources are
# breed-free.

LIB_HDRS := $(wildcard include/refcount/*.h include/refcount/*/*.h)
LIB_SRCS := src/report.c src/extern.c src/long.c src/full-ops.c src/fast-trap.c \
	src/rcuref.c src/ref_tracker.c \
	src/tracker-holders.c src/tracker-cache.c src/stackdepot.c \
	src/stack-capture.c \
	src/symbolize.c \
	src/percpu_ref.c src/percpu-pool.c
# The frame-pointer walk starts in these files' frames (src/stack-capture.c).
LIB_CFLAGS_ref_tracker := -fno-omit-frame-pointer
LIB_CFLAGS_stack-capture := -fno-omit-frame-pointer
LIB_FLAVOURED := src/dec-and-lock.c

define LIB_VARIANT
LIB_OBJS_$(1) := $(LIB_SRCS:src/%.c=$(1)/lib/%.o) \
	$(BREEDS:%=$(1)/lib/dec-and-lock-%.o)
$(1)/lib/%.o: $(or $(5),src)/%.c $$(LIB_HDRS) | $(4)
	@mkdir -p $$(@D)
	$(2) $(3) $$(LIB_CFLAGS_$$*) -c $$< -o $$@
$(1)/lib/dec-and-lock-%.o: $(LIB_FLAVOURED:src/%=$(or $(5),src)/%) $$(LIB_HDRS) | $(4)
	@mkdir -p $$(@D)
	$(2) $(3) $$(call breed_cflags,$$*) -c $$< -o $$@
$(1)/librefcount.a: $$(LIB_OBJS_$(1))
	rm -f $$@ && ar rcs $$@ $$^
$(1)/librefcount.so: $$(LIB_OBJS_$(1))
	$(2) $(3) -shared -Wl,-soname,librefcount.so.$(SOVER) $$(LDFLAGS) \
		-o $$@.$(SOVER) $$^
	ln -sf librefcount.so.$(SOVER) $$@
endef

# librefcount: hardened reference counting for C, with the measurements that
# tell what the hardening costs.
#
#   make              build build/librefcount.a and build/librefcount.so
#   make check        every test (installs what it is missing)
#   make bench        the main job: refcount-bench (installs what it is missing)
#   make install PREFIX=/usr/local DESTDIR=
#
# mk/ holds what every area shares (the breed list, the library recipe, the
# unit-suite recipe); each area keeps its rules in a fragment beside its
# sources: tests/tests.mk, tests/reliability.mk, tests/tracker.mk,
# bench/bench.mk, nullblk/nullblk.mk.  A fragment adds its test targets to
# CHECK_TARGETS; `make check` runs them all.  docs/architecture.md describes them.

CC      ?= cc
PREFIX  ?= /usr/local
LIBDIR  ?= $(PREFIX)/lib
INCDIR  ?= $(PREFIX)/include
DESTDIR ?=
B       := build
VERSION := 0.1.0
SOVER   := 0

WARN    := -Wall -Wextra -Werror
CSTD    := -std=gnu11
OPT     ?= -O2 -g
CFLAGS  ?=
LDFLAGS ?=
ALL_CFLAGS = $(CSTD) $(OPT) $(WARN) -Iinclude -pthread $(CFLAGS)
NEED    := mk/need

# The breeds (from the C registry) and the library recipe.
include mk/breeds.mk
include mk/lib.mk
include mk/unit.mk

# The installed library: a static one, and a shared one from -fPIC objects.
$(eval $(call LIB_VARIANT,$(B),$(CC),$$(ALL_CFLAGS)))
$(eval $(call LIB_VARIANT,$(B)/pic,$(CC),$$(ALL_CFLAGS) -fPIC))
LIB_PIC_OBJS = $(LIB_OBJS_$(B)/pic)

.PHONY: all lib check install uninstall clean format distclean
all: lib
lib: $(B)/librefcount.a $(B)/pic/librefcount.so

# refcount.pc is written at install time, so that it names the PREFIX given
# to `make install`.
PC_SED = sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	     -e 's|@INCDIR@|$(INCDIR)|' -e 's|@VERSION@|$(VERSION)|'

install: lib
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig
	for d in $(sort $(dir $(LIB_HDRS))); do \
		install -d $(DESTDIR)$(INCDIR)/$${d#include/} && \
		install -m 644 $$d*.h $(DESTDIR)$(INCDIR)/$${d#include/}; done
	install -m 644 $(B)/librefcount.a $(DESTDIR)$(LIBDIR)/
	install -m 755 $(B)/pic/librefcount.so.$(SOVER) \
		$(DESTDIR)$(LIBDIR)/librefcount.so.$(VERSION)
	ln -sf librefcount.so.$(VERSION) $(DESTDIR)$(LIBDIR)/librefcount.so.$(SOVER)
	ln -sf librefcount.so.$(SOVER) $(DESTDIR)$(LIBDIR)/librefcount.so
	$(PC_SED) mk/refcount.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/refcount.pc

uninstall:
	rm -rf $(DESTDIR)$(INCDIR)/refcount
	rm -f $(DESTDIR)$(LIBDIR)/librefcount.* $(DESTDIR)$(LIBDIR)/pkgconfig/refcount.pc

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(B)

# The README's example, compiled with -Werror and run against its expected
# output.
.PHONY: check-example
check-example: $(B)/librefcount.a
	$(CC) $(ALL_CFLAGS) docs/example-lookup.c $(B)/librefcount.a -o $(B)/example-lookup
	$(B)/example-lookup > $(B)/example-lookup.out
	diff -u docs/example-lookup.expected $(B)/example-lookup.out
	@echo "check-example: passed"

CHECK_TARGETS := check-example
include tests/tests.mk
include bench/bench.mk
include nullblk/nullblk.mk
include tests/reliability.mk
include tests/tracker.mk

check: $(CHECK_TARGETS)
	@echo "make check: all of $(CHECK_TARGETS) passed"

# librefcount: hardened reference counting for C, with the measurements that
# tell what the hardening costs.
#
#   make              build build/librefcount.a and build/pic/librefcount.so
#   make check        every test (installs what it is missing)
#   make bench        the main job: refcount-bench (installs what it is missing)
#   make install PREFIX=/usr/local DESTDIR=
#
# Variables: WERROR= (no -Werror), NEED=true (install no Debian packages),
# CC, OPT, CFLAGS, LDFLAGS, PREFIX (absolute), LIBDIR, INCDIR, DESTDIR.
#
# mk/ holds what every area shares (the breed list, the library recipe, the
# unit-suite recipe); each area keeps its rules in a fragment beside its
# sources: tests/tests.mk, tests/reliability.mk, tests/tracker.mk,
# lab/bench/bench.mk, lab/nullblk/nullblk.mk.  A fragment adds its test targets to
# CHECK_TARGETS; `make check` runs them all.  docs/architecture.md describes them.

# `make` alone builds the library, whatever the fragments below define first.
.DEFAULT_GOAL := all
# Every fragment adds its tests to this; `make check` runs them all.
CHECK_TARGETS :=

CC      ?= cc
PREFIX  ?= /usr/local
LIBDIR  ?= $(PREFIX)/lib
INCDIR  ?= $(PREFIX)/include
DESTDIR ?=
B       := build
# The version is written once, in include/refcount/version.h.
VERSION := $(shell sed -n 's/^\#define REFCOUNT_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$$/\2/p' \
	include/refcount/version.h | paste -sd.)
SOVER   := 0

# Warnings are errors; `make WERROR=` (or WERROR=0) turns -Werror off, for
# packagers whose compilers are newer than the ones this is tested with.
WERROR  ?= 1
WARN    := -Wall -Wextra $(if $(filter-out 0 no,$(strip $(WERROR))),-Werror)
CSTD    := -std=gnu11
OPT     ?= -O2 -g
CFLAGS  ?=
LDFLAGS ?=
ALL_CFLAGS = $(CSTD) $(OPT) $(WARN) -Iinclude -pthread $(CFLAGS)
NEED    := mk/need

# The breeds (from the C registry) and the library recipe.
include mk/args.mk
include mk/breeds.mk
include mk/lib.mk
include mk/unit.mk
include mk/sanitizers.mk
include mk/man.mk

# The installed library: a static one, and a shared one from -fPIC objects.
# The static one is PIC too, so that it can be bundled into a shared object
# (tests/convlib.mk, check-pic).
$(eval $(call LIB_VARIANT,$(B),$(CC),$$(ALL_CFLAGS) -fPIC))
$(eval $(call LIB_VARIANT,$(B)/pic,$(CC),$$(ALL_CFLAGS) -fPIC))
LIB_PIC_OBJS = $(LIB_OBJS_$(B)/pic)

.PHONY: all lib check install uninstall clean format distclean
all: lib
lib: $(B)/librefcount.a $(B)/pic/librefcount.so

# refcount.pc and refcount-rcu.pc (rcuref.h's liburcu path: refcount +
# liburcu-memb) are written at install time, so that they name the PREFIX
# given to `make install`: an absolute one (checked before anything is
# built).
ifneq ($(filter install uninstall,$(MAKECMDGOALS)),)
$(foreach v,PREFIX LIBDIR INCDIR MANDIR,$(call need_abspath,$(v)))
endif
PC_SED = sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	     -e 's|@INCDIR@|$(INCDIR)|' -e 's|@VERSION@|$(VERSION)|'

install: lib install-man
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
	$(PC_SED) mk/refcount-rcu.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/refcount-rcu.pc

# The man pages' names: the list mk/man.mk writes when it makes them.
uninstall: $(MAN_STAMP)
	rm -rf $(DESTDIR)$(INCDIR)/refcount
	rm -f $(DESTDIR)$(LIBDIR)/librefcount.* $(DESTDIR)$(LIBDIR)/pkgconfig/refcount.pc \
		$(DESTDIR)$(LIBDIR)/pkgconfig/refcount-rcu.pc
	rm -f $$(sed 's|^$(MAN_DIR)/|$(DESTDIR)$(MANDIR)/man3/|' $(B)/man/pages)

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(B)

include tests/mutants/mutants.mk
include tests/tests.mk
include lab/lab.mk
include tests/reliability.mk
include tests/input.mk
include tests/tracker.mk
include tests/convlib.mk
include tests/percpu.mk
include tests/convert/convert.mk
include examples/examples.mk

check: $(CHECK_TARGETS)
	@echo "make check: all of $(CHECK_TARGETS) passed"

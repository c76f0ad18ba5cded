# librefcount: hardened reference counting for C, with the measurements that
# tell what the hardening costs.
#
# The entry points, which `make help` prints (every other target is
# internal to a fragment):
#   make                  build/librefcount.a and build/pic/librefcount.so
#   make check            every test below (installs what it is missing)
#   make check-unit       the unit tier (tests/unit.mk, mk/man.mk)
#   make check-integration  the integration tier (tests/integration.mk)
#   make check-stress     stress, fuzz and model checks (tests/stress.mk)
#   make check-examples   every example (examples/examples.mk)
#   make check-convert    the converter on real Debian projects (convert/lab/lab.mk)
#   make check-qemu       the unit and reliability suites under qemu-user
#   make check-need       each target installs what it uses (mk/need.mk)
#   make bench            refcount-bench (lab/bench/bench.mk)
#   make nullblk-bench    the fio null_blk runs (lab/nullblk/nullblk.mk)
#   make install PREFIX=/usr/local DESTDIR=   (and uninstall)
#   make packages         the Debian packages the targets install
#   make help             this list
# check-convert, check-qemu and check-need are outside make check (.ci/run
# runs them after it).
#
# Variables: WERROR= (no -Werror), NEED=true (install no Debian packages),
# CC, OPT, CFLAGS, LDFLAGS, PREFIX (absolute), LIBDIR, INCDIR, DESTDIR.
#
# mk/ holds what every fragment shares (the breed list, the library recipe,
# the unit-suite recipe, the sanitizer table, the man pages); the tests'
# fragments are by tier, the lab's beside its sources (lab/lab.mk).  A
# fragment adds its test targets to CHECK_TARGETS; each tier's are those
# its fragment added.  docs/architecture.md describes them.

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
include mk/ops.mk

# The installed library: a static one, and a shared one from -fPIC objects.
# The static one is PIC too, so that it can be bundled into a shared object
# (tests/integration.mk, check-anystd).
$(eval $(call LIB_VARIANT,$(B),$(CC),$$(ALL_CFLAGS) -fPIC))
$(eval $(call LIB_VARIANT,$(B)/pic,$(CC),$$(ALL_CFLAGS) -fPIC))
LIB_PIC_OBJS = $(LIB_OBJS_$(B)/pic)

# The entry points' names, from the list above.
ENTRY_POINTS := $(.DEFAULT_GOAL) \
	$(shell sed -n '1,/^$$/s/^\#   make \([a-z][a-z-]*\).*/\1/p' Makefile)

.PHONY: all lib check install uninstall clean format distclean help
help:
	@sed -n '1,/^$$/s/^#   \(make\)/  \1/p' Makefile
all: lib
lib: $(B)/librefcount.a $(B)/pic/librefcount.so

# refcount.pc and refcount-rcu.pc (rcuref.h's liburcu path: refcount +
# liburcu-memb) are written at install time, so that they name the PREFIX
# given to `make install`: an absolute one (checked before anything is
# built).
ifneq ($(filter install uninstall,$(MAKECMDGOALS)),)
$(foreach v,PREFIX LIBDIR INCDIR MANDIR DOCDIR,$(call need_abspath,$(v)))
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
	rm -rf $(DESTDIR)$(DOCDIR)

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(B)

# The tests, by tier (docs/architecture.md, 'The make fragments'): each
# tier's targets are the ones its fragment adds to CHECK_TARGETS.
tier_added = $(filter-out $(CHECK_SEEN),$(CHECK_TARGETS))$(eval CHECK_SEEN := $(CHECK_TARGETS))
include tests/mutants/mutants.mk
include tests/unit.mk
CHECK_TIER_unit := $(tier_added)
include lab/lab.mk
CHECK_TIER_lab := $(tier_added)
include tests/stress.mk
CHECK_TIER_stress := $(tier_added)
include tests/integration.mk
CHECK_TIER_integration := $(tier_added)
include convert/convert.mk
CHECK_TIER_convert := $(tier_added)
include examples/examples.mk
CHECK_TIER_examples := $(tier_added)

define CHECK_TIER
.PHONY: check-$(1)
check-$(1): $(CHECK_TIER_$(1))
	@echo "make check-$(1): all of $(CHECK_TIER_$(1)) passed"
endef
CHECK_TIERS := unit integration stress lab
$(foreach t,$(CHECK_TIERS),$(eval $(call CHECK_TIER,$(t))))
include mk/need.mk

check: $(CHECK_TARGETS)
	@echo "make check: all of $(CHECK_TARGETS) passed"

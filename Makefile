# librefcount: hardened reference counting for C, with the measurements that
# tell what the hardening costs.
#
#   make              build build/librefcount.a and build/librefcount.so
#   make check        every test (installs what it is missing)
#   make bench        the main job: refcount-bench (installs what it is missing)
#   make install PREFIX=/usr/local DESTDIR=
#
# Each area keeps its rules in a fragment beside its sources: tests/tests.mk,
# bench/bench.mk, nullblk/nullblk.mk.  A fragment adds its test targets to
# CHECK_TARGETS; `make check` runs them all.

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

BREEDS  := atomic fast full saturating

LIB_HDRS := $(wildcard include/refcount/*.h include/refcount/arch/*.h)

# Out-of-line library code.  src/refcount-slow.c is one source built once per
# breed (liburcu-style flavours): every symbol it defines carries the breed's
# name, so units built with different breeds link into one program.
LIB_SRCS := src/report.c src/full.c src/fast.c
LIB_OBJS := $(LIB_SRCS:src/%.c=$(B)/obj/%.o) \
	$(BREEDS:%=$(B)/obj/slow-%.o)
PIC_OBJS := $(LIB_OBJS:$(B)/obj/%.o=$(B)/pic/%.o)

.PHONY: all lib check install uninstall clean format distclean
all: lib
lib: $(B)/librefcount.a $(B)/librefcount.so

$(B)/obj/%.o: src/%.c $(LIB_HDRS) | $(B)/obj
	$(CC) $(ALL_CFLAGS) -c $< -o $@
$(B)/pic/%.o: src/%.c $(LIB_HDRS) | $(B)/pic
	$(CC) $(ALL_CFLAGS) -fPIC -c $< -o $@
$(B)/obj/slow-%.o: src/refcount-slow.c $(LIB_HDRS) | $(B)/obj
	$(CC) $(ALL_CFLAGS) -DREFCOUNT_BREED=REFCOUNT_BREED_$(shell echo $* | tr a-z A-Z) -c $< -o $@
$(B)/pic/slow-%.o: src/refcount-slow.c $(LIB_HDRS) | $(B)/pic
	$(CC) $(ALL_CFLAGS) -fPIC -DREFCOUNT_BREED=REFCOUNT_BREED_$(shell echo $* | tr a-z A-Z) -c $< -o $@

$(B)/librefcount.a: $(LIB_OBJS)
	rm -f $@ && ar rcs $@ $^
$(B)/librefcount.so: $(PIC_OBJS)
	$(CC) -shared -pthread -Wl,-soname,librefcount.so.$(SOVER) $(LDFLAGS) -o $@ $^
# refcount.pc is written at install time, so that it names the PREFIX given
# to `make install`.
PC_SED = sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	     -e 's|@INCDIR@|$(INCDIR)|' -e 's|@VERSION@|$(VERSION)|'

$(B) $(B)/obj $(B)/pic:
	mkdir -p $@

install: lib
	install -d $(DESTDIR)$(INCDIR)/refcount/arch $(DESTDIR)$(LIBDIR)/pkgconfig
	install -m 644 include/refcount/*.h $(DESTDIR)$(INCDIR)/refcount/
	install -m 644 include/refcount/arch/*.h $(DESTDIR)$(INCDIR)/refcount/arch/
	install -m 644 $(B)/librefcount.a $(DESTDIR)$(LIBDIR)/
	install -m 755 $(B)/librefcount.so $(DESTDIR)$(LIBDIR)/librefcount.so.$(VERSION)
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
-include tests/tests.mk
-include bench/bench.mk
-include nullblk/nullblk.mk
-include tests/reliability.mk

check: $(CHECK_TARGETS)
	@echo "make check: all of $(CHECK_TARGETS) passed"

# tests/tests.mk - the test suite: `make check` runs it (issue 2).
#
#   check-unit-gcc    every suite below, built with gcc
#   check-unit-clang  the same with clang
#   check-asan        the same with gcc -fsanitize=address,undefined
#   check-tsan        the lifetime test with gcc -fsanitize=thread (Criterion
#                     cannot run under TSan; the lifetime test covers
#                     kref_put_mutex/_lock and kref_get_unless_zero)
#   check-install     `make install` to a stage, then a program outside the
#                     tree built with `pkg-config --cflags --libs refcount`
#   check-docs        docs/breeds.md is what the LKDTM table says
#
# Each variant has its own directory build/tests/<variant>/ with its own
# copy of the library (compiled from src/ with the variant's compiler and
# flags, as librefcount.a and librefcount.so) and its test programs:
#
#   unit-<breed>      Criterion, one object per suite:
#                     lkdtm.c     the 17 LKDTM scenarios, what the default
#                                 report handler prints, the REFCOUNT_ABORT
#                                 death test
#                     boundary.c  every operation at 0, 1, MAX-1, MAX,
#                                 SATURATED (and INT_MAX, INT_MIN, UINT_MAX)
#                     kref.c      kref, the lock helpers with pthread locks
#   lifetime-<breed>  threads racing kref_get_unless_zero lookups against the
#                     final kref_put_mutex()/kref_put_lock()/kref_put()
#   mixed-static, mixed-shared
#                     all four breeds in one program (against the .a, the .so)
#
# <breed> is one of $(BREEDS), and in the gcc variant also fast-noasm (the
# fast breed's portable C fast paths, -DREFCOUNT_FAST_NO_ASM).  The
# expectations live in tests/lkdtm-table.h and tests/boundary.c.

TB       := $(B)/tests
T_SUITES := lkdtm boundary kref
# The fast breed's portable C paths (fast-noasm): the gcc variant only (TSan
# builds use them anyway).
T_BREEDS_gcc := $(BREED_VARIANTS)
T_HDRS   := $(wildcard tests/*.h) $(LIB_HDRS)

# The variants: compiler, extra flags, and how to run a test program.
T_VARIANTS := gcc clang asan tsan
T_CC_gcc     := gcc
T_CC_clang   := clang
T_CC_asan    := gcc
T_CC_tsan    := gcc
T_SAN_asan   := -O1 -fsanitize=address,undefined -fno-sanitize-recover=all \
		-fno-omit-frame-pointer
T_SAN_tsan   := -O1 -fsanitize=thread
# Leak checks where memory is managed (the lifetime test); in the Criterion
# programs they would only cost a scan per forked test.
T_ENV_asan   := ASAN_OPTIONS=abort_on_error=1:detect_leaks=0 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
T_LIFETIME_ENV_asan := ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
T_ENV_tsan   := TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
T_CFLAGS = $(ALL_CFLAGS) $(T_SAN_$(1))

# The lifetime test's size: threads, rounds per thread.
T_LIFETIME_ARGS      := 4 500000
T_LIFETIME_ARGS_asan := 4 200000
T_LIFETIME_ARGS_tsan := 4 100000

# Criterion runs each test in a child process; two workers for two cores.
T_CRITERION_ARGS := --jobs=2 --short-filename

T_NEED_STAMP := $(TB)/.need
$(T_NEED_STAMP):
	$(NEED) gcc clang libcriterion-dev pkg-config \
		libasan8 libubsan1 libtsan2
	mkdir -p $(@D) && touch $@

# T_VARIANT(variant): the library (mk/lib.mk) and every test program of one
# variant.
define T_VARIANT
$$(eval $$(call LIB_VARIANT,$(TB)/$(1),$$$$(T_CC_$(1)),\
	$$$$(call T_CFLAGS,$(1)) -fPIC,$(T_NEED_STAMP)))
$(TB)/$(1)/helpers.o: tests/helpers.c $(T_HDRS) | $(T_NEED_STAMP)
	@mkdir -p $$(@D)
	$$(T_CC_$(1)) $$(call T_CFLAGS,$(1)) -c $$< -o $$@

# Plain programs, every variant: the lifetime test.
$$(foreach b,$(or $(T_BREEDS_$(1)),$(BREEDS)),\
	$$(eval $$(call T_LIFETIME,$(1),$$(b))))

# Criterion programs: not under TSan (Criterion cannot run there).
ifneq ($(1),tsan)
T_BINS_$(1) :=
$$(foreach b,$(or $(T_BREEDS_$(1)),$(BREEDS)),\
	$$(eval $$(call T_UNIT,$(1),$$(b))))

$(TB)/$(1)/mixed-unit-%.o: tests/mixed-unit.c $(T_HDRS) | $(T_NEED_STAMP)
	@mkdir -p $$(@D)
	$$(T_CC_$(1)) $$(call T_CFLAGS,$(1)) $$(call breed_cflags,$$*) -DBREED_SUFFIX=$$* \
		-c $$< -o $$@
T_MIXED_OBJS_$(1) := $(BREEDS:%=$(TB)/$(1)/mixed-unit-%.o) $(TB)/$(1)/helpers.o
$(TB)/$(1)/mixed-static: tests/mixed.c $$(T_MIXED_OBJS_$(1)) \
		$(TB)/$(1)/librefcount.a $(T_HDRS)
	$$(T_CC_$(1)) $$(call T_CFLAGS,$(1)) $$< $$(T_MIXED_OBJS_$(1)) \
		$(TB)/$(1)/librefcount.a -lcriterion -o $$@
$(TB)/$(1)/mixed-shared: tests/mixed.c $$(T_MIXED_OBJS_$(1)) \
		$(TB)/$(1)/librefcount.so $(T_HDRS)
	$$(T_CC_$(1)) $$(call T_CFLAGS,$(1)) $$< $$(T_MIXED_OBJS_$(1)) \
		-L$(TB)/$(1) -lrefcount -Wl,-rpath,'$$$$ORIGIN' -lcriterion -o $$@
T_BINS_$(1) += $(TB)/$(1)/mixed-static $(TB)/$(1)/mixed-shared
endif
endef

# T_UNIT(variant, breed): the Criterion program of one breed, from one
# object per suite.
define T_UNIT
$(TB)/$(1)/obj/%-$(2).o: tests/%.c $(T_HDRS) | $(T_NEED_STAMP)
	@mkdir -p $$(@D)
	$$(T_CC_$(1)) $$(call T_CFLAGS,$(1)) $$(call breed_cflags,$(2)) -c $$< -o $$@
$(TB)/$(1)/unit-$(2): $(T_SUITES:%=$(TB)/$(1)/obj/%-$(2).o) \
		$(TB)/$(1)/helpers.o $(TB)/$(1)/librefcount.a
	$$(T_CC_$(1)) $$(call T_CFLAGS,$(1)) $$^ -lcriterion -o $$@
T_BINS_$(1) += $(TB)/$(1)/unit-$(2)
endef

# T_LIFETIME(variant, breed): the multithreaded lifetime test.
define T_LIFETIME
$(TB)/$(1)/lifetime-$(2): tests/lifetime.c $(TB)/$(1)/helpers.o \
		$(TB)/$(1)/librefcount.a $(T_HDRS)
	$$(T_CC_$(1)) $$(call T_CFLAGS,$(1)) $$(call breed_cflags,$(2)) $$< \
		$(TB)/$(1)/helpers.o $(TB)/$(1)/librefcount.a -o $$@
T_LIFETIME_BINS_$(1) += $(TB)/$(1)/lifetime-$(2)
endef

$(foreach v,$(T_VARIANTS),$(eval $(call T_VARIANT,$(v))))

# Run every program of a variant; stop at the first failure.
T_RUN = set -e; for t in $(T_BINS_$(1)); do \
		echo "== $$t"; $(T_ENV_$(1)) $$t $(T_CRITERION_ARGS); done; \
	for t in $(T_LIFETIME_BINS_$(1)); do \
		echo "== $$t $(or $(T_LIFETIME_ARGS_$(1)),$(T_LIFETIME_ARGS))"; \
		$(or $(T_LIFETIME_ENV_$(1)),$(T_ENV_$(1))) $$t \
			$(or $(T_LIFETIME_ARGS_$(1)),$(T_LIFETIME_ARGS)); \
	done

.PHONY: check-unit-gcc check-unit-clang check-asan check-tsan check-install \
	check-docs update-breeds-md
check-unit-gcc: $(T_BINS_gcc) $(T_LIFETIME_BINS_gcc)
	@$(call T_RUN,gcc)
check-unit-clang: $(T_BINS_clang) $(T_LIFETIME_BINS_clang)
	@$(call T_RUN,clang)
check-asan: $(T_BINS_asan) $(T_LIFETIME_BINS_asan)
	@$(call T_RUN,asan)
check-tsan: $(T_LIFETIME_BINS_tsan)
	@$(call T_RUN,tsan)

# The installed copy, used from outside the tree through pkg-config.
T_STAGE := $(TB)/stage
check-install: lib | $(T_NEED_STAMP)
	rm -rf $(T_STAGE)
	$(MAKE) --no-print-directory install PREFIX=/usr DESTDIR=$(abspath $(T_STAGE))
	sh tests/install-test.sh $(T_STAGE) gcc "$(BREED_ROWS)"

# docs/breeds.md is generated from the table the tests assert.
$(TB)/gen-breeds-md: tests/gen-breeds-md.c $(TB)/gcc/helpers.o \
		$(TB)/gcc/librefcount.a $(T_HDRS)
	gcc $(call T_CFLAGS,gcc) $< $(TB)/gcc/helpers.o $(TB)/gcc/librefcount.a -o $@
# The misuse table in refcount.h: the lines between its markers.
T_HDR_TABLE := include/refcount/refcount.h
T_TABLE_RANGE := /BEGIN misuse table/,/END misuse table/
check-docs: $(TB)/gen-breeds-md
	$(TB)/gen-breeds-md | diff -u docs/breeds.md - || \
		{ echo "docs/breeds.md is stale: make update-breeds-md"; exit 1; }
	sed -n '$(T_TABLE_RANGE)p' $(T_HDR_TABLE) | \
		diff -u - $(TB)/gen-breeds-md.header || \
		{ echo "$(T_HDR_TABLE)'s misuse table is stale: make update-breeds-md"; \
		exit 1; }
	@echo "check-docs: docs/breeds.md and the misuse table in $(T_HDR_TABLE) are what tests/lkdtm-table.h says"
$(TB)/gen-breeds-md.header: $(TB)/gen-breeds-md
	$< --header > $@
check-docs: $(TB)/gen-breeds-md.header
update-breeds-md: $(TB)/gen-breeds-md $(TB)/gen-breeds-md.header
	$(TB)/gen-breeds-md > docs/breeds.md
	sed -i -e '$(T_TABLE_RANGE){/BEGIN misuse table/r $(TB)/gen-breeds-md.header' \
		-e 'd}' $(T_HDR_TABLE)

CHECK_TARGETS += check-unit-gcc check-unit-clang check-asan check-tsan \
	check-install check-docs

# tests/integration.mk - the integration tier: the library as a user's
# program meets it (installed, through pkg-config, from C90 to C++, under
# TSan, with its reports' call sites and log), what it gives conversions of
# real code (convert/README.md, 'The library's conversion features'), the
# tracker compiled out, and refcount-bench's bad input.
#
#   check-anystd   <refcount/refcount.h> from C90, C99, C11 and C++ through
#                  pkg-config, and librefcount.a bundled into a .so
#                  (tests/anystd.sh), each with its mutant

.PHONY: check-anystd
check-anystd: lib | $(UNIT_NEED)
	rm -rf $(TB)/stage-anystd
	$(MAKE) --no-print-directory install PREFIX=/usr \
		DESTDIR=$(abspath $(TB)/stage-anystd) > /dev/null
	sh tests/anystd.sh $(TB)/stage-anystd .
CHECK_TARGETS += check-anystd

# Immortal counters (REFCOUNT_IMMORTAL): the boundary suite's IMMORTAL rows
# (tests/boundary.c) in every breed are part of check-unit-*; here
#  - the mutant: the saturating and fast suites linked against cold paths
#    that do not recognise an immortal counter (src/report.c and
#    src/fast-trap.c with the test removed) must fail;
#  - the hot paths: tests/immortal-hot.c's inline operations, per breed,
#    hold none of the immortal test's constants; the mutant that tests
#    refcount_is_immortal() inline is caught.
T_IMM := $(TB)/immortal
T_IMM_CONST := 0x[79]0000000|0x1fffffff|0x20000000|0xa0000000|0x60000000
$(T_IMM)/%-mutant.o: src/%.c $(LIB_HDRS) | $(UNIT_NEED)
	@mkdir -p $(@D)
	sed 's/__REFCOUNT_IMMORTAL_VALUE(/0 \&\& __REFCOUNT_IMMORTAL_VALUE(/' \
		$< > $(T_IMM)/$*-mutant.c
	grep -q '0 && __REFCOUNT_IMMORTAL_VALUE' $(T_IMM)/$*-mutant.c
	gcc $(ALL_CFLAGS) -Isrc -c $(T_IMM)/$*-mutant.c -o $@
define T_IMM_UNIT
$(T_IMM)/unit-$(1): $(UNIT_SUITES:%=$(TB)/gcc/obj/%-$(1).o) \
		$(TB)/gcc/helpers.o $(T_IMM)/report-mutant.o \
		$(T_IMM)/fast-trap-mutant.o $(TB)/gcc/librefcount.a
	gcc $$(ALL_CFLAGS) $$^ -lcriterion -o $$@
endef
T_IMM_BREEDS := $(filter-out atomic full,$(BREEDS))
$(foreach b,$(T_IMM_BREEDS),$(eval $(call T_IMM_UNIT,$(b))))
$(T_IMM)/hot-%.o: tests/immortal-hot.c $(LIB_HDRS) | $(UNIT_NEED)
	@mkdir -p $(@D)
	gcc $(ALL_CFLAGS) $(call breed_cflags,$(subst -mutant,,$*)) \
		$(if $(findstring -mutant,$*),-DHOT_MUTANT) -c $< -o $@
.PHONY: check-immortal
check-immortal: $(T_IMM_BREEDS:%=$(T_IMM)/unit-%) \
		$(BREED_VARIANTS:%=$(T_IMM)/hot-%.o) $(T_IMM)/hot-saturating-mutant.o
	@set -e; for b in $(T_IMM_BREEDS); do \
		if $(T_IMM)/unit-$$b --filter 'boundary/*' $(T_CRITERION_ARGS) \
			> $(T_IMM)/unit-$$b.log 2>&1; then \
			echo "check-immortal: $$b: cold paths blind to immortal went unnoticed"; \
			exit 1; fi; \
		grep -q "at IMMORTAL" $(T_IMM)/unit-$$b.log || \
			{ cat $(T_IMM)/unit-$$b.log; exit 1; }; done
	@echo "check-immortal: cold paths that do not keep REFCOUNT_IMMORTAL fail the boundary suite ($(T_IMM_BREEDS)), as they must"
	@set -e; for v in $(BREED_VARIANTS); do \
		if objdump -d $(T_IMM)/hot-$$v.o | grep -Eq '$(T_IMM_CONST)'; then \
			objdump -d $(T_IMM)/hot-$$v.o | grep -E '$(T_IMM_CONST)'; \
			echo "check-immortal: $$v: an immortal test in the inline code"; \
			exit 1; fi; done
	@objdump -d $(T_IMM)/hot-saturating-mutant.o | grep -Eq '$(T_IMM_CONST)' || \
		{ echo "check-immortal: the inline-check mutant went unnoticed"; exit 1; }
	@echo "check-immortal: no inline operation of $(BREED_VARIANTS) tests for immortal; the mutant that does is caught"
CHECK_TARGETS += check-immortal

# refcount_long_t: tests/boundary-long.c (boundary.c's rows on a long) is a
# suite of check-unit-*; its mutant, src/long.c storing refcount_t's
# SATURATED (an int's INT_MIN / 2) instead of the long's, must fail it.
$(T_IMM)/long-mutant.o: src/long.c $(LIB_HDRS) | $(UNIT_NEED)
	@mkdir -p $(@D)
	sed 's/__REFCOUNT_LONG_WORD(REFCOUNT_LONG_SATURATED)/__REFCOUNT_LONG_WORD(REFCOUNT_SATURATED)/' \
		$< > $(T_IMM)/long-mutant.c
	grep -q '__REFCOUNT_LONG_WORD(REFCOUNT_SATURATED)' $(T_IMM)/long-mutant.c
	gcc $(ALL_CFLAGS) -c $(T_IMM)/long-mutant.c -o $@
$(T_IMM)/unit-long-mutant: $(UNIT_SUITES:%=$(TB)/gcc/obj/%-saturating.o) \
		$(TB)/gcc/helpers.o $(T_IMM)/long-mutant.o $(TB)/gcc/librefcount.a
	gcc $(ALL_CFLAGS) $^ -lcriterion -o $@
.PHONY: check-long
check-long: $(T_IMM)/unit-long-mutant
	@if $< --filter 'boundary_long/*' $(T_CRITERION_ARGS) > $<.log 2>&1; then \
		echo "check-long: the mutant (a long saturated at INT_MIN / 2) went unnoticed"; \
		exit 1; fi
	@grep -q "refcount_long_" $<.log || { cat $<.log; exit 1; }
	@echo "check-long: the mutant refcount_long_t (saturated at an int's INT_MIN / 2) fails boundary_long, as it must"
CHECK_TARGETS += check-long

# The nonatomic breed joins every per-breed suite through the registry (and
# is left out of those with threads: BREEDS_THREADED).  Here: its inline
# operations (tests/immortal-hot.c) hold no atomic instruction, and the
# control, the saturating breed's, does (so the test can see one).
T_ATOMIC_INSN := lock|cmpxchg|ldadd|ldxr|stxr|casal
.PHONY: check-nonatomic
check-nonatomic: $(T_IMM)/hot-nonatomic.o $(T_IMM)/hot-saturating.o
	@if objdump -d $< | grep -Eqw '$(T_ATOMIC_INSN)'; then \
		objdump -d $< | grep -Ew '$(T_ATOMIC_INSN)'; \
		echo "check-nonatomic: an atomic instruction in the nonatomic breed"; \
		exit 1; fi
	@objdump -d $(T_IMM)/hot-saturating.o | grep -Eqw '$(T_ATOMIC_INSN)' || \
		{ echo "check-nonatomic: the control (saturating) shows no atomic"; exit 1; }
	@echo "check-nonatomic: no atomic instruction in the nonatomic breed's inline operations; the saturating breed's control has them"
CHECK_TARGETS += check-nonatomic

# REFCOUNT_REPORT_LOG=FILE (tests/report-log.sh), with two mutants of
# src/report.c: the log opened without O_APPEND, and an unopenable log not
# said.
T_LOG := $(TB)/report-log
T_LOG_MUT_append := s/O_WRONLY | O_APPEND | O_CREAT/O_WRONLY | O_CREAT/
T_LOG_MUT_nolog := s/report_log_failed(path, errno);/;/
$(T_LOG)/report-%.o: src/report.c $(LIB_HDRS) | $(UNIT_NEED)
	@mkdir -p $(@D)
	sed '$(T_LOG_MUT_$*)' $< > $(T_LOG)/report-$*.c
	! cmp -s $< $(T_LOG)/report-$*.c
	gcc $(ALL_CFLAGS) -fPIC -Isrc -c $(T_LOG)/report-$*.c -o $@
$(T_LOG)/prog: tests/report-log.c $(B)/librefcount.a | $(UNIT_NEED)
	@mkdir -p $(@D)
	gcc $(ALL_CFLAGS) -rdynamic $< $(B)/librefcount.a -o $@
$(T_LOG)/prog-%: tests/report-log.c $(T_LOG)/report-%.o $(B)/librefcount.a
	gcc $(ALL_CFLAGS) -rdynamic $^ -o $@
.PHONY: check-report-log
check-report-log: $(T_LOG)/prog $(T_LOG)/prog-append $(T_LOG)/prog-nolog
	sh tests/report-log.sh $^
CHECK_TARGETS += check-report-log

# What a converted single-threaded get/put costs (lab/bench/nonatomic-cost.c):
# a benchmark, not in make check; run it alone, under the shared lock.
T_NA_BIN := $(B)/bench/nonatomic-cost
$(T_NA_BIN): lab/bench/nonatomic-cost.c lab/bench/nonatomic-cost-sat.c \
		lab/bench/nonatomic-cost.h $(B)/librefcount.a $(LIB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) lab/bench/nonatomic-cost.c lab/bench/nonatomic-cost-sat.c \
		$(B)/librefcount.a -o $@
.PHONY: bench-nonatomic
bench-nonatomic: $(T_NA_BIN)
	flock /tmp/bench.lock $(T_NA_BIN)

# The installed headers under strict warnings (tests/strict.sh).
.PHONY: check-strict
check-strict: lib | $(UNIT_NEED)
	rm -rf $(TB)/stage-strict
	$(MAKE) --no-print-directory install PREFIX=/usr \
		DESTDIR=$(abspath $(TB)/stage-strict) > /dev/null
	sh tests/strict.sh $(TB)/stage-strict "$(BREED_ROWS)"
CHECK_TARGETS += check-strict

# A TSan build of a user's program against the installed library (not
# built with TSan) reports no false race (tests/tsan-installed.sh).
.PHONY: check-tsan-installed
check-tsan-installed: lib | $(UNIT_NEED)
	rm -rf $(TB)/stage-tsan
	$(MAKE) --no-print-directory install PREFIX=/usr \
		DESTDIR=$(abspath $(TB)/stage-tsan) > /dev/null
	sh tests/tsan-installed.sh $(TB)/stage-tsan "$(BREED_ROWS_THREADED)"
CHECK_TARGETS += check-tsan-installed

# Reports name the user's call site at every -O level (tests/caller.sh).
.PHONY: check-caller
check-caller: $(B)/librefcount.a | $(UNIT_NEED)
	sh tests/caller.sh $(B) "$(BREED_ROWS)"
CHECK_TARGETS += check-caller

# The installed copy, used from outside the tree through pkg-config.
T_STAGE := $(TB)/stage
.PHONY: check-install
check-install: lib | $(UNIT_NEED)
	rm -rf $(T_STAGE)
	$(MAKE) --no-print-directory install PREFIX=/usr DESTDIR=$(abspath $(T_STAGE))
	sh tests/install-test.sh $(T_STAGE) gcc "$(BREED_ROWS)"
	sh tests/install-docs.sh $(T_STAGE)
	@# the mutant: a page installed as built (naming docs/) must fail it
	rm -rf $(TB)/stage-docs && mkdir -p $(TB)/stage-docs/usr/share
	cp -r $(T_STAGE)/usr/share/man $(T_STAGE)/usr/share/doc $(TB)/stage-docs/usr/share/
	cp $(MAN_DIR)/refcount_read.3 $(TB)/stage-docs/usr/share/man/man3/
	! sh tests/install-docs.sh $(TB)/stage-docs 2>/dev/null
	@echo "check-install: the mutant (a page naming docs/) fails install-docs, as it must"
CHECK_TARGETS += check-install

# The ref_tracker compiled out: the wrappers and ref_tracker_*() calls add 0
# bytes and 0 instructions at their call sites: tests/tracker-off.sh compares
# the object code per breed, gcc and clang, against a control build with
# REFCOUNT_TRACKER that must differ.
.PHONY: check-tracker-off
check-tracker-off: | $(TRK_NEED)
	@sh tests/tracker-off.sh gcc $(TRK)/off-gcc "$(ALL_CFLAGS)" \
		$(foreach b,$(BREEDS),"$(call breed_cflags,$(b))")
	@sh tests/tracker-off.sh clang $(TRK)/off-clang "$(ALL_CFLAGS)" \
		$(foreach b,$(BREEDS),"$(call breed_cflags,$(b))")
CHECK_TARGETS += check-tracker-off

# Bad input:
#   check-input   every bad input of refcount-bench's options, make plot
#                 (lab/bench/plot.sh), lab/bench/check.jq, and the make variables
#                 FUZZ_SECONDS, STRESS_OPS, STRESS_THREADS, PREFIX, LIBDIR
#                 and WERROR, and the --only of convert/lab/projects.py and
#                 corpus.py: each must exit non-zero with a message that
#                 names the value, and write nothing (tests/input.sh).  A
#                 few seconds: no benchmark runs, only option parsing and
#                 refcount-bench --quick --suites=codesize.

.PHONY: check-input
check-input: $(BENCH_BIN) lib
	@$(NEED) jq gnuplot-nox
	MAKE='$(MAKE)' sh tests/input.sh $(BENCH_BIN) $(B)/input \
		$(B)/lib/report.o

CHECK_TARGETS += check-input

# tests/percpu.mk - percpu_ref's checks beyond the unit suite
#
#   make check            also runs (CHECK_TARGETS):
#     check-percpu        unit-percpu_ref (gcc) on each fast path, asserting
#                         which one it runs: rseq as it is (PERCPU_HOST_PATH),
#                         the atomic slots with GLIBC_TUNABLES=
#                         glibc.pthread.rseq=0; then tests/stress/percpu-race.c,
#                         kill racing gets and puts from every thread, under
#                         ASan (gcc, clang) and TSan (clang, gcc) on both
#                         paths; then the mutant (a switch that forgets the
#                         slots), which must fail
#     check-percpu-spin   the kill/switch protocol in Promela
#                         (tests/spin/percpu.pml): one killer and two
#                         getter/putter threads, every interleaving, with
#                         spin; and the mutant model, which must fail
#
# The unit suite itself (mk/unit.mk) also runs in every unit variant and
# under qemu (aarch64 and i386: the atomic slots, qemu-user has no rseq).

# The path the host must choose: rseq (either index) on x86-64 and aarch64.
PERCPU_HOST_PATH ?= rseq
PERCPU_RACE_ROUNDS ?= 60
PERCPU_RACE_THREADS ?= 4
$(call need_posint,PERCPU_RACE_ROUNDS)
$(call need_posint,PERCPU_RACE_THREADS)
PERCPU_RACE_SRC := tests/stress/percpu-race.c
PERCPU_FLAVOURS := asan asan-clang tsan tsan-gcc
PERCPU_NORSEQ := GLIBC_TUNABLES=glibc.pthread.rseq=0

# PERCPU_PROG(flavour, program, sources, flags)
define PERCPU_PROG
$(REL)/$(1)/$(2): $(3) $(REL)/$(1)/librefcount.a $(LIB_HDRS)
	$$(REL_CC_$(1)) $$(REL_BASE) $$(REL_FLAGS_$(1)) $(4) $(3) \
		$(REL)/$(1)/librefcount.a -o $$@
endef
$(foreach f,$(PERCPU_FLAVOURS),$(eval $(call PERCPU_PROG,$(f),percpu-race,$(PERCPU_RACE_SRC),)))
# The mutant's src/percpu_ref.c, linked before the library, replaces its own.
$(eval $(call PERCPU_PROG,asan,percpu-race-mutant,$(PERCPU_RACE_SRC) \
	$(call MUTANT_SRC,percpu-switch-forgets-slots)/percpu_ref.c,))

# Run $(2) with the environment of flavour $(1) on both paths.
PERCPU_BOTH = $(REL_ENV_$(1)) PERCPU_EXPECT_PATH=$(PERCPU_HOST_PATH) $(2) && \
	$(REL_ENV_$(1)) $(PERCPU_NORSEQ) PERCPU_EXPECT_PATH=atomic-slots $(2)

.PHONY: check-percpu
check-percpu: $(UNIT_DIR)/gcc/unit-percpu_ref \
		$(PERCPU_FLAVOURS:%=$(REL)/%/percpu-race) \
		$(REL)/asan/percpu-race-mutant
	@set -e; \
	PERCPU_EXPECT_PATH=$(PERCPU_HOST_PATH) $< $(T_CRITERION_ARGS); \
	$(PERCPU_NORSEQ) PERCPU_EXPECT_PATH=atomic-slots $< $(T_CRITERION_ARGS); \
	for f in $(PERCPU_FLAVOURS); do \
		$(call PERCPU_BOTH,$$f,$(REL)/$$f/percpu-race \
			$(PERCPU_RACE_ROUNDS) $(PERCPU_RACE_THREADS)); done
	@if $(REL_ENV_asan) $(REL)/asan/percpu-race-mutant \
		$(PERCPU_RACE_ROUNDS) $(PERCPU_RACE_THREADS) \
		> $(REL)/asan/percpu-mutant.log 2>&1; then \
		echo "percpu-race-mutant: the forgotten slots went unseen"; \
		exit 1; fi; \
	grep -m1 -e 'percpu-race: ' -e 'ERROR: AddressSanitizer' \
		$(REL)/asan/percpu-mutant.log | \
		sed 's/^/percpu-race-mutant fails, as it must: /'
CHECK_TARGETS += check-percpu

# The Promela model: spin writes the verifier (pan.c) in the build
# directory; every interleaving must pass, the mutant (no membarrier) must
# violate an assertion.
PERCPU_SPIN := $(B)/spin
PERCPU_PML := tests/spin/percpu.pml
PERCPU_SPIN_NEED := $(PERCPU_SPIN)/.need
$(PERCPU_SPIN_NEED):
	$(NEED) spin gcc
	@mkdir -p $(@D) && touch $@
# PERCPU_PAN(name, spin flags): $(PERCPU_SPIN)/<name>/pan
define PERCPU_PAN
$(PERCPU_SPIN)/$(1)/pan: $(PERCPU_PML) | $(PERCPU_SPIN_NEED)
	rm -rf $$(@D) && mkdir -p $$(@D)
	cd $$(@D) && spin $(2) -a $(abspath $(PERCPU_PML))
	cd $$(@D) && gcc -O2 -w -DSAFETY -o pan pan.c
endef
$(eval $(call PERCPU_PAN,model,))
$(eval $(call PERCPU_PAN,mutant,-DMUTANT))

.PHONY: check-percpu-spin
check-percpu-spin: $(PERCPU_SPIN)/model/pan $(PERCPU_SPIN)/mutant/pan
	@cd $(PERCPU_SPIN)/model && ./pan -m100000 > pan.out 2>&1; \
	grep -q 'errors: 0' pan.out || { cat pan.out; exit 1; }; \
	echo "check-percpu-spin: $(PERCPU_PML): every interleaving of one killer and two users passes ($$(sed -n 's/^ *\([0-9]*\) states, stored.*/\1/p' pan.out) states)"
	@cd $(PERCPU_SPIN)/mutant && ./pan -m100000 > pan.out 2>&1; \
	if ! grep -q 'assertion violated' pan.out; then cat pan.out; \
		echo "check-percpu-spin: the mutant (no membarrier) passed"; exit 1; fi; \
	echo "check-percpu-spin: the mutant (no membarrier) fails, as it must: $$(grep -m1 'assertion violated' pan.out)"
CHECK_TARGETS += check-percpu-spin

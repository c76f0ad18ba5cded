# tests/stress.mk - the stress, fuzz and model-check tier: tests that try
# hard to break the library (docs/reliability.md), then percpu_ref's and
# the ref_tracker's.
#
#   make check            also runs (CHECK_TARGETS):
#     check-fuzz-replay   the differential fuzzer (library vs tests/fuzz/model.c)
#                         over its committed corpus, the kept crash inputs and
#                         an exhaustive sweep of the model's tables, per breed
#                         (gcc, ASan+UBSan)
#     check-regress       real bug patterns per breed (ASan+UBSan, gcc and
#                         clang): wrap-around (shortcut near the edge), sticky
#                         saturation, lookup against the final put, put after
#                         the last put
#     check-ordering      message passing through refcount_t under TSan, per
#                         breed (clang and gcc), and the mutant controls that
#                         must make TSan report
#   make fuzz FUZZ_SECONDS=N   libFuzzer (clang), each breed for N seconds
#                         (make -j2 fuzz: two at a time)
#   make fuzz-merge       minimise the fuzzing corpus into tests/fuzz/corpus/
#   make stress           race stress under TSan and ASan, STRESS_OPS
#                         operations per breed and sanitizer, the injected-bug
#                         control, and the real 2^32 wrap-around loop per breed
#   make check-qemu       the Criterion unit suite (mk/unit.mk's
#                         UNIT_VARIANT) and the reliability checks, cross-built
#                         for aarch64 (LL/SC and LSE) and i386, under qemu-user
#                         (i386: the single-threaded checks only, see the doc)
#
# Every program is built against its own copy of the library, compiled from
# src/ with the program's compiler and sanitizer: build/rel/<flavour>/.

REL := $(B)/rel
REL_BASE = $(filter-out -fsanitize=% -O%,$(ALL_CFLAGS))

# Flavours: compiler and flags of a library copy and its programs.
# (the sanitizers' flags and options: mk/sanitizers.mk)
REL_CC_fuzz    := clang
REL_FLAGS_fuzz := $(SAN_FLAGS_fuzz)
REL_CC_asan    := gcc
REL_FLAGS_asan := $(SAN_FLAGS_asan)
REL_CC_tsan    := clang
REL_FLAGS_tsan := $(SAN_FLAGS_tsan)
# The same, with the other compiler: every source is built by gcc and clang.
REL_CC_asan-clang    := clang
REL_FLAGS_asan-clang := $(REL_FLAGS_asan)
REL_CC_tsan-gcc      := gcc
REL_FLAGS_tsan-gcc   := $(REL_FLAGS_tsan)

REL_ENV_asan := $(SAN_ENV_asan)
REL_ENV_tsan := $(SAN_ENV_tsan)
REL_ENV_asan-clang := $(REL_ENV_asan)
REL_ENV_tsan-gcc   := $(REL_ENV_tsan)

REL_NEED := $(REL)/.need
$(REL_NEED):
	$(NEED) gcc clang libclang-rt-14-dev libasan8 libubsan1 libtsan2 time
	@mkdir -p $(@D) && touch $@

# REL_LIB(flavour): $(REL)/<flavour>/librefcount.a (mk/lib.mk)
REL_LIB = $(call LIB_VARIANT,$(REL)/$(1),$$(REL_CC_$(1)),\
	$$(REL_BASE) $$(REL_FLAGS_$(1)),$(REL_NEED) $$(REL_NEED_$(1)))

# REL_PROG(flavour, program, sources, breed): $(REL)/<flavour>/<program>-<breed>
define REL_PROG
$(REL)/$(1)/$(2)-$(4): $(3) $(REL)/$(1)/librefcount.a $(LIB_HDRS) \
		$(wildcard $(dir $(firstword $(3)))*.h)
	$$(REL_CC_$(1)) $$(REL_BASE) $$(REL_FLAGS_$(1)) $$(call breed_cflags,$(4)) \
		$$(REL_LDFLAGS_$(1)_$(2)) $(3) $(REL)/$(1)/librefcount.a -o $$@
endef

REL_FLAVOURS := fuzz asan tsan asan-clang tsan-gcc
$(foreach f,$(REL_FLAVOURS),$(eval $(call REL_LIB,$(f))))

# --- differential fuzzing ------------------------------------------------

FUZZ_SECONDS ?= 60
$(call need_posint,FUZZ_SECONDS)
FUZZ_SRCS := tests/fuzz/fuzz.c tests/fuzz/model.c
REL_LDFLAGS_fuzz_fuzz := -fsanitize=fuzzer
FUZZ_OPTS := -max_len=256 -timeout=10 -print_final_stats=1

# The breeds, plus fast-noasm, which shares the fast breed's corpus.
FUZZ_BREEDS := $(BREED_VARIANTS)
FUZZ_CORPUS = tests/fuzz/corpus/$(patsubst %-noasm,%,$(1))

$(foreach b,$(FUZZ_BREEDS),$(eval $(call REL_PROG,fuzz,fuzz,$(FUZZ_SRCS),$(b))))
$(foreach b,$(FUZZ_BREEDS),$(eval $(call REL_PROG,asan,replay,\
	$(FUZZ_SRCS) tests/fuzz/replay.c,$(b))))

.PHONY: fuzz fuzz-merge check-fuzz-replay $(FUZZ_BREEDS:%=fuzz-%)
fuzz: $(FUZZ_BREEDS:%=fuzz-%)
# Each breed fuzzes in a scratch copy of its corpus; a divergence leaves
# the input in $(REL)/fuzz/crash-<breed>-*: keep it in tests/regress/fuzz/.
$(FUZZ_BREEDS:%=fuzz-%): fuzz-%: $(REL)/fuzz/fuzz-%
	@mkdir -p $(REL)/fuzz/corpus-$*
	cp -n $(call FUZZ_CORPUS,$*)/* $(REL)/fuzz/corpus-$*/ 2>/dev/null || :
	$< $(FUZZ_OPTS) -max_total_time=$(FUZZ_SECONDS) \
		-artifact_prefix=$(REL)/fuzz/crash-$*- $(REL)/fuzz/corpus-$*
# Edge coverage only (-use_counters=0): a few dozen inputs per breed.
fuzz-merge: $(FUZZ_BREEDS:%=$(REL)/fuzz/fuzz-%)
	set -e; for b in $(BREEDS); do \
		rm -rf $(REL)/fuzz/merged-$$b; \
		mkdir -p $(REL)/fuzz/merged-$$b $(REL)/fuzz/corpus-$$b; \
		$(REL)/fuzz/fuzz-$$b -merge=1 -use_counters=0 $(FUZZ_OPTS) \
			$(REL)/fuzz/merged-$$b tests/fuzz/corpus/$$b \
			$$(ls -d $(REL)/fuzz/corpus-$$b $(REL)/fuzz/corpus-$$b-noasm \
				2>/dev/null); \
		rm -rf tests/fuzz/corpus/$$b; \
		cp -r $(REL)/fuzz/merged-$$b tests/fuzz/corpus/$$b; done

check-fuzz-replay: $(FUZZ_BREEDS:%=$(REL)/asan/replay-%)
	@set -e; for b in $(FUZZ_BREEDS); do c=$${b%-noasm}; \
		$(REL_ENV_asan) $(REL)/asan/replay-$$b --sweep tests/fuzz/corpus/$$c \
		$$(ls -d tests/regress/fuzz/$$c 2>/dev/null); done

# --- bug patterns --------------------------------------------------------

$(foreach f,asan asan-clang,$(foreach b,$(BREEDS),\
	$(eval $(call REL_PROG,$(f),regress,tests/regress/regress.c,$(b)))))

.PHONY: check-regress
check-regress: $(BREEDS:%=$(REL)/asan/regress-%) \
		$(BREEDS:%=$(REL)/asan-clang/regress-%)
	@set -e; for f in asan asan-clang; do for b in $(BREEDS); do \
		$(REL_ENV_asan) $(REL)/$$f/regress-$$b all; done; done

# --- memory ordering -----------------------------------------------------

# Threads: the breeds that may be shared by threads ($(BREEDS_THREADED)).
$(foreach f,tsan tsan-gcc,$(foreach b,$(BREEDS_THREADED),\
	$(eval $(call REL_PROG,$(f),ordering,tests/stress/ordering.c,$(b)))))

# Each mode must pass; each mutant-* mode must make TSan report a race.
REL_ORDERING = set -e; for b in $(BREEDS_THREADED); do \
	for m in put publish; do \
		$(REL_ENV_tsan) $(REL)/$(1)/ordering-$$b $$m; done; \
	for m in put publish; do \
		if $(REL_ENV_tsan):symbolize=0 $(REL)/$(1)/ordering-$$b mutant-$$m \
			> $(REL)/$(1)/mutant.log 2>&1; then \
			echo "ordering-$$b mutant-$$m: TSan saw nothing"; exit 1; fi; \
		grep -q 'ThreadSanitizer: data race' $(REL)/$(1)/mutant.log || \
			{ cat $(REL)/$(1)/mutant.log; exit 1; }; \
		echo "ordering-$$b mutant-$$m: TSan reports the race, as it must"; \
	done; done

.PHONY: check-ordering
check-ordering: $(BREEDS_THREADED:%=$(REL)/tsan/ordering-%) \
		$(BREEDS_THREADED:%=$(REL)/tsan-gcc/ordering-%)
	@$(call REL_ORDERING,tsan)
	@$(call REL_ORDERING,tsan-gcc)

CHECK_TARGETS += check-fuzz-replay check-regress check-ordering

# --- race stress ---------------------------------------------------------

# Operations per breed and sanitizer build: 4 breeds x 2.5e7 = 10^8 each.
STRESS_OPS ?= 25000000
STRESS_THREADS ?= 4
$(call need_posint,STRESS_OPS)
$(call need_posint,STRESS_THREADS)
STRESS_CTL_OPS := 2000000

$(foreach f,asan tsan,$(foreach b,$(BREEDS_THREADED),\
	$(eval $(call REL_PROG,$(f),stress,tests/stress/stress.c,$(b)))))

# The stress runs, then the control (an injected extra put must be caught),
# then the real wrap-around loop: 2^32 - 1 leaked gets per breed.
.PHONY: stress stress-asan stress-tsan stress-wrap
stress: stress-asan stress-tsan stress-wrap
define REL_STRESS
stress-$(1): $(BREEDS_THREADED:%=$(REL)/$(1)/stress-%)
	@set -e; for b in $(BREEDS_THREADED); do \
		/usr/bin/time -f "  ($(1): %e s)" env $(REL_ENV_$(1)) \
			$(REL)/$(1)/stress-$$$$b $$(STRESS_OPS) $$(STRESS_THREADS); \
		done; \
	if env STRESS_INJECT_BUG=1 $(REL_ENV_$(1)) $(REL)/$(1)/stress-saturating \
		$(STRESS_CTL_OPS) $$(STRESS_THREADS) > $(REL)/$(1)/ctl.log 2>&1; \
	then echo "stress control: the injected bug went unseen"; exit 1; fi; \
	echo "stress control ($(1)): the injected extra put is caught:"; \
	grep -m3 -e 'stress-' $(REL)/$(1)/ctl.log | sed 's/^/  /'
endef
$(eval $(call REL_STRESS,asan))
$(eval $(call REL_STRESS,tsan))
stress-wrap: $(BREEDS:%=stress-wrap-%)
.PHONY: $(BREEDS:%=stress-wrap-%)
$(BREEDS:%=stress-wrap-%): stress-wrap-%: $(REL)/asan/regress-%
	@/usr/bin/time -f "  (wrap-full $*: %e s)" env $(REL_ENV_asan) $< wrap-full

# --- three architectures -------------------------------------------------
#
# Cross-built with Debian's cross compilers, run with qemu-user.  The unit
# suite needs the foreign Criterion: Debian's libcriterion3:arm64/:i386 and
# their libraries are downloaded (`apt-get download`, after
# `dpkg --add-architecture`) and unpacked into a private sysroot under
# $(REL)/qemu/, not installed: installing them with multiarch needs the
# foreign packages at exactly the host's versions of libssl3, libpcre2 and
# the rest, which mirrors in mid-sync often can't give.  Criterion re-executes
# itself for every test (BoxFort: execve of /proc/self/exe), which the host
# kernel can only do for a foreign binary through binfmt_misc;
# tests/qemu/qemu-exec.c, preloaded into the guest, sends that execve to
# qemu instead, so no binfmt registration is needed.
#
#   qemu-aarch64      -march=armv8-a: the fast breed's LL/SC loop,
#                     run on an ARMv8.0 CPU (QEMU_CPU=cortex-a57, no LSE)
#   qemu-aarch64-lse  -march=armv8.1-a: LDADD, run with QEMU_CPU=max
#   qemu-i386         i686: the fast breed's x86 asm in 32-bit mode

REL_QEMU_VARIANTS := qemu-aarch64 qemu-aarch64-lse qemu-i386
REL_QEMU_PKGS := libcriterion3 libcriterion-dev libffi8 libgit2-1.5 \
	libgssapi-krb5-2 libhttp-parser2.9 libk5crypto3 libkrb5-3 \
	libkrb5support0 libmbedcrypto7 libmbedtls14 libmbedx509-1 \
	libnanomsg5 libpcre2-8-0 libssh2-1 libssl3 libcom-err2 \
	libkeyutils1 zlib1g
REL_QEMU_NEED := $(REL)/qemu/.need

# per variant: Debian architecture, triplet, cross gcc, -march, qemu, CPU
REL_DEB_qemu-aarch64 := arm64
REL_TRIPLET_qemu-aarch64 := aarch64-linux-gnu
REL_GCC_qemu-aarch64 := aarch64-linux-gnu-gcc
REL_MARCH_qemu-aarch64 := -march=armv8-a
REL_QEMU_qemu-aarch64 := qemu-aarch64
REL_CPU_qemu-aarch64 := cortex-a57
REL_DEB_qemu-aarch64-lse := arm64
REL_TRIPLET_qemu-aarch64-lse := aarch64-linux-gnu
REL_GCC_qemu-aarch64-lse := aarch64-linux-gnu-gcc
REL_MARCH_qemu-aarch64-lse := -march=armv8.1-a
REL_QEMU_qemu-aarch64-lse := qemu-aarch64
REL_CPU_qemu-aarch64-lse := max
REL_DEB_qemu-i386 := i386
REL_TRIPLET_qemu-i386 := i386-linux-gnu
REL_GCC_qemu-i386 := i686-linux-gnu-gcc
REL_MARCH_qemu-i386 :=
REL_QEMU_qemu-i386 := qemu-i386
REL_CPU_qemu-i386 := max
# i386 guests run on Debian's own libc6:i386, unpacked into the sysroot
# with Criterion: under qemu-i386 7.2 every program that starts a thread
# busy-loops forever when it runs on the cross toolchain's libc
# (libc6-i386-cross 2.36-8cross1), and runs fine on libc6:i386.
# aarch64 guests run on the cross toolchain's libc.
REL_EXTRA_PKGS_i386 := libc6
REL_LDPREFIX_qemu-aarch64 = /usr/aarch64-linux-gnu
REL_LDPREFIX_qemu-aarch64-lse = /usr/aarch64-linux-gnu
REL_LDPREFIX_qemu-i386 = $(REL_SR_qemu-i386)

$(REL_QEMU_NEED): | $(REL_NEED)
	$(NEED) qemu-user gcc-aarch64-linux-gnu gcc-i686-linux-gnu \
		libc6-dev-arm64-cross libc6-dev-i386-cross dpkg-dev
	@mkdir -p $(@D) && touch $@

# The foreign Criterion, unpacked into $(REL)/qemu/sysroot-<arch>.
$(REL)/qemu/sysroot-%/.stamp: | $(REL_QEMU_NEED)
	@SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	if ! dpkg --print-foreign-architectures | grep -qx $*; then \
		echo "dpkg --add-architecture $*"; \
		$$SUDO dpkg --add-architecture $* && \
		{ $$SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq || :; }; fi
	rm -rf $(@D) && mkdir -p $(@D)/debs
	cd $(@D)/debs && apt-get download -q \
		$(REL_QEMU_PKGS:%=%:$*) $(REL_EXTRA_PKGS_$*:%=%:$*)
	for d in $(@D)/debs/*.deb; do dpkg-deb -x $$d $(@D); done
	touch $@

REL_QEMU_STRESS_OPS := 400000
REL_QEMU_LIFETIME_ARGS := 4 20000
REL_QEMU_TIMEOUT := 300
REL_QEMU_CRITERION_ARGS := --jobs=2 --short-filename

# REL_QEMU(variant): the cross library, the preload, the launcher, and the
# flavour used by REL_LIB/REL_PROG for our own programs.
define REL_QEMU
REL_SR_$(1) := $(abspath $(REL)/qemu/sysroot-$(REL_DEB_$(1)))
REL_SRLIB_$(1) := $$(REL_SR_$(1))/usr/lib/$(REL_TRIPLET_$(1)):$$(REL_SR_$(1))/lib/$(REL_TRIPLET_$(1))
REL_CC_$(1) := $(REL_GCC_$(1))
REL_FLAGS_$(1) := -O2 -g $(REL_MARCH_$(1))
REL_NEED_$(1) := $(REL_QEMU_NEED)
$(REL)/$(1)/qemu-exec.so: tests/qemu/qemu-exec.c | $(REL_QEMU_NEED)
	@mkdir -p $$(@D)
	$(REL_GCC_$(1)) $$(REL_BASE) -O2 -shared -fPIC $$< -o $$@ -ldl
# How to run a program of this variant (also Criterion's re-executions).
# G_SLICE=always-malloc: qemu 7.2 allocates with GLib's g_slice, whose lock
# is not fork-safe; a guest fork() while another guest thread translates
# code then deadlocks the child (seen here with Criterion's runner).
# PERCPU_EXPECT_PATH: qemu-user has no rseq, so unit-percpu_ref must find
# percpu_ref's atomic slots.
REL_RUN_$(1) = timeout -k 10 $(REL_QEMU_TIMEOUT) env G_SLICE=always-malloc \
	PERCPU_EXPECT_PATH=atomic-slots \
	QEMU_LD_PREFIX=$$(REL_LDPREFIX_$(1)) \
	QEMU_CPU=$(REL_CPU_$(1)) LD_LIBRARY_PATH=$$(REL_SRLIB_$(1)) \
	RELIABILITY_QEMU=/usr/bin/$(REL_QEMU_$(1)) \
	QEMU_SET_ENV=LD_PRELOAD=$(abspath $(REL)/$(1)/qemu-exec.so) \
	$(REL_QEMU_$(1))
# The unit suite (mk/unit.mk) against the foreign Criterion.
REL_UNIT_FLAGS_$(1) := $(REL_MARCH_$(1)) -I$$(REL_SR_$(1))/usr/include \
	-L$$(REL_SR_$(1))/usr/lib/$(REL_TRIPLET_$(1)) \
	-Wl,-rpath-link,$$(REL_SRLIB_$(1))
endef
$(foreach v,$(REL_QEMU_VARIANTS),$(eval $(call REL_QEMU,$(v))))
$(foreach v,$(REL_QEMU_VARIANTS),$(eval $(call REL_LIB,$(v))))
$(foreach v,$(REL_QEMU_VARIANTS),$(foreach b,$(BREEDS),\
	$(eval $(call REL_PROG,$(v),regress,tests/regress/regress.c,$(b)))\
	$(if $(filter $(b),$(BREEDS_THREADED)),\
		$(eval $(call REL_PROG,$(v),stress,tests/stress/stress.c,$(b))))\
	$(eval $(call REL_PROG,$(v),replay,\
		$(FUZZ_SRCS) tests/fuzz/replay.c,$(b)))))
$(foreach v,$(REL_QEMU_VARIANTS),$(eval $(call UNIT_VARIANT,$(v),\
	$(REL_GCC_$(v)),$$(ALL_CFLAGS) $(REL_UNIT_FLAGS_$(v)),$(BREEDS),yes)))

# REL_QEMU_CHECK(variant): run everything of one variant.  The unit
# programs are made by a sub-make once the sysroot (Criterion's headers and
# libraries) exists.
define REL_QEMU_CHECK
.PHONY: check-$(1)
check-$(1): $(REL)/qemu/sysroot-$(REL_DEB_$(1))/.stamp \
		$(REL)/$(1)/qemu-exec.so \
		$(foreach p,regress replay,$(BREEDS:%=$(REL)/$(1)/$(p)-%)) \
		$(BREEDS_THREADED:%=$(REL)/$(1)/stress-%)
	@test -n "$$(UNIT_BINS_$(1))" || \
		{ echo "check-$(1): mk/unit.mk gave no unit tests"; exit 1; }
	@$$(MAKE) -s --no-print-directory $$(UNIT_BINS_$(1)) $$(UNIT_LIFETIME_BINS_$(1))
	@echo "== $(1): the unit suite"
	@set -e; for t in $$(UNIT_BINS_$(1)); do echo "== $$$$t"; \
		$$(REL_RUN_$(1)) $$$$t $(REL_QEMU_CRITERION_ARGS); done; \
	for t in $$(UNIT_LIFETIME_BINS_$(1)); do echo "== $$$$t"; \
		$$(REL_RUN_$(1)) $$$$t $(REL_QEMU_LIFETIME_ARGS); done
	@echo "== $(1): reliability checks"
	@set -e; for b in $(BREEDS); do \
		$$(REL_RUN_$(1)) $(REL)/$(1)/replay-$$$$b --sweep tests/fuzz/corpus/$$$$b \
			$$$$(ls -d tests/regress/fuzz/$$$$b 2>/dev/null); \
		$$(REL_RUN_$(1)) $(REL)/$(1)/regress-$$$$b all; \
	done; \
	for b in $(BREEDS_THREADED); do \
		$$(REL_RUN_$(1)) $(REL)/$(1)/stress-$$$$b $(REL_QEMU_STRESS_OPS) 4; \
	done
endef
$(foreach v,$(REL_QEMU_VARIANTS),$(eval $(call REL_QEMU_CHECK,$(v))))

.PHONY: check-qemu
check-qemu: $(REL_QEMU_VARIANTS:%=check-%)

# --- rcuref_t and file_ref_t ---------------------------------------------
#
# The deconstruction race (tests/stress/rcuref-race.c): the last put racing
# gets, exactly one release, never a use after free.  ASan (gcc and clang)
# runs the three ways of meeting the memory rule: liburcu (urcu), a
# rwlock, a type-stable pool; TSan (clang and gcc) the rwlock and the pool
# (it does not model liburcu's barriers).  Built with RCUREF_DEBUG: the
# program fails unless every get was one atomic instruction.  The control,
# mutant-rwlock, puts outside the read lock and must make ASan report the
# last put's compare-and-swap on freed memory.
#
#   REL_RCUREF_PROG(flavour, program, sources, extra flags, libs)
#       $(REL)/<flavour>/<program>, against the flavour's library
REL_URCU_NEED := $(REL)/.need-urcu
$(REL_URCU_NEED): | $(REL_NEED)
	$(NEED) liburcu-dev
	@touch $@
define REL_RCUREF_PROG
$(REL)/$(1)/$(2): $(3) $(REL)/$(1)/librefcount.a $(LIB_HDRS) | $(REL_URCU_NEED)
	$$(REL_CC_$(1)) $$(REL_BASE) $$(REL_FLAGS_$(1)) $(4) $(3) \
		$(REL)/$(1)/librefcount.a $(5) -o $$@
endef
RCUREF_RACE_SRC := tests/stress/rcuref-race.c
RCUREF_RACE_OPS ?= 300000
RCUREF_RACE_URCU := -DRCUREF_DEBUG -DRACE_URCU
$(foreach f,asan asan-clang,$(eval $(call REL_RCUREF_PROG,$(f),rcuref-race-urcu,$(RCUREF_RACE_SRC),$(RCUREF_RACE_URCU),-lurcu-memb)))
$(foreach f,asan asan-clang tsan tsan-gcc,$(eval $(call REL_RCUREF_PROG,$(f),rcuref-race,$(RCUREF_RACE_SRC),-DRCUREF_DEBUG,)))

.PHONY: check-rcuref-race
check-rcuref-race: $(foreach f,asan asan-clang,$(REL)/$(f)/rcuref-race-urcu \
		$(REL)/$(f)/rcuref-race) \
		$(foreach f,tsan tsan-gcc,$(REL)/$(f)/rcuref-race)
	@set -e; for f in asan asan-clang; do \
		$(REL_ENV_asan) $(REL)/$$f/rcuref-race-urcu urcu $(RCUREF_RACE_OPS) 4; \
		for m in rwlock pool; do \
			$(REL_ENV_asan) $(REL)/$$f/rcuref-race $$m $(RCUREF_RACE_OPS) 4; \
		done; done; \
	for f in tsan tsan-gcc; do for m in rwlock pool; do \
		$(REL_ENV_tsan) $(REL)/$$f/rcuref-race $$m \
			$$(($(RCUREF_RACE_OPS) / 4)) 4; done; done; \
	if $(REL_ENV_asan) $(REL)/asan/rcuref-race mutant-rwlock \
		$(RCUREF_RACE_OPS) 4 > $(REL)/asan/rcuref-mutant.log 2>&1; then \
		echo "rcuref-race mutant-rwlock: ASan saw nothing"; exit 1; fi; \
	grep -q 'heap-use-after-free' $(REL)/asan/rcuref-mutant.log || \
		{ cat $(REL)/asan/rcuref-mutant.log; exit 1; }; \
	echo "rcuref-race mutant-rwlock (a put outside the read lock):" \
		"ASan reports the use after free, as it must"

CHECK_TARGETS += check-rcuref-race

# The differential fuzzer of rcuref_t and file_ref_t
# (tests/fuzz/rcuref-fuzz.c against tests/fuzz/rcuref-model.c): the
# replay of its corpus and the sweep of every zone edge, with gcc and clang
# (ASan+UBSan); then the mutant, a library whose get slow path forgets the
# dead zone (tests/mutants/rcuref-no-dead-zone.patch: the patched
# src/rcuref.c compiled into the program, before the library),
# which the sweep must catch.
RCUREF_FUZZ_SRCS := tests/fuzz/rcuref-fuzz.c tests/fuzz/rcuref-model.c
RCUREF_FUZZ_CORPUS := tests/fuzz/corpus/rcuref
$(foreach f,asan asan-clang,$(eval $(call REL_RCUREF_PROG,$(f),replay-rcuref,$(RCUREF_FUZZ_SRCS) tests/fuzz/replay.c,,)))
$(eval $(call REL_RCUREF_PROG,asan,replay-rcuref-mutant,$(RCUREF_FUZZ_SRCS) tests/fuzz/replay.c $(call MUTANT_SRC,rcuref-no-dead-zone)/rcuref.c,,))
$(eval $(call REL_RCUREF_PROG,fuzz,fuzz-rcuref,$(RCUREF_FUZZ_SRCS),-fsanitize=fuzzer,))

.PHONY: check-rcuref-fuzz fuzz-rcuref
check-rcuref-fuzz: $(REL)/asan/replay-rcuref $(REL)/asan-clang/replay-rcuref \
		$(REL)/asan/replay-rcuref-mutant
	@set -e; for f in asan asan-clang; do \
		$(REL_ENV_asan) $(REL)/$$f/replay-rcuref --sweep \
			$(RCUREF_FUZZ_CORPUS); done; \
	if $(REL_ENV_asan) $(REL)/asan/replay-rcuref-mutant --sweep \
		> $(REL)/asan/rcuref-fuzz-mutant.log 2>&1; then \
		echo "replay-rcuref-mutant: the broken dead zone went unseen"; \
		exit 1; fi; \
	grep -m1 'rcuref-fuzz: ' $(REL)/asan/rcuref-fuzz-mutant.log | \
		sed 's/^/replay-rcuref-mutant fails, as it must: /'
# libFuzzer, FUZZ_SECONDS, in a scratch copy of the corpus.
fuzz-rcuref: $(REL)/fuzz/fuzz-rcuref
	@mkdir -p $(REL)/fuzz/corpus-rcuref
	cp -n $(RCUREF_FUZZ_CORPUS)/* $(REL)/fuzz/corpus-rcuref/ 2>/dev/null || :
	$< $(FUZZ_OPTS) -max_total_time=$(FUZZ_SECONDS) \
		-artifact_prefix=$(REL)/fuzz/crash-rcuref- $(REL)/fuzz/corpus-rcuref

CHECK_TARGETS += check-rcuref-fuzz

# rcuref_t and file_ref_t under qemu: unit-rcuref comes with the unit suite
# (mk/unit.mk); here the fuzz replay and the race in the rwlock and pool
# modes (no foreign liburcu).
$(foreach v,$(REL_QEMU_VARIANTS),$(eval $(call REL_RCUREF_PROG,$(v),replay-rcuref,$(RCUREF_FUZZ_SRCS) tests/fuzz/replay.c,,))\
	$(eval $(call REL_RCUREF_PROG,$(v),rcuref-race,$(RCUREF_RACE_SRC),-DRCUREF_DEBUG,)))
REL_QEMU_RCUREF_OPS := 20000
define REL_QEMU_RCUREF_CHECK
.PHONY: check-$(1)-rcuref
check-$(1)-rcuref: $(REL)/qemu/sysroot-$(REL_DEB_$(1))/.stamp \
		$(REL)/$(1)/qemu-exec.so $(REL)/$(1)/replay-rcuref $(REL)/$(1)/rcuref-race
	@echo "== $(1): rcuref_t and file_ref_t"
	@set -e; $$(REL_RUN_$(1)) $(REL)/$(1)/replay-rcuref --sweep $(RCUREF_FUZZ_CORPUS); \
	for m in rwlock pool; do \
		$$(REL_RUN_$(1)) $(REL)/$(1)/rcuref-race $$$$m $(REL_QEMU_RCUREF_OPS) 4; done
check-qemu: check-$(1)-rcuref
endef
$(foreach v,$(REL_QEMU_VARIANTS),$(eval $(call REL_QEMU_RCUREF_CHECK,$(v))))

# --- percpu_ref beyond the unit suite -------------------------------------
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

# --- the ref_tracker beyond the unit suite ---------------------------------
#
# The unit suite (mk/unit.mk) holds tests/ref_tracker.c, so the reports,
# the quarantine, both capture backends and the wrappers run in every unit
# variant (gcc, clang, ASan, and the qemu cross builds).  Here, for make
# check (CHECK_TARGETS):
#
#   check-tracker-tsan     tests/stress/tracker-threads.c under TSan: many
#                          threads on one dir, per breed (clang), and gcc
#   check-tracker-mutants  the unit suite's tracker tests against library
#                          copies with one checker broken each; every one must
#                          fail the test written for it
#
# docs/ref_tracker.md's example (examples/example-tracker.c) runs in
# check-examples (examples/examples.mk) with this fragment's library copy,
# $(TRK)/librefcount.a, compiled after libdw-dev is installed (file:line);
# the other copies use libdw only if its headers happen to be there
# (src/symbolize.c).  libunwind8 (run time only, dlopen()ed) gives the
# example its libunwind run.

TRK := $(B)/tracker
TRK_NEED := $(TRK)/.need
$(TRK_NEED): | $(UNIT_NEED)
	$(NEED) libdw-dev binutils libunwind8
	@mkdir -p $(@D) && touch $@

$(eval $(call LIB_VARIANT,$(TRK),$(CC),$$(ALL_CFLAGS),$(TRK_NEED)))

.PHONY: check-tracker-tsan check-tracker-mutants


# --- many threads on one dir --------------------------------------------

TRK_THREADS_ARGS := 8 3000
$(foreach b,$(BREEDS_THREADED),$(eval $(call REL_PROG,tsan,tracker-threads,\
	tests/stress/tracker-threads.c,$(b))))
$(eval $(call REL_PROG,tsan-gcc,tracker-threads,\
	tests/stress/tracker-threads.c,saturating))
check-tracker-tsan: $(BREEDS_THREADED:%=$(REL)/tsan/tracker-threads-%) \
		$(REL)/tsan-gcc/tracker-threads-saturating
	@set -e; for p in $^; do \
		$(REL_ENV_tsan) $$p $(TRK_THREADS_ARGS); done

# --- mutants (tests/mutants/tracker-*.patch): each breaks one checker ---
#
#   unbounded-walk   the frame-pointer walk without its stack bounds
#                    -> capture::bad_chain_is_bounded
#   no-quarantine    a released tracker is not recognised on a second put
#                    -> ref_tracker::double_put_both_stacks
#   no-grouping      every live tracker reported as its own group
#                    -> ref_tracker::leaks_grouped_by_stack

TRK_MUTANTS := unbounded-walk no-quarantine no-grouping
TRK_MUTANT_TEST_unbounded-walk := capture::bad_chain_is_bounded
TRK_MUTANT_TEST_no-quarantine := ref_tracker::double_put_both_stacks
TRK_MUTANT_TEST_no-grouping := ref_tracker::leaks_grouped_by_stack

# Each is tests/mutants/tracker-NAME.patch applied to a copy of src/.
define TRK_MUTANT
$$(eval $$(call LIB_VARIANT,$(TRK)/mutant-$(1),$(CC),\
	$$$$(ALL_CFLAGS),$(UNIT_NEED),$$(call MUTANT_SRC,tracker-$(1))))
$(TRK)/mutant-$(1)/unit: tests/ref_tracker.c $(UNIT_DIR)/gcc/helpers.o \
		$(TRK)/mutant-$(1)/librefcount.a $(UNIT_HDRS)
	$(CC) $$(ALL_CFLAGS) -fno-omit-frame-pointer $$< \
		$(UNIT_DIR)/gcc/helpers.o $(TRK)/mutant-$(1)/librefcount.a \
		-lcriterion -o $$@
endef
$(foreach m,$(TRK_MUTANTS),$(eval $(call TRK_MUTANT,$(m))))

check-tracker-mutants: $(TRK_MUTANTS:%=$(TRK)/mutant-%/unit)
	@set -e; for mt in $(foreach m,$(TRK_MUTANTS),$(m):$(TRK_MUTANT_TEST_$(m))); do \
		m=$${mt%%:*}; t=$${mt#*:}; log=$(TRK)/mutant-$$m/unit.log; \
		if $(TRK)/mutant-$$m/unit --jobs=2 --short-filename \
			> $$log 2>&1; then \
			echo "mutant $$m: every test passed"; exit 1; fi; \
		grep -Eq "(FAIL|CRASH).*$$t|$$t.*(FAIL|CRASH)" $$log || \
			{ cat $$log; echo "mutant $$m: $$t did not fail"; exit 1; }; \
		echo "mutant $$m: $$t fails, as it must"; done

CHECK_TARGETS += check-tracker-tsan check-tracker-mutants

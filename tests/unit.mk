# tests/unit.mk - the unit tier: the suites of every breed, per compiler
# and sanitizer, the C/C++ mix and the generated docs; `make check` runs it.
#
#   check-unit-gcc    every suite below, built with gcc
#   check-unit-clang  the same with clang
#   check-asan        the same with gcc -fsanitize=address,undefined
#   check-tsan        the lifetime test with gcc -fsanitize=thread (Criterion
#                     cannot run under TSan; the lifetime test covers
#                     kref_put_mutex/_lock and kref_get_unless_zero)
#   check-docs        docs/breeds.md is what the LKDTM table says
#   check-docs-figures  docs/ hold no measurement; lab/results.md no run
#                     narrative
#
# Each variant is built by mk/unit.mk's UNIT_VARIANT in build/tests/<variant>/,
# with its own copy of the library.  <breed> is one of $(BREEDS), and in the
# gcc variant also fast-noasm and saturating-noasm (the portable C fast paths,
# -DREFCOUNT_FAST_NO_ASM; TSan builds use them anyway).

TB := $(UNIT_DIR)

# The variants: compiler, extra flags, breeds, whether Criterion runs, and
# how to run a test program.
# (the sanitizers' flags and options: mk/sanitizers.mk)
T_SAN_asan   := $(SAN_FLAGS_asan)
T_SAN_tsan   := $(SAN_FLAGS_tsan)
$(eval $(call UNIT_VARIANT,gcc,gcc,$$(ALL_CFLAGS),$(BREED_VARIANTS),yes))
$(eval $(call UNIT_VARIANT,clang,clang,$$(ALL_CFLAGS),$(BREEDS),yes))
$(eval $(call UNIT_VARIANT,asan,gcc,$$(ALL_CFLAGS) $(T_SAN_asan),$(BREEDS),yes))
$(eval $(call UNIT_VARIANT,tsan,gcc,$$(ALL_CFLAGS) $(T_SAN_tsan),$(BREEDS),no))
# Leak checks where memory is managed (the lifetime test); in the Criterion
# programs they would only cost a scan per forked test.
T_ENV_asan   := $(subst detect_leaks=1,detect_leaks=0,$(SAN_ENV_asan))
T_LIFETIME_ENV_asan := $(SAN_ENV_asan)
T_ENV_tsan   := $(SAN_ENV_tsan)

# The lifetime test's size: threads, rounds per thread.
T_LIFETIME_ARGS      := 4 500000
T_LIFETIME_ARGS_asan := 4 200000
T_LIFETIME_ARGS_tsan := 4 100000

# Criterion runs each test in a child process; two workers for two cores.
T_CRITERION_ARGS := --jobs=2 --short-filename

# Run every program of a variant; stop at the first failure.
T_RUN = set -e; for t in $(UNIT_BINS_$(1)); do \
		echo "== $$t"; $(T_ENV_$(1)) $$t $(T_CRITERION_ARGS); done; \
	for t in $(UNIT_LIFETIME_BINS_$(1)); do \
		echo "== $$t $(or $(T_LIFETIME_ARGS_$(1)),$(T_LIFETIME_ARGS))"; \
		$(or $(T_LIFETIME_ENV_$(1)),$(T_ENV_$(1))) $$t \
			$(or $(T_LIFETIME_ARGS_$(1)),$(T_LIFETIME_ARGS)); \
	done

.PHONY: check-unit-gcc check-unit-clang check-asan check-tsan check-docs \
	update-breeds-md
check-unit-gcc: $(UNIT_BINS_gcc) $(UNIT_LIFETIME_BINS_gcc)
	@$(call T_RUN,gcc)
check-unit-clang: $(UNIT_BINS_clang) $(UNIT_LIFETIME_BINS_clang)
	@$(call T_RUN,clang)
check-asan: $(UNIT_BINS_asan) $(UNIT_LIFETIME_BINS_asan)
	@$(call T_RUN,asan)
check-tsan: $(UNIT_LIFETIME_BINS_tsan)
	@$(call T_RUN,tsan)

# C and C++ units in one program (tests/cxx/): tests/cxx/ops.h compiled as
# C and as C++17 per breed, with gcc/g++ and with clang/clang++; and the
# mutant control (a C++ unit whose refcount_inc() adds 2), which must fail.
T_CXX_PAIRS := gcc:g++ clang:clang++
T_CXX_STD := -std=c++17 -O2 -g $(WARN) -Iinclude -pthread
define T_CXX
$(TB)/cxx-$(1)$(3)/ops-c-%.o: tests/cxx/ops.c tests/cxx/ops.h $(UNIT_HDRS) \
		| $(UNIT_NEED)
	@mkdir -p $$(@D)
	$(1) $$(ALL_CFLAGS) $$(call breed_cflags,$$*) -DOPS_SUFFIX=c_$$* \
		-c $$< -o $$@
$(TB)/cxx-$(1)$(3)/ops-cxx-%.o: tests/cxx/ops.cc tests/cxx/ops.h \
		$(UNIT_HDRS) | $(UNIT_NEED)
	@mkdir -p $$(@D)
	$(2) $(T_CXX_STD) $(4) $$(call breed_cflags,$$*) -DOPS_SUFFIX=cxx_$$* \
		-c $$< -o $$@
$(TB)/cxx-$(1)$(3)/cxx: tests/cxx/cxx.c tests/cxx/ops.h \
		$(BREEDS:%=$(TB)/cxx-$(1)$(3)/ops-c-%.o) \
		$(BREEDS:%=$(TB)/cxx-$(1)$(3)/ops-cxx-%.o) \
		$(TB)/gcc/helpers.o $(TB)/gcc/librefcount.a
	$(1) $$(ALL_CFLAGS) -c $$< -o $$@.o
	$(2) -pthread -o $$@ $$@.o $$(filter %.o %.a,$$(wordlist 3,999,$$^)) \
		-lcriterion
T_CXX_BINS += $(TB)/cxx-$(1)$(3)/cxx
endef
$(foreach p,$(T_CXX_PAIRS),$(eval $(call T_CXX,$(firstword $(subst :, ,$(p))),$(lastword $(subst :, ,$(p))))))
$(eval $(call T_CXX,gcc,g++,-mutant,-DOPS_MUTANT))

.PHONY: check-cxx
check-cxx: $(T_CXX_BINS)
	@set -e; for t in $(filter-out %-mutant/cxx,$(T_CXX_BINS)); do \
		echo "== $$t"; $$t $(T_CRITERION_ARGS); done
	@if $(TB)/cxx-gcc-mutant/cxx $(T_CRITERION_ARGS) \
		> $(TB)/cxx-gcc-mutant/log 2>&1; then \
		echo "check-cxx: the mutant C++ unit went unnoticed"; exit 1; fi
	@grep -q "C gives" $(TB)/cxx-gcc-mutant/log || \
		{ cat $(TB)/cxx-gcc-mutant/log; exit 1; }
	@echo "check-cxx: the mutant C++ unit (refcount_inc adds 2) is caught, as it must be"

# No locked instruction's old value read back in the default breed's hot
# paths (tests/flags-only.sh): tests/flags-only.c built -O2 with gcc and
# clang for x86-64 and i386 (cross compilers: pure disassembly, the same
# verdict on any machine), then three mutants that must fail it, each naming
# the operation it broke: the C gets and puts (-DREFCOUNT_SATURATING_NO_ASM:
# `lock xadd`, the increment as it was before the biased word), and copies
# of the headers under $(B) whose try-get tests the value its cmpxchg read
# back, and whose put has its `je` back (a second branch on the hot path).
FO_DIR := $(B)/flags-only
FO_CFLAGS := -std=gnu11 -O2 -Wall -Wextra -Werror -c tests/flags-only.c
FO_X64_GCC := $(if $(filter x86_64,$(shell uname -m)),gcc,x86_64-linux-gnu-gcc)
.PHONY: check-flags-only
check-flags-only: tests/flags-only.c tests/flags-only.sh $(LIB_HDRS) | \
		$(UNIT_NEED)
	@$(NEED) gcc-i686-linux-gnu libc6-dev-i386-cross binutils \
		$(if $(filter x86_64,$(shell uname -m)),,gcc-x86-64-linux-gnu)
	rm -rf $(FO_DIR) && mkdir -p $(FO_DIR)
	$(FO_X64_GCC) $(FO_CFLAGS) -Iinclude -o $(FO_DIR)/gcc-x86_64.o
	i686-linux-gnu-gcc $(FO_CFLAGS) -Iinclude -o $(FO_DIR)/gcc-i386.o
	clang --target=x86_64-linux-gnu $(FO_CFLAGS) -Iinclude \
		-o $(FO_DIR)/clang-x86_64.o
	clang --target=i686-linux-gnu $(FO_CFLAGS) -Iinclude \
		-o $(FO_DIR)/clang-i386.o
	sh tests/flags-only.sh objdump $(FO_DIR)/*.o
	$(FO_X64_GCC) $(FO_CFLAGS) -Iinclude -DREFCOUNT_SATURATING_NO_ASM \
		-o $(FO_DIR)/mutant-xadd.ob
	! sh tests/flags-only.sh objdump $(FO_DIR)/mutant-xadd.ob \
		> $(FO_DIR)/mutant-xadd.out
	for f in hp_inc hp_add hp_kref_get hp_dec_and_test; do \
		grep -q "$$f: xadd" $(FO_DIR)/mutant-xadd.out || exit 1; done
	cp -r include $(FO_DIR)/mutant-include
	perl -0pi -e 's/(\*oldp = __RC_ENC\(w\);\n\t\treturn) true;/$$1 __RC_WRAP_SUB(w, i) > 0 || __RC_F(add_not_zero_loop)(i, r, oldp, w);/' \
		$(FO_DIR)/mutant-include/refcount/impl/saturating-ops.h
	grep -q '__RC_WRAP_SUB(w, i) > 0 ||' \
		$(FO_DIR)/mutant-include/refcount/impl/saturating-ops.h
	$(FO_X64_GCC) $(FO_CFLAGS) -I$(FO_DIR)/mutant-include \
		-o $(FO_DIR)/mutant-tryget.ob
	! sh tests/flags-only.sh objdump $(FO_DIR)/mutant-tryget.ob \
		> $(FO_DIR)/mutant-tryget.out
	grep -q "hp_try_inc_not_zero:.* a test after the swap" \
		$(FO_DIR)/mutant-tryget.out
	cp -r include $(FO_DIR)/mutant-je-include
	perl -0pi -e 's/("js 771f\\n\\t"\n)(\t\t     "\.pushsection ")/$$1\t\t     "je %l[bad]\\n\\t"\n$$2/' \
		$(FO_DIR)/mutant-je-include/refcount/arch/x86-saturating.h
	grep -q 'je %l\[bad\]' \
		$(FO_DIR)/mutant-je-include/refcount/arch/x86-saturating.h
	$(FO_X64_GCC) $(FO_CFLAGS) -I$(FO_DIR)/mutant-je-include \
		-o $(FO_DIR)/mutant-je.ob
	! sh tests/flags-only.sh objdump $(FO_DIR)/mutant-je.ob \
		> $(FO_DIR)/mutant-je.out
	for f in hp_dec_and_test hp_kref_put; do \
		grep -q "$$f: 2 conditional branches" $(FO_DIR)/mutant-je.out \
		|| exit 1; done
	@echo "check-flags-only: 4 builds pass; the three mutants fail it, as they must"
CHECK_TARGETS += check-flags-only

# docs/breeds.md is generated from the table the tests assert.
$(TB)/gen-breeds-md: tests/gen-breeds-md.c $(TB)/gcc/helpers.o \
		$(TB)/gcc/librefcount.a $(UNIT_HDRS)
	gcc $(ALL_CFLAGS) $< $(TB)/gcc/helpers.o $(TB)/gcc/librefcount.a -o $@
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

# docs/ hold no measurement, lab/results.md no run narrative, and every
# citation of the record resolves (tools/check-docs-figures.py).  Each line
# of tests/mutants/docs-figures.txt (FILE|RULE|LINE) puts a figure or a
# narrative back into a copy of FILE; the checker must fail the copy and
# name RULE.
DF_DIR := $(B)/docs-figures
DF := python3 tools/check-docs-figures.py
DF_LINKS := README.md lab/bench.md lab/nullblk.md convert/README.md \
	include/refcount/impl/saturating-ops.h
.PHONY: check-docs-figures
check-docs-figures: tools/check-docs-figures.py tests/mutants/docs-figures.txt \
		$(wildcard docs/*.md) lab/results.md $(DF_LINKS)
	@$(NEED) python3
	$(DF) docs docs/*.md
	$(DF) results lab/results.md
	$(DF) links $(DF_LINKS)
	rm -rf $(DF_DIR) && mkdir -p $(DF_DIR)
	@set -e; n=0; while IFS='|' read -r file rule line; do \
		n=$$((n + 1)); mkdir $(DF_DIR)/$$n; m=$(DF_DIR)/$$n/$${file##*/}; \
		{ cat "$$file"; printf '\n%s\n' "$$line"; } > $$m; \
		mode=docs; [ "$$file" != lab/results.md ] || mode=results; \
		if $(DF) $$mode $$m > $$m.out; then \
			echo "check-docs-figures: mutant $$n ($$rule) passed: $$line"; \
			exit 1; fi; \
		grep -q ": $$rule, " $$m.out || { cat $$m.out; \
			echo "check-docs-figures: mutant $$n not failed as $$rule"; \
			exit 1; }; \
	done < tests/mutants/docs-figures.txt; \
	echo "check-docs-figures: docs/, lab/results.md and their citations pass; all $$n mutants fail it, as they must"

CHECK_TARGETS += check-cxx
CHECK_TARGETS += check-unit-gcc check-unit-clang check-asan check-tsan \
	check-docs check-docs-figures

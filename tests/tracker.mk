# tests/tracker.mk - the ref_tracker's checks beyond the unit suite
#
# The unit suite (mk/unit.mk) holds tests/ref_tracker.c, so the reports,
# the quarantine, both capture backends and the wrappers run in every unit
# variant (gcc, clang, ASan, and the qemu cross builds).  Here, for make
# check (CHECK_TARGETS):
#
#   check-tracker-off      compiled out, the wrappers and ref_tracker_*()
#                          calls add 0 bytes and 0 instructions at their call
#                          sites: tests/tracker-off.sh compares the object
#                          code per breed, gcc and clang, against a control
#                          build with REFCOUNT_TRACKER that must differ
#   check-tracker-tsan     tests/stress/tracker-threads.c under TSan: many
#                          threads on one dir, per breed (clang), and gcc
#   check-tracker-mutants  the unit suite's tracker tests against library
#                          copies with one checker broken each; every one must
#                          fail the test written for it
#
# The README's tracker example (examples/example-tracker.c) runs in
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

.PHONY: check-tracker-off check-tracker-tsan check-tracker-mutants

check-tracker-off: | $(TRK_NEED)
	@sh tests/tracker-off.sh gcc $(TRK)/off-gcc "$(ALL_CFLAGS)" \
		$(foreach b,$(BREEDS),"$(call breed_cflags,$(b))")
	@sh tests/tracker-off.sh clang $(TRK)/off-clang "$(ALL_CFLAGS)" \
		$(foreach b,$(BREEDS),"$(call breed_cflags,$(b))")

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

CHECK_TARGETS += check-tracker-off check-tracker-tsan check-tracker-mutants

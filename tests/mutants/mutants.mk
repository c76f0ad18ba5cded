# tests/mutants/mutants.mk - the library's mutants, kept out of src/
#
# Each tests/mutants/NAME.patch breaks one thing a checker must catch.  It
# is applied to a copy of src/ under $(MUT)/NAME/src/, never to src/
# itself; the fragment that runs the checker builds from that copy and
# expects failure:
#
#   $(call MUTANT_SRC,NAME)     the copied sources' directory; declares
#                               the rule that copies and patches them
#   $(eval $(call LIB_VARIANT,DIR,CC,CFLAGS,ORDER-ONLY,$(call MUTANT_SRC,NAME)))
#                               a whole library built from the copy
#
# A patch that no longer applies stops the build: the mutant is rewritten
# with the code it breaks, never silently dropped.
#
#   percpu-switch-forgets-slots  the switch to atomic mode ignores the
#                                slots (tests/stress.mk, check-percpu)
#   rcuref-no-dead-zone          a get on a released rcuref_t succeeds
#                                (tests/stress.mk, check-rcuref-fuzz)
#   tracker-*                    the ref_tracker's (tests/stress.mk,
#                                check-tracker-mutants)

MUT := $(B)/mutants
MUTANTS := $(patsubst tests/mutants/%.patch,%,$(wildcard tests/mutants/*.patch))

# Explicit rules, so that make never takes the copies for intermediate
# files to delete.
define MUTANT_RULES
$(MUT)/$(1)/.patched: tests/mutants/$(1).patch $(LIB_SRCS) $(LIB_FLAVOURED)
	@$(NEED) patch
	rm -rf $(MUT)/$(1) && mkdir -p $(MUT)/$(1) && cp -r src $(MUT)/$(1)/src
	patch -s -p1 --no-backup-if-mismatch -d $(MUT)/$(1) < $$<
	touch $$@
$(patsubst src/%,$(MUT)/$(1)/src/%,$(LIB_SRCS) $(LIB_FLAVOURED)): \
		$(MUT)/$(1)/.patched ;
endef
$(foreach m,$(MUTANTS),$(eval $(call MUTANT_RULES,$(m))))
MUTANT_SRC = $(MUT)/$(1)/src

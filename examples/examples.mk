# examples/examples.mk - every example, built and run against its output
#
#   make check-examples   each examples/NAME.c compiled with -Werror by each
#                         of its compilers, run in each of its environments,
#                         its output (through its filter) diffed against
#                         examples/NAME.expected (part of make check)
#
# The registry: EXAMPLES, and per example what differs from the default
# (gcc and clang, $(ALL_CFLAGS), the installed-style $(B)/librefcount.a,
# one run with the environment as it is, the output as it is):
#   EX_CCS_<name>     the compilers
#   EX_FLAGS_<name>   flags replacing $(ALL_CFLAGS)
#   EX_LIB_<name>     the library copy it links
#   EX_LIBS_<name>    more libraries
#   EX_RUNS_<name>    environments, one run each (an assignment, or - for
#                     none); every run must give the expected output
#   EX_FILTER_<name>  a command stdout and stderr go through (without one,
#                     stdout alone is compared)

EXAMPLES := example-lookup example-tracker percpu-example \
	rcuref-urcu rcuref-pool rcuref-locked
EX_DIR := $(B)/examples

# docs/percpu_ref.md's example on both fast paths.
EX_RUNS_percpu-example := - GLIBC_TUNABLES=glibc.pthread.rseq=0
EX_LIBS_rcuref-urcu := -lurcu-memb
# The tracker example: -O0, so that no function is inlined or cloned and
# the stacks name them; each capture backend; addresses masked and frames
# outside the example (libc, _start) dropped, as they depend on the
# machine.  Its library copy is built with libdw (file:line,
# tests/stress.mk).
EX_CCS_example-tracker := $(CC)
EX_FLAGS_example-tracker := $(filter-out -O%,$(ALL_CFLAGS)) -O0 -DREFCOUNT_TRACKER
EX_LIB_example-tracker := $(TRK)/librefcount.a
EX_RUNS_example-tracker := $(foreach c,default fp backtrace libunwind,\
	REFCOUNT_TRACKER_CAPTURE=$(c))
EX_FILTER_example-tracker := sed -E -e 's/0x[0-9a-f]+/0x?/g' \
	-e '/^ /{/example-tracker\.c:/!d;}'

# One example: build with each compiler (in a directory of its own: the
# program's name is in the tracker example's output), run in each
# environment, diff.
define EXAMPLE_RUN
	@set -e; for c in $(or $(EX_CCS_$(1)),gcc clang); do \
		mkdir -p $(EX_DIR)/$$c; \
		$$c $(or $(EX_FLAGS_$(1)),$(ALL_CFLAGS)) examples/$(1).c \
			$(or $(EX_LIB_$(1)),$(B)/librefcount.a) $(EX_LIBS_$(1)) \
			-o $(EX_DIR)/$$c/$(1); \
		for e in $(or $(EX_RUNS_$(1)),-); do \
			env $${e#-} $(EX_DIR)/$$c/$(1) $(if $(EX_FILTER_$(1)),2>&1 | \
				$(EX_FILTER_$(1))) > $(EX_DIR)/$(1).out; \
			diff -u examples/$(1).expected $(EX_DIR)/$(1).out || \
				{ echo "check-examples: $(1) ($$c, $$e) differs"; \
				exit 1; }; \
		done; done

endef
EX_LIBS := $(sort $(B)/librefcount.a $(foreach e,$(EXAMPLES),$(EX_LIB_$(e))))

.PHONY: check-examples update-tracker-example
check-examples: $(EX_LIBS) $(EXAMPLES:%=examples/%.c) \
		$(EXAMPLES:%=examples/%.expected) | $(UNIT_NEED) $(TRK_NEED)
	@$(NEED) liburcu-dev clang
	@mkdir -p $(EX_DIR)
	python3 tools/check-excerpt.py README.md examples/example-lookup.c
	$(foreach e,$(EXAMPLES),$(call EXAMPLE_RUN,$(e)))
	@echo "check-examples: examples/{$$(echo $(EXAMPLES) | tr ' ' ,)}.c passed"
CHECK_TARGETS += check-examples

# After a deliberate change of the tracker example's output: its expected
# output from the fp backtrace.
update-tracker-example: $(EX_LIB_example-tracker) | $(TRK_NEED)
	@mkdir -p $(EX_DIR)
	$(CC) $(EX_FLAGS_example-tracker) examples/example-tracker.c \
		$(EX_LIB_example-tracker) -o $(EX_DIR)/example-tracker
	REFCOUNT_TRACKER_CAPTURE=fp $(EX_DIR)/example-tracker 2>&1 | \
		$(EX_FILTER_example-tracker) > examples/example-tracker.expected

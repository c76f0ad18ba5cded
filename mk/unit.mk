# mk/unit.mk - the unit suite, built for one variant
#
# One recipe for every build of the unit suite: the host variants of
# tests/unit.mk (gcc, clang, ASan, TSan) and the aarch64 and i386 cross
# builds of tests/stress.mk.
#
#   $(eval $(call UNIT_VARIANT,NAME,CC,CFLAGS,BREEDS,CRITERION))
#       in $(B)/tests/NAME/: the library (mk/lib.mk, with -fPIC), and
#         unit-<breed>      Criterion, one object per suite:
#                           lkdtm.c     the 17 LKDTM scenarios, what the
#                                       default report handler prints, the
#                                       REFCOUNT_ABORT death test
#                           boundary.c  every operation at 0, 1, MAX-1, MAX,
#                                       SATURATED (and INT_MAX, INT_MIN,
#                                       UINT_MAX)
#                           kref.c      kref, the lock helpers with pthread
#                                       locks
#                           ref_tracker.c  the ref_tracker's reports,
#                                       quarantine, counts, both capture
#                                       backends, the depot, the tracked
#                                       wrappers, holders in misuse reports
#         lifetime-<breed>  threads racing kref_get_unless_zero lookups
#                           against the final kref_put_mutex()/
#                           kref_put_lock()/kref_put()
#         mixed-static, mixed-shared
#                           every breed in one program (the .a, the .so)
#         unit-rcuref       rcuref_t and file_ref_t: get, put, read, inc,
#                           put_close at every zone boundary, the reports
#                           and their texts, one atomic per get
#         unit-percpu_ref   percpu_ref: every state transition, switches
#                           under concurrent get/put, kill racing every
#                           thread, each misuse report
#       for each <breed> of BREEDS (names or BREED_VARIANTS); the Criterion
#       programs only if CRITERION is "yes" (Criterion cannot run under
#       TSan).  UNIT_BINS_NAME lists the Criterion programs,
#       UNIT_LIFETIME_BINS_NAME the lifetime programs.
#   UNIT_NEED       the stamp that installs the compilers and Criterion
#
# The expectations live in tests/lkdtm-table.h and tests/boundary.c.

UNIT_DIR    := $(B)/tests
UNIT_SUITES := lkdtm boundary boundary-long kref report-api ref_tracker
# ref_tracker.c checks the frame-pointer walk through its own functions.
UNIT_SUITE_CFLAGS_ref_tracker := -fno-omit-frame-pointer
UNIT_HDRS   := $(wildcard tests/*.h) $(LIB_HDRS)

# liburcu-dev: check-install builds examples/rcuref-urcu.c with refcount-rcu.
UNIT_NEED := $(UNIT_DIR)/.need
$(UNIT_NEED):
	$(NEED) gcc g++ clang libcriterion-dev pkg-config \
		libasan8 libubsan1 libtsan2 liburcu-dev
	mkdir -p $(@D) && touch $@

define UNIT_VARIANT
UNIT_CC_$(1) = $(2)
UNIT_CFLAGS_$(1) = $(3)
UNIT_BINS_$(1) :=
UNIT_LIFETIME_BINS_$(1) :=
$$(eval $$(call LIB_VARIANT,$(UNIT_DIR)/$(1),$$$$(UNIT_CC_$(1)),\
	$$$$(UNIT_CFLAGS_$(1)) -fPIC,$(UNIT_NEED)))
$(UNIT_DIR)/$(1)/helpers.o: tests/helpers.c $(UNIT_HDRS) | $(UNIT_NEED)
	@mkdir -p $$(@D)
	$$(UNIT_CC_$(1)) $$(UNIT_CFLAGS_$(1)) -c $$< -o $$@
$$(foreach b,$(filter-out $(BREEDS_ONE_THREAD),$(4)),$$(eval $$(call UNIT_LIFETIME,$(1),$$(b))))
ifeq ($(5),yes)
$$(foreach b,$(4),$$(eval $$(call UNIT_CRITERION,$(1),$$(b))))
$$(eval $$(call UNIT_MIXED,$(1)))
$$(eval $$(call UNIT_RCUREF,$(1)))
$$(eval $$(call UNIT_PERCPU,$(1)))
endif
endef

# UNIT_RCUREF(variant): rcuref_t and file_ref_t at every zone boundary
# (breed-free; the bare put, so no liburcu: the cross builds have none).
define UNIT_RCUREF
$(UNIT_DIR)/$(1)/unit-rcuref: tests/rcuref.c $(UNIT_DIR)/$(1)/helpers.o \
		$(UNIT_DIR)/$(1)/librefcount.a $(UNIT_HDRS)
	$$(UNIT_CC_$(1)) $$(UNIT_CFLAGS_$(1)) -DRCUREF_NO_URCU -DRCUREF_DEBUG \
		$$< $(UNIT_DIR)/$(1)/helpers.o $(UNIT_DIR)/$(1)/librefcount.a \
		-lcriterion -o $$@
UNIT_BINS_$(1) += $(UNIT_DIR)/$(1)/unit-rcuref
endef

# UNIT_PERCPU(variant): percpu_ref's states, switches, races and reports
# (breed-free; on whichever fast path the process chooses: rseq on x86-64,
# the atomic slots under qemu).
define UNIT_PERCPU
$(UNIT_DIR)/$(1)/unit-percpu_ref: tests/percpu_ref.c $(UNIT_DIR)/$(1)/helpers.o \
		$(UNIT_DIR)/$(1)/librefcount.a $(UNIT_HDRS)
	$$(UNIT_CC_$(1)) $$(UNIT_CFLAGS_$(1)) $$< $(UNIT_DIR)/$(1)/helpers.o \
		$(UNIT_DIR)/$(1)/librefcount.a -lcriterion -o $$@
UNIT_BINS_$(1) += $(UNIT_DIR)/$(1)/unit-percpu_ref
endef

# UNIT_CRITERION(variant, breed): the Criterion program of one breed, from
# one object per suite.
define UNIT_CRITERION
$(UNIT_DIR)/$(1)/obj/%-$(2).o: tests/%.c $(UNIT_HDRS) | $(UNIT_NEED)
	@mkdir -p $$(@D)
	$$(UNIT_CC_$(1)) $$(UNIT_CFLAGS_$(1)) $$(call breed_cflags,$(2)) \
		$$(UNIT_SUITE_CFLAGS_$$*) -c $$< -o $$@
$(UNIT_DIR)/$(1)/unit-$(2): $(UNIT_SUITES:%=$(UNIT_DIR)/$(1)/obj/%-$(2).o) \
		$(UNIT_DIR)/$(1)/helpers.o $(UNIT_DIR)/$(1)/librefcount.a
	$$(UNIT_CC_$(1)) $$(UNIT_CFLAGS_$(1)) $$^ -lcriterion -o $$@
UNIT_BINS_$(1) += $(UNIT_DIR)/$(1)/unit-$(2)
endef

# UNIT_LIFETIME(variant, breed): the multithreaded lifetime test.
define UNIT_LIFETIME
$(UNIT_DIR)/$(1)/lifetime-$(2): tests/lifetime.c $(UNIT_DIR)/$(1)/helpers.o \
		$(UNIT_DIR)/$(1)/librefcount.a $(UNIT_HDRS)
	$$(UNIT_CC_$(1)) $$(UNIT_CFLAGS_$(1)) $$(call breed_cflags,$(2)) $$< \
		$(UNIT_DIR)/$(1)/helpers.o $(UNIT_DIR)/$(1)/librefcount.a -o $$@
UNIT_LIFETIME_BINS_$(1) += $(UNIT_DIR)/$(1)/lifetime-$(2)
endef

# UNIT_MIXED(variant): every breed in one program, against the .a and the .so.
define UNIT_MIXED
$(UNIT_DIR)/$(1)/mixed-unit-%.o: tests/mixed-unit.c $(UNIT_HDRS) | $(UNIT_NEED)
	@mkdir -p $$(@D)
	$$(UNIT_CC_$(1)) $$(UNIT_CFLAGS_$(1)) $$(call breed_cflags,$$*) \
		-DBREED_SUFFIX=$$* -c $$< -o $$@
UNIT_MIXED_OBJS_$(1) := $(BREEDS:%=$(UNIT_DIR)/$(1)/mixed-unit-%.o) \
	$(UNIT_DIR)/$(1)/helpers.o
$(UNIT_DIR)/$(1)/mixed-static: tests/mixed.c $$(UNIT_MIXED_OBJS_$(1)) \
		$(UNIT_DIR)/$(1)/librefcount.a $(UNIT_HDRS)
	$$(UNIT_CC_$(1)) $$(UNIT_CFLAGS_$(1)) $$< $$(UNIT_MIXED_OBJS_$(1)) \
		$(UNIT_DIR)/$(1)/librefcount.a -lcriterion -o $$@
$(UNIT_DIR)/$(1)/mixed-shared: tests/mixed.c $$(UNIT_MIXED_OBJS_$(1)) \
		$(UNIT_DIR)/$(1)/librefcount.so $(UNIT_HDRS)
	$$(UNIT_CC_$(1)) $$(UNIT_CFLAGS_$(1)) $$< $$(UNIT_MIXED_OBJS_$(1)) \
		-L$(UNIT_DIR)/$(1) -lrefcount -Wl,-rpath,'$$$$ORIGIN' \
		-lcriterion -o $$@
UNIT_BINS_$(1) += $(UNIT_DIR)/$(1)/mixed-static $(UNIT_DIR)/$(1)/mixed-shared
endef

# lab/bench/bench.mk - refcount-bench, included by the top-level Makefile
#
#   make bench [ARGS='--quick | --full | --format=json ...']
#                      build and run refcount-bench (about a minute); the
#                      table goes to stdout, the same run's JSON to
#                      build/bench/bench.json
#   make bench-record  the same run, written to lab/results/bench-run.txt with the
#                      date, commit and command (the output names the CPU)
#   make plot          PNG charts from build/bench/bench.json (runs the
#                      benchmark first if there is none) into build/bench/;
#                      refuses a --quick, partial or stale run
#   make check-bench   smoke test (part of make check): --quick, then check
#                      the structure of the JSON, never the speed
#
# The peers are listed once, in lab/bench/peers.h (read below): each one's
# row file, Debian package (mk/need installs it) and pkg-config module.
#
# The files:
#   lab/bench/peers.h      the peers: X(file, deb, pc), one line each
#   lab/bench/bench.h      what a row shares with the driver (struct bench_impl)
#   lab/bench/loops.h      the template of a row's timed loops and probes
#   lab/bench/breed.c      a breed's row: built once per breed of $(BREEDS_THREADED) (the breeds that may be shared by threads), with
#                      $(call breed_cflags,<breed>) -DBENCH_SFX=<breed>
#   lab/bench/peer-*.c     the baseline (c11: atomic_t) and the peers' rows;
#                      peer-rcuref.c and peer-fileref.c are rcuref_t and
#                      file_ref_t (<refcount/rcuref.h>, kind PEER);
#                      peer-percpu.c is percpu_ref (<refcount/percpu_ref.h>)
#   lab/bench/codesize.sh  the code size table, read from the row objects with
#                      nm and objdump, as the generated codesize.h
#   lab/bench/driver.h     what the driver's stages share; one file per stage:
#     cli.c            main() and the options
#     machine.c        the machine: CPUs, TSC frequency, pinning
#     probe.c          the protection probes
#     run.c            the rows table, the plan and the run, with its medians
#     report.c         what both reports share: the build (-DBENCH_CFLAGS),
#                      the code size table (codesize.h), the kernel's figures
#     report-text.c    the text tables; targets.c, the claims that end them,
#                      with their goals read from lab/bench/claims.txt
#     report-json.c    the JSON document
#     util.c           bench_fail() and the progress bar (the rows call them)
# Data flow: cli parses -> machine probes -> protection probes -> plan ->
# run -> text or JSON report.

BENCH_DIR  := $(B)/bench
BENCH_BIN  := $(BENCH_DIR)/refcount-bench
BENCH_JSON := $(BENCH_DIR)/bench.json
# The peers, from lab/bench/peers.h's X(file, "deb", "pc") lines: their
# names, the packages of those with one, and BENCH_PC_<file>, the pkg-config
# module of those with one.  (The sed scripts are in variables: make would
# count their parentheses.)
BENCH_PEER_X := ^[[:space:]]*X(\([a-z0-9_]*\), *"\([^"]*\)", *"\([^"]*\)")
BENCH_PEER_NAMES := $(shell sed -n 's/$(BENCH_PEER_X).*/\1/p' lab/bench/peers.h)
ifeq ($(strip $(BENCH_PEER_NAMES)),)
$(error lab/bench/bench.mk: no peer lines in lab/bench/peers.h)
endif
BENCH_PEER_DEBS := $(shell sed -n 's/$(BENCH_PEER_X).*/\2/p' lab/bench/peers.h)
BENCH_PEER_PCS := $(shell sed -n 's/$(BENCH_PEER_X).*/\1=\3/p' lab/bench/peers.h)
$(foreach p,$(BENCH_PEER_PCS),$(eval BENCH_PC_$(subst =, := ,$(p))))
BENCH_PCS := $(strip $(foreach n,$(BENCH_PEER_NAMES),$(BENCH_PC_$(n))))
BENCH_PEERS := c11 $(BENCH_PEER_NAMES)
BENCH_ROW_OBJS := $(BREEDS_THREADED:%=$(BENCH_DIR)/breed-%.o) \
	$(BENCH_PEERS:%=$(BENCH_DIR)/peer-%.o)
BENCH_SRC_HDRS := lab/bench/bench.h lab/bench/peers.h lab/bench/loops.h $(LIB_HDRS)
BENCH_DRIVER := cli machine probe run report report-text targets \
	report-json util
BENCH_DRIVER_OBJS := $(BENCH_DRIVER:%=$(BENCH_DIR)/%.o)
# report.c prints the flags it was built with and includes codesize.h.
BENCH_REPORT_CFLAGS = -I$(BENCH_DIR) -DBENCH_CFLAGS='"$(strip $(ALL_CFLAGS))"'
# The claims' goals are data, read at run time (lab/bench/claims.txt).
BENCH_CLAIMS_CFLAGS = -DBENCH_CLAIMS='"$(CURDIR)/lab/bench/claims.txt"'
NM ?= nm
OBJDUMP ?= objdump

# pkg-config may not be installed yet when make reads this file: expand at
# recipe time, after bench-need.
BENCH_PEER_CFLAGS = $(if $(BENCH_PC_$(1)),$$(pkg-config --cflags $(BENCH_PC_$(1))))
BENCH_PEER_LIBS = $(if $(BENCH_PCS),$$(pkg-config --libs $(BENCH_PCS)))
# GLib's functions are out of line: the code size table reads their size.
BENCH_LIBGLIB = $$(pkg-config --variable=libdir glib-2.0)/libglib-2.0.so

.PHONY: bench plot check-bench bench-need
CHECK_TARGETS += check-bench

bench-need:
	@$(NEED) $(BENCH_PEER_DEBS) pkg-config binutils

$(BENCH_DIR):
	mkdir -p $@

# Every row's functions and loops start on a 64-byte boundary, so that where
# a row's loops sit in the cache lines and fetch blocks is a property of its
# own code, the same in every build, and not of how much code the linker put
# before it (a 5% swing in the timing loop from one build to the next was
# measured without this; lab/bench.md, "Method").
BENCH_ROW_CFLAGS := -falign-functions=64 -falign-loops=64

$(BENCH_DIR)/breed-%.o: lab/bench/breed.c $(BENCH_SRC_HDRS) lab/bench/bench.mk \
		| $(BENCH_DIR) bench-need
	$(CC) $(ALL_CFLAGS) $(BENCH_ROW_CFLAGS) -DBENCH_SFX=$* \
		$(call breed_cflags,$*) -c $< -o $@

$(BENCH_DIR)/peer-%.o: lab/bench/peer-%.c $(BENCH_SRC_HDRS) lab/bench/bench.mk \
		| $(BENCH_DIR) bench-need
	$(CC) $(ALL_CFLAGS) $(BENCH_ROW_CFLAGS) \
		$(call BENCH_PEER_CFLAGS,$*) -c $< -o $@

$(BENCH_DIR)/codesize.h: lab/bench/codesize.sh $(BENCH_ROW_OBJS) $(B)/librefcount.a
	sh lab/bench/codesize.sh $(NM) $(OBJDUMP) \
		"$(B)/librefcount.a $(BENCH_LIBGLIB)" $(BENCH_ROW_OBJS) > $@.tmp
	mv $@.tmp $@

# The same call sites on other architectures, from cross-compiled objects of
# the baseline and the breeds (the peers' headers are the host's): aarch64
# with LL/SC (ARMv8.0) and with LSE (ARMv8.1), and i386.  No timing: only
# bytes and instructions, which qemu-user's timing could not give.
BENCH_ARCHS := aarch64 aarch64_lse i386
BENCH_XCC_aarch64 := aarch64-linux-gnu-gcc -march=armv8-a
BENCH_XCC_aarch64_lse := aarch64-linux-gnu-gcc -march=armv8.1-a
BENCH_XCC_i386 := i686-linux-gnu-gcc
BENCH_XBIN_aarch64 := aarch64-linux-gnu-
BENCH_XBIN_aarch64_lse := aarch64-linux-gnu-
BENCH_XBIN_i386 := i686-linux-gnu-
BENCH_XNAME_aarch64 := aarch64 LL/SC
BENCH_XNAME_aarch64_lse := aarch64 LSE
BENCH_XNAME_i386 := i386
BENCH_XNEED := $(BENCH_DIR)/.xneed
$(BENCH_XNEED): | $(BENCH_DIR)
	$(NEED) gcc-aarch64-linux-gnu gcc-i686-linux-gnu \
		libc6-dev-arm64-cross libc6-dev-i386-cross
	touch $@

define BENCH_XARCH
BENCH_XOBJS_$(1) := $(BREEDS_THREADED:%=$(BENCH_DIR)/x-$(1)/breed-%.o) \
	$(BENCH_DIR)/x-$(1)/peer-c11.o
$(BENCH_DIR)/x-$(1)/breed-%.o: lab/bench/breed.c $(BENCH_SRC_HDRS) $(LIB_HDRS) \
		| $(BENCH_XNEED)
	@mkdir -p $$(@D)
	$(BENCH_XCC_$(1)) $$(ALL_CFLAGS) -DBENCH_SFX=$$* \
		$$(call breed_cflags,$$*) -c $$< -o $$@
$(BENCH_DIR)/x-$(1)/peer-c11.o: lab/bench/peer-c11.c $(BENCH_SRC_HDRS) \
		| $(BENCH_XNEED)
	@mkdir -p $$(@D)
	$(BENCH_XCC_$(1)) $$(ALL_CFLAGS) -c $$< -o $$@
$(BENCH_DIR)/x-$(1)/codesize.h: lab/bench/codesize.sh $$(BENCH_XOBJS_$(1))
	CS_NAME=bench_cs_$(1) sh lab/bench/codesize.sh $(BENCH_XBIN_$(1))nm \
		$(BENCH_XBIN_$(1))objdump "" $$(BENCH_XOBJS_$(1)) > $$@.tmp
	mv $$@.tmp $$@
endef
$(foreach a,$(BENCH_ARCHS),$(eval $(call BENCH_XARCH,$(a))))

$(BENCH_DIR)/codesize-arch.h: $(BENCH_ARCHS:%=$(BENCH_DIR)/x-%/codesize.h)
	{ cat $^; \
	  echo "const struct bench_cs_arch cs_archs[] = {"; \
	  $(foreach a,$(BENCH_ARCHS),echo '	{ "$(BENCH_XNAME_$(a))", bench_cs_$(a), BENCH_CS_$(shell echo $(a) | tr a-z A-Z)_EMPTY, BENCH_CS_$(shell echo $(a) | tr a-z A-Z)_EMPTY_INSNS },';) \
	  echo "};"; \
	  echo "const unsigned int nr_cs_archs = sizeof(cs_archs) / sizeof(cs_archs[0]);"; \
	} > $@.tmp
	mv $@.tmp $@

$(BENCH_DRIVER_OBJS): $(BENCH_DIR)/%.o: lab/bench/%.c lab/bench/driver.h $(BENCH_SRC_HDRS) \
		$(LIB_HDRS) | $(BENCH_DIR)
	$(CC) $(ALL_CFLAGS) $(if $(filter report,$*),$(BENCH_REPORT_CFLAGS)) \
		$(if $(filter targets,$*),$(BENCH_CLAIMS_CFLAGS)) \
		-c $< -o $@

$(BENCH_DIR)/report.o: $(BENCH_DIR)/codesize.h $(BENCH_DIR)/codesize-arch.h

$(BENCH_BIN): $(BENCH_DRIVER_OBJS) $(BENCH_ROW_OBJS) $(B)/librefcount.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(BENCH_PEER_LIBS) -lm

bench: $(BENCH_BIN)
	@$(BENCH_BIN) --json=$(BENCH_JSON) $(ARGS)

# make bench-record: the same run, recorded in lab/results/bench-run.txt with the
# date, the commit and the command; the output names the machine.
.PHONY: bench-record
bench-record: $(BENCH_BIN)
	{ echo "make bench-record ARGS='$(ARGS)' on $$(date -u +%F), commit $$(git describe --always --dirty 2>/dev/null)"; \
	  echo; $(BENCH_BIN) --no-progress $(ARGS); } > lab/results/bench-run.txt.tmp
	mv lab/results/bench-run.txt.tmp lab/results/bench-run.txt
	@echo "bench-record: lab/results/bench-run.txt"

$(BENCH_JSON): | $(BENCH_BIN)
	$(BENCH_BIN) --format=json $(ARGS) > $@.tmp
	mv $@.tmp $@

# plot.sh refuses a --quick, partial or stale run (older than the binary,
# which is brought up to date first).
plot: $(BENCH_JSON) $(BENCH_BIN) lab/bench/plot.sh
	@$(NEED) gnuplot-nox jq
	sh lab/bench/plot.sh $(BENCH_JSON) $(BENCH_DIR) $(BENCH_BIN)

check-bench: $(BENCH_BIN)
	@$(NEED) jq
	$(BENCH_BIN) --quick --format=json --no-progress \
		> $(BENCH_DIR)/quick.json
	jq -e -f lab/bench/check.jq $(BENCH_DIR)/quick.json > /dev/null
	@echo "check-bench: refcount-bench --quick --format=json is well formed"

# The lookup table of examples/example-lookup.c, timed (lab/bench/lookup-table.c): kref under a
# mutex against rcuref_t with liburcu, 1 and 2 threads.  `make
# bench-lookup`; check-bench-lookup (make check) runs it small: it must
# finish and print its table, never a speed.
LOOKUP_BIN := $(BENCH_DIR)/lookup-table
$(LOOKUP_BIN): lab/bench/lookup-table.c $(LIB_HDRS) $(B)/librefcount.a | \
		$(BENCH_DIR) bench-need
	$(CC) $(ALL_CFLAGS) $< $(B)/librefcount.a -lurcu-memb -o $@
.PHONY: bench-lookup
bench-lookup: $(LOOKUP_BIN)
	$(LOOKUP_BIN) $(ARGS)
.PHONY: check-bench-lookup
check-bench-lookup: $(LOOKUP_BIN)
	$(LOOKUP_BIN) 20000 3 2 > $(BENCH_DIR)/lookup-table.out
	grep -q 'rcuref speed-up' $(BENCH_DIR)/lookup-table.out
	@echo "check-bench-lookup: lab/bench/lookup-table runs"
CHECK_TARGETS += check-bench-lookup

# The two side benches, one template: $(call side_bench,VAR,name,target)
# defines VAR := $(BENCH_DIR)/name, built from lab/bench/name.c (with
# $(VAR_CFLAGS), if any); `make target` runs it with $(ARGS), and
# check-target (make check) is a smoke test: --quick runs and prints every
# figure, each line of $(VAR_LINES) (never checks speed).
define side_bench
$(1) := $$(BENCH_DIR)/$(2)
.PHONY: $(3) check-$(3)
$$($(1)): lab/bench/$(2).c $$(B)/librefcount.a $$(LIB_HDRS)
	@mkdir -p $$(@D)
	$$(CC) $$(ALL_CFLAGS) $(if $($(1)_CFLAGS),$($(1)_CFLAGS) )$$< $$(B)/librefcount.a -o $$@
$(3): $$($(1))
	$$($(1)) $$(ARGS)
check-$(3): $$($(1))
	$$($(1)) --quick > $$(BENCH_DIR)/$(2).out
	@for l in $$($(1)_LINES); do \
		grep -q "$$$$l" $$(BENCH_DIR)/$(2).out || \
			{ cat $$(BENCH_DIR)/$(2).out; \
			  echo "check-$(3): no '$$$$l' line"; exit 1; }; done
	@echo "check-$(3): passed"
CHECK_TARGETS += check-$(3)
endef

# --- tracker-bench: the ref_tracker's costs (lab/bench.md, 'tracker-bench')

TRACKER_BENCH_CFLAGS := -fno-omit-frame-pointer
TRACKER_BENCH_LINES := 'untracked' 'frame-pointer walk' 'backtrace()' \
	'bytes per live tracked reference' 'stack depot'
$(eval $(call side_bench,TRACKER_BENCH,tracker-bench,tracker-bench))

# --- percpu-bench: percpu_ref's kill latency and bytes per object

PERCPU_BENCH_LINES := 'bytes per object' 'kill latency, idle' \
	'kill latency, busy'
$(eval $(call side_bench,PERCPU_BENCH,percpu-bench,bench-percpu))

# bench/bench.mk - refcount-bench, included by the top-level Makefile
#
#   make bench [ARGS='--quick | --full | --format=json ...']
#                      build and run refcount-bench (about a minute); the
#                      table goes to stdout, the same run's JSON to
#                      build/bench/bench.json
#   make plot          PNG charts from build/bench/bench.json (runs the
#                      benchmark first if there is none) into build/bench/
#   make check-bench   smoke test (part of make check): --quick, then check
#                      the structure of the JSON, never the speed
#
# The peers come from their Debian packages: liburcu (urcu/ref.h), GLib
# (gatomicrefcount) and Concurrency Kit (ck_pr.h); mk/need installs them.
#
# The files:
#   bench/bench.h      what a row shares with the driver (struct bench_impl)
#   bench/loops.h      the template of a row's timed loops and probes
#   bench/breed.c      a breed's row: built once per breed of $(BREEDS), with
#                      $(call breed_cflags,<breed>) -DBENCH_SFX=<breed>
#   bench/peer-*.c     the baseline (c11: atomic_t) and the peers' rows
#   bench/codesize.sh  the code size table, read from the row objects with
#                      nm and objdump, as the generated codesize.h
#   bench/driver.h     what the driver's stages share; one file per stage:
#     cli.c            main() and the options
#     machine.c        the machine: CPUs, TSC frequency, pinning
#     probe.c          the protection probes
#     run.c            the rows table, the plan and the run, with its medians
#     report.c         what both reports share: the build (-DBENCH_CFLAGS),
#                      the code size table (codesize.h), the kernel's figures
#     report-text.c    the text tables; targets.c, the targets that end them
#     report-json.c    the JSON document
#     util.c           bench_fail() and the progress bar (the rows call them)
# Data flow: cli parses -> machine probes -> protection probes -> plan ->
# run -> text or JSON report.

BENCH_DIR  := $(B)/bench
BENCH_BIN  := $(BENCH_DIR)/refcount-bench
BENCH_JSON := $(BENCH_DIR)/bench.json
BENCH_PEERS := c11 urcu glib ck
BENCH_ROW_OBJS := $(BREEDS:%=$(BENCH_DIR)/breed-%.o) \
	$(BENCH_PEERS:%=$(BENCH_DIR)/peer-%.o)
BENCH_SRC_HDRS := bench/bench.h bench/loops.h $(LIB_HDRS)
BENCH_DRIVER := cli machine probe run report report-text targets \
	report-json util
BENCH_DRIVER_OBJS := $(BENCH_DRIVER:%=$(BENCH_DIR)/%.o)
# report.c prints the flags it was built with and includes codesize.h.
BENCH_REPORT_CFLAGS = -I$(BENCH_DIR) -DBENCH_CFLAGS='"$(strip $(ALL_CFLAGS))"'
NM ?= nm
OBJDUMP ?= objdump

# pkg-config may not be installed yet when make reads this file: expand at
# recipe time, after bench-need.
BENCH_GLIB_CFLAGS = $$(pkg-config --cflags glib-2.0)
BENCH_GLIB_LIBS = $$(pkg-config --libs glib-2.0)
BENCH_LIBGLIB = $$(pkg-config --variable=libdir glib-2.0)/libglib-2.0.so

.PHONY: bench plot check-bench bench-need
CHECK_TARGETS += check-bench

bench-need:
	@$(NEED) liburcu-dev libglib2.0-dev libck-dev pkg-config binutils

$(BENCH_DIR):
	mkdir -p $@

$(BENCH_DIR)/breed-%.o: bench/breed.c $(BENCH_SRC_HDRS) | $(BENCH_DIR) bench-need
	$(CC) $(ALL_CFLAGS) -DBENCH_SFX=$* $(call breed_cflags,$*) -c $< -o $@

$(BENCH_DIR)/peer-%.o: bench/peer-%.c $(BENCH_SRC_HDRS) | $(BENCH_DIR) bench-need
	$(CC) $(ALL_CFLAGS) $(if $(filter glib,$*),$(BENCH_GLIB_CFLAGS)) \
		-c $< -o $@

$(BENCH_DIR)/codesize.h: bench/codesize.sh $(BENCH_ROW_OBJS) $(B)/librefcount.a
	sh bench/codesize.sh $(NM) $(OBJDUMP) \
		"$(B)/librefcount.a $(BENCH_LIBGLIB)" $(BENCH_ROW_OBJS) > $@.tmp
	mv $@.tmp $@

$(BENCH_DRIVER_OBJS): $(BENCH_DIR)/%.o: bench/%.c bench/driver.h bench/bench.h \
		$(LIB_HDRS) | $(BENCH_DIR)
	$(CC) $(ALL_CFLAGS) $(if $(filter report,$*),$(BENCH_REPORT_CFLAGS)) \
		-c $< -o $@

$(BENCH_DIR)/report.o: $(BENCH_DIR)/codesize.h

$(BENCH_BIN): $(BENCH_DRIVER_OBJS) $(BENCH_ROW_OBJS) $(B)/librefcount.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(BENCH_GLIB_LIBS)

bench: $(BENCH_BIN)
	@$(BENCH_BIN) --json=$(BENCH_JSON) $(ARGS)

$(BENCH_JSON): | $(BENCH_BIN)
	$(BENCH_BIN) --format=json $(ARGS) > $@.tmp
	mv $@.tmp $@

plot: $(BENCH_JSON) bench/plot.sh
	@$(NEED) gnuplot-nox jq
	sh bench/plot.sh $(BENCH_JSON) $(BENCH_DIR)

check-bench: $(BENCH_BIN)
	@$(NEED) jq
	$(BENCH_BIN) --quick --format=json --no-progress \
		> $(BENCH_DIR)/quick.json
	jq -e -f bench/check.jq $(BENCH_DIR)/quick.json > /dev/null
	@echo "check-bench: refcount-bench --quick --format=json is well formed"

# --- tracker-bench: the ref_tracker's costs (docs/bench.md, 'tracker-bench')

TRACKER_BENCH := $(BENCH_DIR)/tracker-bench
.PHONY: tracker-bench check-tracker-bench
$(TRACKER_BENCH): bench/tracker-bench.c $(B)/librefcount.a $(LIB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -fno-omit-frame-pointer $< $(B)/librefcount.a -o $@
tracker-bench: $(TRACKER_BENCH)
	$(TRACKER_BENCH) $(ARGS)
# Smoke test: --quick runs and prints every figure (never checks speed).
check-tracker-bench: $(TRACKER_BENCH)
	$(TRACKER_BENCH) --quick > $(BENCH_DIR)/tracker-bench.out
	@for l in 'untracked' 'frame-pointer walk' 'backtrace()' \
		'bytes per live tracked reference' 'stack depot'; do \
		grep -q "$$l" $(BENCH_DIR)/tracker-bench.out || \
			{ cat $(BENCH_DIR)/tracker-bench.out; \
			  echo "check-tracker-bench: no '$$l' line"; exit 1; }; done
	@echo "check-tracker-bench: passed"
CHECK_TARGETS += check-tracker-bench

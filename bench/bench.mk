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

BENCH_DIR  := $(B)/bench
BENCH_BIN  := $(BENCH_DIR)/refcount-bench
BENCH_JSON := $(BENCH_DIR)/bench.json
BENCH_PEERS := c11 urcu glib ck
BENCH_ROW_OBJS := $(BREEDS:%=$(BENCH_DIR)/breed-%.o) \
	$(BENCH_PEERS:%=$(BENCH_DIR)/peer-%.o)
BENCH_SRC_HDRS := bench/bench.h bench/loops.h
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

$(BENCH_DIR)/breed-%.o: bench/breed.c $(BENCH_SRC_HDRS) $(LIB_HDRS) \
		| $(BENCH_DIR) bench-need
	$(CC) $(ALL_CFLAGS) -DBENCH_SFX=$* \
		-DREFCOUNT_BREED=REFCOUNT_BREED_$(shell echo $* | tr a-z A-Z) \
		-c $< -o $@

$(BENCH_DIR)/peer-%.o: bench/peer-%.c $(BENCH_SRC_HDRS) | $(BENCH_DIR) bench-need
	$(CC) $(ALL_CFLAGS) $(if $(filter glib,$*),$(BENCH_GLIB_CFLAGS)) \
		-c $< -o $@

$(BENCH_DIR)/codesize.h: bench/codesize.sh $(BENCH_ROW_OBJS) $(B)/librefcount.a
	sh bench/codesize.sh $(NM) $(OBJDUMP) \
		"$(B)/librefcount.a $(BENCH_LIBGLIB)" $(BENCH_ROW_OBJS) > $@.tmp
	mv $@.tmp $@

$(BENCH_DIR)/main.o: bench/main.c bench/bench.h $(BENCH_DIR)/codesize.h
	$(CC) $(ALL_CFLAGS) -I$(BENCH_DIR) -Ibench \
		-DBENCH_CFLAGS='"$(strip $(ALL_CFLAGS))"' -c $< -o $@

$(BENCH_BIN): $(BENCH_DIR)/main.o $(BENCH_ROW_OBJS) $(B)/librefcount.a
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

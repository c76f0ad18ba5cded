# lab/nullblk/nullblk.mk: a userspace null_blk as an external fio ioengine.
#
#   make nullblk          build/fio-nullblk.so (fetches and configures the
#                         source of the installed Debian fio for its headers)
#   make check-nullblk    every path x breed through fio, op counts, ASan,
#                         bad options (part of `make check`)
#   make nullblk-record  nullblk-bench, written to lab/results/nullblk-run.txt with
#                         the date, commit and CPU
#   make nullblk-bench-qusage  q_usage=percpu against q_usage=refcount (the
#                         per-I/O q_usage_counter), numjobs 1 and 2
#   make nullblk-bench-aa  the interleaved runs' A/A control: one breed on
#                         every device, each slot against slot 0
#   make nullblk-bench    the job files under lab/nullblk/jobs/, one table and
#                         the 95% intervals per path and breed (about 10
#                         min: NB_BUDGET); NB_QUICK=1 for a smoke run; bad
#                         NB_* values are refused first
#
#   fio --ioengine=external:build/fio-nullblk.so --path=libaio-4.14 \
#       --refcount=full --rw=randread --bs=4k --size=1g --name=nb
#
# The engine is two fio-facing units (engine.c and its option table
# options.c, compiled against fio's own headers) and the block-layer model (blk.c) compiled once per breed of
# $(BREEDS_THREADED) (the breeds that may be shared by threads), with $(call breed_cflags,<breed>).  Three builds: the engine,
# an op-counting one (-DNULLBLK_COUNT_OPS) and an ASan one, both with object
# accounting (-DNULLBLK_DEBUG).  nbtool.py is told the breeds (--breeds).

NB_FIO     := $(B)/fio-src
NB_SO      := $(B)/fio-nullblk.so
NB_COUNT   := $(B)/nullblk-count/fio-nullblk.so
NB_ASAN    := $(B)/nullblk-asan/fio-nullblk.so
NB_GEN     := $(B)/nullblk-gen
NB_TOOL    := python3 lab/nullblk/nbtool.py --breeds "$(BREEDS_THREADED)"
NB_HDRS    := $(wildcard lab/nullblk/*.h)

# fio's headers are not -Wall -Wextra clean (e.g. unused parameters in their
# inline helpers), so they come in with -isystem, which silences warnings in
# them only; our own code in engine.c and options.c keeps the full set.  config-host.h is
# what fio's ./configure wrote; fio compiles every file with it and
# _GNU_SOURCE.
NB_FIO_CFLAGS = -isystem $(NB_FIO) -include $(NB_FIO)/config-host.h \
	-D_GNU_SOURCE
NB_CFLAGS = $(ALL_CFLAGS) -fPIC -fvisibility=hidden

.PHONY: nullblk check-nullblk nullblk-bench nullblk-variants
nullblk: $(NB_SO)
nullblk-variants: $(NB_SO) $(NB_COUNT) $(NB_ASAN)

$(NB_FIO)/config-host.h: lab/nullblk/fetch-fio-src.sh
	$(NEED) fio dpkg-dev
	lab/nullblk/fetch-fio-src.sh $(NB_FIO)

# fio's help line for each refcount= value: the summary line of the breed's
# header (" * refcount/breed/<name>.h - <summary>"), as NB_BREED_HELP_<name>;
# a header without one leaves its macro undefined, and engine.c fails to
# compile naming it
NB_HELP_SED = s|^ \* refcount/breed/$(1)\.h - \(.*\)|\#define NB_BREED_HELP_$(1) "\1"|p
$(NB_GEN)/breed-help.h: $(LIB_HDRS) lab/nullblk/nullblk.mk
	@mkdir -p $(@D)
	{ echo '/* written by lab/nullblk/nullblk.mk from the breed headers */'; \
	  $(foreach b,$(BREEDS_THREADED),sed -n '$(call NB_HELP_SED,$(b))' \
		$(filter %/breed/$(b).h,$(LIB_HDRS)) </dev/null &&) true; } \
		> $@.tmp
	mv $@.tmp $@

# $(1): object directory, $(2): output, $(3): extra compiler flags
define NB_BUILD
$(1)/blk-%.o: lab/nullblk/blk.c $(NB_HDRS) $$(LIB_HDRS) | $(1)
	$$(CC) $$(NB_CFLAGS) $(3) $$(call breed_cflags,$$*) -c $$< -o $$@
$(1)/engine.o $(1)/options.o: $(1)/%.o: lab/nullblk/%.c lab/nullblk/nullblk.h \
		lab/nullblk/cycles.h lab/nullblk/options.h $(NB_GEN)/breed-help.h \
		$$(LIB_HDRS) $(NB_FIO)/config-host.h | $(1)
	$$(CC) $$(NB_CFLAGS) $(3) -I$(NB_GEN) $$(NB_FIO_CFLAGS) -c $$< -o $$@
$(2): $(1)/engine.o $(1)/options.o $(BREEDS_THREADED:%=$(1)/blk-%.o) \
		$$(LIB_PIC_OBJS)
	$$(CC) -shared $(3) -pthread $$(LDFLAGS) -o $$@ $$^
$(1):
	mkdir -p $$@
endef
$(eval $(call NB_BUILD,$(B)/nullblk,$(NB_SO),))
$(eval $(call NB_BUILD,$(B)/nullblk-count,$(NB_COUNT),\
	-DNULLBLK_COUNT_OPS -DNULLBLK_DEBUG))
$(eval $(call NB_BUILD,$(B)/nullblk-asan,$(NB_ASAN),\
	-DNULLBLK_DEBUG -fsanitize=address -fno-omit-frame-pointer))

# extra cycles per refcount RMW over atomic_t, for the analytic bound:
# refcount-bench's timing suite, run alongside (breeds interleaved per round)
NB_CYCLES_JSON := $(B)/nullblk-bench-cycles.json

# fio is the test driver; skip (and say so) only where it cannot be installed
check-nullblk:
	@if ! $(NEED) fio dpkg-dev python3; then \
		echo "check-nullblk: SKIPPED: fio cannot be installed here"; \
		exit 0; fi; \
	$(MAKE) --no-print-directory nullblk-variants && \
	$(NB_TOOL) check --so $(NB_SO) --count-so $(NB_COUNT) \
		--asan-so $(NB_ASAN) --cc "$(CC)"
CHECK_TARGETS += check-nullblk

NB_RUNTIME ?= 200ms
NB_RAMP    ?= 50ms
NB_REPEAT  ?= 1
NB_QUICK   ?=
# the runtime of an interleaved run (irqmode=0, every breed in one job)
NB_IL_RUNTIME ?= $(if $(filter 1,$(NB_QUICK)),$(NB_RUNTIME),1s)
# after NB_REPEAT passes over the matrix, more passes over the irqmode=0
# paths whose IOPS intervals are wider than +-1%, until NB_BUDGET has gone
# (counted from the first fio run); NB_PIN=1 pins irqmode=0 jobs to CPUs
NB_BUDGET  ?= $(if $(filter 1,$(NB_QUICK)),0,9m)
NB_PIN     ?= 1
NB_BENCH_ARGS = --runtime='$(NB_RUNTIME)' --ramp='$(NB_RAMP)' \
	--repeat='$(NB_REPEAT)' --quick='$(NB_QUICK)' \
	--budget='$(NB_BUDGET)' --pin='$(NB_PIN)' --il-runtime='$(NB_IL_RUNTIME)'
# the NB_* values are checked before anything is built or run
nullblk-bench:
	$(NEED) python3 fio
	$(NB_TOOL) bench --check-args $(NB_BENCH_ARGS)
	$(MAKE) --no-print-directory $(NB_SO) $(BENCH_BIN)
	$(BENCH_BIN) --suites=timing --no-progress \
		--json=$(NB_CYCLES_JSON) > /dev/null
	$(NB_TOOL) bench --so $(NB_SO) --cycles-json $(NB_CYCLES_JSON) \
		$(NB_BENCH_ARGS) --json $(B)/nullblk-bench.json

# What the per-CPU q_usage_counter buys per I/O (lab/nullblk/nbqusage.py):
# q_usage=percpu against q_usage=refcount, numjobs 1 and 2.
.PHONY: nullblk-bench-qusage
nullblk-bench-qusage:
	$(NEED) python3 fio
	$(MAKE) --no-print-directory $(NB_SO)
	$(NB_TOOL) qusage --so $(NB_SO) --runtime='$(NB_RUNTIME)' \
		--ramp='$(NB_RAMP)' --repeat='$(or $(NB_REPEAT_QUSAGE),5)'

# The A/A control of the interleaved runs (lab/nullblk/nbaa.py): every slice on a
# device of one breed (interleave_same=1), each slot's IOPS against slot 0's
# over NB_AA_RUNS runs (6) of NB_AA_PATH (libaio-5.4), NB_AA_BREED (atomic).
.PHONY: nullblk-bench-aa
nullblk-bench-aa:
	$(NEED) python3 fio
	$(MAKE) --no-print-directory $(NB_SO)
	$(NB_TOOL) aa --so $(NB_SO) --runs='$(or $(NB_AA_RUNS),6)' \
		--path='$(or $(NB_AA_PATH),libaio-5.4)' \
		--breed='$(or $(NB_AA_BREED),atomic)'

# make nullblk-record: nullblk-bench, recorded in lab/results/nullblk-run.txt with
# the date, the commit, the command and the CPU it ran on.
.PHONY: nullblk-record
nullblk-record:
	{ echo "make nullblk-record on $$(date -u +%F), commit $$(git describe --always --dirty 2>/dev/null),"; \
	  echo "$$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $$(nproc) CPUs"; echo; \
	  $(MAKE) --no-print-directory -s nullblk-bench; } > lab/results/nullblk-run.txt.tmp
	mv lab/results/nullblk-run.txt.tmp lab/results/nullblk-run.txt
	@echo "nullblk-record: lab/results/nullblk-run.txt"

# tests/input.mk - bad input: `make check` runs check-input
#
#   check-input   every bad input of refcount-bench's options, make plot
#                 (lab/bench/plot.sh), lab/bench/check.jq, and the make variables
#                 FUZZ_SECONDS, STRESS_OPS, STRESS_THREADS, PREFIX, LIBDIR
#                 and WERROR: each must exit non-zero with a message that
#                 names the value, and write nothing (tests/input.sh).  A
#                 few seconds: no benchmark runs, only option parsing and
#                 refcount-bench --quick --suites=codesize.

.PHONY: check-input
check-input: $(BENCH_BIN) lib
	@$(NEED) jq gnuplot-nox
	MAKE='$(MAKE)' sh tests/input.sh $(BENCH_BIN) $(B)/input \
		$(B)/lib/report.o

CHECK_TARGETS += check-input

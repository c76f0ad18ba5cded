# convert/lab/lab.mk - refcount-convert on real Debian projects.
#
# make check-convert: the tool on real Debian projects (jansson 2.14, json-c
# 0.16 with threading on and off, dbus 1.14.10, pulseaudio 16.1, ffmpeg
# 5.1.9, librdkafka 2.0.2): source and build dependencies from Debian, baseline and
# converted test suites, the counters, a misuse replay and a cost ratio,
# in one table
# (convert/lab/projects.py, convert/README.md).  About 15 minutes and
# the network (apt-get only): not in CHECK_TARGETS; .ci/run runs it after
# make check.  CONVERT_LIB: the librefcount tree to convert to (include/
# and build/librefcount.a), this one by default.  CONVERT_ARGS: more
# options of projects.py (--only NAME...: a row, or the rows it is the
# prefix of, json-c for json-c-on and json-c-off; --no-cost).
CONVERT_LIB ?= $(CURDIR)
CONVERT_NEED = coccinelle python3 cmake meson ninja-build dpkg-dev util-linux binutils \
	python3-clang-14 libclang-14-dev
.PHONY: check-convert check-convert-mutant
check-convert: $(B)/librefcount.a
	@$(NEED) $(CONVERT_NEED)
	python3 convert/lab/projects.py --lib $(CONVERT_LIB) --work $(CURDIR)/$(B)/convert $(CONVERT_ARGS)

# The harness's own mutants, on jansson: a wrong conversion (a put
# negated) must make the row FAILED by its tests, and the known findings
# ignored must make it FAILED by its reports.
check-convert-mutant: $(B)/librefcount.a
	@$(NEED) $(CONVERT_NEED)
	@for m in tests:'tests regressed' reports:'unknown reports'; do \
		out=$$(python3 convert/lab/projects.py --lib $(CONVERT_LIB) --only jansson \
			--no-cost --mutant $${m%%:*} --work $(CURDIR)/$(B)/convert-mutant \
			--src $(CURDIR)/$(B)/convert/src 2>&1) && \
			{ echo "$$out"; echo "check-convert-mutant: the $${m%%:*} mutant passed"; exit 1; }; \
		echo "$$out" | grep "jansson: FAILED: .*$${m#*:}" || \
			{ echo "$$out"; echo "check-convert-mutant: the $${m%%:*} mutant did not fail by $${m#*:}"; exit 1; }; \
	done
	@echo "check-convert-mutant: both mutants make the jansson row FAILED, as they must"

# make check-convert-corpus: refcount-convert's report on nine Debian
# projects (pinned sources, apt-get source), scored against the hand-read
# ground truth convert/tests/corpus/truth.json: counts found/true, traps
# marked convert, unsafe conversions, wrong attributions, skipped files,
# time; tuned and held-out totals apart (convert/lab/corpus.py,
# convert/README.md).  Each project is configured for a compile database
# first (meson, cmake, or make -n; its Debian build dependencies installed
# if configure fails).  Network (apt-get only); sources cached under
# $(B)/convert-corpus.  CORPUS_ARGS: --set tuned|held-out, --only NAME...,
# --reuse (score the reports saved by the last run).
# check-convert-corpus-mutant: the classifier that converts every candidate
# must make the check fail on the traps.
CORPUS_NEED = coccinelle python3 dpkg-dev util-linux python3-clang-14 libclang-14-dev \
	meson ninja-build cmake bear
.PHONY: check-convert-corpus check-convert-corpus-mutant
check-convert-corpus:
	@$(NEED) $(CORPUS_NEED)
	python3 convert/lab/corpus.py --work $(CURDIR)/$(B)/convert-corpus --compdb $(CORPUS_ARGS)

check-convert-corpus-mutant:
	@$(NEED) $(CORPUS_NEED)
	@out=$$(python3 convert/lab/corpus.py --work $(CURDIR)/$(B)/convert-corpus --compdb \
		--mutant convert-all $(CORPUS_ARGS) 2>/dev/null); echo "$$out"; \
	echo "$$out" | grep -q "^check-convert-corpus: FAILED: .*traps marked convert [1-9]" || \
		{ echo "check-convert-corpus-mutant: converting every candidate did not fail on the traps"; exit 1; }; \
	echo "check-convert-corpus-mutant: converting every candidate fails on the traps, as it must"

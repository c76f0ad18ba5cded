# refcount-convert's fixtures (tests/convert/*/: one idiom each, its
# expected report and converted file; negative/ must stay untouched) and the
# mutant that must fail them.  docs/convert-tool.md.
.PHONY: check-convert-fixtures
check-convert-fixtures:
	@$(NEED) coccinelle python3
	tests/convert/check-fixtures.sh $(CURDIR)/tools/refcount-convert $(CURDIR)/$(B)/convert-fixtures
CHECK_TARGETS += check-convert-fixtures

# make check-convert: the tool on real Debian projects (jansson 2.14, json-c
# 0.16 with threading on and off): source and build dependencies from
# Debian, baseline and converted test suites, the counters, a misuse replay
# and a cost ratio, in one table (tests/convert/projects.py).  Slow (about 10
# minutes) and needs the network: not in CHECK_TARGETS; .ci/run runs it after
# make check.  CONVERT_LIB: the librefcount tree to convert to (include/ and
# build/librefcount.a), this one by default.
CONVERT_LIB ?= $(CURDIR)
.PHONY: check-convert
check-convert: $(B)/librefcount.a
	@$(NEED) coccinelle python3 cmake dpkg-dev
	python3 tests/convert/projects.py --lib $(CONVERT_LIB) --work $(CURDIR)/$(B)/convert

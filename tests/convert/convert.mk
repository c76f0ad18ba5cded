# refcount-convert's fixtures (tests/convert/*/: one idiom each, its
# expected report and converted file; negative/ must stay untouched) and the
# mutant that must fail them.  docs/convert.md.
.PHONY: check-convert-fixtures
check-convert-fixtures:
	@$(NEED) coccinelle python3
	tests/convert/check-fixtures.sh $(CURDIR)/tools/refcount-convert $(CURDIR)/$(B)/convert-fixtures
CHECK_TARGETS += check-convert-fixtures
# Discovery on the compiled code (libclang with a compile database) on
# tests/convert/compiler/count.c, and its mutant (attribution by name) that
# must fail it.  docs/convert.md.
.PHONY: check-convert-compiler
check-convert-compiler:
	@$(NEED) python3-clang-14 libclang-14-dev
	python3 tests/convert/check-compiler.py $(CURDIR)/$(B)/convert-compiler
	@! python3 tests/convert/check-compiler.py $(CURDIR)/$(B)/convert-compiler --mutant >/dev/null || \
		{ echo "check-convert-compiler: the name-attribution mutant passed"; exit 1; }
	@echo "check-convert-compiler: the name-attribution mutant fails, as it must"
CHECK_TARGETS += check-convert-compiler

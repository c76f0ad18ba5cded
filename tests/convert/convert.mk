# refcount-convert's fixtures (tests/convert/*/: one idiom each, its
# expected report and converted file; negative/ must stay untouched) and the
# mutant that must fail them.  docs/convert.md.
.PHONY: check-convert-fixtures
check-convert-fixtures:
	@$(NEED) coccinelle python3
	tests/convert/check-fixtures.sh $(CURDIR)/tools/refcount-convert $(CURDIR)/$(B)/convert-fixtures
CHECK_TARGETS += check-convert-fixtures

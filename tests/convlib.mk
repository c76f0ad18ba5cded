# tests/convlib.mk - what the library gives conversions of real code
# (issue 14; docs/convert.md, 'The library's conversion features')
#
#   check-anystd   <refcount/refcount.h> from C90, C99, C11 and C++ through
#                  pkg-config, and librefcount.a bundled into a .so
#                  (tests/anystd.sh), each with its mutant

.PHONY: check-anystd
check-anystd: lib | $(UNIT_NEED)
	rm -rf $(TB)/stage-anystd
	$(MAKE) --no-print-directory install PREFIX=/usr \
		DESTDIR=$(abspath $(TB)/stage-anystd) > /dev/null
	sh tests/anystd.sh $(TB)/stage-anystd .
CHECK_TARGETS += check-anystd

# mk/ops.mk - the forms of the operations generated from their table
#
#   make update-ops   rewrite them with tools/gen-ops.py, after an edit of
#                     the operations table in include/refcount/refcount.h
#   make check-ops    they are what the table says, and the controls (a
#                     generated line edited by hand, a row removed, an
#                     unknown form) fail it (tools/check-ops.sh; part of
#                     make check)
#
# The generated code is committed, so that building needs no Python.

OPS_GEN := include/refcount/refcount.h include/refcount/refcount_long.h \
	include/refcount/impl/extern.h src/extern.c

.PHONY: update-ops check-ops
update-ops:
	@$(NEED) python3 clang-format
	python3 tools/gen-ops.py

check-ops:
	@$(NEED) python3 clang-format
	sh tools/check-ops.sh $(B)/ops $(OPS_GEN)
CHECK_TARGETS += check-ops

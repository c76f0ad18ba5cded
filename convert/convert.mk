# convert/convert.mk - refcount-convert, in one home (convert/README.md):
#   convert/refcount-convert, convert/refconv/   the tool
#   convert/cocci/                               its semantic patches
#   convert/tests/                               its fixtures (make check)
#   convert/lab/                                 real Debian projects (lab tier)
#
# refcount-convert's fixtures (convert/tests/*/: one idiom each, its
# expected report and converted file; negative/ must stay untouched), their
# text reports as a person reads them (check-report-text.py), and the
# mutants that must fail them.  convert/README.md.
.PHONY: check-convert-fixtures
check-convert-fixtures:
	@$(NEED) coccinelle python3 python3-clang-14 libclang-14-dev
	convert/tests/check-fixtures.sh $(CURDIR)/convert/refcount-convert $(CURDIR)/$(B)/convert-fixtures
CHECK_TARGETS += check-convert-fixtures
# Discovery on the compiled code (libclang with a compile database) on
# convert/tests/compiler/, and its mutants that must fail it (attribution
# by name, in discovery and of an untyped use; no later round for a
# function skipped once; the uncompiled sources ignored; a union word's
# compare-and-swap not read through; two structs of one name merged; an
# untyped use that could be either of two structs' counted against neither;
# a use no pass read missed for a field keyed by name; an operation only
# the compiler's view found said "add" in the text report, not increment or
# decrement).  convert/README.md.
COMPILER_MUTANTS = by-name no-revisit no-uncompiled no-packed merge attrib-by-name \
	no-conventions no-noop zero-created no-put-release unattributed-dropped unread-by-key \
	add-words
.PHONY: check-convert-compiler
check-convert-compiler:
	@$(NEED) coccinelle python3-clang-14 libclang-14-dev
	python3 convert/tests/check-compiler.py $(CURDIR)/$(B)/convert-compiler
	@for m in $(COMPILER_MUTANTS); do \
		! python3 convert/tests/check-compiler.py $(CURDIR)/$(B)/convert-compiler \
			--mutant $$m >/dev/null || \
			{ echo "check-convert-compiler: the $$m mutant passed"; exit 1; }; \
	done
	@echo "check-convert-compiler: the $(COMPILER_MUTANTS) mutants fail, as they must"
CHECK_TARGETS += check-convert-compiler
# Each spatch pass reads only the files where what it looks for can match
# (a field through `->` or of an array element, a put macro, a function's
# definition, the calls of a function whose address is never taken), and
# the report is the one every pass gives on every file, on
# convert/tests/passes/; its mutants must fail it (comments not blanked, a
# comment marker inside a string, a field only through `->`, K&R
# definitions missed, put macros not looked for, every function taken as
# one whose address is taken).  convert/README.md.
PASSES_MUTANTS = no-blank strings arrow knr no-names address
.PHONY: check-convert-passes
check-convert-passes:
	@$(NEED) coccinelle python3 python3-clang-14 libclang-14-dev
	python3 convert/tests/check-passes.py $(CURDIR)/$(B)/convert-passes
	@for m in $(PASSES_MUTANTS); do \
		! python3 convert/tests/check-passes.py $(CURDIR)/$(B)/convert-passes \
			--mutant $$m >/dev/null || \
			{ echo "check-convert-passes: the $$m mutant passed"; exit 1; }; \
	done
	@echo "check-convert-passes: the $(PASSES_MUTANTS) mutants fail, as they must"
CHECK_TARGETS += check-convert-passes
# The compile database the tool makes for a tree without one, the way its
# build would (make's dry run, a meson or CMake build directory), never
# configuring it; a skipped file, generated but not yet, refuses only the
# counts it may use; on convert/tests/compdb/; its mutants must fail it
# (check-compdb.py says what each breaks).  convert/README.md.
COMPDB_MUTANTS = no-dry-run no-what-if remake no-continued no-separators configured-anyway \
	no-build-dirs no-cache-entries skip-all no-macros no-inputs not-named
.PHONY: check-convert-compdb
check-convert-compdb:
	@$(NEED) coccinelle python3-clang-14 libclang-14-dev make meson ninja-build cmake
	python3 convert/tests/check-compdb.py $(CURDIR)/$(B)/convert-compdb
	@for m in $(COMPDB_MUTANTS); do \
		! python3 convert/tests/check-compdb.py $(CURDIR)/$(B)/convert-compdb \
			--mutant $$m >/dev/null || \
			{ echo "check-convert-compdb: the $$m mutant passed"; exit 1; }; \
	done
	@echo "check-convert-compdb: the $(COMPDB_MUTANTS) mutants fail, as they must"
CHECK_TARGETS += check-convert-compdb

# Every class of wrong conversion in convert/tests/classes/README.md, in
# several disguises, converted class by class, built against the library and
# tested with REFCOUNT_REPORT_LOG: safety asserted (tests pass, the log is
# empty, no trap or convert_safe=false count converted), the convert_safe
# counts converted printed; its mutants must fail the fixture's tests (every
# candidate converted, a creation as an increment, an increment as a set, a
# kept new value as an old one).
.PHONY: check-convert-classes
check-convert-classes: $(B)/librefcount.a
	@$(NEED) coccinelle python3 python3-clang-14 libclang-14-dev
	python3 convert/tests/check-classes.py $(CURDIR)/$(B)/convert-classes \
		--lib $(CURDIR)/$(B)/librefcount.a --mutants
CHECK_TARGETS += check-convert-classes
# The executable specification, convert/tests/shapes/ (one shape per file,
# its own tests and truth.json): applied to a copy, built against the
# library and tested with REFCOUNT_REPORT_LOG; every test passes with an
# empty log, no trap and no count that truth says is unsafe is converted.
# How many of its safe counts are converted is printed (its goal: all of
# them).  The mutants that act on what the tool converts there today must
# fail it: every candidate converted, an increment as a set.
SHAPES_MUTANTS = convert-all inc-as-set
.PHONY: check-convert-shapes
check-convert-shapes: $(B)/librefcount.a
	@$(NEED) coccinelle python3 python3-clang-14 libclang-14-dev
	python3 convert/tests/check-classes.py $(CURDIR)/$(B)/convert-shapes \
		--tree convert/tests/shapes --lib $(CURDIR)/$(B)/librefcount.a
	@for m in $(SHAPES_MUTANTS); do \
		! python3 convert/tests/check-classes.py $(CURDIR)/$(B)/convert-shapes-$$m \
			--tree convert/tests/shapes --lib $(CURDIR)/$(B)/librefcount.a \
			--mutant $$m >/dev/null || \
			{ echo "check-convert-shapes: the $$m mutant passed"; exit 1; }; \
	done
	@echo "check-convert-shapes: the $(SHAPES_MUTANTS) mutants fail it, as they must"
CHECK_TARGETS += check-convert-shapes

include convert/lab/lab.mk

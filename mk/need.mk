# mk/need.mk - the Debian packages the targets install, and their audit
#
#   make packages     every package a recipe's $(NEED) names (mk/need),
#                     one a line, "base" after those of the machine image
#                     (mk/base-packages, which CI never removes).  The
#                     $(NEED) calls are the one list: mk/need.py reads
#                     them from make's database and expands them with make.
#   make check-need   each test of make check and each entry point of
#                     `make help`, made alone (make -n -B), NEEDs every
#                     package of that list it uses before it uses it, in
#                     any order make -j may pick (a recipe counts its own
#                     and its prerequisites' $(NEED)s, no others): a
#                     command, a -l library, an #include, a Python import,
#                     on the recipe line or in the scripts and sources it
#                     names (mk/need.py audit); then the mutants, each a
#                     target with one package dropped from its $(NEED),
#                     which must fail it.  It installs every package of the
#                     list (it reads what each provides from dpkg), so it
#                     is not part of make check, whose run on a bare
#                     machine (.ci/run, after .ci/bare) would otherwise
#                     have them all from the start; .ci/run runs it last.
#   check-packages    (make check) the list can be made: every $(NEED)
#                     names packages, or make variables that do, never
#                     shell words; its mutants (a $(NEED) of a shell
#                     variable, of a bad name) must fail it
#   check-help        (make check) every entry point in the Makefile's
#                     header is a target, and there are at most 15; its
#                     mutant (one that is no target) must fail it
#
# NEED_ALLOW: TARGET:PACKAGE, a use the audit sees that the target never
# reaches.  check-input runs convert/lab/projects.py and corpus.py only to
# see them refuse a bad --only, before they run refcount-convert or build
# anything.
NEED_ALLOW := $(addprefix check-input:,meson coccinelle python3-clang-14)
NEED_AUDIT = python3 mk/need.py audit $(NEED_ALLOW:%=--allow %)
NEED_AUDIT_TARGETS = $(sort $(CHECK_TARGETS) check-convert-mutant \
	$(filter-out check $(CHECK_TIERS:%=check-%) help packages check-need uninstall,$(ENTRY_POINTS)))
# The mutants, TARGET:PACKAGE, one per kind of use: a Python import (the
# converter's libclang, the check-convert-fixtures of before), a command
# in a Python command line, a -l, an #include, a command through a link (an
# alternative) in a script a script names, a package the one used
# recommends (a cross gcc's libc).
NEED_MUTANTS := check-convert-fixtures:python3-clang-14 \
	check-convert-passes:coccinelle check-examples:liburcu-dev \
	check-bench:libck-dev check-input:gnuplot-nox \
	check-flags-only:libc6-dev-i386-cross

.PHONY: packages check-need check-packages check-help
packages:
	@python3 mk/need.py list | while read -r p; do \
		grep -qx "$$p" mk/base-packages && echo "$$p base" || echo "$$p"; done

check-need:
	@python3 mk/need.py list --purgeable | xargs $(NEED) python3
	$(NEED_AUDIT) $(NEED_AUDIT_TARGETS)
	@mkdir -p $(B) && for m in $(NEED_MUTANTS); do t=$${m%%:*}; p=$${m#*:}; \
		if $(NEED_AUDIT) --drop $$p $$t > $(B)/need-mutant.log 2>&1; then \
			echo "check-need: $$t without its NEED of $$p passed"; exit 1; fi; \
		grep -q "make $$t uses $$p " $(B)/need-mutant.log || \
			{ cat $(B)/need-mutant.log; exit 1; }; done
	@echo "check-need: each of $(NEED_MUTANTS) with that package dropped from its NEED fails, as it must"

NEED_LIST_MUTANTS := '$$$$pkgs' 'Foo_bar'
check-packages:
	@mkdir -p $(B) && python3 mk/need.py list > $(B)/packages
	@for m in $(NEED_LIST_MUTANTS); do \
		if python3 mk/need.py list --eval "need-mutant: ; \$$(NEED) $$m" \
			> /dev/null 2> $(B)/packages-mutant.log; then \
			echo "check-packages: a NEED of $$m passed"; exit 1; fi; \
		grep -qF "$$m" $(B)/packages-mutant.log || \
			{ cat $(B)/packages-mutant.log; exit 1; }; done
	@echo "check-packages: $$(wc -l < $(B)/packages) packages, read from the \$$(NEED) calls; the mutants (a NEED of a shell variable, of a bad name) fail, as they must"
CHECK_TARGETS += check-packages

# Every name of the header against make's database: the real list, then
# the mutant, the list and one that is no target.
HELP_MAX := 15
HELP_CHECK = for t in $(1); do grep -qx "$$t" $(B)/targets || \
	{ echo "check-help: $$t is no target"; exit 1; }; done
check-help:
	@mkdir -p $(B) && $(MAKE) -pq Makefile 2>/dev/null | \
		sed -n 's/^\([a-z][a-z-]*\):.*/\1/p' | sort -u > $(B)/targets
	@set -- $(ENTRY_POINTS); [ $$# -le $(HELP_MAX) ] || \
		{ echo "check-help: $$# entry points, more than $(HELP_MAX)"; exit 1; }
	@$(call HELP_CHECK,$(ENTRY_POINTS))
	@if ($(call HELP_CHECK,$(ENTRY_POINTS) check-nothing)) > $(B)/help.log; then \
		echo "check-help: the mutant passed"; exit 1; fi; \
	grep -q "check-nothing is no target" $(B)/help.log
	@echo "check-help: the $(words $(ENTRY_POINTS)) entry points of make help are targets; the mutant (check-nothing) fails, as it must"
CHECK_TARGETS += check-help

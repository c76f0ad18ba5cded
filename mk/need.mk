# mk/need.mk - the Debian packages the targets install, and their audit
#
#   make packages     every package a recipe's $(NEED) names (mk/need),
#                     one a line, "base" after those of the machine image
#                     (mk/base-packages, which CI never removes).  The
#                     $(NEED) calls are the one list: mk/need.py reads
#                     them from make's database and expands them with make.
#   make check-need   each test of make check and each entry point of
#                     `make help`, made alone (make -n -B), NEEDs every
#                     package of that list it uses before it uses it: a
#                     command, a -l library, an #include, a Python import,
#                     on the recipe line or in the scripts and sources it
#                     names (mk/need.py audit); then the mutants, each a
#                     target with one package dropped from its $(NEED),
#                     which must fail it.  It installs every package of the
#                     list (it reads what each provides from dpkg), so it
#                     is not part of make check, whose run on a bare
#                     machine (.ci/run, after .ci/bare) would otherwise
#                     have them all from the start; .ci/run runs it last.
#
# NEED_ALLOW: TARGET:PACKAGE, a use the audit sees that the target never
# reaches.  check-input runs convert/lab/projects.py only to see it refuse
# a bad --only, before it builds anything with meson.
NEED_ALLOW := check-input:meson
NEED_AUDIT = python3 mk/need.py audit $(NEED_ALLOW:%=--allow %)
NEED_AUDIT_TARGETS = $(sort $(CHECK_TARGETS) check-convert-mutant \
	$(filter-out check $(CHECK_TIERS:%=check-%) help packages check-need uninstall,$(ENTRY_POINTS)))
# The mutants, TARGET:PACKAGE, one per kind of use: a Python import (the
# converter's libclang, the check-convert-fixtures of before), a command
# in a Python command line, a -l, an #include.
NEED_MUTANTS := check-convert-fixtures:python3-clang-14 \
	check-convert-passes:coccinelle check-examples:liburcu-dev \
	check-bench:libck-dev

.PHONY: packages check-need
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

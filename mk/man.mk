# mk/man.mk - the man pages, generated from the headers' kernel-doc
#
#   make man          build/man/man3/*.3 (tools/kdoc2man.py): an overview
#                     page per public header, a page per function and macro
#                     (refcount_long_<op>(3): its synopsis, then refcount_<op>(3))
#   make check-man    every page renders with `man --warnings -l` without a
#                     warning, every public function and macro has a page, and
#                     a page with a roff mistake is caught (part of make check)
#   make install      also installs them under $(MANDIR)/man3, and docs/*.md
#                     under $(DOCDIR), where the installed pages point: a
#                     page names docs/X.md (the source tree's), and its
#                     installed copy $(DOCDIR)/X.md
#
# MAN_HEADERS: header=overview-page.  A new public header adds itself here.

MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/librefcount
MAN_DIR := $(B)/man/man3
MAN_HEADERS := include/refcount/refcount.h=refcount \
	include/refcount/refcount_long.h=refcount_long \
	include/refcount/kref.h=kref \
	include/refcount/report.h=refcount_report \
	include/refcount/types.h=refcount_types \
	include/refcount/version.h=refcount_version \
	include/refcount/breed/registry.h=refcount_breeds \
	include/refcount/rcuref.h=rcuref \
	include/refcount/file_ref.h=file_ref \
	include/refcount/ref_tracker.h=ref_tracker \
	include/refcount/percpu_ref.h=percpu_ref
MAN_STAMP := $(B)/man/.stamp
# The date of the pages: the last commit's, so that a rebuild is identical.
MAN_DATE = $(or $(shell git log -1 --format=%cs 2>/dev/null),$(shell date +%F))

.PHONY: man check-man install-man
man: $(MAN_STAMP)
$(MAN_STAMP): tools/kdoc2man.py $(foreach h,$(MAN_HEADERS),$(firstword $(subst =, ,$(h))))
	@$(NEED) python3
	rm -rf $(MAN_DIR) && mkdir -p $(MAN_DIR)
	python3 tools/kdoc2man.py --out $(MAN_DIR) --version $(VERSION) \
		--date $(MAN_DATE) --alias refcount_long_=refcount_ $(MAN_HEADERS) \
		> $(B)/man/pages
	touch $@

check-man: $(MAN_STAMP)
	@$(NEED) man-db groff-base
	sh tools/check-man.sh $(MAN_DIR) $(foreach h,$(MAN_HEADERS),$(firstword $(subst =, ,$(h))))
CHECK_TARGETS += check-man

install-man: $(MAN_STAMP)
	install -d $(DESTDIR)$(MANDIR)/man3 $(DESTDIR)$(DOCDIR)
	for p in $(MAN_DIR)/*.3; do \
		sed 's|docs/\([a-z_-]*\.md\)|$(DOCDIR)/\1|g' "$$p" > "$(DESTDIR)$(MANDIR)/man3/$${p##*/}" && \
		chmod 644 "$(DESTDIR)$(MANDIR)/man3/$${p##*/}" || exit 1; done
	install -m 644 docs/*.md $(DESTDIR)$(DOCDIR)/
	install -m 644 convert/README.md $(DESTDIR)$(DOCDIR)/convert.md

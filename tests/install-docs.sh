#!/bin/sh
# tests/install-docs.sh STAGE: the man pages of a staged `make install
# PREFIX=/usr DESTDIR=STAGE` point to the installed documentation
# (/usr/share/doc/librefcount/X.md), never to the source tree's docs/, and
# every file they name is installed.
set -eu
stage=$1
fail() { echo "install-docs: $*" >&2; exit 1; }
man=$stage/usr/share/man/man3
grep -q '/usr/share/doc/librefcount/design\.md' "$man/refcount.3" ||
	fail "refcount.3 does not name /usr/share/doc/librefcount/design.md"
bad=$(grep -l 'docs/[a-z_-]*\.md' "$man"/*.3 || true)
[ -z "$bad" ] || fail "pages name the source tree's docs/: $bad"
n=0
for d in $(grep -oh '/usr/share/doc/librefcount/[a-z_-]*\.md' "$man"/*.3 | sort -u); do
	[ -e "$stage$d" ] || fail "a page names $d, which is not installed"
	n=$((n + 1))
done
echo "install-docs: the pages name $n installed documents, and no file of docs/"

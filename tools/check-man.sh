#!/bin/sh
# tools/check-man.sh DIR HEADER...: the man pages in DIR are complete and
# render cleanly.
#
#   - every page renders with `man --warnings -l` and groff says nothing;
#   - every public function and macro of the HEADERs (a kernel-doc comment's
#     "name() - " or "NAME - " line) has its page, and every page named in a
#     SEE ALSO or a .BR link exists;
#   - the control: a copy of a page with an unknown request must make the
#     render check fail.
set -eu
dir=$1
shift
fail() { echo "check-man: FAIL: $*" >&2; exit 1; }
render() { LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$1" 2>&1 >/dev/null; }

n=0
for p in "$dir"/*.3; do
	w=$(render "$p")
	[ -z "$w" ] || fail "$p: $w"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no pages in $dir"

for h in "$@"; do
	for name in $(sed -n -e 's/^ \* \([A-Za-z_][A-Za-z0-9_]*\)() - .*/\1/p' \
		-e 's/^ \* \([A-Z_][A-Z0-9_]*\) - .*/\1/p' \
		-e 's|^/\*\* \([A-Z_][A-Z0-9_]*\) - .*|\1|p' "$h"); do
		[ -f "$dir/$name.3" ] || fail "$h: $name has no page"
	done
done
# And every public function the headers declare or define, documented or not
# (refcount_long_<op>() has its page from kdoc2man --alias).
missing_page() { # DIR HEADER...: the first public function without a page
	d=$1
	shift
	for name in $(python3 - "$@" <<'PY'
import re, sys
for h in sys.argv[1:]:
    text = re.sub(r"/\*.*?\*/", "", open(h).read(), flags=re.S)
    for m in re.finditer(r"^(?:static\s+)?(?:__refcount_\w+\s+)*"
                         r"(?:void|bool|int|unsigned int|unsigned long|"
                         r"refcount_report_fn)\s*\**\s*"
                         r"(?:__refcount_\w+\s+)*([a-z]\w*)\s*\(",
                         text, re.M):
        print(m.group(1))
PY
	); do
		[ -f "$d/$name.3" ] || { echo "$name"; return; }
	done
}
name=$(missing_page "$dir" "$@")
[ -z "$name" ] || fail "$name() is public but has no page"
for ref in $(sed -n 's/^\.BR \([A-Za-z0-9_]*\) (3).*/\1/p' "$dir"/*.3 | sort -u); do
	[ -f "$dir/$ref.3" ] || fail "a page links to $ref(3), which does not exist"
done
echo "check-man: $n pages render without a warning; every documented function and macro has one; every link resolves"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-man.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
sed '2i .NOSUCHREQUEST' "$dir/refcount.3" > "$tmp/mutant.3"
[ -n "$(render "$tmp/mutant.3")" ] || fail "a page with an unknown request rendered cleanly"
echo "check-man: a page with an unknown roff request is caught, as it must be"
mkdir "$tmp/less"
cp "$dir"/*.3 "$tmp/less/"
rm "$tmp/less/refcount_long_inc.3"
[ "$(missing_page "$tmp/less" "$@")" = refcount_long_inc ] ||
	fail "the pages without refcount_long_inc.3 passed the every-function check"
echo "check-man: a public function without a page (refcount_long_inc) is caught, as it must be"

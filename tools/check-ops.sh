#!/bin/sh
# tools/check-ops.sh DIR FILE...: the generated forms of the operations
# (tools/gen-ops.py) are what the table in include/refcount/refcount.h says.
#
#   - the FILEs, regenerated under DIR/gen, are the tree's, byte for byte;
#   - the controls, each on a copy of the tree's files in DIR/mutant: a
#     generated line edited by hand (a refcount_long_t form that forwards to
#     the refcount_t one), and a row removed from the table (dec_not_one),
#     must each make the comparison fail; a row with an unknown form must
#     make the generator fail, naming the form.
set -eu
dir=$1
shift
fail() { echo "check-ops: FAIL: $*" >&2; exit 1; }
rm -rf "$dir" && mkdir -p "$dir"

# same TREE: TREE's FILEs are what gen-ops.py writes from TREE's table.
same() {
	tree=$1
	shift
	rm -rf "$dir/gen"
	gen "$tree" >/dev/null || return 1
	for f; do
		diff -u "$tree/$f" "$dir/gen/$f" || return 1
	done
}
gen() { (cd "$1" && python3 "$top/tools/gen-ops.py" --out "$dir/gen"); }
# edited FILE: the control's edit of FILE took.
edited() { ! cmp -s "$1" "$dir/mutant/$1" || fail "the control's edit of $1 did not apply"; }
# copy FILE...: the FILEs and .clang-format under DIR/mutant.
copy() {
	rm -rf "$dir/mutant"
	for f in "$@" .clang-format; do
		mkdir -p "$dir/mutant/$(dirname "$f")" && cp "$f" "$dir/mutant/$f"
	done
}
top=$(pwd)
case $dir in /*) ;; *) dir=$top/$dir ;; esac

same . "$@" > "$dir/diff" ||
	{ cat "$dir/diff"; fail "a generated form is stale or was edited by hand: make update-ops"; }

copy "$@"
sed -i 's/__refcount_long_dec(r, NULL)/__refcount_dec((refcount_t *)r, NULL)/' \
	"$dir/mutant/src/extern.c"
edited src/extern.c
! same "$dir/mutant" "$@" > /dev/null || fail "the control (extern.c edited by hand) passed"

copy "$@"
sed -i '/^ \* | dec_not_one /d' "$dir/mutant/include/refcount/refcount.h"
edited include/refcount/refcount.h
! same "$dir/mutant" "$@" > /dev/null || fail "the control (a row removed) passed"

copy "$@"
sed -i 's/^\( \* | dec_if_one .*| \)put   /\1bogus /' "$dir/mutant/include/refcount/refcount.h"
edited include/refcount/refcount.h
if gen "$dir/mutant" > /dev/null 2> "$dir/bogus.err"; then
	fail "the control (a row with the form 'bogus') was accepted"
fi
grep -q "form 'bogus'" "$dir/bogus.err" || fail "the error does not name the form: $(cat "$dir/bogus.err")"

echo "check-ops: $# files are what the operations table says; a hand edit, a removed row and an unknown form each fail it"

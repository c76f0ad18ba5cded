#!/bin/sh
# tests/caller.sh LIBDIR 'name:NAME ...': a report names the user's call site.
#
# tests/caller.c is built against LIBDIR/librefcount.a with gcc and clang at
# -O0, -O1, -O2, -O3 and -Os, for every breed, and run.  For each report:
#   - the symbol the report names, if any, is the site's own function;
#   - addr2line -f -i on the report's module+offset puts the call in the
#     site's function (the outermost frame of the inline chain);
#   - with gcc, on the site's line (clang merges and sinks the cold calls of
#     one function, and then gives them no line of their own).
# (-Og is covered too, as the operations are forced inline at every level.)
set -eu
lib=$1
rows=$2
src=$(cd "$(dirname "$0")" && pwd)
inc="$src/../include"
work=$(mktemp -d "${TMPDIR:-/tmp}/refcount-caller.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "caller: FAIL: $*" >&2; exit 1; }

checked=0
# check CC OPT NAME INCLUDE-DIR: build, run and check one program; on a
# mismatch, say why on stderr and return 1.
check() {
	what="$1 $2 breed $3"
	$1 -std=gnu11 $2 -g -Wall -Wextra -Werror -I"$4" -rdynamic \
		-DREFCOUNT_BREED=REFCOUNT_BREED_$3 "$src/caller.c" \
		"$lib/librefcount.a" -pthread -o "$work/caller" ||
		{ echo "$what: build" >&2; return 1; }
	"$work/caller" > "$work/out" || { cat "$work/out" >&2; return 1; }
	grep "^site " "$work/out" > "$work/sites" || :
	while read -r _ site line _ at _ sym; do
		if [ "$sym" != - ] && [ "$sym" != "$site" ]; then
			echo "$what: $site reported as $sym" >&2
			return 1
		fi
		a2l=$(addr2line -f -i -e "${at%+*}" "${at##*+}")
		fn=$(echo "$a2l" | tail -2 | head -1)
		if [ "$fn" != "$site" ]; then
			echo "$what: $site's report is in $fn" >&2
			return 1
		fi
		if [ "$1" = gcc ]; then
			where=$(echo "$a2l" | tail -1)
			case "$where" in
			*/caller.c:"$line" | */caller.c:"$line"" "*) ;;
			*)
				echo "$what: $site is line $line, the report says $where" >&2
				return 1
				;;
			esac
		fi
		checked=$((checked + 1))
	done < "$work/sites"
}

for row in $rows; do
	for cc in gcc clang; do
		for opt in -O0 -Og -O1 -O2 -O3 -Os; do
			check $cc $opt "${row#*:}" "$inc" || fail "see above"
		done
	done
done
[ "$checked" -gt 100 ] || fail "only $checked reports checked"
echo "caller: $checked reports name their call site (gcc, clang; -O0 -Og -O1 -O2 -O3 -Os; every breed)"

# The control: headers whose operations are not forced inline (as before)
# must make the -O0 build name a frame in the headers.
cp -r "$inc" "$work/mutant"
sed -i 's|^#define __refcount_inline __refcount_always_inline$|#define __refcount_inline inline|' \
	"$work/mutant/refcount/impl/compiler.h"
! grep -q '^#define __refcount_inline __refcount_always_inline' \
	"$work/mutant/refcount/impl/compiler.h" || fail "the mutant was not made"
if check gcc -O0 SATURATING "$work/mutant" 2> "$work/why"; then
	fail "the mutant headers (no forced inlining at -O0) went unnoticed"
fi
echo "caller: headers that do not force inlining at -O0 are caught, as they must be: $(cat "$work/why")"

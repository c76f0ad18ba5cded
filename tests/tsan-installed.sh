#!/bin/sh
# tests/tsan-installed.sh STAGE 'name:NAME ...': a ThreadSanitizer build of
# a user's program against the installed, uninstrumented library is free of
# false races.
#
# tests/stress/ordering.c (message passing through every put form, and the
# publish pattern) and tests/lifetime.c (lookups with kref_get_unless_zero()
# racing kref_put_mutex() and kref_put_lock()) are correct programs.  Built
# with -fsanitize=thread and nothing but `pkg-config --cflags --libs
# refcount` against STAGE (a staged `make install`, not built with TSan),
# with gcc and with clang, for every breed, TSan must report nothing.
# The control: the same with the headers' TSan annotations removed must
# make TSan report a race in the full breed (whose operations all run
# inside the library).
set -eu
stage=$(realpath "$1")
rows=$2
src=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/refcount-tsan.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "tsan-installed: FAIL: $*" >&2; exit 1; }

export PKG_CONFIG_SYSROOT_DIR="$stage"
export PKG_CONFIG_LIBDIR="$stage/usr/lib/pkgconfig"
unset PKG_CONFIG_PATH
cflags=$(pkg-config --cflags refcount)
libs=$(pkg-config --libs refcount)
export LD_LIBRARY_PATH="$stage/usr/lib"
export TSAN_OPTIONS="halt_on_error=1:exitcode=66:report_signal_unsafe=0"

# build CC BREED INCLUDE-FLAGS OUT: the two programs
build() {
	# shellcheck disable=SC2086
	$1 -std=gnu11 -O1 -g -fsanitize=thread $3 \
		-DREFCOUNT_BREED=REFCOUNT_BREED_$2 "$src/stress/ordering.c" \
		$libs -o "$4-ordering"
	# shellcheck disable=SC2086
	$1 -std=gnu11 -O1 -g -fsanitize=thread $3 \
		-DREFCOUNT_BREED=REFCOUNT_BREED_$2 "$src/lifetime.c" \
		"$src/helpers.c" $libs -o "$4-lifetime"
}

n=0
for row in $rows; do
	B=${row#*:}
	for cc in gcc clang; do
		build $cc "$B" "$cflags" "$work/$cc-$B"
		for m in put publish; do
			"$work/$cc-$B-ordering" $m > "$work/log" 2>&1 ||
				{ cat "$work/log"; fail "$cc $B ordering $m"; }
		done
		"$work/$cc-$B-lifetime" 4 20000 > "$work/log" 2>&1 ||
			{ cat "$work/log"; fail "$cc $B lifetime"; }
		n=$((n + 3))
	done
done
echo "tsan-installed: $n TSan runs against the installed library, no race reported"

cp -r "$stage/usr/include" "$work/mutant"
sed -i -e 's|^#define __refcount_tsan_release(r) __tsan_release.*|#define __refcount_tsan_release(r) ((void)0)|' \
	-e 's|^#define __refcount_tsan_acquire(r) __tsan_acquire.*|#define __refcount_tsan_acquire(r) ((void)0)|' \
	"$work/mutant/refcount/impl/tsan.h"
! grep -q '__tsan_release((void' "$work/mutant/refcount/impl/tsan.h" ||
	fail "the mutant was not made"
build gcc FULL "-I$work/mutant" "$work/mutant-full"
if "$work/mutant-full-ordering" put > "$work/log" 2>&1; then
	fail "the mutant headers (no TSan annotations) went unnoticed"
fi
grep -q "ThreadSanitizer: data race" "$work/log" || { cat "$work/log"; fail "mutant: no race"; }
echo "tsan-installed: without the annotations TSan reports the race, as it must"

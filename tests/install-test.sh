#!/bin/sh
# tests/install-test.sh STAGE CC ROWS: check a staged `make install
# PREFIX=/usr DESTDIR=STAGE` from outside the tree, for every breed in ROWS
# (mk/breeds.mk's BREED_ROWS: "name:NAME ...").
#
# Copies tests/install-probe.c and the test headers it needs to a temporary
# directory and builds it there, once per breed, with only what
# `pkg-config --cflags --libs refcount` says (PKG_CONFIG_SYSROOT_DIR and
# PKG_CONFIG_LIBDIR point at the stage): against the installed shared
# library (and checks that the staged copy is the one loaded), and against
# the installed static archive.  Each program must give its breed's column of tests/lkdtm-table.h.
set -eu

stage=$(realpath "$1")
cc=${2:-cc}
rows=${3:?"usage: install-test.sh STAGE CC 'name:NAME ...'"}
src=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/refcount-install-test.XXXXXX")
trap 'rm -rf "$work"' EXIT

export PKG_CONFIG_SYSROOT_DIR="$stage"
export PKG_CONFIG_LIBDIR="$stage/usr/lib/pkgconfig"
unset PKG_CONFIG_PATH

fail() { echo "install-test: FAIL: $*" >&2; exit 1; }

pkg-config --exists refcount || fail "pkg-config does not find refcount"
cflags=$(pkg-config --cflags refcount)
libs=$(pkg-config --libs refcount)
echo "install-test: pkg-config --cflags --libs refcount: $cflags $libs"
case " $cflags " in
*" -I$stage/usr/include "*) ;;
*) fail "--cflags does not name the staged include directory" ;;
esac
case " $libs " in
*" -L$stage/usr/lib "*"-lrefcount "*) ;;
*) fail "--libs does not name the staged library" ;;
esac
for f in include/refcount/refcount.h include/refcount/kref.h \
	lib/librefcount.a lib/librefcount.so lib/librefcount.so.0 \
	share/man/man3/refcount.3 share/man/man3/kref.3 \
	share/man/man3/refcount_report.3 share/man/man3/refcount_inc.3; do
	[ -e "$stage/usr/$f" ] || fail "/usr/$f not installed"
done

cp "$src/install-probe.c" "$src/helpers.c" "$src/helpers.h" \
	"$src/lkdtm-table.h" "$src/lkdtm-scenarios.h" "$work/"
cd "$work"
n=0
for row in $rows; do
	b=${row%%:*} B=${row#*:} n=$((n + 1))
	# shellcheck disable=SC2086
	$cc -std=gnu11 -O2 -Wall -Wextra -Werror $cflags \
		-DREFCOUNT_BREED=REFCOUNT_BREED_$B install-probe.c helpers.c \
		$libs -o "probe-$b"
	LD_LIBRARY_PATH="$stage/usr/lib" ldd "./probe-$b" |
		grep -q "$stage/usr/lib/librefcount.so.0" ||
		fail "probe-$b does not load the staged librefcount.so.0"
	LD_LIBRARY_PATH="$stage/usr/lib" "./probe-$b"

	# shellcheck disable=SC2086
	$cc -std=gnu11 -O2 -Wall -Wextra -Werror $cflags \
		-DREFCOUNT_BREED=REFCOUNT_BREED_$B install-probe.c helpers.c \
		"$stage/usr/lib/librefcount.a" -pthread -o "probe-$b-static"
	"./probe-$b-static" >/dev/null
done
echo "install-test: all $n breeds pass against the installed copy"

# refcount-rcu: rcuref.h's liburcu path.  liburcu's own .pc is the
# system's, so pkg-config searches the stage first, then its default path.
export PKG_CONFIG_LIBDIR="$stage/usr/lib/pkgconfig:$(pkg-config --variable \
	pc_path pkg-config)"
pkg-config --exists refcount-rcu || fail "pkg-config does not find refcount-rcu"
rcu_cflags=$(pkg-config --cflags refcount-rcu)
rcu_libs=$(pkg-config --libs refcount-rcu)
echo "install-test: pkg-config --cflags --libs refcount-rcu: $rcu_cflags $rcu_libs"
case " $rcu_libs " in
*" -lrefcount "*"-lurcu-memb "*) ;;
*) fail "refcount-rcu's --libs lack -lrefcount or -lurcu-memb" ;;
esac
[ -e "$stage/usr/include/refcount/rcuref.h" ] || fail "rcuref.h not installed"
cp "$src/../examples/rcuref-urcu.c" "$src/../examples/rcuref-urcu.expected" "$work/"
# shellcheck disable=SC2086
$cc -std=gnu11 -O2 -Wall -Wextra -Werror $rcu_cflags rcuref-urcu.c \
	$rcu_libs -o rcuref-urcu
LD_LIBRARY_PATH="$stage/usr/lib" ./rcuref-urcu | diff -u rcuref-urcu.expected -
echo "install-test: examples/rcuref-urcu.c builds and runs with refcount-rcu"

#!/bin/sh
# tests/anystd.sh STAGE SRCDIR: the public header from every C standard and
# C++, and the static library bundled into a shared object, against a
# staged `make install PREFIX=/usr DESTDIR=STAGE`.
#
#  - tests/anystd.c, built with only what `pkg-config --cflags --libs
#    refcount` says, as -std=c90 -pedantic, -std=c99 -pedantic, -std=c11,
#    -std=gnu11 and C++17, -Werror, must run and print "ok"; below C11 it
#    must call the exported operations (nm: an undefined refcount_inc), in
#    C11 and C++ it must not (they are inline);
#  - the mutant: the C90 program linked against an extern.o whose
#    refcount_inc and refcount_dec are swapped (objcopy) must fail;
#  - a consumer's .pc that says `Requires: refcount` gives -lrefcount;
#  - librefcount.a's objects link into a shared object (`gcc -shared`), and
#    the mutant, src/report.c built without -fPIC, must not (its TLS
#    relocation, R_X86_64_TPOFF32 on x86-64, is for executables only).
set -eu

stage=$(realpath "$1")
srcdir=$(realpath "$2")
work=$(mktemp -d "${TMPDIR:-/tmp}/refcount-anystd.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "anystd: FAIL: $*" >&2; exit 1; }

export PKG_CONFIG_SYSROOT_DIR="$stage"
export PKG_CONFIG_LIBDIR="$stage/usr/lib/pkgconfig"
unset PKG_CONFIG_PATH
cflags=$(pkg-config --cflags refcount)
libs=$(pkg-config --libs refcount)
warn="-Wall -Wextra -Werror"
src=$srcdir/tests/anystd.c

# mode compiler flags expect-extern
run() {
	mode=$1 cc=$2 flags=$3 extern=$4
	# shellcheck disable=SC2086
	$cc $flags $warn $cflags -DMODE="\"$mode\"" -c "$src" -o "$work/$mode.o" ||
		fail "$mode: does not compile"
	if nm "$work/$mode.o" | grep -q ' U refcount_inc$'; then
		[ "$extern" = yes ] || fail "$mode: calls the exported refcount_inc"
	else
		[ "$extern" = no ] || fail "$mode: does not call the exported refcount_inc"
	fi
	# shellcheck disable=SC2086
	$cc -rdynamic "$work/$mode.o" $libs -o "$work/$mode" ||
		fail "$mode: does not link"
	LD_LIBRARY_PATH=$stage/usr/lib "$work/$mode" || fail "$mode: failed"
}
run c90 gcc "-std=c90 -pedantic" yes
run c99 gcc "-std=c99 -pedantic" yes
run c11 gcc "-std=c11 -D_POSIX_C_SOURCE=200809L" no
run gnu11 gcc "-std=gnu11" no
run c90-clang clang "-std=c90 -pedantic" yes
run c++17 g++ "-x c++ -std=c++17" no
for lang in "gcc -x c -std=c90 -pedantic" "g++ -x c++ -std=c++98 -pedantic"; do
	# shellcheck disable=SC2086
	printf '#include <refcount/types.h>\nstruct o { refcount_t r; refcount_long_t l; };\n' |
		$lang $warn $cflags -fsyntax-only - ||
		fail "<refcount/types.h> alone in '$lang'"
done
echo "anystd: <refcount/refcount.h> from C90 and C99 (exported operations), C11 and C++ (inline), <refcount/types.h> alone in C90 and C++98: passed"

# The mutant exported operations must be caught.
cp "$stage/usr/lib/librefcount.a" "$work/mutant.a"
ar x "$work/mutant.a" extern.o
mv extern.o "$work/extern.o"
ar d "$work/mutant.a" extern.o
objcopy --redefine-sym refcount_inc=refcount_dec \
	--redefine-sym refcount_dec=refcount_inc "$work/extern.o" "$work/swap.o"
gcc -rdynamic "$work/c90.o" "$work/swap.o" "$work/mutant.a" -pthread \
	-o "$work/mutant"
if "$work/mutant" > "$work/mutant.log" 2>&1; then
	fail "the mutant (refcount_inc and refcount_dec swapped) went unnoticed"
fi
grep -q "FAILED" "$work/mutant.log" || { cat "$work/mutant.log"; fail "mutant: no FAILED"; }
echo "anystd: the mutant exported operations (inc and dec swapped) fail, as they must"

# A library whose public header embeds a refcount_t: its .pc requires ours.
printf 'Name: foo\nDescription: d\nVersion: 1\nRequires: refcount\nLibs: -lfoo\n' \
	> "$work/foo.pc"
foolibs=$(PKG_CONFIG_LIBDIR="$work:$PKG_CONFIG_LIBDIR" pkg-config --libs foo)
case " $foolibs " in
*" -lrefcount "*) ;;
*) fail "a .pc with Requires: refcount gives '$foolibs', no -lrefcount" ;;
esac
echo "anystd: Requires: refcount carries -lrefcount to a consumer ($foolibs)"

# The static library is PIC: it bundles into a shared object.
gcc -shared -o "$work/bundle.so" -Wl,--whole-archive \
	"$stage/usr/lib/librefcount.a" -Wl,--no-whole-archive -pthread ||
	fail "librefcount.a does not link into a shared object"
gcc -std=gnu11 -O2 -I"$srcdir/include" -pthread -fPIE \
	-c "$srcdir/src/report.c" -o "$work/report-nopic.o"
if gcc -shared -o "$work/nopic.so" "$work/report-nopic.o" \
	2> "$work/nopic.log"; then
	fail "the mutant (report.o without -fPIC) linked into a shared object"
fi
grep -q "fPIC" "$work/nopic.log" || { cat "$work/nopic.log"; fail "nopic: no -fPIC message"; }
echo "anystd: librefcount.a links into a shared object; report.o without -fPIC does not ($(grep -o 'relocation R_[A-Z0-9_]*' "$work/nopic.log" | head -1))"

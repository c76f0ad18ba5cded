#!/bin/sh
# tests/strict.sh STAGE 'name:NAME ...': the installed headers under the
# warnings a strict user builds with.
#
# tests/strict-unit.c, which calls every public operation, is compiled
# against STAGE/usr/include (a staged `make install`) with gcc and clang, at
# -O0 and -O2, for every breed, as C11 and as C++17, with -Werror and every
# warning below.  Then the two ways a strict C build can go wrong must stop
# at librefcount's own #error, which names what to add: ISO C without the
# POSIX feature macro, and <refcount/kref.h> below C11 (where
# <refcount/refcount.h> has the exported operations: tests/anystd.sh).
set -eu

stage=$(realpath "$1")
rows=$2
src=$(cd "$(dirname "$0")" && pwd)
inc="-I$stage/usr/include"
work=$(mktemp -d "${TMPDIR:-/tmp}/refcount-strict.XXXXXX")
trap 'rm -rf "$work"' EXIT

common="-Wall -Wextra -Wpedantic -Wcast-qual -Wconversion -Wsign-conversion
	-Wshadow -Wundef -Werror"
c_only="-Wstrict-prototypes -Wmissing-prototypes"
fail() { echo "strict: FAIL: $*" >&2; exit 1; }

n=0
for row in $rows; do
	B=${row#*:}
	for opt in -O0 -O2; do
		for cc in gcc clang; do
			# shellcheck disable=SC2086
			$cc -std=c11 -D_POSIX_C_SOURCE=200809L $opt $common \
				$c_only $inc -DREFCOUNT_BREED=REFCOUNT_BREED_$B \
				-c "$src/strict-unit.c" -o "$work/u.o" ||
				fail "$cc $opt C11, breed $B"
			cxx=$([ "$cc" = gcc ] && echo g++ || echo clang++)
			# shellcheck disable=SC2086
			$cxx -std=c++17 -x c++ $opt $common $inc \
				-DREFCOUNT_BREED=REFCOUNT_BREED_$B \
				-c "$src/strict-unit.c" -o "$work/u.o" ||
				fail "$cxx $opt C++17, breed $B"
			n=$((n + 2))
		done
	done
done
echo "strict: $n builds of tests/strict-unit.c clean under" $common $c_only

# The control: the same build against a copy of the headers in which
# refcount_read() casts away const, as it once did, must fail.
cp -r "$stage/usr/include" "$work/mutant"
sed -i 's|__atomic_load_n(&r->refs, __ATOMIC_RELAXED)|__atomic_load_n((int *)\&r->refs, __ATOMIC_RELAXED)|' \
	"$work/mutant/refcount/refcount.h"
grep -q '(int \*)&r->refs' "$work/mutant/refcount/refcount.h" ||
	fail "the mutant was not made"
# shellcheck disable=SC2086
if gcc -std=gnu11 $common -I"$work/mutant" -c "$src/strict-unit.c" \
	-o "$work/u.o" 2> "$work/err"; then
	fail "the mutant header (a cast dropping const) went unnoticed"
fi
grep -q "cast-qual" "$work/err" || { cat "$work/err"; fail "mutant: no -Wcast-qual"; }
echo "strict: the mutant header (refcount_read() casting away const) fails, as it must"

# Each must fail, with the library's message, not a libc type error.
expect_error() {
	want=$1
	shift
	if "$@" -c "$src/strict-unit.c" -o "$work/u.o" 2> "$work/err"; then
		fail "'$*' built, but it must stop at an #error"
	fi
	grep -q "$want" "$work/err" || { cat "$work/err"; fail "'$*': no '$want'"; }
	echo "strict: '$*' stops at: $(grep -m1 -o 'error: .*' "$work/err")"
}
for cc in gcc clang; do
	expect_error "_POSIX_C_SOURCE" $cc -std=c11 $inc
	expect_error "_POSIX_C_SOURCE" $cc -std=c11 -pthread $inc
	expect_error "kref.h> is inline code" $cc -std=c99 $inc
	expect_error "kref.h> is inline code" $cc -std=c89 $inc
done

# Misuse the compiler can see must not compile: a NULL release function
# (nonnull), container_of() on a pointer of the wrong type; and the
# version macros must say what the installed .pc says.
cat > "$work/null.c" <<'EOT'
#include <refcount/kref.h>
int f(struct kref *k);
int f(struct kref *k) { return kref_put(k, NULL); }
EOT
cat > "$work/container.c" <<'EOT'
#include <refcount/kref.h>
struct o { int a; struct kref ref; };
int f(int *p);
int f(int *p) { return container_of(p, struct o, ref)->a; }
EOT
for cc in gcc clang; do
	expect_error_of() {
		want=$1 file=$2
		shift 2
		if "$@" -c "$file" -o "$work/u.o" 2> "$work/err"; then
			fail "'$* $file' built, but it must not"
		fi
		grep -q "$want" "$work/err" || { cat "$work/err"; fail "'$*': no '$want'"; }
	}
	expect_error_of "nonnull" "$work/null.c" $cc -std=gnu11 -Wall -Werror $inc
	expect_error_of "container_of(): pointer type mismatch" \
		"$work/container.c" $cc -std=gnu11 $inc
done
echo "strict: kref_put(k, NULL) and a mistyped container_of() do not compile"
pcver=$(PKG_CONFIG_SYSROOT_DIR="$stage" PKG_CONFIG_LIBDIR="$stage/usr/lib/pkgconfig" \
	pkg-config --modversion refcount)
printf '#include <refcount/refcount.h>\n#include <stdio.h>\nint main(void) { printf("%%s %%d\\n", REFCOUNT_VERSION_STRING, REFCOUNT_VERSION); return 0; }\n' \
	> "$work/ver.c"
gcc -std=gnu11 $inc "$work/ver.c" -o "$work/ver"
got=$("$work/ver")
IFS=. read -r ma mi pa <<EOT
$pcver
EOT
[ "$got" = "$pcver $((ma * 10000 + mi * 100 + pa))" ] ||
	fail "REFCOUNT_VERSION says '$got', refcount.pc says $pcver"
echo "strict: REFCOUNT_VERSION_STRING and REFCOUNT_VERSION agree with refcount.pc ($got)"

# Every public header compiles on its own, first in a unit (C11; and C++17
# but for the C11-only rcuref.h and file_ref.h).
for h in "$stage"/usr/include/refcount/*.h; do
	name=refcount/$(basename "$h")
	for cc in gcc clang; do
		printf '#include <%s>\n' "$name" |
			$cc -std=gnu11 -Wall -Wextra -Werror $inc -x c -fsyntax-only - ||
			fail "<$name> does not compile on its own ($cc)"
	done
	case $name in
	*/rcuref.h | */file_ref.h) ;;
	*) printf '#include <%s>\n' "$name" |
		g++ -std=c++17 -Wall -Wextra -Werror $inc -x c++ -fsyntax-only - ||
		fail "<$name> does not compile on its own as C++" ;;
	esac
done
echo "strict: every public header compiles on its own"

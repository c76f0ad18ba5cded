#!/bin/sh
# tests/tracker-off.sh CC OUTDIR "CFLAGS" BREED_CFLAGS...
#
# The compiled-out check: without REFCOUNT_TRACKER, every call
# site of tests/tracker-off.c that uses the tracked wrappers and the
# ref_tracker functions compiles to exactly the code of the plain operations (objdump
# -d, and size's text/data/bss), per breed.  The control build with
# REFCOUNT_TRACKER must differ.  See tests/tracker-off.c.
set -e
cc=$1 out=$2 cflags=$3
shift 3
mkdir -p "$out"
dis() {
	objdump -d --no-show-raw-insn "$1" | sed -e '1,/^Disassembly/d'
}
sizes() {
	size "$1" | awk 'NR == 2 { print $1, $2, $3 }'
}
for bf in "$@"; do
	tag=$(echo "$bf" | sed 's/.*BREED_//' | tr 'A-Z' 'a-z')
	o=$out/$tag
	# shellcheck disable=SC2086
	$cc $cflags $bf -c tests/tracker-off.c -o "$o-plain.o"
	# shellcheck disable=SC2086
	$cc $cflags $bf -DWRAPPED -c tests/tracker-off.c -o "$o-wrapped.o"
	# shellcheck disable=SC2086
	$cc $cflags $bf -DWRAPPED -DREFCOUNT_TRACKER \
		-c tests/tracker-off.c -o "$o-tracked.o"
	dis "$o-plain.o" > "$o-plain.dis"
	dis "$o-wrapped.o" > "$o-wrapped.dis"
	dis "$o-tracked.o" > "$o-tracked.dis"
	if ! diff -u "$o-plain.dis" "$o-wrapped.dis"; then
		echo "tracker-off ($cc, $tag): compiled out, the wrappers add code"
		exit 1
	fi
	if [ "$(sizes "$o-plain.o")" != "$(sizes "$o-wrapped.o")" ]; then
		echo "tracker-off ($cc, $tag): sizes differ:" \
			"$(sizes "$o-plain.o") vs $(sizes "$o-wrapped.o")"
		exit 1
	fi
	if cmp -s "$o-plain.dis" "$o-tracked.dis"; then
		echo "tracker-off ($cc, $tag): the control with REFCOUNT_TRACKER" \
			"is identical too: the comparison sees nothing"
		exit 1
	fi
	echo "tracker-off ($cc, $tag): $(grep -c '^[0-9a-f]* <' "$o-plain.dis")" \
		"functions identical, text/data/bss $(sizes "$o-plain.o");" \
		"tracked: $(sizes "$o-tracked.o")"
done

#!/bin/sh
# tests/input.sh BENCH DIR LIBOBJ: bad input gets a clear error;
# LIBOBJ is an object of the library, for the WERROR= check.
#
# Each case runs one bad input and requires a non-zero exit, a message on
# stderr that names the bad value (its first line not blank), and nothing
# written to DIR/out, where the case was told to write.  Never a benchmark:
# refcount-bench fails while parsing, or runs --quick --suites=codesize
# (a fraction of a second; every run has a timeout of 60 s, against a
# hang only: no verdict rests on how fast anything ran); plot.sh gets
# synthetic documents.  Make is run as $MAKE, with NEED=true.  The two
# checkers are shown to fail on mutant benches.
set -u
bench=$1
dir=$2
libobj=$3
make="${MAKE:-make} --no-print-directory NEED=true"
out=$dir/out
nfail=0
rm -rf "$dir"
mkdir -p "$dir"

bad() {
	echo "check-input: FAIL: $*" >&2
	nfail=$((nfail + 1))
}

# expect_fail PATTERN CMD...: CMD exits non-zero, says PATTERN (a fixed
# string) on stderr, and leaves $out empty.
expect_fail() {
	pat=$1
	shift
	rm -rf "$out"
	mkdir -p "$out"
	timeout 60 "$@" > "$dir/stdout" 2> "$dir/stderr" < /dev/null
	rc=$?
	what="$*"
	if [ $rc = 0 ]; then
		bad "exit 0: $what"
	elif ! grep -qF -e "$pat" "$dir/stderr"; then
		bad "no '$pat' in the message of: $what"
		sed 's/^/    /' "$dir/stderr" >&2
	elif [ -z "$(head -n 1 "$dir/stderr")" ]; then
		bad "the message starts with a blank line: $what"
	elif [ -n "$(find "$out" ! -type d)" ]; then
		bad "wrote $(find "$out" ! -type d | tr '\n' ' '): $what"
	else
		echo "  ok: $what: $(grep -F -m 1 -e "$pat" "$dir/stderr")"
	fi
}

echo "check-input: refcount-bench options"
b() { expect_fail "$1" "$bench" --quick --suites=codesize --no-progress \
	--json="$out/bench.json" "$@"; }
# A CPU this process may not run on: 99, or one past the configured ones.
ncpu=$(getconf _NPROCESSORS_CONF)
cpu=99
[ "$ncpu" -gt 99 ] && cpu=$ncpu
# The claims file (lab/bench/claims.txt): each fault named, with its line,
# before anything runs.  bc PATTERN FILE.
bc() { expect_fail "$1" "$bench" --quick --suites=codesize --no-progress \
	--json="$out/bench.json" --claims="$2"; }
claims=lab/bench/claims.txt
bc "$dir/no-such-claims: No such file" "$dir/no-such-claims"
grep -v '^percpu-getput ' "$claims" > "$dir/claims-missing"
bc "no claim 'percpu-getput'" "$dir/claims-missing"
{ cat "$claims"; echo "nope <= 1.5 a claim nobody computes"; } > "$dir/claims-unknown"
bc "unknown claim 'nope'" "$dir/claims-unknown"
{ cat "$claims"; grep '^timing ' "$claims"; } > "$dir/claims-twice"
bc "repeated claim 'timing'" "$dir/claims-twice"
sed 's/^timing  *<=/timing =</' "$claims" > "$dir/claims-op"
bc "not NAME <=|>= GOAL WHAT" "$dir/claims-op"
sed 's/^objects  *<= [0-9.]*/objects <= 0/' "$claims" > "$dir/claims-zero"
bc "not NAME <=|>= GOAL WHAT" "$dir/claims-zero"
b --cpu=$cpu
b --cpu=-1
b --cpu=1024
b --cpu=1x
b --loops=2^
b --loops=2^31
b --loops=2^x
b --loops=0
b --pairs=0
b --objects=0
b --threads=0
b --rounds=0
b --rounds=4
b --rounds=65
b --loops=-5
b --objects=-1
b --objects=1073741825
b --threads=100000
b --precise=0
b --precise=abc
b --loops=
b --loops=abc
b --loops=12abc
b --pairs=99999999999999999999999
b --format=xml
b --suites=timing,bogus
b --suites=codesize,,
b --suites=,timing
b --suites=
expect_fail "--bogus" "$bench" --bogus --json="$out/bench.json"
expect_fail "'--quick' doesn't allow" "$bench" --quick=1 --json="$out/x"
expect_fail "'--loops' requires" "$bench" --json="$out/x" --loops
expect_fail "stray" "$bench" --quick --suites=codesize --json="$out/x" stray
expect_fail "--full" "$bench" --quick --full --json="$out/bench.json"
expect_fail "$out/none/bench.json" "$bench" --quick --suites=codesize \
	--no-progress --json="$out/none/bench.json"
# the range, in words
said() {
	timeout 60 "$bench" --quick --suites=codesize --no-progress "$1" \
		> /dev/null 2> "$dir/stderr"
	grep -qF -e "$1: $2" "$dir/stderr" ||
		bad "$1: not '$2': $(cat "$dir/stderr")"
}
for o in loops pairs objects threads; do
	said --$o=0 "must be at least 1"
done
said --threads=100000 "must be at most 2048"
said --precise=0 "must be at least 1"
said --loops=-5 "must be at least 1"
said --objects=-1 "must be at least 1"
said --loops=2^ "must be a number"

# The checkers' own mutants, each of which a case must catch: a bench
# that names the value but exits 0 (expect_fail), and one that exits 1
# without naming it (expect_fail and said).
printf '#!/bin/sh\necho "$1: must be at least 1" >&2\n' > "$dir/accepts"
printf '#!/bin/sh\necho "bad option" >&2\nexit 1\n' > "$dir/vague"
chmod +x "$dir/accepts" "$dir/vague"
n0=$nfail
real=$bench
for bench in "$dir/accepts" "$dir/vague"; do
	expect_fail "--loops=0" "$bench" --loops=0 2> /dev/null
done
said --loops=0 "must be at least 1" 2> /dev/null
bench=$real
[ $nfail = $((n0 + 3)) ] ||
	{ echo "check-input: FAIL: $((3 - nfail + n0)) of 3 mutant cases" \
		"passed expect_fail or said" >&2; exit 1; }
nfail=$n0
echo "check-input: expect_fail and said fail on a bench that exits 0, or" \
	"refuses without naming the value"

# Valid input still runs: the edges of each range, and the pin used.
use=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status |
	sed 's/[,-].*//')
timeout 60 "$bench" --quick --suites=codesize --no-progress --loops=2^30 \
	--pairs=1 --objects=1073741824 --threads=2048 --rounds=64 --cpu="${use:-0}" \
	--format=json --json="$dir/ok.json" > "$dir/ok.stdout" 2> "$dir/stderr" ||
	bad "valid options refused: $(cat "$dir/stderr")"
cmp -s "$dir/ok.json" "$dir/ok.stdout" || bad "--json=FILE is not stdout's JSON"
[ "$(jq .machine.pinned_cpu "$dir/ok.json" 2>/dev/null)" = "${use:-0}" ] ||
	bad "pinned_cpu is not --cpu=${use:-0}"
"$bench" --help | grep -q -e "--threads=N" || bad "--help"

echo "check-input: lab/bench/check.jq requires the new keys"
json=$dir/ok.json
jq -e --arg partial 1 -f lab/bench/check.jq "$json" > /dev/null ||
	bad "check.jq refuses refcount-bench --suites=codesize --format=json"
for k in .machine.loadavg .machine.cpu_share .machine.date .machine.args \
	.machine.suites .targets; do
	jq "del($k)" "$json" > "$dir/old.json"
	if jq -e --arg partial 1 -f lab/bench/check.jq "$dir/old.json" \
		> /dev/null 2>&1; then
		bad "check.jq accepts a document without $k"
	fi
done
if jq -e -f lab/bench/check.jq "$json" > /dev/null 2>&1; then
	bad "check.jq (not partial) accepts a --suites=codesize run"
fi

echo "check-input: plot.sh"
# A complete run, synthesised from the codesize run: every suite's rows.
jq '.machine.quick = false | .machine.suites |= ["timing", "contention",
	"objects", "codesize"] | .machine.args = ["--fake"] |
	([.results[].impl] | unique) as $impls |
	def row($s; $i; $k): {suite: $s, impl: $i, threads: 1,
		cycles_per_op: (10 + $k), cycles_per_op_min: (9 + $k),
		cycles_per_op_max: (11 + $k), mops: (100 - $k),
		mops_min: (90 - $k), mops_max: (110 - $k),
		ratio_to_atomic: (1 + $k / 10), ratio_min: (0.9 + $k / 10),
		ratio_max: (1.1 + $k / 10)};
	.results += [range($impls | length) as $k | $impls[$k] as $i |
		row("timing"; $i; $k),
		(("getput", "lookup") as $p | (1, 2, 3, 4) as $t |
		 row("contention"; $i; $k) + {pattern: $p, threads: $t}),
		(("getput", "lookup") as $p | (1000, 1000000) as $n |
		 row("objects"; $i; $k) + {pattern: $p, objects: $n})]' \
	"$json" > "$dir/full.json" || bad "could not make a synthetic run"
jq '.machine.quick = true' "$dir/full.json" > "$dir/quick.json"
jq 'del(.results[] | select(.suite == "objects")) |
	.machine.suites |= ["timing", "contention", "codesize"]' \
	"$dir/full.json" > "$dir/partial.json"
cp "$dir/full.json" "$dir/stale.json"
touch -t 200001010000 "$dir/stale.json"
p() { expect_fail "$1" sh lab/bench/plot.sh "$2" "$out" "$bench"; }
p "$dir/none.json" "$dir/none.json"
p "--quick" "$dir/quick.json"
p "objects" "$dir/partial.json"
p "codesize" "$json"
p "older than" "$dir/stale.json"
echo '{"machine": ' > "$dir/broken.json"
p "$dir/broken.json" "$dir/broken.json"
rm -rf "$out"
if sh lab/bench/plot.sh "$dir/full.json" "$out" "$bench" > "$dir/stdout" \
	2> "$dir/stderr"; then
	for c in ratio contention objects; do
		[ -s "$out/bench-$c.png" ] || bad "plot.sh drew no bench-$c.png"
	done
	grep -q -e "--fake" "$dir/stdout" || bad "plot.sh does not say which run"
	[ -z "$(find "$out" -name '*.tmp*')" ] || bad "plot.sh left temp files"
else
	bad "plot.sh refuses a complete run: $(cat "$dir/stderr")"
fi

echo "check-input: make variables"
expect_fail "FUZZ_SECONDS=abc" $make -n fuzz FUZZ_SECONDS=abc
expect_fail "FUZZ_SECONDS=0" $make -n fuzz FUZZ_SECONDS=0
expect_fail "STRESS_OPS=1e6" $make -n stress STRESS_OPS=1e6
expect_fail "STRESS_THREADS=-2" $make -n stress STRESS_THREADS=-2
expect_fail "PREFIX=relpfx" $make install PREFIX=relpfx DESTDIR="$out"
expect_fail "LIBDIR=lib" $make install LIBDIR=lib DESTDIR="$out"

echo "check-input: the lab's conversion harnesses"
expect_fail "--only json-x: no such row" python3 convert/lab/projects.py \
	--lib . --work "$out/convert" --only json-x
expect_fail "--only foo: not a corpus project" python3 convert/lab/corpus.py \
	--work "$out/corpus" --only foo
$make -n -B "$libobj" | grep -q -e -Werror ||
	bad "the library is not built with -Werror by default"
$make -n -B "$libobj" WERROR= | grep -e -Werror &&
	bad "make WERROR= still builds with -Werror"

[ $nfail = 0 ] || { echo "check-input: $nfail failed" >&2; exit 1; }
echo "check-input: every bad input is refused, by name, with nothing written"

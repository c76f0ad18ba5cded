#!/bin/sh
# lab/bench/plot.sh JSON OUTDIR [BIN] - refcount-bench's charts, with jq and gnuplot
#
#   OUTDIR/bench-ratio.png       timing loop: cost per implementation as a
#                                ratio to atomic_t (median, min-max bars),
#                                beside the kernel's published ratios
#   OUTDIR/bench-contention.png  throughput against threads, get/put and
#                                lookup, one line per implementation (median,
#                                min-max bars); the target row drawn last
#   OUTDIR/bench-objects.png     many objects: ratio to atomic_t per object
#                                set and pattern (median, min-max bars)
#
# It draws only a complete, measured run, and says which (date, arguments,
# machine, from the JSON).  It refuses, with exit status 1 and nothing
# written, a file that is not refcount-bench's JSON, one older than BIN (a
# run of an earlier build), a run without the timing, contention and
# objects suites, and a --quick run.  The charts are drawn to temporary
# files, renamed when gnuplot has drawn all three.
set -e
json=$1
out=$2
bin=${3:-}

fail() {
	echo "plot.sh: $json: $*" >&2
	exit 1
}

[ -r "$json" ] || fail "no such file (make bench writes it)"
jq -e '.machine.cpu and (.results | type == "array")' "$json" \
	> /dev/null 2>&1 || fail "not the JSON of refcount-bench"
if [ -n "$bin" ] && [ -n "$(find "$bin" -newer "$json")" ]; then
	fail "older than $bin: a run of an earlier build; make bench, then make plot"
fi
ran=$(jq -r '.machine.suites // ([.results[].suite] | unique) | join(",")' \
	"$json")
missing=$(jq -r '[("timing", "contention", "objects") as $s |
	select(any(.results[]; .suite == $s) | not) | $s] | join(", ")' "$json")
[ -z "$missing" ] ||
	fail "a partial run (--suites=$ran: no $missing): make bench with every suite"
[ "$(jq -r '.machine.quick' "$json")" != true ] ||
	fail "a --quick run (rough numbers, not for charts): make bench without --quick"

# Which run: date, arguments (less --json=) and machine.
run=$(jq -r '.machine | "\(.date // "undated"), refcount-bench " +
	([.args // [] | .[] | select(startswith("--json=") | not)] |
	 if length > 0 then join(" ") else "(defaults)" end) +
	", \(.rounds) rounds"' "$json" | tr -d '"\\')
cpu=$(jq -r '.machine | "\(.cpu), \(.cpus) CPUs, \(.compiler |
	split(" ")[0:2] | join(" "))"' "$json" | tr -d '"\\')
loops=$(jq -r '.machine.timing_loops' "$json")
target=$(jq -r '.targets.target // "refcount-saturating"' "$json")

mkdir -p "$out"
dat=$(mktemp -d "${TMPDIR:-/tmp}/refcount-plot.XXXXXX")
trap 'rm -rf "$dat"; rm -f "$out"/bench-*.png.tmp' EXIT

# The rows in the benchmark's order
first='def firsts: reduce .[] as $x ([]; if index([$x]) then . else . + [$x] end);'
impls=$(jq -r "$first"' [.results[] | select(.suite == "contention") |
	.impl] | firsts | .[]' "$json")
n=$(echo "$impls" | wc -l)
# gnuplot: the rows' names, and the target's position (1-based)
names=$(echo "$impls" | awk '{ printf "%s\"%s\"", (NR > 1 ? ", " : ""), $0 }')
t=$(echo "$impls" | awk -v t="$target" '$0 == t { print NR }')
t=${t:-0}

# Timing: impl, ratio, min, max, kernel ratio (or NaN)
jq -r '.results[] | select(.suite == "timing") |
	[.impl, .ratio_to_atomic, .ratio_min, .ratio_max,
	 (.kernel_ratio // "NaN")] | @tsv' "$json" > "$dat/ratio.tsv"

# the kernel's bars, if the document has any (gnuplot fails on none)
kernel=
if jq -e 'any(.results[]; .kernel_ratio)' "$json" > /dev/null; then
	kernel=', "" using 5:5:5 title "kernel, published (2017 x86; 2019 saturating)" lt 1 lc rgb "#E69F00"'
fi

# Contention: per pattern, one block per impl (in order): threads, Mops/s,
# slowest and fastest round
for p in getput lookup; do
	jq -r --arg p "$p" "$first"'
		[.results[] | select(.suite == "contention" and
				     .pattern == $p)] as $r |
		($r | map(.impl) | firsts)[] as $i |
		([$r[] | select(.impl == $i) |
		  [.threads, .mops, (.mops_min // .mops),
		   (.mops_max // .mops)] | @tsv] + ["", ""])[]' \
		"$json" > "$dat/$p.tsv"
done
maxt=$(jq '[.results[] | select(.suite == "contention") | .threads] | max' \
	"$json")
if [ "$maxt" -le 16 ]; then
	xscale="unset logscale x; set xtics 1; set xrange [0.7:$maxt.3]"
	xshift="column(1) + (k - ($n + 1) / 2.0) * 0.025"
else
	xscale="set logscale x 2; set xtics auto; set xrange [0.8:$maxt.5]"
	xshift="column(1) * (1 + (k - ($n + 1) / 2.0) * 0.015)"
fi
# (each row's points a little apart, so that its min-max bar shows)

# Objects: impl, then ratio, min, max per (pattern, objects) column
jq -r "$first"' [.results[] | select(.suite == "objects") |
	.col = "\(.pattern) \(.objects)"] | . as $r |
	(map(.col) | firsts) as $cols |
	(map(.impl) | firsts[] as $i |
	 [$i] + [$cols[] as $c | $r[] | select(.impl == $i and .col == $c) |
		 .ratio_to_atomic, .ratio_min, .ratio_max] | @tsv)' \
	"$json" > "$dat/objects.tsv"
cols=$(jq -r "$first"' [.results[] | select(.suite == "objects") |
	"\(if .pattern == "lookup" then "lookup" else "get/put" end), " +
	"\(if .objects == 1000000 then "10^6" else .objects end) objects"] |
	firsts | map("\"\(.)\"") | join(", ")' "$json")
ncols=$(jq "$first"' [.results[] | select(.suite == "objects") |
	"\(.pattern) \(.objects)"] | firsts | length' "$json")

gnuplot <<GP
set terminal pngcairo size 1100,620 font "sans,10" noenhanced
set datafile separator "\t"
set grid ytics
array NAME[$n] = [$names]
array COL[$ncols] = [$cols]
# One colour, dash and point per row (colour-blind safe), in the rows' order
set linetype 1 lc rgb "#000000" dt 1 pt 7 lw 1.5
set linetype 2 lc rgb "#E69F00" dt 2 pt 5 lw 1.5
set linetype 3 lc rgb "#56B4E9" dt 3 pt 9 lw 1.5
set linetype 4 lc rgb "#009E73" dt 4 pt 11 lw 1.5
set linetype 5 lc rgb "#D55E00" dt 1 pt 13 lw 1.5
set linetype 6 lc rgb "#0072B2" dt 5 pt 6 lw 1.5
set linetype 7 lc rgb "#CC79A7" dt (8, 4, 2, 4) pt 4 lw 1.5
set linetype 8 lc rgb "#8C6D00" dt (2, 3) pt 8 lw 1.5
set linetype cycle 8
run = "run: $run\n$cpu"

set output "$out/bench-ratio.png.tmp"
set title "refcount-bench timing loop (LKDTM ATOMIC/REFCOUNT_TIMING, n = $loops)\n" . run
set ylabel "cost relative to atomic_t (lower is faster)"
set style data histogram
set style histogram errorbars gap 2 lw 1
set style fill solid 0.6 border -1
set boxwidth 0.9
set xtics rotate by -30
set yrange [0:*]
set key top right
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb "#555555"
plot "$dat/ratio.tsv" using 2:3:4:xtic(1) title "this machine (median, min-max)" lt 1 lc rgb "#56B4E9" $kernel
unset arrow 1

set output "$out/bench-contention.png.tmp"
set style data yerrorlines
set xtics norotate
$xscale
set multiplot layout 1,2 title "refcount-bench contention: one shared counter (median, min-max bars; " . NAME[$t > 0 ? $t : 1] . " thick, on top)\n" . run
set xlabel "threads"
set ylabel "Mops/s, all threads"
set bmargin 8
do for [p in "getput lookup"] {
	set title (p eq "getput" ? "get/put (inc, dec_and_test)" : "lookup (inc_not_zero, dec_and_test)")
	# one key, under both panels
	if (p eq "getput") {
		set key at screen 0.5, 0.015 center bottom horizontal maxrows 2 width 2
	} else {
		unset key
	}
	# every row but the target, then the target, drawn on top, thick, in
	# linetype 5 (solid vermillion); the others in the other linetypes
	plot for [k=1:$n] "$dat/".p.".tsv" index (k < $t || $t == 0 ? k - 1 : k == $n ? $t - 1 : k) \
		using ($xshift):2:3:4 with yerrorlines \
		lt (k == $n && $t > 0 ? 5 : k < 5 ? k : k + 1) \
		lw (k == $n && $t > 0 ? 3.5 : 1.5) \
		title NAME[k < $t || $t == 0 ? k : k == $n ? $t : k + 1]
}
unset multiplot
set bmargin
set xrange [*:*]

set output "$out/bench-objects.png.tmp"
set title "refcount-bench many objects: random order, one 64-byte object per counter (median, min-max bars)\n" . run
set xlabel ""
unset logscale x
set xtics auto rotate by -30
set ylabel "cost relative to atomic_t (lower is faster)"
set style data histogram
set style histogram errorbars gap 2 lw 1
set style fill solid 0.7 border -1
set yrange [0:*]
set key default
set key inside top left
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb "#555555"
array FILL[4] = ["#56B4E9", "#0072B2", "#E69F00", "#D55E00"]
plot for [c=1:$ncols] "$dat/objects.tsv" using (column(3*c-1)):(column(3*c)):(column(3*c+1)):xtic(1) \
	title COL[c] lt 1 lc rgb FILL[(c - 1) % 4 + 1]
GP
for c in ratio contention objects; do
	mv "$out/bench-$c.png.tmp" "$out/bench-$c.png"
done
echo "plot.sh: drew the run of $run"
echo "plot.sh: on $cpu"
echo "plot.sh: $out/bench-ratio.png $out/bench-contention.png $out/bench-objects.png"

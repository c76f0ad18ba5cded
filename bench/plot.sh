#!/bin/sh
# bench/plot.sh JSON OUTDIR - refcount-bench's charts, with jq and gnuplot
#
#   OUTDIR/bench-ratio.png       timing loop: cost per implementation as a
#                                ratio to atomic_t (median, min-max bars),
#                                beside the kernel's published ratios
#   OUTDIR/bench-contention.png  throughput against threads, get/put and
#                                lookup, one line per implementation
#   OUTDIR/bench-objects.png     many objects: cycles per operation
set -e
json=$1
out=$2
dat=$out/plot
mkdir -p "$dat"

cpu=$(jq -r '.machine | "\(.cpu), \(.cpus) CPUs, \(.compiler | split(" ")[0:2] | join(" "))"' "$json")
loops=$(jq -r '.machine.timing_loops' "$json")

# Timing: impl, ratio, min, max, kernel ratio (or -)
jq -r '.results[] | select(.suite == "timing") |
	[.impl, .ratio_to_atomic, .ratio_min, .ratio_max,
	 (.kernel_ratio // "NaN")] | @tsv' "$json" > "$dat/ratio.tsv"

# The rows in the benchmark's order, and the suites' columns
first='def firsts: reduce .[] as $x ([]; if index([$x]) then . else . + [$x] end);'
impls=$(jq -r "$first"' [.results[] | select(.suite == "contention") |
	.impl] | firsts | .[]' "$json")

# Contention: one file per pattern, one line per thread count, one column
# per impl
for p in getput lookup; do
	jq -r --arg p "$p" '
		[.results[] | select(.suite == "contention" and
				     .pattern == $p)] |
		group_by(.threads)[] |
		[.[0].threads] + map(.mops) | @tsv' "$json" > "$dat/$p.tsv"
done

# Objects: impl, then cycles/op per (pattern, objects) column
jq -r "$first"' [.results[] | select(.suite == "objects") |
	.col = "\(.pattern) \(.objects)"] | . as $r |
	(map(.col) | firsts) as $cols |
	("impl\t" + ($cols | join("\t"))),
	(map(.impl) | firsts[] as $i |
	 [$i] + [$cols[] as $c | $r[] | select(.impl == $i and .col == $c) |
		 .cycles_per_op] | @tsv)' "$json" > "$dat/objects.tsv"

ncols=$(echo "$impls" | wc -l)
titles=$(echo "$impls" | tr '\n' ' ')

gnuplot <<GP
set terminal pngcairo size 1000,560 font "sans,10" noenhanced
set datafile separator "\t"
set grid ytics
set key top left

set output "$out/bench-ratio.png"
set title "refcount-bench timing loop (LKDTM ATOMIC/REFCOUNT_TIMING, n = $loops)\n$cpu"
set ylabel "cost relative to atomic_t (lower is faster)"
set style data histogram
set style histogram errorbars gap 2 lw 1
set style fill solid 0.6 border -1
set boxwidth 0.9
set xtics rotate by -30
set yrange [0:*]
set key top right
plot "$dat/ratio.tsv" using 2:3:4:xtic(1) title "this machine (median, min-max)", \
     "" using 5:5:5 title "kernel, published (2017 x86; 2019 saturating)"

set output "$out/bench-contention.png"
set style data linespoints
unset xtics
set xtics 1
set multiplot layout 1,2 title "refcount-bench contention: one shared counter\n$cpu"
set xlabel "threads"
set key bottom left
set ylabel "Mops/s, all threads"
set title "get/put (inc, dec_and_test)"
plot for [i=2:$ncols+1] "$dat/getput.tsv" using 1:i with linespoints \
	title word("$titles", i-1)
set title "lookup (inc_not_zero, dec_and_test)"
plot for [i=2:$ncols+1] "$dat/lookup.tsv" using 1:i with linespoints \
	title word("$titles", i-1)
unset multiplot

set output "$out/bench-objects.png"
set title "refcount-bench many objects: random order, one 64-byte object per counter\n$cpu"
set xlabel ""
set ylabel "cycles per operation"
set style data histogram
set style histogram clustered gap 2
set style fill solid 0.7 border -1
set xtics rotate by -30
set key top left autotitle columnheader
plot for [i=2:5] "$dat/objects.tsv" using i:xtic(1)
GP
echo "plot.sh: $out/bench-ratio.png $out/bench-contention.png $out/bench-objects.png"

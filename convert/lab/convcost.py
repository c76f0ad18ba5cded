"""check-convert's cost: the converted program against the original, in
interleaved rounds (the order alternates, ABBA), both pinned to one CPU.
A round's ratio is converted / original ns per create+get+put+free, each
side the median of its slices (convert/lab/projects/cost.h); the figure
is the median ratio with the 95 % interval lab/bench/ uses: Student's t on the
logarithms of the rounds' ratios (ratio_ci() in lab/bench/util.c, the same
formula).  Rounds are added, up to MAX_ROUNDS, until the interval is
within +-HALF or the row's time is up."""

import math
import os
import statistics
import subprocess
import time

MIN_ROUNDS, MAX_ROUNDS, HALF, SECONDS = 8, 24, 0.01, 25


def t975(df):
    """Student's t quantile for 0.975 (lab/bench/util.c's t975())."""
    exact = [0, 12.706, 4.303, 3.182, 2.776]
    if df < len(exact):
        return exact[df]
    z, d = 1.959964, float(df)
    z2 = z * z
    return (z + (z2 * z + z) / (4 * d) + (5 * z2 * z2 * z + 16 * z2 * z + 3 * z) / (96 * d * d) +
            (3 * z2 * z2 * z2 * z + 19 * z2 * z2 * z + 17 * z2 * z - 15 * z) / (384 * d * d * d))


def ratio_ci(ratios):
    """The 95 % interval of the geometric mean of RATIOS (lab/bench/util.c)."""
    n = len(ratios)
    if n < 2:
        return (ratios[0], ratios[0]) if n else (0, 0)
    logs = [math.log(r) for r in ratios]
    mean = sum(logs) / n
    var = sum((x - mean) ** 2 for x in logs) / (n - 1)
    h = t975(n - 1) * math.sqrt(var / n)
    return math.exp(mean - h), math.exp(mean + h)


def cpu_pin():
    return str(max(os.sched_getaffinity(0)))


def one_run(prog, n):
    r = subprocess.run(["taskset", "-c", cpu_pin(), prog, "cost", str(n)],
                       stdout=subprocess.PIPE, universal_newlines=True, check=True)
    return float(r.stdout.split()[0])


def cost(orig, conv, n):
    """(median ratio, lo, hi, rounds, orig ns, conv ns)."""
    ratios, ns_o, ns_c = [], [], []
    end = time.monotonic() + SECONDS
    one_run(orig, n // 4), one_run(conv, n // 4)  # warm-up
    while len(ratios) < MAX_ROUNDS:
        if len(ratios) % 2:
            c, o = one_run(conv, n), one_run(orig, n)
        else:
            o, c = one_run(orig, n), one_run(conv, n)
        ns_o.append(o)
        ns_c.append(c)
        ratios.append(c / o)
        if len(ratios) >= MIN_ROUNDS:
            lo, hi = ratio_ci(ratios)
            if (hi - lo) / (hi + lo) <= HALF or time.monotonic() > end:
                break
    lo, hi = ratio_ci(ratios)
    return (statistics.median(ratios), lo, hi, len(ratios), statistics.median(ns_o),
            statistics.median(ns_c))

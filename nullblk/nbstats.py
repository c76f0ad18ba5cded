# SPDX-License-Identifier: MIT
"""nbstats: the intervals of make nullblk-bench (nbtool.py bench).

Each fio run of the benchmark has every breed side by side, so each
breed's IOPS (or clat) over atomic's in that run is a paired measurement;
over all runs of a path, Student's t on their logarithms gives the 95%
interval of the ratio (a geometric mean ratio), as refcount-bench does
(bench/util.c, ratio_ci()).
"""
import math
import statistics

# An interval of +- this much (as a fraction) or less answers the question.
RESOLVED = 0.01


def t975(df):
    """Student's t quantile for 0.975 (Cornish-Fisher from df = 5 on)."""
    exact = [0, 12.706, 4.303, 3.182, 2.776]
    if df < len(exact):
        return exact[df]
    z = 1.959964
    return (z + (z ** 3 + z) / (4 * df)
            + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z)
            / (384 * df ** 3))


def ratio_ci(xs):
    """The 95% interval of the ratio xs estimate, one per paired fio run:
    Student's t on their logarithms (a geometric mean ratio)."""
    ls = [math.log(x) for x in xs if x > 0]
    if len(ls) < 2:
        return (float("nan"), float("nan"))
    mean = sum(ls) / len(ls)
    sd = statistics.stdev(ls)
    h = t975(len(ls) - 1) * sd / math.sqrt(len(ls))
    return (math.exp(mean - h), math.exp(mean + h))


def print_intervals(paired, paths, breeds):
    """Per path and breed, the 95% interval of the ratio to atomic over
    every fio run (each run has every breed, so each ratio is paired),
    and whether it answers the question to +-1%; the paths that move no
    counter give the noise floor the same way."""
    print("\n  95%% intervals, paired over every fio run (iodepth x numjobs "
          "x repetitions):\n  IOPS and p99 clat of each breed, %% of "
          "atomic's; resolved when within +-%.0f%%" % (100 * RESOLVED))
    unresolved = []
    for irq in (0, 1):
        print("  irqmode=%d" % irq)
        for path in paths:
            for b in breeds:
                lo, hi = ratio_ci(paired[(path, irq, b, "iops")])
                plo, phi = ratio_ci(paired[(path, irq, b, "p99")])
                half = (hi - lo) / (hi + lo) if hi == hi else float("inf")
                ok = half <= RESOLVED
                if not ok:
                    unresolved.append("%s irqmode=%d %s" % (path, irq, b))
                print("    %-13s %-10s IOPS within [%+.1f, %+.1f] %% of atomic "
                      "at 95%%, p99 [%+.1f, %+.1f] %%%s%s" % (
                          path, b, 100 * (lo - 1), 100 * (hi - 1),
                          100 * (plo - 1), 100 * (phi - 1),
                          "" if ok else ", not resolved (+-%.1f%%)"
                          % (100 * half),
                          "  (noise floor: no counter)"
                          if not paths[path][0] else ""))
    print("  verdict: %s" % (
        "every path and breed resolved to +-1%" if not unresolved else
        "%d of %d not resolved to +-1%%; the machine's noise was wider than "
        "the effect (a quieter machine, or NB_RUNTIME/NB_REPEAT larger)"
        % (len(unresolved), 2 * len(paths) * len(breeds))))

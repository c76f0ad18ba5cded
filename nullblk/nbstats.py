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


def print_intervals(paired, absolute, paths, breeds, baseline):
    """Per path and breed, the 95% interval of the ratio to @baseline over
    every fio run (each run has every breed, so each ratio is paired) for
    IOPS and clat p50/p99, the breed's median absolute IOPS, and whether
    the IOPS interval answers the question to +-1%; the paths that move no
    counter give the noise floor the same way.  @absolute maps (path,
    irqmode, breed) to that breed's IOPS, one per fio job, the baseline's
    included."""
    print("\n  95%% intervals, paired over every fio run (iodepth x numjobs "
          "x repetitions):\n  IOPS and clat p50/p99 of each breed, %% of "
          "%s's; kIOPS: the median over those runs;\n  resolved when "
          "the IOPS interval is within +-%.0f%%" % (baseline,
                                                   100 * RESOLVED))
    unresolved = []
    for irq in (0, 1):
        print("  irqmode=%d" % irq)
        for path in paths:
            base = statistics.median(absolute[(path, irq, baseline)])
            print("    %-13s %-10s %7.1f kIOPS%s" % (
                path, baseline, base / 1e3,
                "  (noise floor: no counter)" if not paths[path][0] else ""))
            for b in breeds:
                lo, hi = ratio_ci(paired[(path, irq, b, "iops")])
                c50 = ratio_ci(paired[(path, irq, b, "p50")])
                c99 = ratio_ci(paired[(path, irq, b, "p99")])
                half = (hi - lo) / (hi + lo) if hi == hi else float("inf")
                ok = half <= RESOLVED
                if not ok:
                    unresolved.append("%s irqmode=%d %s" % (path, irq, b))
                print("    %-13s %-10s %7.1f kIOPS, IOPS within [%+.1f, "
                      "%+.1f] %% of %s at 95%% confidence, p50 "
                      "[%+.1f, %+.1f] %%, p99 [%+.1f, %+.1f] %%%s" % (
                          path, b,
                          statistics.median(absolute[(path, irq, b)]) / 1e3,
                          100 * (lo - 1), 100 * (hi - 1), baseline,
                          100 * (c50[0] - 1), 100 * (c50[1] - 1),
                          100 * (c99[0] - 1), 100 * (c99[1] - 1),
                          "" if ok else ", not resolved (+-%.1f%%)"
                          % (100 * half)))
    print("  verdict: %s" % (
        "every path and breed resolved to +-1%" if not unresolved else
        "%d of %d not resolved to +-1%%; the machine's noise was wider than "
        "the effect (a quieter machine, or NB_RUNTIME/NB_REPEAT larger)"
        % (len(unresolved), 2 * len(paths) * len(breeds))))

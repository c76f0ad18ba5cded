# SPDX-License-Identifier: MIT
"""nbstats: the intervals and verdicts of make nullblk-bench (nbtool.py).

A round is one fio run of one configuration (path, irqmode, iodepth,
numjobs) with every breed side by side, one job section each, in rotated
order.  Each breed's figure over atomic's in the same round is a paired
measurement; over all rounds of a path and irqmode, Student's t on their
logarithms gives the 95% interval of the ratio (a geometric mean ratio),
as refcount-bench does (lab/bench/util.c, ratio_ci()).  The figures:

  iops     fio's IOPS of the section (the numjobs jobs summed)
  cpu      I/Os per CPU second: the engine's checkpoints (cycles.h) count
           the I/Os and the job thread's CPU time between them, so this is
           the IOPS on a CPU of the job's own, whatever else the machine
           runs (at irqmode=0 a job never sleeps)
  cycles   the engine's clock around each ->submit, per I/O: the
           interquartile mean of the deltas (cycles.h), the block layer's
           own work with nothing else running in the middle of it
  cycles_mean  the mean of those deltas, preemptions (a delta over the
           cap) left out
  p50/p99  fio's clat percentiles

A row resolves when its IOPS interval is within +-RESOLVED; the paths that
move no counter are printed the same way, and their intervals are the
noise floor.
"""
import math
import statistics

# An interval of +- this much (as a fraction) or less answers the question.
RESOLVED = 0.01

# (key, label, the breed is slower when the ratio is) for each figure
FIGURES = [("iops", "IOPS", "lower"),
           ("fio", "fio's IOPS, breeds as job sections", "lower"),
           ("cpu", "per CPU-second", "lower"),
           ("cycles", "engine cycles/I/O", "higher"),
           ("cycles_mean", "engine mean", "higher"),
           ("p50", "p50", "higher"), ("p99", "p99", "higher")]


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


def half_width(ci):
    """An interval's half-width as a fraction of its middle."""
    lo, hi = ci
    return (hi - lo) / (hi + lo) if hi == hi else float("inf")


def log_sd(xs):
    ls = [math.log(x) for x in xs if x > 0]
    return statistics.stdev(ls) if len(ls) > 1 else float("nan")


def figure(r, key, tsc_hz):
    """One section's figure @key from its result record @r, None where the
    record has none (a run from before the engine's accounting)."""
    if r.get("mode") == "interleaved":
        # what the slices give: IOPS and the engine's clock per I/O
        return {"iops": r["iops"], "cycles": r["engine_iqm"]}.get(key)
    if key in ("iops", "fio", "p50", "p99", "p99.9"):
        return r["iops" if key == "fio" else key]
    if key in ("cycles", "cycles_mean"):
        n = r.get("engine_ios", 0) - r.get("engine_over", 0)
        mean = r["engine_cycles"] / n if n > 0 else None
        if key == "cycles" and mean:
            return r.get("engine_iqm") or mean
        return mean
    if key == "cpu":
        return (r["span_ios"] / r["cpu_ns"] * 1e9 if r.get("cpu_ns")
                else None)
    if key == "share":
        # the fraction of the wall time the job threads had a CPU
        if not r.get("wall_cycles") or not r.get("cpu_ns"):
            return None
        per_ns = 1.0 if r.get("cycles_unit", "tsc") != "tsc" else \
            tsc_hz / 1e9
        return r["cpu_ns"] / (r["wall_cycles"] / per_ns)
    raise KeyError(key)


def rounds(results):
    """{(rep, path, irqmode, iodepth, numjobs, mode): {breed: record}}:
    mode "sections" (a fio run with a job section per breed) or
    "interleaved" (one job, every breed in slices, interleave=)"""
    out = {}
    for r in results:
        key = (r["rep"], r["path"], r["irqmode"], r["iodepth"], r["numjobs"],
               r.get("mode", "sections"))
        out.setdefault(key, {})[r["breed"]] = r
    return out


def rows(results, paths, breeds, baseline, tsc_hz):
    """Per (path, irqmode, breed): the paired ratios of each figure, the
    intervals, the absolute figures, and the verdict."""
    out = {}
    by_round = rounds(results)
    for irq in sorted({r["irqmode"] for r in results}):
        for path in paths:
            sec = [v for k, v in by_round.items() if k[1] == path and
                   k[2] == irq and k[5] == "sections" and baseline in v]
            il = [v for k, v in by_round.items() if k[1] == path and
                  k[2] == irq and k[5] == "interleaved" and baseline in v]
            if not sec and not il:
                continue
            for b in breeds:
                row = {"path": path, "irqmode": irq, "breed": b,
                       "rounds": 0, "moves_counter": bool(paths[path][0]),
                       "interleaved": bool(il), "il_runs": len(il),
                       "sec_rounds": len(sec)}
                for key, _, _ in FIGURES:
                    # IOPS and engine cycles from the interleaved runs
                    # where there are some, the rest from the sections
                    rs = il if il and key in ("iops", "cycles") else sec
                    xs = []
                    for v in rs:
                        if b not in v:
                            continue
                        x = figure(v[b], key, tsc_hz)
                        y = figure(v[baseline], key, tsc_hz)
                        if x and y:
                            xs.append(x / y)
                    row[key] = xs
                    row[key + "_ci"] = ratio_ci(xs)
                row["rounds"] = len(row["iops"])
                for who, name in ((b, "abs"), (baseline, "base")):
                    for key in ("iops", "fio", "cycles", "cycles_mean",
                                "share"):
                        rs = il if il and key in ("iops", "cycles") else sec
                        xs = [figure(v[who], key, tsc_hz) for v in rs
                              if who in v]
                        xs = [x for x in xs if x]
                        row["%s_%s" % (name, key)] = (
                            statistics.median(xs) if xs else None)
                verdict(row)
                out[(path, irq, b)] = row
    return out


def verdict(row):
    """The row's verdict on its IOPS interval, and why it did not resolve:
    the scatter of the per-round ratios, the rounds +-1% would need, and
    what the engine's own figures say about that scatter."""
    h = half_width(row["iops_ci"])
    row["half"] = h
    row["resolved"] = h <= RESOLVED
    if row["resolved"]:
        row["verdict"] = "resolved to +-%.2f%%" % (100 * h)
        return
    n = row["rounds"]
    sd = log_sd(row["iops"])
    why = []
    if n < 2:
        why.append("fewer than 2 runs")
    else:
        need = int(math.ceil(n * (h / RESOLVED) ** 2))
        why.append("the per-run IOPS ratios scatter by sd %.1f%% over "
                   "%d %sruns (+-1%% needs about %d)" % (
                       100 * sd, n, "interleaved " if row["interleaved"]
                       else "", need))
    if row["irqmode"]:
        why.append("completion is a thread hand-off, paced by the "
                   "scheduler")
    share = row.get("base_share")
    if share and share < 0.9:
        why.append("the jobs had a CPU %.0f%% of the wall time (the "
                   "machine's other jobs)" % (100 * share))
    hc = half_width(row["cpu_ci"])
    if hc <= RESOLVED:
        why.append("per CPU-second it resolves to +-%.2f%%" % (100 * hc))
    row["verdict"] = ("unresolved: half-width %.2f%% > %.0f%%, because %s"
                      % (100 * h, 100 * RESOLVED, "; ".join(why)))


def pct(ci):
    lo, hi = ci
    if lo != lo:
        return "[n/a]"
    return "[%+.2f, %+.2f]" % (100 * (lo - 1), 100 * (hi - 1))


def print_intervals(table, paths, breeds, baseline, interleave):
    """Per path and breed, the intervals of @table (rows()), each row's
    verdict, the noise floor and the tool's verdict."""
    print("\n  95%% intervals of each breed's figures, %% of %s's, paired "
          "within a run; Student's t\n  over the runs.  Where there are "
          "interleaved runs (irqmode=0), IOPS and engine cycles\n  come "
          "from them: one fio job runs every breed, %s I/Os each in turn, "
          "and a run's\n  ratio is the median of its rounds' (one slice "
          "of each breed).  The rest come from the\n  runs with the "
          "breeds as job sections.  kIOPS: the median over the runs.  "
          "per CPU-second:\n  I/Os per CPU second of the job threads.  "
          "engine: its clock around each submit.\n  A row resolves when "
          "its IOPS interval is within +-%.0f%%." % (
              baseline, interleave, 100 * RESOLVED))
    unresolved, total = {}, 0
    for irq in sorted({k[1] for k in table}):
        print("  irqmode=%d" % irq)
        for path in paths:
            if (path, irq, breeds[0]) not in table:
                continue
            r0 = table[(path, irq, breeds[0])]
            cyc = r0["base_cycles"]
            print("    %-13s %-10s %8.1f kIOPS%s%s" % (
                path, baseline, r0["base_iops"] / 1e3,
                ", engine %.1f cycles/I/O" % cyc if cyc else "",
                "  (noise floor: no counter)" if not paths[path][0]
                else ""))
            for b in breeds:
                r = table[(path, irq, b)]
                total += 1
                if not r["resolved"]:
                    unresolved.setdefault(irq, {}).setdefault(
                        path, []).append(b)
                print("    %-13s %-10s %8.1f kIOPS, IOPS within %s %% of "
                      "%s at 95%% confidence: %s" % (
                          path, b, r["abs_iops"] / 1e3, pct(r["iops_ci"]),
                          baseline, r["verdict"]))
                print("    %-24s engine %s cycles/I/O, within %s %%; fio's "
                      "IOPS, as sections, %s %%;\n    %-24s per CPU-second "
                      "%s %%; engine mean %s, %s %%; p50 %s %%, p99 %s %%;\n"
                      "    %-24s %s" % (
                          "", num(r["abs_cycles"]), pct(r["cycles_ci"]),
                          pct(r["fio_ci"]), "", pct(r["cpu_ci"]),
                          num(r["abs_cycles_mean"]), pct(r["cycles_mean_ci"]),
                          pct(r["p50_ci"]), pct(r["p99_ci"]), "",
                          "%d interleaved runs, %d runs as sections"
                          % (r["il_runs"], r["sec_rounds"])))
        floor = [r for k, r in table.items()
                 if k[1] == irq and not r["moves_counter"]]
        if floor:
            print("    noise floor, the rows that move no counter: %s" %
                  ", ".join("%s %s %%" % (label.split(",")[0], envelope(
                      [r[key + "_ci"] for r in floor]))
                      for key, label, _ in FIGURES))
    for irq in sorted({k[1] for k in table}):
        against_floor(table, irq)
    n = sum(len(bs) for ps in unresolved.values() for bs in ps.values())
    print("  verdict: %s" % (
        "every path and breed resolved to +-1%" if not n else
        "%d of %d not resolved to +-1%%: %s" % (n, total, "; ".join(
            "irqmode=%d %s" % (irq, ", ".join(
                "%s (%s)" % (p, " ".join(bs)) for p, bs in ps.items()))
            for irq, ps in sorted(unresolved.items())))))


def against_floor(table, irq):
    """The resolved rows at @irq that move a counter, by where their IOPS
    interval lies against the noise floor (below it, above it, or
    overlapping it): the envelope of the IOPS
    intervals of the rows that move none.  Only an interval wholly
    outside it is the breed's."""
    floor = [r["iops_ci"] for k, r in table.items()
             if k[1] == irq and not r["moves_counter"]]
    floor = [c for c in floor if c[0] == c[0]]
    rows = [r for k, r in table.items()
            if k[1] == irq and r["moves_counter"] and r["resolved"]]
    if not floor or not rows:
        return
    lo = min(c[0] for c in floor)
    hi = max(c[1] for c in floor)
    side = {"slower": [], "faster": [], "within": []}
    for r in rows:
        c = r["iops_ci"]
        side["slower" if c[1] < lo else "faster" if c[0] > hi
             else "within"].append("%s %s %s" % (r["path"], r["breed"],
                                                 pct(c)))
    print("  verdict, irqmode=%d, IOPS against the noise floor %s %%: %s"
          % (irq, pct((lo, hi)), "; ".join(
              "%s: %s" % ({"slower": "slower than it",
                           "faster": "faster than it",
                           "within": "overlapping it"}[k], ", ".join(v))
              for k, v in side.items() if v)))


def num(x):
    return "%.1f" % x if x else "n/a"


def envelope(cis):
    """The smallest interval that holds all of @cis, as percentages."""
    cis = [c for c in cis if c[0] == c[0]]
    if not cis:
        return "[n/a]"
    return pct((min(c[0] for c in cis), max(c[1] for c in cis)))


def json_rows(table):
    """The rows for the bench JSON's "intervals" (the ratios left out)."""
    keep = ["path", "irqmode", "breed", "rounds", "moves_counter", "half",
            "resolved", "verdict", "abs_iops", "base_iops", "abs_cycles",
            "base_cycles", "abs_cycles_mean", "base_cycles_mean",
            "base_share", "abs_fio", "base_fio", "interleaved", "il_runs",
            "sec_rounds"]
    out = []
    for r in table.values():
        d = {k: r[k] for k in keep}
        for key, _, _ in FIGURES:
            d[key + "_ci95"] = [x if x == x else None
                                for x in r[key + "_ci"]]
        d["half"] = d["half"] if d["half"] != float("inf") else None
        out.append(d)
    return out

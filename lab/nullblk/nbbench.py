# SPDX-License-Identifier: MIT
"""nbbench: make nullblk-bench (nbtool.py bench, report).

The runs: NB_REPEAT passes over the matrix (path x irqmode x iodepth x
numjobs) with the breeds as job sections of one fio run (fio_round), and
at irqmode=0 interleaved runs, one fio job that runs every breed in
slices (interleaved_round, the engine's interleave=); then, until
NB_BUDGET, more interleaved runs for the irqmode=0 paths not resolved.
The tables: the per-configuration ratios with the analytic bound
(report), and the intervals and verdicts (nbstats).
"""
import argparse
import glob
import json
import math
import os
import re
import statistics
import sys
import time

import nbstats
import nbtool as nb


def numjobs_list(quick):
    n = os.cpu_count() or 1
    if quick:
        return [1]
    out, k = [], 1
    while k < n:
        out.append(k)
        k *= 2
    return out + [n]


def extra_cycles(path):
    """Extra cycles per refcount op over atomic, from the refcount-bench
    timing suite that nullblk-bench runs just before fio (JSON at path)."""
    d = json.load(open(path))
    rows = {r["impl"]: r for r in d["results"] if r.get("suite") == "timing"}
    base = rows["atomic_t"]["cycles_per_op"]
    noisy = any(rows["refcount-" + b].get("noisy") for b in nb.BREEDS)
    return ({b: rows["refcount-" + b]["cycles_per_op"] - base
             for b in nb.BREEDS}, d["machine"]["tsc_hz"],
            "refcount-bench --suites=timing, %s%s" % (
                path, " (marked noisy: min-max was wide)" if noisy else ""))


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


METRICS = [("iops", "IOPS"), ("p50", "p50"), ("p99", "p99"),
           ("p99.9", "p99.9")]

# fio's time values (parse.c: check_str_time, get_mult_time): an integer,
# then seconds or a unit, in any case
FIO_TIME_RE = re.compile(r"[0-9]+(us|usec|ms|msec|s|m|h|d)?", re.I)
TIME_FORM = ("an integer with an optional unit us, ms, s, m, h or d "
             "(e.g. 200ms, 1s)")


def bench_arg_errors(a):
    """The bad ones among make nullblk-bench's NB_* values, as messages."""
    def time_ok(v, positive):
        return bool(FIO_TIME_RE.fullmatch(v)) and (
            not positive or int(re.match("[0-9]+", v)[0]) > 0)

    checks = [
        ("NB_RUNTIME", a.runtime, time_ok(a.runtime, True),
         "a fio time > 0, " + TIME_FORM),
        ("NB_RAMP", a.ramp, time_ok(a.ramp, False),
         "a fio time >= 0, " + TIME_FORM),
        ("NB_REPEAT", a.repeat,
         a.repeat.isdigit() and a.repeat.isascii() and int(a.repeat) > 0,
         "an integer > 0 (the passes over the matrix)"),
        ("NB_QUICK", a.quick, a.quick in ("", "0", "1"),
         "1, 0 or empty (1: a smoke run)"),
        ("NB_IL_RUNTIME", a.il_runtime or a.runtime,
         time_ok(a.il_runtime or a.runtime, True),
         "a fio time > 0 (an interleaved run's), " + TIME_FORM),
        ("NB_BUDGET", a.budget, time_ok(a.budget, False),
         "a fio time >= 0 (the passes' time budget), " + TIME_FORM),
        ("NB_PIN", a.pin, a.pin in ("0", "1"),
         "1 or 0 (1: pin the irqmode=0 jobs to CPUs)"),
    ]
    return ["nullblk-bench: %s=%s: not %s" % (var, val, what)
            for var, val, ok, what in checks if not ok]


CYCLES_RE = re.compile(r"nullblk: job (\S+): cycles unit=(\S+) cap=\d+ "
                       r"ios=(\d+) engine=(\d+) over=(\d+) span_ios=(\d+) "
                       r"cpu_ns=(\d+) wall=(\d+) iqm=([0-9.]+) job=(\d+)$",
                       re.M)


def fio_round(a, tmp, cfg, order, cpus):
    """One round: a fio run of @cfg with every breed in @order.  Returns
    the result records, or an error message."""
    path, qm, irq, qd, nj = cfg
    env = nb.job_env(a.so, path, qm, irq, qd, nj, a.runtime, a.ramp)
    rc, out, err = nb.run(["fio", "--output-format=json",
                        nb.job_file(tmp, order, cpus)], env=env, timeout=600)
    if rc:
        return "fio failed (%d):\n%s" % (rc, err)
    # the engine's accounting, one line per job: summed per section
    acc = {}
    for m in CYCLES_RE.finditer(err):
        d = acc.setdefault(m[1], {"cycles_unit": m[2]})
        for k, v in zip(("engine_ios", "engine_cycles", "engine_over",
                         "span_ios", "cpu_ns", "wall_cycles"), m.groups()[2:8]):
            d[k] = d.get(k, 0) + int(v)
        # the jobs' interquartile means, weighted by their timed I/Os
        w = int(m[3]) - int(m[5])
        d["iqm_w"] = d.get("iqm_w", 0) + float(m[9]) * w
        d["iqm_n"] = d.get("iqm_n", 0) + w
    for d in acc.values():
        d["engine_iqm"] = d.pop("iqm_w") / max(d.pop("iqm_n"), 1)
    recs = []
    for j in nb.parse_fio_json(out)["jobs"]:
        if j["error"]:
            return "fio job error %d" % j["error"]
        pct = j["read"]["clat_ns"]["percentile"]
        r = {"path": path, "queue_mode": qm, "irqmode": irq, "iodepth": qd,
             "numjobs": nj, "breed": j["job options"]["refcount"],
             "iops": j["read"]["iops"], "p50": pct["50.000000"],
             "p99": pct["99.000000"], "p99.9": pct["99.900000"],
             "cpus": ",".join(map(str, cpus)) if cpus else ""}
        r.update(acc.get(j["jobname"], {}))
        recs.append(r)
    return recs


INTERLEAVE = 1024  # I/Os per slice in an interleaved run


def interleaved_job_file(tmp, cpus, log, extra=""):
    """jobs/randread-4k.fio with one job section that runs every breed,
    INTERLEAVE I/Os each in turn (the engine's interleave=), its slices
    to @log.<job number>; @extra: more lines for that section."""
    path = os.path.join(tmp, "interleaved-" + os.path.basename(nb.JOBFILE))
    with open(nb.JOBFILE) as f:
        text = f.read()
    if cpus is not None:
        text += ("cpus_allowed=%s\ncpus_allowed_policy=split\n"
                 % ",".join(map(str, cpus)))
    with open(path, "w") as f:
        f.write(text + "\n[interleaved]\ninterleave=%d\nslice_log=%s\n%s"
                % (INTERLEAVE, log, extra))
    return path


def read_slices(log, tsc_hz, by_slot=False):
    """The slices of an interleaved run's jobs (@log.<n>), as one list of
    rounds: {breed: (IOPS, engine clock per I/O)} for each round that has
    every breed ({slot number: ...} with @by_slot, for interleave_same=1,
    whose slots share a breed).  The files are removed."""
    out = []
    for fn in sorted(glob.glob(glob.escape(log) + ".*")):
        with open(fn) as f:
            head = f.readline()
            names = re.search(r"breeds=(\S+)", head)[1].split(",")
            per = 1.0 if "unit=tsc" not in head else tsc_hz
            rounds = {}
            for line in f:
                if line.startswith("#"):
                    continue
                rnd, b, ios, over, eng, wall = map(int, line.split())
                if ios > over and wall > 0:
                    key = b if by_slot else names[b]
                    rounds.setdefault(rnd, {})[key] = (
                        ios / wall * per, eng / (ios - over))
        os.remove(fn)
        out += [v for v in rounds.values() if len(v) == len(names)]
    return out


def interleaved_round(a, tmp, cfg, cpus, tsc_hz):
    """An interleaved run of @cfg (irqmode=0): one fio job, every breed in
    slices.  Its record per breed: atomic's median slice IOPS (x numjobs)
    and engine clock per I/O, times the median over the rounds of the
    breed's ratio to atomic in the same round."""
    path, qm, irq, qd, nj = cfg
    env = nb.job_env(a.so, path, qm, irq, qd, nj, a.il_runtime, a.ramp)
    log = os.path.join(tmp, "slices")
    for fn in glob.glob(glob.escape(log) + ".*"):
        os.remove(fn)
    rc, out, err = nb.run(["fio", "--output-format=json",
                        interleaved_job_file(tmp, cpus, log)], env=env,
                       timeout=600)
    if rc:
        return "fio failed (%d):\n%s" % (rc, err)
    rounds = read_slices(log, tsc_hz)
    if not rounds:
        return "interleaved run of %s: no complete round" % (cfg,)
    recs = []
    for b, (iops, cyc) in slice_figures(rounds).items():
        recs.append({"mode": "interleaved", "path": path, "queue_mode": qm,
                     "irqmode": irq, "iodepth": qd, "numjobs": nj,
                     "breed": b, "iops": iops * nj, "engine_iqm": cyc,
                     "il_rounds": len(rounds),
                     "cpus": ",".join(map(str, cpus)) if cpus else ""})
    return recs


def slice_figures(rounds):
    """{breed: (IOPS, engine clock per I/O)} of an interleaved run's
    @rounds (read_slices): atomic's median over the rounds, times the
    median of the breed's ratio to atomic within a round.  The medians
    leave out the slices a preemption or a host stall landed in."""
    base = [r[nb.BASELINE] for r in rounds]
    a_iops = statistics.median(x[0] for x in base)
    a_cyc = statistics.median(x[1] for x in base)
    return {b: (a_iops * statistics.median(r[b][0] / r[nb.BASELINE][0]
                                           for r in rounds),
                a_cyc * statistics.median(r[b][1] / r[nb.BASELINE][1]
                                          for r in rounds))
            for b in nb.BREEDS}


def pin_cpus(a, irq, nj, k):
    """The CPUs round @k's jobs are pinned to (--pin, irqmode=0 only: at 1
    and 2 the completion threads would inherit the submitter's CPU), the
    same for every breed of the round: numjobs=1 alternates the CPUs."""
    ncpu = os.cpu_count() or 1
    if not a.pin or irq or nj > ncpu:
        return None
    return [k % ncpu] if nj == 1 else list(range(nj))


def cmd_bench(a):
    errs = bench_arg_errors(a)
    for e in errs:
        print(e, file=sys.stderr)
    if errs or a.check_args:
        return 2 if errs else 0
    if not a.so:
        print("nullblk-bench: --so is missing", file=sys.stderr)
        return 2
    a.repeat, a.quick = int(a.repeat), a.quick == "1"
    a.budget_s = fio_seconds(a.budget)
    a.il_runtime = a.il_runtime or a.runtime
    a.pin = a.pin == "1"
    configs = []
    for path, (_, qm) in nb.PATHS.items():
        for irq in (0, 1):
            for qd in ([1] if path == "psync" else
                       ([32] if a.quick else [1, 32, 128])):
                for nj in numjobs_list(a.quick):
                    configs.append((path, qm, irq, qd, nj))
    extra, tsc_hz, src = extra_cycles(a.cycles_json)
    tmp = os.path.join(os.path.dirname(os.path.abspath(a.so)), "nullblk")
    os.makedirs(tmp, exist_ok=True)
    results = []
    t0 = time.time()
    tty = sys.stderr.isatty()
    k = il_runs = 0
    il_secs = 0.0
    # NB_REPEAT passes over the whole matrix, then (NB_BUDGET) more passes
    # over the irqmode=0 configurations of the paths whose IOPS intervals
    # have not resolved, while the time lasts
    rep = 0
    while True:
        if rep < a.repeat:
            todo = configs
        else:
            table = nbstats.rows(results, nb.PATHS, nb.measured(), nb.BASELINE,
                                 tsc_hz)
            open_paths = {p for (p, irq, b), r in table.items()
                          if irq == 0 and not r["resolved"]}
            todo = [c for c in configs if c[2] == 0 and c[0] in open_paths]
            spent = time.time() - t0
            per = il_secs / max(il_runs, 1)
            if not todo or spent + per * len(todo) > a.budget_s:
                break
            print("nullblk-bench: pass %d, %.0f of %.0f s: irqmode=0 %s "
                  "not resolved yet" % (rep + 1, spent, a.budget_s,
                                        ", ".join(sorted(open_paths))),
                  file=sys.stderr)
        # the sections first, then the interleaved runs (irqmode=0)
        jobs = ([("sections", c) for c in todo] if rep < a.repeat else [])
        jobs += [("interleaved", c) for c in todo if c[2] == 0]
        for ci, (mode, cfg) in enumerate(jobs):
            rot = (rep + ci) % len(nb.BREEDS)
            order = nb.BREEDS[rot:] + nb.BREEDS[:rot]
            cpus = pin_cpus(a, cfg[2], cfg[4], rep + ci)
            t1 = time.time()
            recs = (fio_round(a, tmp, cfg, order, cpus) if mode == "sections"
                    else interleaved_round(a, tmp, cfg, cpus, tsc_hz))
            if mode == "interleaved":
                il_secs += time.time() - t1
                il_runs += 1
            k += 1
            if tty:
                print("\r\033[K[%d, pass %d] %s %s irqmode=%d iodepth=%d "
                      "numjobs=%d, %.0f s" % (k, rep + 1, mode, cfg[0],
                                             cfg[2], cfg[3], cfg[4],
                                             time.time() - t0),
                      end="", file=sys.stderr)
            if isinstance(recs, str):
                print("\n" + recs, file=sys.stderr)
                return 1
            for r in recs:
                r["rep"] = rep
                r.setdefault("mode", "sections")
            results.extend(recs)
        rep += 1
    if tty:
        print("\r\033[K", end="", file=sys.stderr)
    secs = time.time() - t0
    table = nbstats.rows(results, nb.PATHS, nb.measured(), nb.BASELINE, tsc_hz)
    if a.json:
        # whole or not at all: a reader never sees a half-written file
        with open(a.json + ".tmp", "w") as f:
            json.dump({"tsc_hz": tsc_hz, "extra_cycles_per_op": extra,
                       "extra_cycles_source": src,
                       "settings": settings(a, secs, rep),
                       "intervals": nbstats.json_rows(table),
                       "results": results}, f, indent=1)
        os.replace(a.json + ".tmp", a.json)
    configs_run = list(dict.fromkeys(
        (r["path"], r["queue_mode"], r["irqmode"], r["iodepth"],
         r["numjobs"]) for r in results))
    report(a, configs_run, results, extra, tsc_hz, src, secs)
    return 0


def fio_seconds(v):
    """A fio time value (checked by bench_arg_errors) in seconds."""
    m = re.fullmatch(r"([0-9]+)(us|usec|ms|msec|s|m|h|d)?", v, re.I)
    unit = (m[2] or "s").lower()
    return int(m[1]) * {"us": 1e-6, "usec": 1e-6, "ms": 1e-3, "msec": 1e-3,
                        "s": 1, "m": 60, "h": 3600, "d": 86400}[unit]


def settings(a, secs, passes):
    """What report() needs of the run besides its results."""
    return {"runtime": a.runtime, "ramp": a.ramp, "repeat": a.repeat,
            "quick": a.quick, "secs": secs, "budget": a.budget,
            "pin": a.pin, "passes": passes, "il_runtime": a.il_runtime,
            "interleave": INTERLEAVE}


def cmd_report(a):
    """Print the tables of a bench run again from its JSON (--json of
    bench), e.g. build/nullblk-bench.json."""
    try:
        with open(a.json) as f:
            d = json.load(f)
        st, results = d["settings"], d["results"]
        configs = list(dict.fromkeys(
            (r["path"], r["queue_mode"], r["irqmode"], r["iodepth"],
             r["numjobs"]) for r in results))
        extra = d["extra_cycles_per_op"]
        run = argparse.Namespace(**st)
        report(run, configs, results, extra, d["tsc_hz"],
               d["extra_cycles_source"], st["secs"])
    except (OSError, ValueError, KeyError, TypeError) as e:
        print("nbtool.py report: %s: not a nullblk-bench JSON (%s: %s)"
              % (a.json, type(e).__name__, e), file=sys.stderr)
        return 2
    return 0


def rounds_of(results):
    return nbstats.rounds(results)


def report(a, configs, results, extra, tsc_hz, src, secs):
    # ratio to atomic within the same fio run, median over repetitions,
    # geometric mean over the configurations of a path: the runs with the
    # breeds as job sections
    runs = {}
    for r in results:
        if r.get("mode", "sections") != "sections":
            continue
        key = (r["rep"], r["path"], r["irqmode"], r["iodepth"], r["numjobs"])
        runs.setdefault(key, {})[r["breed"]] = r
    ratios = {}   # (path, irqmode, breed, metric) -> [per-config ratio]
    bound = {}    # (path, irqmode, breed) -> [per-config IOPS bound]
    for (path, qm, irq, qd, nj) in configs:
        reps = [v for (rep, p, i, q, n), v in runs.items()
                if (p, i, q, n) == (path, irq, qd, nj)]
        base_iops = statistics.median(v[nb.BASELINE]["iops"] for v in reps)
        for b in nb.measured():
            for m, _ in METRICS:
                med = statistics.median(v[b][m] / v[nb.BASELINE][m]
                                        for v in reps if v[nb.BASELINE][m])
                ratios.setdefault((path, irq, b, m), []).append(med)
            # a job's time per I/O in cycles, as if it were all CPU time
            cyc_per_io = tsc_hz * nj / base_iops
            add = nb.PATHS[path][0] * max(extra[b], 0.0)
            bound.setdefault((path, irq, b), []).append(
                cyc_per_io / (cyc_per_io + add))
    print("nullblk-bench: 4k randread through fio against the userspace "
          "null_blk, per breed, as ratios to atomic")
    print("  %d configurations (path x irqmode 0,1 x iodepth x numjobs %s), "
          "%d rounds: %d passes over all,\n  then over the irqmode=0 paths "
          "not resolved until %s had gone; runtime %s + ramp %s,\n  breeds "
          "side by side in rotated order, irqmode=0 jobs %s; %.0f s" % (
              len(configs), ",".join(map(str, sorted({c[4] for c in configs}))),
              len(rounds_of(results)), a.repeat,
              getattr(a, "budget", "0") or "0", a.runtime, a.ramp,
              "pinned (cpus_allowed)" if getattr(a, "pin", False)
              else "not pinned", secs))
    il = [r for r in results if r.get("mode") == "interleaved"]
    if il:
        print("  %d interleaved runs at irqmode=0 (runtime %s, every breed "
              "in one job, %d I/Os each in\n  turn), %d rounds of slices "
              "in all" % (
                  len(il) // len(nb.BREEDS), getattr(a, "il_runtime", "?"),
                  getattr(a, "interleave", INTERLEAVE),
                  sum(r["il_rounds"] for r in il) // len(nb.BREEDS)))
    print("  extra cycles per RMW over atomic: %s; TSC %.2f GHz"
          % (", ".join("%s %+.2f" % (b, extra[b]) for b in nb.measured()),
             tsc_hz / 1e9))
    print("  (%s)" % src)
    print("  The table's runs are those with the breeds as job sections.  "
          "Each cell: the ratio\n  within one fio run, median over "
          "repetitions, geometric mean over\n  iodepth x numjobs; "
          "[min-max] over those configurations.  IOPS > 1 and clat < 1 "
          "are faster.\n  bound: the IOPS ratio if RMWs/IO x extra "
          "cycles/op all landed on a job's critical path.")
    for irq, title in ((0, "irqmode=0: completion inline in the submitter "
                        "(the block-layer cost alone)"),
                       (1, "irqmode=1: completion on the queue's "
                        "completion thread (softirq-like)")):
        print("\n  %s\n  %-13s %3s %-10s %19s %7s %7s %7s %7s" % (
            title, "path", "RMW", "breed", "IOPS [min-max]", "p50", "p99",
            "p99.9", "bound"))
        for path in nb.PATHS:
            for b in nb.measured():
                io = ratios[(path, irq, b, "iops")]
                print("  %-13s %3d %-10s %6.3f [%.2f-%.2f] %7.3f %7.3f "
                      "%7.3f %7.4f" % (
                          path, nb.PATHS[path][0], b, geomean(io), min(io),
                          max(io), geomean(ratios[(path, irq, b, "p50")]),
                          geomean(ratios[(path, irq, b, "p99")]),
                          geomean(ratios[(path, irq, b, "p99.9")]),
                          geomean(bound[(path, irq, b)])))
    print("\n  Per breed, all paths that move a counter (RMW > 0), "
          "geometric mean over their configurations:")
    print("  %-9s %-10s %7s %7s %7s %7s %7s" % ("irqmode", "breed", "IOPS",
                                               "p50", "p99", "p99.9",
                                               "bound"))
    for irq in (0, 1):
        for b in nb.measured():
            cell = [geomean(sum((ratios[(p, irq, b, m)] for p in nb.PATHS
                                 if nb.PATHS[p][0]), [])) for m, _ in METRICS]
            bnd = geomean(sum((bound[(p, irq, b)] for p in nb.PATHS
                               if nb.PATHS[p][0]), []))
            print("  %-9d %-10s %7.3f %7.3f %7.3f %7.3f %7.4f"
                  % tuple([irq, b] + cell + [bnd]))
    table = nbstats.rows(results, nb.PATHS, nb.measured(), nb.BASELINE, tsc_hz)
    nbstats.print_intervals(table, nb.PATHS, nb.measured(), nb.BASELINE,
                            getattr(a, "interleave", INTERLEAVE))

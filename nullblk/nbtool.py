#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""nbtool.py: drive the userspace null_blk fio engine.

  nbtool.py --breeds "B1 B2 ..." check --so SO --count-so SO --asan-so SO
            [--cc CC]
      the tests behind `make check-nullblk`: every path x breed through fio
      (expected I/O count, no errors), refcount operations per I/O in the
      instrumented build, ASan and object accounting (with injected faults
      to show the checks catch them), and bad option values.

  nbtool.py --breeds "B1 B2 ..." bench --so SO [--cycles-json FILE]
            [--runtime T --ramp T --repeat N --quick[=1|0]] [--check-args]
      `make nullblk-bench`: nullblk/jobs/randread-4k.fio over path x irqmode
      x iodepth x numjobs, breeds side by side in each fio run, in rotated
      order, repeated; prints IOPS and clat p50/p99/p99.9 per breed as
      ratios to atomic, with the analytic bound.  The values are checked
      first (--check-args: only that), naming make's NB_* variable.

  nbtool.py --breeds "B1 B2 ..." report --json FILE
      the same tables again, from a bench run's JSON.
  nbtool.py --breeds "B1 B2 ..." qusage --so SO [--runtime T --ramp T
            --repeat N --breed B]
      `make nullblk-bench-qusage`: q_usage=percpu against q_usage=refcount
      side by side, at numjobs 1 and 2 (nullblk/nbqusage.py).

  --breeds is make's $(BREEDS): the breeds of the C registry, in its order,
  which is the order of the columns and rows printed.
"""
import argparse
import glob
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys

import nbstats
import time

import nbcheck
import nbqusage

HERE = os.path.dirname(os.path.abspath(__file__))
JOBFILE = os.path.join(HERE, "jobs", "randread-4k.fio")
# The breeds, from --breeds (set by main), and the one the others are
# measured against: the unchecked atomic_t.
BREEDS = []
BASELINE = "atomic"


def measured():
    """The breeds that are compared with the baseline, in registry order."""
    return [b for b in BREEDS if b != BASELINE]


# Refcount read-modify-writes per I/O on each kernel path, as counted in
# docs/nullblk.md ("The six counters"), with the queue_mode the path
# needs.  This table is the expectation the op-count test holds the
# instrumented engine to, and the multiplier of the analytic bound.
PATHS = {
    # path:          (RMWs per I/O, queue_mode for the bench)
    "psync":        (0, 2),  # on-stack bio: bio_init only
    "libaio-4.14":  (3, 2),  # bio_get, bio_put, bio_put
    "libaio-5.4":   (0, 2),  # 531724abc3bf: no bio_get
    "legacy-blkcg": (2, 1),  # blk_get_rl/blk_put_rl: blkg_get/blkg_put
    "bfq-ioc":      (2, 2),  # get_io_context/put_io_context per request
    "xen-blkback":  (2, 2),  # xen_blkif_get/xen_blkif_put per request
}


def fio_cmd(so, *opts):
    return ["fio", "--ioengine=external:" + os.path.abspath(so),
            "--rw=randread", "--bs=4k", "--name=nb"] + list(opts)


def run(cmd, env=None, timeout=120, clear=False):
    """Run @cmd; @env is added to the environment, or is all of it when
    @clear.  Returns (exit status, stdout, stderr)."""
    e = {} if clear else dict(os.environ)
    e.update(env or {})
    p = subprocess.run(cmd, env=e, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


# ---------------------------------------------------------------- check --

class Checker:
    def __init__(self):
        self.failed = []
        self.passed = 0

    def ok(self, cond, what, detail=""):
        if cond:
            self.passed += 1
        else:
            self.failed.append(what)
            print("FAIL: %s\n%s" % (what, detail.rstrip()[-3000:]),
                  file=sys.stderr)
        return cond


def parse_fio_json(out):
    # fio prints its JSON on stdout; anything else goes to stderr
    return json.loads(out[out.index("{"):])


def check_paths(c, so):
    """Each path x breed, bounded I/Os: expected count, no errors."""
    n, jobs = 3000, 2
    modes = []
    i = 0
    for path in PATHS:
        for breed in BREEDS:
            # cover every queue_mode and irqmode the path allows
            qms = {"legacy-blkcg": [1], "bfq-ioc": [1, 2]}.get(path,
                                                               [0, 1, 2])
            qm = qms[i % len(qms)]
            irq = i % 3
            i += 1
            modes.append((path, breed, qm, irq))
    for k, (path, breed, qm, irq) in enumerate(modes):
        # q_usage_counter: both kinds on every path
        opts = ["--path=" + path, "--refcount=" + breed,
                "--queue_mode=%d" % qm, "--irqmode=%d" % irq,
                "--q_usage=" + ("percpu", "refcount")[k % 2],
                "--completion_nsec=2000", "--iodepth=16", "--thread",
                "--numjobs=%d" % jobs, "--submit_queues=2",
                "--size=64m", "--number_ios=%d" % n,
                "--group_reporting", "--output-format=json"]
        rc, out, err = run(fio_cmd(so, *opts))
        what = "fio %s" % " ".join(opts[:5])
        if not c.ok(rc == 0, what + ": exit status %d" % rc, err):
            continue
        job = parse_fio_json(out)["jobs"][0]
        c.ok(job["error"] == 0, what + ": job error %d" % job["error"])
        c.ok(job["read"]["total_ios"] == n * jobs,
             what + ": %d I/Os, expected %d" % (job["read"]["total_ios"],
                                                 n * jobs))
    print("check-nullblk: %d path x breed jobs through fio" % len(modes))


def check_as_typed(c, so):
    """The command line of the README, as a user types it."""
    cmd = ["fio", "--ioengine=external:" + so, "--path=libaio-4.14",
           "--refcount=full", "--rw=randread", "--bs=4k", "--size=16m",
           "--number_ios=1000", "--name=nb"]
    rc, out, err = run(cmd)
    c.ok(rc == 0 and "ioengine=nullblk" in out and "err= 0" in out,
         " ".join(cmd), out + err)


def check_jobfile(c, so, tmp):
    """The shipped job file parses and runs, breeds side by side."""
    env = job_env(so, "libaio-4.14", 2, 1, 8, 1, "100ms", "0")
    rc, out, err = run(["fio", "--output-format=json",
                        job_file(tmp, BREEDS)], env=env)
    if c.ok(rc == 0, "jobs/randread-4k.fio: exit status %d" % rc, err):
        jobs = parse_fio_json(out)["jobs"]
        got = [j["job options"].get("refcount") for j in jobs]
        c.ok(got == BREEDS and all(j["error"] == 0 and
                                   j["read"]["total_ios"] > 0
                                   for j in jobs),
             "jobs/randread-4k.fio: one clean job per breed", out)


COUNT_RE = re.compile(r"nullblk: path=(\S+) refcount=(\S+): (\d+) I/Os, "
                      r"(\d+) refcount RMWs on the I/O path .*?, "
                      r"(\d+) at open/close")


def check_op_counts(c, so):
    """Instrumented build: refcount RMWs per I/O equal the profile's."""
    n, jobs, sq = 2000, 2, 2
    for path, (rmws, qm) in PATHS.items():
        for breed in BREEDS:
            opts = ["--path=" + path, "--refcount=" + breed,
                    "--queue_mode=%d" % qm, "--irqmode=1", "--iodepth=8",
                    "--thread", "--numjobs=%d" % jobs,
                    "--submit_queues=%d" % sq, "--size=64m",
                    "--number_ios=%d" % n, "--output-format=json"]
            rc, out, err = run(fio_cmd(so, *opts))
            what = "op count path=%s refcount=%s" % (path, breed)
            # one line per device: the jobs share one, unless the first
            # closed it before the second opened (a loaded machine)
            ms = list(COUNT_RE.finditer(err))
            if not c.ok(rc == 0 and ms, what + ": no count line", err):
                continue
            ios, io_rmws, setup = (sum(int(m[k]) for m in ms)
                                   for k in (3, 4, 5))
            c.ok(ios == n * jobs, what + ": %d I/Os counted" % ios)
            c.ok(io_rmws == rmws * ios,
                 what + ": %d RMWs for %d I/Os, expected %d per I/O"
                 % (io_rmws, ios, rmws))
            # per job: bsg get + put, io_context active_ref + refcount
            # puts; per device: blk_queue_tag shared by sq queues
            # (sq - 1 gets, sq puts), bsg, xen_blkif and blkg final puts
            want = 4 * jobs + len(ms) * ((2 * sq - 1) + 3)
            c.ok(setup == want, what + ": %d setup RMWs, expected %d"
                 % (setup, want))
    print("check-nullblk: refcount RMWs per I/O match the profiles "
          + ", ".join("%s %d" % (p, r) for p, (r, _) in PATHS.items()))


def asan_runtime(cc):
    for name in ("libasan.so", "libclang_rt.asan-x86_64.so",
                 "libclang_rt.asan-%s.so" % os.uname().machine):
        try:
            p = subprocess.run(cc.split() + ["-print-file-name=" + name],
                               stdout=subprocess.PIPE, text=True)
        except OSError:
            continue
        f = p.stdout.strip()
        if os.path.isabs(f) and os.path.exists(f):
            return f
    return None


def check_asan(c, so, cc):
    """ASan + accounting: every bio and request freed exactly once."""
    rt = asan_runtime(cc)
    if not c.ok(rt, "no ASan runtime for %s" % cc):
        return
    env = {"LD_PRELOAD": rt, "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1"}
    base = ["--iodepth=16", "--thread", "--numjobs=2", "--submit_queues=2",
            "--size=16m", "--number_ios=2000", "--completion_nsec=2000",
            "--output-format=json"]
    runs = 0
    for path, (_, qm) in PATHS.items():
        for q in sorted({qm, 0 if path not in ("legacy-blkcg", "bfq-ioc")
                         else qm}):
            for irq in (0, 1, 2):
                opts = ["--path=" + path, "--refcount=full",
                        "--queue_mode=%d" % q, "--irqmode=%d" % irq] + base
                rc, out, err = run(fio_cmd(so, *opts), env=env)
                what = "ASan " + " ".join(opts[:4])
                runs += 1
                c.ok(rc == 0 and "AddressSanitizer" not in err and
                     "bios not freed: 0, requests not freed: 0" in err,
                     what, err)
    # the checks must be able to fail: inject each fault once
    faults = [
        ("bio-double-free", 2, "attempting double-free"),
        ("request-double-free", 2, "request freed twice"),
        ("request-double-free", 1, "AddressSanitizer: heap-use-after-free"),
        ("bio-leak", 2, "bios not freed: 1"),
    ]
    for fault, q, expect in faults:
        opts = ["--path=libaio-5.4", "--queue_mode=%d" % q,
                "--irqmode=1"] + base
        rc, out, err = run(fio_cmd(so, *opts),
                           env=dict(env, NULLBLK_INJECT=fault))
        c.ok(rc != 0 and expect in err,
             "injected %s (queue_mode=%d) not caught: exit %d" % (fault, q,
                                                                  rc), err)
    print("check-nullblk: %d ASan runs clean; %d injected faults caught"
          % (runs, len(faults)))


def cmd_check(a):
    if not shutil.which("fio"):
        print("check-nullblk: SKIPPED: fio is not installed")
        return 0
    c = Checker()
    tmp = os.path.join(os.path.dirname(os.path.abspath(a.so)), "nullblk")
    os.makedirs(tmp, exist_ok=True)
    checks = [
        ("paths", lambda: check_paths(c, a.so)),
        ("as-typed", lambda: check_as_typed(c, a.so)),
        ("jobfile", lambda: check_jobfile(c, a.so, tmp)),
        ("op-counts", lambda: check_op_counts(c, a.count_so)),
        ("asan", lambda: check_asan(c, a.asan_so, a.cc)),
        ("bad-options", lambda: nbcheck.check_bad_options(c, a.so, tmp,
                                                          BREEDS)),
        ("start-line", lambda: nbcheck.check_start_line(c, a.so, BREEDS)),
        ("cycles", lambda: nbcheck.check_cycles(c, a.so, BREEDS)),
        ("bench-args", lambda: nbcheck.check_bench_args(
            c, os.path.join(os.path.dirname(os.path.abspath(a.so)),
                            "nullblk-bench.json"))),
        ("intervals", lambda: nbcheck.check_intervals(c, tmp, BREEDS)),
        ("slices", lambda: nbcheck.check_slices(c, tmp, BREEDS)),
    ]
    t0 = time.time()
    for name, fn in checks:
        if not a.only or name in a.only.split(","):
            fn()
    if c.failed:
        print("check-nullblk: %d of %d checks FAILED" %
              (len(c.failed), len(c.failed) + c.passed), file=sys.stderr)
        return 1
    print("check-nullblk: all %d checks passed (%.0f s)"
          % (c.passed, time.time() - t0))
    return 0


# ---------------------------------------------------------------- bench --

def job_env(so, path, qm, irq, qd, nj, runtime, ramp):
    return {"NB_SO": os.path.abspath(so), "NB_PATH": path,
            "NB_QUEUE_MODE": str(qm), "NB_IRQMODE": str(irq),
            "NB_IODEPTH": str(qd), "NB_NUMJOBS": str(nj),
            "NB_HWQD": str(max(64, qd)), "NB_RUNTIME": runtime,
            "NB_RAMP": ramp}


def job_file(tmp, order, cpus=None):
    """jobs/randread-4k.fio with one job section per breed, in @order,
    written to @tmp/randread-4k.fio; returns its path.  @cpus, when
    given, pins the jobs: fio's cpus_allowed with cpus_allowed_policy=
    split, job i of a section on the i-th of @cpus, the same in every
    section."""
    path = os.path.join(tmp, os.path.basename(JOBFILE))
    with open(JOBFILE) as f:
        text = f.read()
    if cpus is not None:
        # the file ends in [global]: these lines join it
        text += ("cpus_allowed=%s\ncpus_allowed_policy=split\n"
                 % ",".join(map(str, cpus)))
    with open(path, "w") as f:
        f.write(text + "".join("\n[%s]\nrefcount=%s\n" % (b, b)
                               for b in order))
    return path


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
    noisy = any(rows["refcount-" + b].get("noisy") for b in BREEDS)
    return ({b: rows["refcount-" + b]["cycles_per_op"] - base
             for b in BREEDS}, d["machine"]["tsc_hz"],
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
        ("NB_BUDGET", a.budget, time_ok(a.budget, False),
         "a fio time >= 0 (the passes' time budget), " + TIME_FORM),
        ("NB_PIN", a.pin, a.pin in ("0", "1"),
         "1 or 0 (1: pin the irqmode=0 jobs to CPUs)"),
    ]
    return ["nullblk-bench: %s=%s: not %s" % (var, val, what)
            for var, val, ok, what in checks if not ok]


CYCLES_RE = re.compile(r"nullblk: job (\S+): cycles unit=(\S+) cap=\d+ "
                       r"ios=(\d+) engine=(\d+) over=(\d+) span_ios=(\d+) "
                       r"cpu_ns=(\d+) wall=(\d+) iqm=([0-9.]+)")


def fio_round(a, tmp, cfg, order, cpus):
    """One round: a fio run of @cfg with every breed in @order.  Returns
    the result records, or an error message."""
    path, qm, irq, qd, nj = cfg
    env = job_env(a.so, path, qm, irq, qd, nj, a.runtime, a.ramp)
    rc, out, err = run(["fio", "--output-format=json",
                        job_file(tmp, order, cpus)], env=env, timeout=600)
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
    for j in parse_fio_json(out)["jobs"]:
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


def interleaved_job_file(tmp, cpus, log):
    """jobs/randread-4k.fio with one job section that runs every breed,
    INTERLEAVE I/Os each in turn (the engine's interleave=), its slices
    to @log.<job number>."""
    path = os.path.join(tmp, "interleaved-" + os.path.basename(JOBFILE))
    with open(JOBFILE) as f:
        text = f.read()
    if cpus is not None:
        text += ("cpus_allowed=%s\ncpus_allowed_policy=split\n"
                 % ",".join(map(str, cpus)))
    with open(path, "w") as f:
        f.write(text + "\n[interleaved]\ninterleave=%d\nslice_log=%s\n"
                % (INTERLEAVE, log))
    return path


def read_slices(log, tsc_hz):
    """The slices of an interleaved run's jobs (@log.<n>), as one list of
    rounds: {breed: (IOPS, engine clock per I/O)} for each round that has
    every breed.  The files are removed."""
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
                    rounds.setdefault(rnd, {})[names[b]] = (
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
    env = job_env(a.so, path, qm, irq, qd, nj, a.il_runtime, a.ramp)
    log = os.path.join(tmp, "slices")
    for fn in glob.glob(glob.escape(log) + ".*"):
        os.remove(fn)
    rc, out, err = run(["fio", "--output-format=json",
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
    base = [r[BASELINE] for r in rounds]
    a_iops = statistics.median(x[0] for x in base)
    a_cyc = statistics.median(x[1] for x in base)
    return {b: (a_iops * statistics.median(r[b][0] / r[BASELINE][0]
                                           for r in rounds),
                a_cyc * statistics.median(r[b][1] / r[BASELINE][1]
                                          for r in rounds))
            for b in BREEDS}


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
    for path, (_, qm) in PATHS.items():
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
            table = nbstats.rows(results, PATHS, measured(), BASELINE,
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
            rot = (rep + ci) % len(BREEDS)
            order = BREEDS[rot:] + BREEDS[:rot]
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
    table = nbstats.rows(results, PATHS, measured(), BASELINE, tsc_hz)
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
        base_iops = statistics.median(v[BASELINE]["iops"] for v in reps)
        for b in measured():
            for m, _ in METRICS:
                med = statistics.median(v[b][m] / v[BASELINE][m]
                                        for v in reps if v[BASELINE][m])
                ratios.setdefault((path, irq, b, m), []).append(med)
            # a job's time per I/O in cycles, as if it were all CPU time
            cyc_per_io = tsc_hz * nj / base_iops
            add = PATHS[path][0] * max(extra[b], 0.0)
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
    print("  extra cycles per RMW over atomic: %s; TSC %.2f GHz"
          % (", ".join("%s %+.2f" % (b, extra[b]) for b in measured()),
             tsc_hz / 1e9))
    print("  (%s)" % src)
    print("  Each cell: the ratio within one fio run, median over "
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
        for path in PATHS:
            for b in measured():
                io = ratios[(path, irq, b, "iops")]
                print("  %-13s %3d %-10s %6.3f [%.2f-%.2f] %7.3f %7.3f "
                      "%7.3f %7.4f" % (
                          path, PATHS[path][0], b, geomean(io), min(io),
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
        for b in measured():
            cell = [geomean(sum((ratios[(p, irq, b, m)] for p in PATHS
                                 if PATHS[p][0]), [])) for m, _ in METRICS]
            bnd = geomean(sum((bound[(p, irq, b)] for p in PATHS
                               if PATHS[p][0]), []))
            print("  %-9d %-10s %7.3f %7.3f %7.3f %7.3f %7.4f"
                  % tuple([irq, b] + cell + [bnd]))
    table = nbstats.rows(results, PATHS, measured(), BASELINE, tsc_hz)
    nbstats.print_intervals(table, PATHS, measured(), BASELINE,
                            getattr(a, "interleave", INTERLEAVE))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--breeds", required=True,
                    help="the breeds, space-separated, in registry order")
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check")
    c.add_argument("--so", required=True)
    c.add_argument("--count-so", required=True)
    c.add_argument("--asan-so", required=True)
    c.add_argument("--cc", default="cc")
    c.add_argument("--only", help="comma-separated checks to run (paths, "
                   "as-typed, jobfile, op-counts, asan, bad-options, "
                   "start-line, cycles, bench-args, intervals, slices); default "
                   "all")
    b = sub.add_parser("bench")
    b.add_argument("--so")
    b.add_argument("--cycles-json", default="build/nullblk-bench-cycles.json")
    # as make passes them (NB_RUNTIME, ...), checked by bench_arg_errors
    b.add_argument("--runtime", default="200ms")
    b.add_argument("--ramp", default="50ms")
    b.add_argument("--repeat", default="2")
    b.add_argument("--quick", nargs="?", const="1", default="")
    b.add_argument("--budget", default="0",
                   help="after --repeat passes, more passes over the "
                   "irqmode=0 paths not resolved, until this much time "
                   "(a fio time) has gone")
    b.add_argument("--il-runtime", default="",
                   help="the runtime of an interleaved run (default: "
                   "--runtime)")
    b.add_argument("--pin", default="1",
                   help="1: pin irqmode=0 jobs to CPUs (cpus_allowed)")
    b.add_argument("--check-args", action="store_true",
                   help="only check the values above, run nothing")
    b.add_argument("--json")
    r = sub.add_parser("report")
    r.add_argument("--json", required=True,
                   help="a bench run's JSON, e.g. build/nullblk-bench.json")
    q = sub.add_parser("qusage")
    q.add_argument("--so", required=True)
    q.add_argument("--runtime", default="200ms")
    q.add_argument("--ramp", default="50ms")
    q.add_argument("--repeat", default="3")
    q.add_argument("--breed", default="saturating")
    a = ap.parse_args()
    BREEDS[:] = a.breeds.split()
    if BASELINE not in BREEDS:
        ap.error("--breeds must include the baseline, %s" % BASELINE)
    if a.cmd == "qusage":
        return nbqusage.cmd_qusage(a, JOBFILE, job_env, run, parse_fio_json)
    return {"check": cmd_check, "bench": cmd_bench,
            "report": cmd_report}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())

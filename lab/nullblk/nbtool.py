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
            [--runtime T --ramp T --repeat N --quick[=1|0] --budget T
             --pin 1|0 --il-runtime T] [--check-args]
      `make nullblk-bench` (lab/nullblk/nbbench.py): lab/nullblk/jobs/randread-4k.fio
      over path x irqmode x iodepth x numjobs, breeds side by side in each
      fio run, in rotated order, repeated, and at irqmode=0 interleaved
      runs (every breed in one job, the engine's interleave=) until the
      IOPS intervals resolve or --budget has gone; prints IOPS and clat
      p50/p99/p99.9 per breed as ratios to atomic, with the analytic bound,
      then the 95% intervals and verdicts (lab/nullblk/nbstats.py).  The values
      are checked first (--check-args: only that), naming make's NB_*
      variable.

  nbtool.py --breeds "B1 B2 ..." report --json FILE
      the same tables again, from a bench run's JSON.
  nbtool.py --breeds "B1 B2 ..." qusage --so SO [--runtime T --ramp T
            --repeat N --breed B]
      `make nullblk-bench-qusage`: q_usage=percpu against q_usage=refcount
      side by side, at numjobs 1 and 2 (lab/nullblk/nbqusage.py).

  --breeds is make's $(BREEDS): the breeds of the C registry, in its order,
  which is the order of the columns and rows printed.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

if __name__ == "__main__":
    # one module, whoever imports it: nbbench and nbcheck read BREEDS
    sys.modules["nbtool"] = sys.modules[__name__]

import nbaa  # noqa: E402
import nbbench  # noqa: E402
import nbcheck  # noqa: E402
import nbdevs  # noqa: E402
import nbqusage  # noqa: E402

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
# lab/nullblk.md ("The six counters"), with the queue_mode the path
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
            # closed it before the second opened (scheduling); each job's
            # I/Os on exactly one of them
            ms = nbdevs.parse(err)
            bad = nbdevs.account(ms, {breed: n}, list(range(1, jobs + 1)),
                                 checked=True, counted=True)
            if not c.ok(rc == 0 and ms and not bad,
                        what + ": %s" % (bad or "no count line"), err):
                continue
            ios, io_rmws, setup = (sum(m[k] for m in ms) for k in
                                   ("ios", "io_rmws", "setup_rmws"))
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
    n, jobs = 2000, [1, 2]
    base = ["--iodepth=16", "--thread", "--numjobs=%d" % len(jobs),
            "--submit_queues=2", "--size=16m", "--number_ios=%d" % n,
            "--completion_nsec=2000", "--output-format=json"]
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
                bad = nbdevs.account(nbdevs.parse(err), {"full": n}, jobs,
                                     checked=True)
                c.ok(rc == 0 and "AddressSanitizer" not in err and not bad,
                     "%s: %s" % (what, bad), err)
    # interleave=: each job on a device of every breed in turn, in slices
    # of 256 (the last one short), each device torn down clean; the jobs
    # share a breed's device or not, as they overlap
    il = 256
    opts = ["--path=libaio-4.14", "--irqmode=0", "--interleave=%d" % il] + base
    rc, out, err = run(fio_cmd(so, *opts), env=env)
    runs += 1
    bad = nbdevs.account(nbdevs.parse(err), dict(zip(
        BREEDS, nbdevs.interleave_ios(n, il, len(BREEDS)))), jobs,
        checked=True)
    c.ok(rc == 0 and "AddressSanitizer" not in err and not bad,
         "ASan %s: %s" % (" ".join(opts[:3]), bad), err)
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
                            "nullblk-bench.json"), tmp)),
        ("intervals", lambda: nbcheck.check_intervals(c, tmp, BREEDS)),
        ("slices", lambda: nbcheck.check_slices(c, tmp, BREEDS)),
        ("aa", lambda: nbcheck.check_aa(c, a.so, BREEDS, job_env, run)),
        ("devices", lambda: nbdevs.check_parser(c, tmp, BREEDS)),
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
                   "start-line, cycles, bench-args, intervals, slices, "
                   "aa, devices); default all")
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
    aa = sub.add_parser("aa")
    aa.add_argument("--so", required=True)
    aa.add_argument("--path", default="libaio-5.4", choices=PATHS)
    aa.add_argument("--breed", default=BASELINE)
    aa.add_argument("--runs", default="6")
    aa.add_argument("--runtime", default="4s")
    aa.add_argument("--ramp", default="500ms")
    a = ap.parse_args()
    BREEDS[:] = a.breeds.split()
    if BASELINE not in BREEDS:
        ap.error("--breeds must include the baseline, %s" % BASELINE)
    if a.cmd == "aa":
        if a.breed not in BREEDS:
            ap.error("aa: --breed=%s (NB_AA_BREED): not one of %s" %
                     (a.breed, " ".join(BREEDS)))
        if not a.runs.isdigit() or int(a.runs) < 2:
            ap.error("aa: --runs=%s (NB_AA_RUNS): not an integer >= 2 (an "
                     "interval needs two runs)" % a.runs)
        return nbaa.cmd_aa(a, job_env, run)
    if a.cmd == "qusage":
        return nbqusage.cmd_qusage(a, JOBFILE, job_env, run, parse_fio_json)
    return {"check": cmd_check, "bench": nbbench.cmd_bench,
            "report": nbbench.cmd_report}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())

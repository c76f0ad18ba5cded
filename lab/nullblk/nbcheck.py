# SPDX-License-Identifier: MIT
"""nbcheck.py: the bad-input tests of `nbtool.py check` (make check-nullblk).

Every bad value must be refused with a message that names it, a non-zero
exit, and nothing run or written:

  * the engine's options, on fio's command line and in a job file: fio's
    parser refuses path= and refcount=, the engine's own parser the
    numbers, once, before any job starts;
  * make nullblk-bench's NB_* variables, refused before the timing suite
    or fio runs, and without touching the bench's JSON.

It also holds the engine to its start line: one line per job on stderr
naming breed, path and irqmode, with fio's JSON on stdout left whole.
"""
import argparse
import contextlib
import io
import json
import os
import random
import re
import shutil
import sys

import nbaa
import nbbench
import nbdevs
import nbtool as nb

# the tools' files, copied whole for a mutant
TOOLS = ("nbtool.py", "nbbench.py", "nbstats.py", "nbcheck.py",
         "nbqusage.py", "nbdevs.py", "nbaa.py")


def mutant_copy(mdir, target, sub):
    """The tools copied to @mdir, with @sub (old, new) applied to
    @target; the old text must be there.  Nothing else: a tool missing
    from TOOLS fails every copy, the unchanged one too."""
    shutil.rmtree(mdir, ignore_errors=True)
    os.makedirs(mdir)
    for fn in TOOLS:
        with open(os.path.join(nb.HERE, fn)) as src:
            text = src.read()
        if fn == target:
            assert sub[0] in text, sub[0]
            text = text.replace(sub[0], sub[1])
        with open(os.path.join(mdir, fn), "w") as dst:
            dst.write(text)


IRQ_VALUES = ["0 (none", "1 (softirq", "2 (timer"]
QM_VALUES = ["0 (bio-based", "1 (legacy single queue", "2 (blk-mq"]
NSEC_MAX = 10000000000


def bad_options(breeds):
    """option=value, and what the message must name."""
    ncpu = os.cpu_count() or 1

    def rng(opt, lo, hi):
        return (opt, ["nullblk: %s: must be an integer from %d to %d"
                      % (opt, lo, hi)])

    def one_of(opt, values):
        return (opt, ["nullblk: %s: must be one of" % opt] + values)

    return [
        ("path=bogus", ["failed parsing path=bogus"] + list(nb.PATHS)),
        ("refcount=nope", ["failed parsing refcount=nope"] + breeds),
        ("q_usage=nope", ["failed parsing q_usage=nope", "percpu",
                          "refcount"]),
        one_of("queue_mode=3", QM_VALUES),
        one_of("queue_mode=-1", QM_VALUES),
        one_of("irqmode=7", IRQ_VALUES),
        one_of("irqmode=-1", IRQ_VALUES),
        one_of("irqmode=1x", IRQ_VALUES),
        rng("hw_queue_depth=0", 1, 1 << 16),
        rng("hw_queue_depth=-3", 1, 1 << 16),
        rng("hw_queue_depth=65537", 1, 1 << 16),
        rng("submit_queues=0", 1, ncpu),
        rng("submit_queues=-1", 1, ncpu),
        rng("submit_queues=%d" % max(999, ncpu + 1), 1, ncpu),
        rng("completion_nsec=abc", 0, NSEC_MAX),
        rng("completion_nsec=-5", 0, NSEC_MAX),
        rng("completion_nsec=%d" % (NSEC_MAX + 1), 0, NSEC_MAX),
        one_of("cycles=2", ["0 (off)", "1 (on"]),
        rng("interleave=-1", 0, 1 << 20),
        one_of("interleave_same=2", ["0 (off", "1 (on"]),
    ]


def check_bad_options(c, so, tmp, breeds):
    """Bad values fail the job, naming the option, the value and the
    accepted values or range, once (at parsing, not per job)."""
    bad = bad_options(breeds)
    for opt, needles in bad:
        rc, out, err = nb.run(nb.fio_cmd(so, "--" + opt, "--size=1m",
                                         "--thread", "--numjobs=2"))
        text = out + err
        c.ok(rc != 0 and all(n in text for n in needles) and
             text.count(needles[0]) == 1,
             "command line --%s: exit %d, message lacks %s or is repeated"
             % (opt, rc, [n for n in needles if n not in text]), text)
        jf = os.path.join(tmp, "bad.fio")
        with open(jf, "w") as f:
            f.write("[global]\nioengine=external:%s\nrw=randread\n"
                    "size=1m\nthread\nnumjobs=2\n[nb]\n%s\n"
                    % (os.path.abspath(so), opt))
        rc, out, err = nb.run(["fio", jf])
        text = out + err
        # fio's own parser names the option without the value in a job
        # file; the engine's messages are the same as on the command line
        needles = [n.replace("failed parsing " + opt,
                             "failed parsing " + opt.split("=")[0])
                   for n in needles]
        c.ok(rc != 0 and all(n in text for n in needles),
             "job file %s: exit %d" % (opt, rc), text)
    # a combination null_blk cannot do: init fails with fio's error
    rc, out, err = nb.run(nb.fio_cmd(so, "--path=legacy-blkcg",
                                     "--queue_mode=2", "--size=1m"))
    c.ok(rc != 0 and "needs queue_mode=1" in err and
         "io engine nullblk init failed" in err,
         "path=legacy-blkcg with queue_mode=2 accepted", err)
    rc, out, err = nb.run(nb.fio_cmd(so, "--interleave=64", "--irqmode=1",
                                     "--size=1m"))
    c.ok(rc != 0 and "interleave=64 needs irqmode=0" in err and
         "io engine nullblk init failed" in err,
         "interleave=64 with irqmode=1 accepted", err)
    rc, out, err = nb.run(nb.fio_cmd(so, "--interleave_same=1",
                                     "--size=1m"))
    c.ok(rc != 0 and "interleave_same=1 needs interleave=N" in err and
         "io engine nullblk init failed" in err,
         "interleave_same=1 without interleave= accepted", err)
    print("check-nullblk: %d bad option values rejected, on the command "
          "line and in job files" % (len(bad) + 3))


def check_start_line(c, so, breeds):
    """Each job says on stderr what it runs; stdout stays fio's JSON."""
    breed = breeds[-1]
    opts = ["--path=xen-blkback", "--refcount=" + breed, "--irqmode=0",
            "--queue_mode=0", "--size=1m", "--number_ios=100", "--thread",
            "--numjobs=2", "--output-format=json"]
    rc, out, err = nb.run(nb.fio_cmd(so, *opts))
    want = ("nullblk: job nb: refcount=%s path=xen-blkback queue_mode=0 "
            "irqmode=0 job=" % breed)
    lines = [x for x in err.splitlines() if x.startswith("nullblk: job ")]
    bad = nbdevs.jobs_once(lines, [1, 2])
    c.ok(rc == 0 and not bad and all(x.startswith(want) for x in lines),
         "start line %r not on stderr once per job: %s" % (want, bad), err)
    try:
        jobs = json.loads(out)["jobs"]
    except ValueError:
        jobs = None
    c.ok(jobs and all(j["error"] == 0 for j in jobs),
         "stdout of --output-format=json is not fio's JSON alone", out)
    print("check-nullblk: each job names its breed, path and irqmode on "
          "stderr; fio's JSON stays whole")


def check_cycles(c, so, breeds):
    """cycles=1: one accounting line per job on stderr, every I/O timed
    (no ramp), the checkpoints every 1024 I/Os, sane figures; cycles=0:
    no line."""
    n, jobs = 8000, 2
    base = ["--path=libaio-4.14", "--irqmode=0", "--thread", "--numjobs=%d"
            % jobs, "--size=64m", "--number_ios=%d" % n,
            "--output-format=json"]
    rc, out, err = nb.run(nb.fio_cmd(so, "--cycles=1", *base))
    ms = list(nbbench.CYCLES_RE.finditer(err))
    span = (n - 1) // 1024 * 1024
    ok = rc == 0 and not nbdevs.jobs_once([m[0] for m in ms],
                                          range(1, jobs + 1))
    for m in ms:
        ios, eng, over, sp, cpu, wall = map(int, m.groups()[2:8])
        ok = ok and ios == n and sp == span and over < ios and \
            50 <= eng / max(ios - over, 1) <= 100000 and cpu > 0 and \
            wall > 0 and 50 <= float(m[9]) <= 100000
    c.ok(ok, "cycles=1: want %d lines, each ios=%d span_ios=%d and sane "
         "figures" % (jobs, n, span), err)
    rc, out, err = nb.run(nb.fio_cmd(so, "--cycles=0", *base))
    c.ok(rc == 0 and not nbbench.CYCLES_RE.search(err),
         "cycles=0 printed an accounting line", err)
    # interleave=1000 over 8000 I/Os: slices of 1000, the breeds rotated
    # per round; the last slice has no end, so 7 are logged
    log = os.path.join(os.path.dirname(os.path.abspath(so)), "nullblk",
                       "check-slices")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    rc, out, err = nb.run(nb.fio_cmd(
        so, "--interleave=1000", "--slice_log=" + log, "--path=xen-blkback",
        "--irqmode=0", "--iodepth=8", "--size=64m", "--number_ios=8000",
        "--output-format=json"))
    try:
        with open(log + ".1") as f:
            rows = [line.split() for line in f if not line.startswith("#")]
        os.remove(log + ".1")
    except OSError:
        rows = []
    got = [(int(r[0]), int(r[1]), int(r[2])) for r in rows]
    n = len(breeds)
    want = [(k // n, (k % n + k // n) % n, 1000) for k in range(7)]
    c.ok(rc == 0 and nb.parse_fio_json(out)["jobs"][0]["read"]["total_ios"]
         == 8000 and got == want[:len(got)] and len(got) == 7,
         "interleave=1000: slices %r, want %r" % (got, want), err)
    # interleave_same=1: the same slices, refcount='s breed on every device
    rc, out, err = nb.run(nb.fio_cmd(
        so, "--interleave=1000", "--interleave_same=1", "--refcount=full",
        "--slice_log=" + log, "--path=xen-blkback", "--irqmode=0",
        "--iodepth=8", "--size=64m", "--number_ios=8000",
        "--output-format=json"))
    try:
        with open(log + ".1") as f:
            head = f.readline()
        os.remove(log + ".1")
    except OSError:
        head = ""
    c.ok(rc == 0 and "breeds=" + ",".join(["full"] * n) + "\n" in head and
         "refcount=full on every device" in err,
         "interleave_same=1: slice log %r" % head, err)
    print("check-nullblk: cycles=1 accounts every I/O of each job, "
          "cycles=0 none; interleave= logs its slices in rotated order, "
          "interleave_same=1 one breed in all")



def check_aa(c, so, breeds, job_env, run):
    """make nullblk-bench-aa end to end, short: two runs with one breed on
    every device, each of 8 rounds of slices by I/O count, not by time (7
    complete: the last slice has no end), so that how fast the machine is
    changes no count; a line per slot after slot 0, and a verdict (its
    figures are not judged: that is a benchmark)."""
    out, err = io.StringIO(), io.StringIO()
    a = argparse.Namespace(so=so, path="libaio-5.4", breed=breeds[-1],
                           runs="2", runtime="0", ramp="0",
                           ios=8 * len(breeds) * nbbench.INTERLEAVE)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = nbaa.cmd_aa(a, job_env, run)
    text = out.getvalue()
    slots = re.findall(r"^  slot (\d+): IOPS within \[[-+][0-9.]+, "
                       r"[-+][0-9.]+\] % of slot 0's", text, re.M)
    rounds = re.findall(r"^nullblk-bench-aa: run (\d) of 2: (\d+) rounds$",
                        err.getvalue(), re.M)
    c.ok(rc == 0 and slots == [str(s) for s in range(1, len(breeds))] and
         "refcount=%s on every device" % breeds[-1] in text and
         rounds == [("1", "7"), ("2", "7")] and
         re.search(r"^  verdict: ", text, re.M),
         "nullblk-bench-aa: want a line for slots 1-%d and a verdict" %
         (len(breeds) - 1), text + err.getvalue())
    print("check-nullblk: nullblk-bench-aa runs its A/A control and "
          "reports every slot against slot 0")

# Mutants of nbbench.py's slice reading, each of which check_slices must
# catch: the mean of the per-round ratios for their median, and rounds
# that lack a breed kept.
SLICE_MUTANTS = [
    ("a_iops * statistics.median(r[b][0] / r[nb.BASELINE][0]",
     "a_iops * statistics.mean(r[b][0] / r[nb.BASELINE][0]"),
    ("if len(v) == len(names)]", "if v]"),
]

SLICE_PROBE = """
import json, sys
sys.path.insert(0, sys.argv[1])
import nbtool as nb
import nbbench
nb.BREEDS[:] = sys.argv[3].split()
try:
    rounds = nbbench.read_slices(sys.argv[2], 2e9)
    print(json.dumps([len(rounds), nbbench.slice_figures(rounds)]))
except (KeyError, ValueError, ZeroDivisionError) as e:
    print(json.dumps([0, str(e)]))
"""


def slice_files(log, breeds, slow):
    """Two jobs' slice files (the engine's slice_log format) whose answer
    is known: atomic at 1000 TSC cycles per I/O of wall (2 M IOPS at 2
    GHz) and 250 in the engine; @slow at 0.95 of its IOPS and 1.05 of its
    engine cycles; every fifth round one breed's slice preempted (wall x
    20, engine x 3); round 7 lacks a slice."""
    rnd = random.Random(2)
    for job in (1, 2):
        with open("%s.%d" % (log, job), "w") as f:
            f.write("# nullblk slices: job x unit=tsc cap=131072 breeds=%s\n"
                    "# round breed ios over engine wall\n" % ",".join(breeds))
            for r in range(200):
                hit = rnd.randrange(len(breeds)) if r % 5 == 0 else -1
                for i, b in enumerate(breeds):
                    if r == 7 and i == 1:
                        continue
                    wall = 1024 * 1000 / (0.95 if b == slow else 1.0)
                    eng = 1024 * 250 * (1.05 if b == slow else 1.0)
                    if i == hit:
                        wall, eng = wall * 20, eng * 3
                    f.write("%d %d 1024 0 %d %d\n" % (r, i, eng, wall))


def check_slices(c, tmp, breeds):
    """An interleaved run's slices (nbtool.read_slices, slice_figures):
    from slice_files, 398 complete rounds, atomic at 2 M IOPS and 250
    cycles per I/O, the slow breed at 0.95 and 1.05 of those, the
    preempted slices left out by the medians.  Each of SLICE_MUTANTS must
    fail it."""
    slow = [b for b in breeds if b != nb.BASELINE][0]

    def probe(tooldir):
        log = os.path.join(tmp, "slices-check")
        slice_files(log, breeds, slow)
        rc, out, err = nb.run([sys.executable, "-c", SLICE_PROBE, tooldir,
                               log, " ".join(breeds)], timeout=60)
        try:
            n, fig = json.loads(out)
            a, s = fig[nb.BASELINE], fig[slow]
            return (n == 398 and abs(a[0] / 2e6 - 1) < 1e-3 and
                    abs(a[1] / 250 - 1) < 1e-3 and
                    abs(s[0] / a[0] / 0.95 - 1) < 1e-3 and
                    abs(s[1] / a[1] / 1.05 - 1) < 1e-3), out + err
        except (ValueError, KeyError, TypeError):
            return False, out + err

    ok, text = probe(nb.HERE)
    c.ok(ok, "interleaved slices: want 398 rounds, atomic 2 M IOPS and 250 "
         "cycles/I/O, %s at 0.95 and 1.05 of those" % slow, text)
    mdir = os.path.join(tmp, "slices-mutant")
    # the copy unchanged must pass, or a mutant is caught by the copy
    mutant_copy(mdir, "nbbench.py", ("", ""))
    c.ok(probe(mdir)[0], "the tools' unchanged copy failed the slice check",
         probe(mdir)[1])
    for sub in SLICE_MUTANTS:
        mutant_copy(mdir, "nbbench.py", sub)
        c.ok(not probe(mdir)[0], "the mutant %r passed the slice check"
             % sub[1], "")
    print("check-nullblk: interleaved slices read and paired on a known "
          "run; %d mutants caught" % len(SLICE_MUTANTS))


def bad_bench_args():
    """make nullblk-bench VAR=value, and the message it must give."""
    time_form = "an integer with an optional unit us, ms, s, m, h or d"
    return [
        ("NB_REPEAT=0", "NB_REPEAT=0: not an integer > 0"),
        ("NB_REPEAT=-2", "NB_REPEAT=-2: not an integer > 0"),
        ("NB_REPEAT=two", "NB_REPEAT=two: not an integer > 0"),
        ("NB_RUNTIME=bogus", "NB_RUNTIME=bogus: not a fio time > 0, "
         + time_form),
        ("NB_RUNTIME=0", "NB_RUNTIME=0: not a fio time > 0"),
        ("NB_RUNTIME=", "NB_RUNTIME=: not a fio time > 0"),
        ("NB_RUNTIME=1sec", "NB_RUNTIME=1sec: not a fio time > 0"),
        ("NB_RAMP=-1s", "NB_RAMP=-1s: not a fio time >= 0, " + time_form),
        ("NB_RAMP=1.5s", "NB_RAMP=1.5s: not a fio time >= 0"),
        ("NB_QUICK=yes", "NB_QUICK=yes: not 1, 0 or empty"),
        ("NB_BUDGET=ten", "NB_BUDGET=ten: not a fio time >= 0"),
        ("NB_BUDGET=-5m", "NB_BUDGET=-5m: not a fio time >= 0"),
        ("NB_PIN=yes", "NB_PIN=yes: not 1 or 0"),
        ("NB_IL_RUNTIME=0", "NB_IL_RUNTIME=0: not a fio time > 0"),
    ]


# A mutant of nbbench.py that check_bench_args must catch: --check-args
# prints its messages but lets make go on (to build and run the bench).
BENCH_ARGS_MUTANT = ("return 2 if errs else 0",
                     "return 2 if errs and not a.check_args else 0")


def check_bench_args(c, json_path, tmp):
    """make nullblk-bench refuses bad NB_* values before it runs or
    builds anything, and leaves its JSON as it was.  Not timed: make
    echoes each recipe line before it runs it, so the refusal must be
    the last line echoed (nothing after --check-args ran)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}
    root = os.path.dirname(os.path.dirname(nb.HERE))

    def stat():
        try:
            st = os.stat(json_path)
            return (st.st_mtime_ns, st.st_size)
        except FileNotFoundError:
            return None

    def refused(arg, needle, extra=()):
        before = stat()
        rc, out, err = nb.run(["make", "-C", root, "--no-print-directory",
                               "nullblk-bench", arg] + list(extra), env=env,
                              clear=True, timeout=600)
        text = out + err
        echoed = out.strip().splitlines() or [""]
        return (rc != 0 and "nullblk-bench: " + needle in err and
                "Traceback" not in text and "--suites=timing" not in text and
                "fio-nullblk.so" not in out and
                " bench --check-args " in echoed[-1] and stat() == before,
                "make nullblk-bench %s: exit %d, JSON %s, last line echoed "
                "%r, message lacks %r" % (arg, rc, "untouched" if stat() ==
                                          before else "rewritten",
                                          echoed[-1], needle), text)

    bad = bad_bench_args()
    for arg, needle in bad:
        ok, what, text = refused(arg, needle)
        c.ok(ok, what, text)
    # the mutant, from a copy of the tools; $(MAKE) is false, so that what
    # would come next (the build) fails at once
    mdir = os.path.join(tmp, "bench-args-mutant")
    mutant_copy(mdir, "nbbench.py", BENCH_ARGS_MUTANT)
    tool = "NB_TOOL=%s %s --breeds '%s'" % (
        sys.executable, os.path.join(mdir, "nbtool.py"), " ".join(nb.BREEDS))
    ok, what, text = refused(*bad[-1], extra=[tool, "MAKE=false"])
    c.ok(not ok, "the mutant %r passed: %s" % (BENCH_ARGS_MUTANT[1], what),
         text)
    print("check-nullblk: %d bad NB_* values refused by make nullblk-bench "
          "before it runs anything; a mutant caught" % len(bad))


def synthetic_run(breeds, slow, factor, jitter, reps=6):
    """A bench JSON whose answer is known: atomic at 100 kIOPS, every
    other breed at 1.0 of that except @slow at @factor on the paths that
    move a counter (1.0 on the noise floor's), each of their fio
    jobs scattered by up to +-@jitter (a fraction), from a fixed seed.
    The engine's figures say the same: per CPU second @factor too, and
    engine cycles per I/O 1/@factor of atomic's 500, with 10% of @slow's
    I/Os over the cap (left out of the cycles; their interquartile mean
    480/@factor, below the mean as for real deltas) and its jobs off the CPU
    more often than the others (wall time 2.5 against 2 x CPU time).  At
    irqmode=0 there are interleaved runs too, in which @slow is at 0.97
    of atomic's IOPS and atomic at 400 engine cycles per I/O."""
    rnd = random.Random(1)
    results = []
    for rep in range(reps):
        for path, (_, qm) in nb.PATHS.items():
            for irq in (0, 1):
                for b in breeds:
                    # slow only where a counter moves, as a breed is
                    moves = nb.PATHS[path][0] > 0
                    f = 1.0 if b == nb.BASELINE else (
                        factor if b == slow and moves else 1.0) * (
                        1 + rnd.uniform(-jitter, jitter))
                    ios = 100000
                    over = ios // 10 if b == slow else 0
                    cpu_ns = 1e9 * ios / (100000.0 * f)
                    results.append({
                        "rep": rep, "path": path, "queue_mode": qm,
                        "irqmode": irq, "iodepth": 32, "numjobs": 1,
                        "breed": b, "iops": 100000.0 * f,
                        "p50": 2000 / f, "p99": 5000 / f, "p99.9": 9000 / f,
                        "cpus": "", "cycles_unit": "tsc",
                        "engine_ios": ios, "engine_over": over,
                        "engine_cycles": int((ios - over) * 500 / f),
                        "engine_iqm": 480 / f,
                        "span_ios": ios, "cpu_ns": int(cpu_ns),
                        "wall_cycles": int(cpu_ns * 2 * (
                            2.5 if b == slow else 2.0))})
                    if irq:
                        continue
                    # an interleaved run: the slow breed at 0.97
                    g = 1.0 if b == nb.BASELINE else (
                        0.97 if b == slow and moves else 1.0) * (
                        1 + rnd.uniform(-jitter, jitter))
                    results.append({
                        "mode": "interleaved", "rep": rep, "path": path,
                        "queue_mode": qm, "irqmode": irq, "iodepth": 32,
                        "numjobs": 1, "breed": b, "iops": 100000.0 * g,
                        "engine_iqm": 400 / g, "il_rounds": 1000,
                        "cpus": ""})
    return {"tsc_hz": 2e9, "extra_cycles_per_op": {b: 0.0 for b in breeds},
            "extra_cycles_source": "synthetic", "results": results,
            "settings": {"runtime": "1s", "ramp": "0", "repeat": reps,
                         "quick": False, "secs": 0.0}}


# Mutants of nbstats.py, each of which check_intervals must catch: an
# interval of no width, a +-50% resolution test, engine cycles counting
# the preempted I/Os, I/Os per wall second taken for per CPU second, a
# verdict whose rounds needed are the rounds run, the engine's mean per
# I/O taken for its interquartile mean, the interleaved runs ignored, and
# a noise floor taken from the rows that move a counter.
NBSTATS_MUTANTS = [
    ("h = t975(len(ls) - 1) * sd", "h = 0 * sd"),
    ("RESOLVED = 0.01", "RESOLVED = 0.5"),
    ('n = r.get("engine_ios", 0) - r.get("engine_over", 0)',
     'n = r.get("engine_ios", 0)'),
    ('return (r["span_ios"] / r["cpu_ns"] * 1e9',
     'return (r["span_ios"] / r["wall_cycles"] * 2e9'),
    ("need = int(math.ceil(n * (h / RESOLVED) ** 2))", "need = n"),
    ('return r.get("engine_iqm") or mean', 'return mean'),
    ('rs = il if il and key in ("iops", "cycles") else sec', 'rs = sec'),
    ('if k[1] == irq and not r["moves_counter"]]\n    floor = [c for c',
     'if k[1] == irq and r["moves_counter"]]\n    floor = [c for c'),
]


def check_intervals(c, tmp, breeds):
    """nullblk-bench's intervals and verdicts, replayed through
    `nbtool.py report` on runs whose answer is known (synthetic_run).
    With +-0.2% scatter, the slow breed's irqmode=0 row must take IOPS and
    engine cycles from the interleaved runs (-3% and 412.x cycles), the
    rest from the sections (fio's IOPS and per CPU second -5%, mean 526.x
    cycles), and its irqmode=1 row everything from the sections (IOPS
    -5%, 505.x cycles, the interquartile mean); every row resolved.  With
    +-10% every row must be unresolved, saying why, with more runs needed
    than it had.  Each mutant of NBSTATS_MUTANTS must fail one of the
    two."""
    slow = [b for b in breeds if b != nb.BASELINE][0]
    path = [p for p in nb.PATHS if nb.PATHS[p][0]][0]
    n = 2 * len(nb.PATHS) * (len(breeds) - 1)
    cases = (("scatter 0.2%", 0.002,
              ["%s 100.0 kIOPS" % nb.BASELINE,
               "verdict: every path and breed resolved to +-1%",
               "verdict, irqmode=0, IOPS against the noise floor [-0.",
               "%%: slower than it: %s %s [-3." % (path, slow)],
              [["kIOPS, IOPS within [-3.", ", -2.", "at 95% confidence: "
                "resolved to +-0.", "engine 412.", "cycles/I/O, within [+2.",
                "fio's IOPS, as sections, [-5.", "per CPU-second [-5.",
                "engine mean 526."],
               ["kIOPS, IOPS within [-5.", ", -4.", "resolved to +-0.",
                "engine 505.", "cycles/I/O, within [+5."]]),
             ("scatter 10%", 0.10,
              ["verdict: %d of %d not resolved to +-1%%" % (n, n)],
              [["kIOPS, IOPS within [", "unresolved: half-width ",
                "% > 1%, because the per-run IOPS ratios scatter by sd"]] * 2))

    def replay(tool, jitter, want, rows):
        f = os.path.join(tmp, "intervals.json")
        with open(f, "w") as fh:
            json.dump(synthetic_run(breeds, slow, 0.95, jitter), fh)
        rc, out, err = nb.run([sys.executable, tool, "--breeds",
                               " ".join(breeds), "report", "--json", f],
                              timeout=60)
        lines = out.splitlines()
        at = [i for i, x in enumerate(lines)
              if x.split()[:2] == [path, slow] and "kIOPS" in x]
        ok = rc == 0 and len(at) == 2 and all(
            w in " ".join(out.split()) for w in want)
        # the row at irqmode=0, then at 1: its line and the three below
        for i, row in zip(at, rows):
            block = " ".join(" ".join(x.split()) for x in lines[i:i + 4])
            ok = ok and all(w in block for w in row)
            m = re.search(r"over (\d+) (?:interleaved )?runs \(\+-1% "
                          r"needs about (\d+)\)", block)
            if m and int(m[2]) <= int(m[1]):
                ok = False  # unresolved, yet no more runs needed
        return ok, out + err

    tool = os.path.join(nb.HERE, "nbtool.py")
    for name, jitter, want, row in cases:
        ok, text = replay(tool, jitter, want, row)
        c.ok(ok, "nbtool.py report, %s, %s at 0.95 of atomic: want %r and "
             "%r" % (name, slow, want, row), text)
    # the mutants: a copy of the tools with nbstats.py changed; each must
    # fail one of the cases, where the copy unchanged passes them all
    mdir = os.path.join(tmp, "nbstats-mutant")
    mutant_copy(mdir, "nbstats.py", ("", ""))
    for k in cases:
        ok, text = replay(os.path.join(mdir, "nbtool.py"), *k[1:])
        c.ok(ok, "the tools' unchanged copy failed %s" % k[0], text)
    for sub in NBSTATS_MUTANTS:
        mdir = os.path.join(tmp, "nbstats-mutant")
        mutant_copy(mdir, "nbstats.py", sub)
        caught = not all(replay(os.path.join(mdir, "nbtool.py"), *k[1:])[0]
                         for k in cases)
        c.ok(caught, "the mutant %r passed the interval checks" % sub[1], "")
    bad = os.path.join(tmp, "intervals-bad.json")
    with open(bad, "w") as fh:
        fh.write("{}")
    rc, out, err = nb.run([sys.executable, os.path.join(nb.HERE, "nbtool.py"),
                           "--breeds", " ".join(breeds), "report", "--json",
                           bad], timeout=60)
    c.ok(rc == 2 and bad in err and "Traceback" not in err,
         "nbtool.py report on a bad JSON: exit %d" % rc, err)
    print("check-nullblk: the intervals and verdicts of nullblk-bench, "
          "replayed on known runs; %d mutants of nbstats.py caught"
          % len(NBSTATS_MUTANTS))

# SPDX-License-Identifier: MIT
"""nbdevs.py: the engine's teardown lines, read per device and per job.

Jobs with equal options share a device when the second opens it before
the first has closed it: whether they do is a matter of scheduling, so a
run of two jobs makes one device per breed or two.  The last user of each
device prints one line at teardown (engine.c, devref_report), in one
write:

  nullblk: device 3 path=libaio-4.14 refcount=full jobs=1,2: 928 I/Os,
      2784 refcount RMWs on the I/O path (3.000 per I/O), 14 at
      open/close; bios not freed: 0, requests not freed: 0

(one line; the RMWs only in the op-counting build, the bios and requests
only in the checked ones).  account() holds a run to what each job did on
each breed, whatever the number of devices and the order of the lines:
every device reported once, every job once per breed, the I/Os per breed
as the jobs did them, nothing left.  check_parser() holds account() to
runs whose answer is known, with mutants.
"""
import importlib.util
import os
import random
import re

DEV_RE = re.compile(
    r"^nullblk: device (\d+) path=(\S+) refcount=(\S+)(?: slot=(\d+))? "
    r"jobs=([\d,]+): (\d+) I/Os"
    r"(?:, (\d+) refcount RMWs on the I/O path \([\d.]+ per I/O\), "
    r"(\d+) at open/close)?"
    r"(?:; bios not freed: (-?\d+), requests not freed: (-?\d+))?"
    r"(?:; (\d+) refcount_t warnings on this device)?$", re.M)


def parse(err):
    """The device lines of @err, as dicts; a breed's device of slot s is
    keyed "breed slot=s" (interleave_same=1), else by its breed."""
    devs = []
    for m in DEV_RE.finditer(err):
        num = lambda k: None if m[k] is None else int(m[k])  # noqa: E731
        devs.append({
            "device": int(m[1]), "path": m[2],
            "key": m[3] if m[4] is None else "%s slot=%s" % (m[3], m[4]),
            "jobs": [int(j) for j in m[5].split(",")], "ios": int(m[6]),
            "io_rmws": num(7), "setup_rmws": num(8), "bios": num(9),
            "rqs": num(10), "warnings": num(11) or 0})
    return devs


def interleave_ios(n, il, k):
    """A job's I/Os on each of @k devices when it does @n I/Os in slices
    of @il, the devices rotated by one each round (engine.c,
    nb_slice_next): slice s on device (s % k + s // k) % k.  The last
    slice is short, so one device has fewer (2000 in slices of 256 over
    4: 464, 512, 512, 512)."""
    ios = [0] * k
    for s in range((n + il - 1) // il):
        ios[(s % k + s // k) % k] += min(il, n - s * il)
    return ios


def account(devs, want, jobs, checked=False, counted=False):
    """What is wrong with @devs (parse()) for a run whose jobs @jobs each
    did want[key] I/Os on key's device, or []."""
    bad = []
    seen = {}
    for d in devs:
        if d["device"] in seen:
            bad.append("device %d reported twice" % d["device"])
        seen[d["device"]] = d
        if d["key"] not in want:
            bad.append("device %d: refcount=%s not in the run"
                       % (d["device"], d["key"]))
        if checked and d["bios"] is None:
            bad.append("device %d: no bios/requests count" % d["device"])
        if counted and d["io_rmws"] is None:
            bad.append("device %d: no refcount RMW count" % d["device"])
        if d["bios"] or d["rqs"] or d["warnings"]:
            bad.append("device %d: bios not freed: %s, requests not freed:"
                       " %s, %d warnings" % (d["device"], d["bios"],
                                             d["rqs"], d["warnings"]))
    for key, ios in want.items():
        mine = [d for d in devs if d["key"] == key]
        got = sorted(j for d in mine for j in d["jobs"])
        if got != sorted(jobs):
            bad.append("refcount=%s: jobs %s reported, want each of %s once"
                       % (key, got, sorted(jobs)))
        total = sum(d["ios"] for d in mine)
        if total != ios * len(jobs):
            bad.append("refcount=%s: %d I/Os over %d devices, want %d x %d"
                       % (key, total, len(mine), len(jobs), ios))
    return bad


JOB_RE = re.compile(r" job=(\d+)$", re.M)


def jobs_once(lines, jobs):
    """What is wrong with @lines, each a job's line (start, cycles) ending
    in its job=N, for a run of @jobs: each job once, or []."""
    got = sorted(int(m[1]) for x in lines for m in [JOB_RE.search(x)] if m)
    if len(got) != len(lines) or got != sorted(jobs):
        return ["jobs %s printed, want each of %s once" % (got, sorted(jobs))]
    return []


# ----------------------------------------------------- the parser's test --

def _line(num, key, jobs, ios, bios=0):
    breed, _, slot = key.partition(" slot=")
    return ("nullblk: device %d path=libaio-4.14 refcount=%s%s jobs=%s: %d "
            "I/Os; bios not freed: %d, requests not freed: 0\n"
            % (num, breed, " slot=" + slot if slot else "",
               ",".join(map(str, jobs)), ios, bios))


def synthetic(want, jobs, shared, rnd):
    """A run's stderr: each key's device shared by all @jobs if shared[key],
    else one device per job; the lines shuffled among the jobs' start
    lines."""
    lines, num = [], 0
    for key, ios in want.items():
        for group in ([jobs] if shared[key] else [[j] for j in jobs]):
            num += 1
            lines.append(_line(num, key, group, ios * len(group)))
    lines += ["nullblk: job nb: refcount=every breed, 256 I/Os each in "
              "turn, path=libaio-4.14 queue_mode=2 irqmode=0 job=%d\n" % j
              for j in jobs]
    rnd.shuffle(lines)
    return "".join(lines)


def cases(breeds):
    """(name, stderr, should pass) for a 2-job interleave=256 run of 2000
    I/Os over @breeds, and the want it is judged by."""
    rnd = random.Random(3)
    want = dict(zip(breeds, interleave_ios(2000, 256, len(breeds))))
    jobs = [1, 2]
    out = []
    for name, shared in (("shared", {b: True for b in breeds}),
                         ("apart", {b: False for b in breeds}),
                         ("mixed", {b: i % 2 == 0
                                    for i, b in enumerate(breeds)})):
        out.append((name, synthetic(want, jobs, shared, rnd), True))
    good = synthetic(want, jobs, {b: False for b in breeds}, rnd)
    lines = good.splitlines(True)
    devl = [x for x in lines if x.startswith("nullblk: device")]
    b0, b1 = breeds[0], breeds[1]
    out += [
        ("a device line lost", good.replace(devl[0], ""), False),
        ("a device line twice", good + devl[0], False),
        ("a device number on two lines",
         good.replace("device 2 path", "device 1 path"), False),
        ("a leak", good.replace("bios not freed: 0", "bios not freed: 1",
                                1), False),
        ("breed 0's I/Os on breed 1",
         good.replace("refcount=%s jobs" % b0, "refcount=%s jobs" % b1),
         False),
        ("two jobs' I/Os on one, the other's line lost",
         "".join(x for x in lines if "refcount=%s jobs=2" % b0 not in x)
         .replace("refcount=%s jobs=1: %d" % (b0, want[b0]),
                  "refcount=%s jobs=1: %d" % (b0, 2 * want[b0])), False),
        ("every device at 512 I/Os",
         good.replace(": %d I/Os" % want[b0], ": 512 I/Os"), False),
    ]
    return want, jobs, out


# jobs_once()'s cases: (job numbers of the lines, should pass) for jobs 1, 2
JOB_CASES = [([2, 1], True), ([1, 2], True), ([1, 1], False), ([2], False),
             ([1, 2, 2], False), ([1, None], False)]

# Mutants of account() and jobs_once(), each of which check_parser must
# catch: the lines counted (one per breed) instead of the jobs keyed, the
# I/Os not summed per breed, the leak ignored, a device number seen twice
# accepted, a job's lines counted instead of their job numbers.
ACCOUNT_MUTANTS = [
    ("    if len(got) != len(lines) or got != sorted(jobs):",
     "    if len(lines) != len(jobs):"),
    ("        if got != sorted(jobs):",
     "        if len(mine) != 1:"),
    ("        if total != ios * len(jobs):", "        if False:"),
    ('        if d["bios"] or d["rqs"] or d["warnings"]:',
     '        if d["warnings"]:'),
    ('        if d["device"] in seen:', '        if False:'),
]


def _judge(mod, breeds):
    """The cases judged by @mod's account(): the names judged wrongly."""
    want, jobs, cs = cases(breeds)
    line = "nullblk: job nb: refcount=full path=psync queue_mode=0 irqmode=0"
    return [name for name, text, good in cs
            if (not mod.account(mod.parse(text), want, jobs,
                                checked=True)) != good] + [
        "job lines %s" % nums for nums, good in JOB_CASES
        if (not mod.jobs_once([line + ("" if n is None else " job=%d" % n)
                               for n in nums], jobs)) != good]


def check_parser(c, tmp, breeds):
    """account() on known runs: 3 that must pass (the devices shared, apart,
    mixed; the lines in any order), 7 that must not; jobs_once() on
    JOB_CASES; each of ACCOUNT_MUTANTS must judge one of them wrongly."""
    import nbdevs
    wrong = _judge(nbdevs, breeds)
    c.ok(not wrong, "nbdevs.account judged wrongly: %s" % wrong)
    src = os.path.abspath(__file__)
    with open(src) as f:
        text = f.read()
    for old, new in ACCOUNT_MUTANTS:
        assert old in text, old
        path = os.path.join(tmp, "nbdevs_mutant.py")
        with open(path, "w") as f:
            f.write(text.replace(old, new))
        spec = importlib.util.spec_from_file_location("nbdevs_mutant", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        c.ok(_judge(mod, breeds), "the mutant %r of nbdevs passed"
             % new.strip())
    print("check-nullblk: teardown lines read per device and per job; "
          "%d known runs judged, %d mutants caught"
          % (len(cases(breeds)[2]) + len(JOB_CASES), len(ACCOUNT_MUTANTS)))

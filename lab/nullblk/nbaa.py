# SPDX-License-Identifier: MIT
"""nbaa: make nullblk-bench-aa (nbtool.py aa).

The A/A control of the interleaved runs: the same fio job as nullblk-bench's
interleaved runs (one job, interleave=1024 I/Os per slice, the slots in
rotated order), with interleave_same=1, so that every slot's device has
one breed (refcount=, atomic by default).  Each slot should then measure
what slot 0 measures; a difference is the method's own bias.  Per run, a
slot's ratio is the median over the rounds of its slice IOPS over slot
0's in the same round; over the runs, Student's t on the logarithms
(nbstats.ratio_ci), as nullblk-bench's rows.  Up to 0.4.0 this showed
slots 1-3 0.6-2.6% below slot 0 (lab/nullblk.md, "The noise floor").
"""
import os
import statistics
import sys

import nbbench
import nbstats

IODEPTH = 32
WITHIN = 0.01  # the verdict: every slot within +-1% of slot 0


def cmd_aa(a, job_env, run):
    """a: so, path, breed, runs, runtime, ramp, and optionally ios: then
    each run is that many I/Os instead of runtime (check-nullblk: so many
    rounds whatever the machine's speed); the rest from nbtool."""
    tmp = os.path.join(os.path.dirname(os.path.abspath(a.so)), "nullblk")
    os.makedirs(tmp, exist_ok=True)
    log = os.path.join(tmp, "aa-slices")
    ncpu = os.cpu_count() or 1
    ratios = {}
    for k in range(int(a.runs)):
        env = job_env(a.so, a.path, 2, 0, IODEPTH, 1, a.runtime, a.ramp)
        job = nbbench.interleaved_job_file(
            tmp, [k % ncpu], log,
            "interleave_same=1\nrefcount=%s\n" % a.breed +
            ("time_based=0\nruntime=0\nnumber_ios=%d\n" % a.ios
             if getattr(a, "ios", 0) else ""))
        rc, out, err = run(["fio", "--output-format=json", job], env=env,
                           timeout=600)
        if rc:
            print("fio failed (%d):\n%s" % (rc, err), file=sys.stderr)
            return 1
        rounds = nbbench.read_slices(log, 1.0, by_slot=True)
        if not rounds:
            print("nullblk-bench-aa: run %d: no complete round" % k,
                  file=sys.stderr)
            return 1
        for s in sorted(rounds[0])[1:]:
            ratios.setdefault(s, []).append(statistics.median(
                r[s][0] / r[0][0] for r in rounds))
        print("nullblk-bench-aa: run %d of %s: %d rounds" %
              (k + 1, a.runs, len(rounds)), file=sys.stderr)
    print("nullblk-bench-aa: the interleaving's A/A control, refcount=%s "
          "on every device\n  path=%s, iodepth %d, one job pinned, %s runs "
          "of %s (+ %s ramp),\n  interleave=%d; each slot's IOPS against "
          "slot 0's, 95%% interval over the runs" %
          (a.breed, a.path, IODEPTH, a.runs, "%d I/Os" % a.ios
           if getattr(a, "ios", 0) else a.runtime, a.ramp,
           nbbench.INTERLEAVE))
    worst = []
    for s, xs in sorted(ratios.items()):
        lo, hi = nbstats.ratio_ci(xs)
        print("  slot %d: IOPS within %s %% of slot 0's (runs: %s)" %
              (s, nbstats.pct((lo, hi)),
               ", ".join("%+.2f%%" % (100 * (x - 1)) for x in xs)))
        if not (1 - WITHIN <= lo and hi <= 1 + WITHIN):
            worst.append("slot %d %s" % (s, nbstats.pct((lo, hi))))
    print("  verdict: %s" % (
        "every slot within +-1% of slot 0" if not worst else
        "not within +-1% of slot 0: " + ", ".join(worst)))
    return 0

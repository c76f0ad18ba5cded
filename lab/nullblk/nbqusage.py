# SPDX-License-Identifier: MIT
"""nbqusage: make nullblk-bench-qusage (nbtool.py qusage).

What the per-CPU q->q_usage_counter buys per I/O: every I/O enters and
exits the queue (blk_queue_enter/blk_queue_exit), and the engine's
q_usage= option makes that counter a struct percpu_ref (blk-mq's choice)
or a refcount_t of the default breed.  Two job sections per fio run,
q_usage=percpu and q_usage=refcount, one after the other (stonewall) in
rotated order, over path (libaio-5.4: q_usage is the only counter an I/O
moves; libaio-4.14: three bio RMWs as well) x irqmode 0,1 x numjobs 1,2
at iodepth 32, repeated.  Each run gives the paired ratio percpu IOPS /
refcount IOPS; the table shows its median and the 95% interval over the
runs (nbstats.ratio_ci, Student's t on the logarithms).
"""
import os
import statistics
import sys

import nbstats

USAGES = ["percpu", "refcount"]
PATHS = ["libaio-5.4", "libaio-4.14"]
NUMJOBS = [1, 2]
IODEPTH = 32


def job_file(jobfile, tmp, order, breed):
    path = os.path.join(tmp, "qusage-" + os.path.basename(jobfile))
    with open(jobfile) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(text + "".join("\n[%s]\nq_usage=%s\nrefcount=%s\n"
                               % (u, u, breed) for u in order))
    return path


def cmd_qusage(a, jobfile, job_env, run, parse_fio_json):
    """a: so, runtime, ramp, repeat, breed; the rest from nbtool."""
    tmp = os.path.join(os.path.dirname(os.path.abspath(a.so)), "nullblk")
    os.makedirs(tmp, exist_ok=True)
    configs = [(p, irq, nj) for p in PATHS for irq in (0, 1)
               for nj in NUMJOBS]
    ratios = {}
    for rep in range(int(a.repeat)):
        for ci, (path, irq, nj) in enumerate(configs):
            order = USAGES if (rep + ci) % 2 == 0 else USAGES[::-1]
            env = job_env(a.so, path, 2, irq, IODEPTH, nj, a.runtime, a.ramp)
            rc, out, err = run(["fio", "--output-format=json",
                                job_file(jobfile, tmp, order, a.breed)],
                               env=env, timeout=600)
            if rc:
                print("fio failed (%d):\n%s" % (rc, err), file=sys.stderr)
                return 1
            iops = {}
            for j in parse_fio_json(out)["jobs"]:
                if j["error"]:
                    print("fio job error %d" % j["error"], file=sys.stderr)
                    return 1
                iops[j["job options"]["q_usage"]] = j["read"]["iops"]
            ratios.setdefault((path, irq, nj), []).append(
                iops["percpu"] / iops["refcount"])
    print("nullblk-bench-qusage: q_usage_counter per I/O, q_usage=percpu "
          "(struct percpu_ref) IOPS\n  over q_usage=refcount "
          "(refcount-%s) IOPS in the same fio run; 4k randread, iodepth "
          "%d,\n  runtime %s + ramp %s, %s runs per cell, sections in "
          "rotated order" % (a.breed, IODEPTH, a.runtime, a.ramp,
                             a.repeat))
    print("  %-12s %-8s %-8s %8s  %s" % ("path", "irqmode", "numjobs",
                                        "median", "95% interval"))
    for (path, irq, nj) in configs:
        xs = ratios[(path, irq, nj)]
        lo, hi = nbstats.ratio_ci(xs)
        print("  %-12s %-8d %-8d %8.3f  [%.3f, %.3f]%s" % (
            path, irq, nj, statistics.median(xs), lo, hi,
            "  >= 1: met" if lo >= 1 else
            ("  < 1: missed" if hi < 1 else "  unresolved")))
    return 0

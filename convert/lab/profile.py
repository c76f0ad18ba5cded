#!/usr/bin/env python3
"""Where `refcount-convert report` spends its time on a tree: discovery
(libclang, its rounds), then each spatch pass with how many files it
read, its wall time and the CPU time of its spatch runs, and its slowest
batches; then the total.  Nothing of the tool is changed: its functions
are wrapped from outside.

  profile.py TREE [--json OUT] [--tools DIR]
    OUT: the report, as `report --format=json`; DIR: the directory holding refconv/
    of the tool to profile (another commit's, from `git archive`), this
    tree's by default

CPU is user + system time: "spatch" is the spatch runs of that pass,
"self" this process (the driver's Python and, in discovery, its own
share); discovery's workers are counted when its pool ends.  On a shared
machine the wall times are upper bounds (state the load)."""

import argparse
import json
import os
import resource
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def cpu():
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    s = resource.getrusage(resource.RUSAGE_SELF)
    return c.ru_utime + c.ru_stime, s.ru_utime + s.ru_stime


def say(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


def wrap(root, clangscan, scan):
    spatch, run, discover, parse = scan.spatch, scan._run, clangscan.discover, clangscan._parse
    batches = []

    def timed_run(cmd, files):
        t = time.time()
        out = run(cmd, files)
        batches.append((time.time() - t, len(files), files[0]))
        return out

    def timed_spatch(text, targets, *a, **k):
        t, c = time.time(), cpu()
        del batches[:]
        out = spatch(text, targets, *a, **k)
        c2 = cpu()
        say("pass %-9s %5d files  %6.1f s wall  %6.1f s cpu (spatch)  %d rows" % (
            os.path.basename(k.get("workdir") or "?"), len(targets), time.time() - t,
            c2[0] - c[0], out.count("\n")))
        for dt, n, first in sorted(batches, reverse=True)[:2]:
            say("    batch %5.1f s, %d files from %s" % (dt, n, os.path.relpath(first, root)))
        return out

    def timed_discover(r, *a, **k):
        t, c = time.time(), cpu()
        out = discover(r, *a, **k)
        c2 = cpu()
        say("discovery     %6.1f s wall  %6.1f s cpu (workers)  %5.1f s cpu (self): %s" % (
            time.time() - t, c2[0] - c[0], c2[1] - c[1], out[1]))
        return out

    def timed_parse(pool, r, jobs, skipped, later):
        t = time.time()
        out = parse(pool, r, jobs, skipped, later)
        say("  discovery round: %d units or functions, %.1f s" % (len(jobs), time.time() - t))
        return out

    scan.spatch, scan._run = timed_spatch, timed_run
    clangscan.discover, clangscan._parse = timed_discover, timed_parse


def main(argv):
    ap = argparse.ArgumentParser(prog="profile.py")
    ap.add_argument("tree")
    ap.add_argument("--json")
    ap.add_argument("--tools", default=os.path.join(TOP, "convert"))
    a = ap.parse_args(argv)
    sys.path.insert(0, os.path.abspath(a.tools))
    from refconv import clangscan, cli, model, scan
    root = os.path.abspath(a.tree)
    wrap(root, clangscan, scan)
    say("load average %s" % " ".join("%.2f" % x for x in os.getloadavg()))
    t, c = time.time(), cpu()
    doc = cli.report_doc(model.build(root))
    c2 = cpu()
    say("total         %6.1f s wall  %6.1f s cpu, load average %s" % (
        time.time() - t, sum(c2) - sum(c), " ".join("%.2f" % x for x in os.getloadavg())))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(doc, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

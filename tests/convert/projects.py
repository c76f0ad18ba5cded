#!/usr/bin/env python3
"""check-convert: refcount-convert on real Debian projects (docs/convert-tool.md).

For each project: its Debian source and build dependencies, a baseline build
and test run, `refcount-convert apply` with no hand edits, the converted
build and the same tests with the report log on, the counters found against
the expected ones, a misuse replay and a cost ratio through the public API
(tests/convert/projects/<name>.c).  Prints one table.

  projects.py --lib LIBDIR --work DIR [--only NAME...] [--jobs 2]
LIBDIR: a built librefcount tree (include/, build/librefcount.a)."""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools", "refcount-convert")

# The projects and what must be found in them (the reference corpus's
# fields); a per-project file of hand edits would be tests/convert/projects/
# NAME.edits (none exists: every line of one would count as a miss).
PROJECTS = {
    "jansson": dict(pkg="jansson", version="2.14", cmake=[],
                    expect=["json_t.refcount"], inc=["include"], lib="lib/libjansson.a",
                    misuse="misuse", breed="saturating"),
    "json-c-on": dict(pkg="json-c", version="0.16", cmake=["-DENABLE_THREADING=ON"],
                      expect=["json_object._ref_count"], inc=[".", "@src"],
                      lib="libjson-c.a", misuse="misuse", breed="saturating"),
    "json-c-off": dict(pkg="json-c", version="0.16", cmake=["-DENABLE_THREADING=OFF"],
                       expect=["json_object._ref_count"], inc=[".", "@src"],
                       lib="libjson-c.a", misuse="misuse", breed="nonatomic"),
}
COST_N, COST_ROUNDS = 2000000, 9


def sh(cmd, cwd=None, env=None, log=None, check=True):
    with open(log or os.devnull, "a") as out:
        r = subprocess.run(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                           shell=isinstance(cmd, str))
    if check and r.returncode:
        raise RuntimeError("%s failed (%d)%s" % (cmd if isinstance(cmd, str) else
                                                 " ".join(cmd), r.returncode,
                                                 ", see " + log if log else ""))
    return r.returncode


def fetch(pkg, version, work):
    """The Debian source, extracted once; build dependencies installed."""
    dest = os.path.join(work, "src", pkg)
    if not os.path.isdir(dest):
        sh([os.path.join(HERE, "fetch-src.sh"), pkg, version, dest])
    if subprocess.run(["dpkg-checkbuilddeps"], cwd=dest, stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL).returncode:
        print("check-convert: installing the build dependencies of %s" % pkg, flush=True)
        sudo = [] if os.getuid() == 0 else ["sudo"]
        sh(sudo + ["env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "build-dep",
                   "-y", "-qq", pkg])
    return dest


def build(p, src, bdir, lib, jobs, log):
    if os.path.isdir(bdir):
        shutil.rmtree(bdir)
    os.makedirs(bdir)
    args = ["cmake", src] + p["cmake"]
    if lib:
        args.append("-DCMAKE_C_FLAGS=-I%s/include" % lib)
        args.append("-DCMAKE_C_STANDARD_LIBRARIES=%s/build/librefcount.a -pthread" % lib)
    sh(args, cwd=bdir, log=log)
    sh(["make", "-j%d" % jobs], cwd=bdir, log=log)


def ctest(bdir, env, jobs, log):
    open(log, "w").close()
    sh(["ctest", "-j%d" % jobs], cwd=bdir, env=env, log=log, check=False)
    text = open(log).read()
    m = re.findall(r"(\d+)% tests passed, (\d+) tests failed out of (\d+)", text)
    if not m:
        return 0, 0
    _, failed, total = map(int, m[-1])
    return total - failed, total


def program(name, p, src, bdir, lib, out):
    incs = []
    for i in p["inc"]:
        incs += ["-I", src if i == "@src" else os.path.join(bdir, i)]
    libs = [os.path.join(bdir, p["lib"])]
    if lib:
        incs += ["-I", os.path.join(lib, "include")]
        libs.append(os.path.join(lib, "build", "librefcount.a"))
    sh(["cc", "-O2", "-g", "-std=gnu11"] + incs + [os.path.join(HERE, "projects", name.split("-on")[0].split("-off")[0] + ".c"),
        "-o", out] + libs + ["-pthread", "-lm"])


def run_prog(cmd, env=None):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, env=env)
    return r.returncode, r.stdout.strip(), r.stderr.strip()


def misuse(prog, logfile):
    """The replay with the library's default handler (once per type and
    message: 2^32 gets on a saturated count would log 2^31 lines)."""
    env = dict(os.environ)
    for v in ("REFCOUNT_REPORT_LOG", "REFCOUNT_REPORT"):
        env.pop(v, None)
    rc, out, err = run_prog([prog, "misuse"], env)
    with open(logfile, "w") as f:
        f.write(err)
    reports = [l for l in err.splitlines() if l.startswith("refcount")]
    if rc < 0:
        what = "crash (signal %d%s)" % (-rc, ", assert" if "Assertion" in err else "")
    elif rc:
        what = "exit %d" % rc
    else:
        what = out
    return what, reports


def cost(base, conv):
    """Interleaved rounds; ratio converted/original per round: median [min, max]."""
    ratios = []
    for _ in range(COST_ROUNDS):
        b = float(run_prog([base, "cost", str(COST_N)])[1])
        c = float(run_prog([conv, "cost", str(COST_N)])[1])
        ratios.append(c / b)
    return statistics.median(ratios), min(ratios), max(ratios)


def known_reports(name):
    """projects/NAME.reports: reports of the project's own tests that are
    findings (each line: type TAB test binary TAB why)."""
    p = os.path.join(HERE, "projects", name + ".reports")
    out = set()
    if os.path.exists(p):
        for l in open(p):
            if l.strip() and not l.startswith("#"):
                w = l.rstrip("\n").split("\t")
                out.add((w[0], w[1]))
    return out


def locked_costs(rows):
    """Every row's cost, under one hold of the machine's benchmark lock."""
    import fcntl
    with open("/tmp/bench.lock", "a") as lk:
        print("check-convert: waiting for /tmp/bench.lock", flush=True)
        fcntl.flock(lk, fcntl.LOCK_EX)
        try:
            for r in rows:
                if "progs" in r:
                    med, lo, hi = cost(r["progs"]["orig"], r["progs"]["conv"])
                    r["cost"] = "%.2f [%.2f, %.2f]" % (med, lo, hi)
        finally:
            fcntl.flock(lk, fcntl.LOCK_UN)


def one(name, p, a):
    work = os.path.join(a.work, name)
    os.makedirs(work, exist_ok=True)
    src = fetch(p["pkg"], p["version"], a.work)
    row = dict(project="%s %s%s" % (p["pkg"], p["version"], {
        "json-c-on": " threading on", "json-c-off": " threading off"}.get(name, "")))
    # baseline
    base_src = os.path.join(work, "orig")
    conv_src = os.path.join(work, "conv")
    for d in (base_src, conv_src):
        if os.path.isdir(d):
            shutil.rmtree(d)
        shutil.copytree(src, d, symlinks=True)
    blog = os.path.join(work, "base.log")
    open(blog, "w").close()
    build(p, base_src, os.path.join(work, "b-orig"), None, a.jobs, blog)
    before = ctest(os.path.join(work, "b-orig"), None, a.jobs, os.path.join(work, "base-test.log"))
    # the conversion, no hand edits
    clog = os.path.join(work, "apply.log")
    open(clog, "w").close()
    with open(os.path.join(work, "report.json"), "w") as out:
        subprocess.run([TOOL, "report", conv_src, "--format=json"], stdout=out, check=True)
    with open(clog, "w") as out:
        subprocess.run([TOOL, "apply", conv_src, "--refcount-include",
                        os.path.join(a.lib, "include")], stdout=out,
                       stderr=subprocess.STDOUT, check=True)
    edits = os.path.join(HERE, "projects", name + ".edits")
    row["hand edits"] = len(open(edits).read().splitlines()) if os.path.exists(edits) else 0
    import json
    doc = json.loads(open(os.path.join(work, "report.json")).read())
    found = {c["field"] for c in doc["candidates"] if c["decision"] == "convert"}
    cands = {c["field"] for c in doc["candidates"]}
    fp = len(cands - set(p["expect"]))
    row["counters"] = "%d/%d, %d FP" % (len(set(p["expect"]) & found), len(p["expect"]), fp)
    row["ok_found"] = set(p["expect"]) <= found
    build(p, conv_src, os.path.join(work, "b-conv"), a.lib, a.jobs, clog)
    rlog = os.path.join(work, "test-reports.log")
    if os.path.exists(rlog):
        os.unlink(rlog)
    env = dict(os.environ, REFCOUNT_REPORT_LOG=rlog, REFCOUNT_REPORT="every")
    after = ctest(os.path.join(work, "b-conv"), env, a.jobs, os.path.join(work, "conv-test.log"))
    reports = open(rlog).read().splitlines() if os.path.exists(rlog) else []
    known = known_reports(name)
    unknown = []
    for r in reports:
        w = r.split("\t")
        caller = w[3] if len(w) == 5 else "?"
        mod = caller[caller.find("(") + 1:].rstrip(")") if "(" in caller else caller
        prog = os.path.basename(mod.split("+")[0])
        if (w[2] if len(w) == 5 else "?", prog) not in known:
            unknown.append(r)
    row["tests"] = "%d/%d -> %d/%d, %d reports (%d known)" % (
        before + after + (len(reports), len(reports) - len(unknown)))
    row["ok_tests"] = after[0] >= before[0] and after[1] == before[1] and not unknown
    for r in unknown:
        print("check-convert: %s: unexpected report: %s" % (name, r))
    # misuse and cost through the public API
    progs = {}
    for kind, s, b, lib in (("orig", base_src, "b-orig", None), ("conv", conv_src, "b-conv", a.lib)):
        progs[kind] = os.path.join(work, "api-" + kind)
        program(name, p, s, os.path.join(work, b), lib, progs[kind])
    mb, rb = misuse(progs["orig"], os.path.join(work, "misuse-orig.log"))
    ma, ra = misuse(progs["conv"], os.path.join(work, "misuse-conv.log"))
    kinds = sorted({r.split(":")[1].split(";")[0].strip() for r in ra if ":" in r})
    row["misuse"] = "%s -> %s + report: %s" % (mb, ma, ", ".join(kinds) or "none")
    row["ok_misuse"] = bool(ra) and not ma.startswith("crash")
    row["progs"] = progs
    return row


COLUMNS = ["project", "counters", "hand edits", "tests", "misuse", "cost"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    a.lib, a.work = os.path.abspath(a.lib), os.path.abspath(a.work)
    rows, bad = [], 0
    for name, p in PROJECTS.items():
        if a.only and name not in a.only:
            continue
        print("check-convert: %s ..." % name, flush=True)
        try:
            r = one(name, p, a)
        except (RuntimeError, subprocess.CalledProcessError) as e:
            r = dict(project=name, counters="-", tests="-", misuse="-", cost="-",
                     error=str(e))
        r["ok"] = all(r.get(k) for k in ("ok_found", "ok_tests", "ok_misuse")) and \
            r.get("hand edits", 1) == 0
        bad += not r["ok"]
        rows.append(r)
        print("check-convert: %s: %s" % (name, "ok" if r["ok"] else "FAILED " + r.get("error", "")),
              flush=True)
    locked_costs(rows)
    widths = [max(len(c), *(len(str(r.get(c, "-"))) for r in rows)) for c in COLUMNS]
    line = lambda vals: "| " + " | ".join(str(v).ljust(w) for v, w in zip(vals, widths)) + " |"
    print(line(COLUMNS))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print(line([r.get(c, "-") for c in COLUMNS]) + ("" if r["ok"] else "  <- FAILED"))
    print("cost: converted / original ns per create+get+put+free, median [min, max] of "
          "%d interleaved rounds of %d; CPU: %s" % (COST_ROUNDS, COST_N, cpu()))
    return 1 if bad else 0


def cpu():
    for l in open("/proc/cpuinfo"):
        if l.startswith("model name"):
            return l.split(":", 1)[1].strip()
    return "?"


if __name__ == "__main__":
    sys.exit(main())

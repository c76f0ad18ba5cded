#!/usr/bin/env python3
"""check-convert: refcount-convert on real Debian projects (convert/README.md).

For each project: its Debian source and build dependencies, a baseline build
and test run, `refcount-convert apply` with no hand edits, the converted
build (incremental, in the same tree) and the same tests with the report
log on, the counters found against the expected ones, a misuse replay and a
cost ratio through the public API (convert/lab/projects/<prog>.c).  Prints
a line per phase as it goes, then one table and the phases' times.

  projects.py --lib LIBDIR --work DIR [--src DIR] [--only NAME...] [--jobs 2]
              [--mutant tests|reports] [--no-cost]
LIBDIR: a built librefcount tree (include/, build/librefcount.a).
--mutant: the harness's own mutants, each of which must make a row FAILED:
  tests    the refcount_*dec_and_test() calls of the converted tree's
           first file with any negated (a wrong conversion): its tests
           must regress;
  reports  the known findings (projects/NAME.reports) ignored: the reports
           the project's tests give must be unknown."""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time

import convbuild as B
import convcost

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(os.path.dirname(HERE), "refcount-convert")

# The projects, what must be found in them (the reference corpus's fields),
# the other real reference counts the tool may report (not false
# positives), and the traps it may report but must never convert.  A per-project file of hand edits would be projects/NAME.edits
# (none exists: every line of one would count as a miss).
DBUS_CONFIGURE = [
    # Debian's debug flavour, the one whose embedded tests Debian runs
    "--enable-embedded-tests", "--enable-modular-tests", "--enable-asserts",
    "--enable-checks", "--disable-static", "--disable-xml-docs", "--disable-doxygen-docs",
    "--disable-ducktype-docs"]
PROJECTS = {
    "jansson": dict(title="jansson 2.14", pkg="jansson", version="2.14", system="cmake",
                    configure=[], expect=["json_t.refcount"], also=[], inc=["include"],
                    lib="lib/libjansson.a", prog="jansson", cost_n=2000000),
    "json-c-on": dict(title="json-c 0.16 threading on", pkg="json-c", version="0.16",
                      system="cmake", configure=["-DENABLE_THREADING=ON"],
                      expect=["json_object._ref_count"], also=[], inc=[".", "@src"],
                      lib="libjson-c.a", prog="json-c", cost_n=2000000,
                      test_env={"USE_VALGRIND": "0"}),  # as debian/rules
    "json-c-off": dict(title="json-c 0.16 threading off", pkg="json-c", version="0.16",
                       system="cmake", configure=["-DENABLE_THREADING=OFF"],
                       expect=["json_object._ref_count"], also=[], inc=[".", "@src"],
                       lib="libjson-c.a", prog="json-c", cost_n=2000000,
                       test_env={"USE_VALGRIND": "0"}),
    # DBusMessageFilter (dbus-connection.c) is a real count too, and the
    # tool's "?.refcount" is the Windows DBusBabysitter's (dbus-spawn-win.c;
    # the Unix one of that name has a plain int).
    "dbus": dict(title="dbus 1.14.10", pkg="dbus", version="1.14.10", system="autotools",
                 configure=DBUS_CONFIGURE,
                 # as debian/rules runs them
                 test_env={"DISPLAY": None, "DBUS_TEST_MALLOC_FAILURES": "0",
                           "DBUS_TEST_HOMEDIR": "@build/home",
                           "LD_PRELOAD": "libnss_wrapper.so",
                           "NSS_WRAPPER_HOSTS": "@src/debian/hosts"},
                 expect=["DBusConnection.refcount", "DBusMessage.refcount",
                         "DBusPendingCall.refcount", "DBusServer.refcount",
                         "DBusObjectSubtree.refcount"],
                 also=["DBusMessageFilter.refcount", "?.refcount", "DBusBabysitter.refcount"],
                 inc=["@src", "."],
                 lib="dbus/.libs/libdbus-1.so", prog="dbus", cost_n=30000),
    # the project's own refcount family (PA_REFCNT_*, src/pulsecore/refcnt.h)
    # re-implemented on refcount_t: 28 structs, their call sites unchanged.
    # The client library, the daemon's core and its unit tests, with the
    # optional features off (Debian builds them all and runs the same
    # meson test).
    "pulseaudio": dict(title="pulseaudio 16.1", pkg="pulseaudio", version="16.1",
                       system="meson",
                       configure=["--auto-features=disabled", "-Dtests=true",
                                  "-Ddoxygen=false", "-Dman=false", "-Ddatabase=simple"],
                       expect=["pa_object._ref", "pa_memblock._ref", "pa_mempool._ref",
                               "pa_context._ref", "pa_stream._ref", "pa_operation._ref",
                               "pa_pstream._ref", "pa_packet._ref"],
                       also=["pa_%s._ref" % s for s in (
                           "asyncmsgq", "auth_cookie", "bluetooth_discovery", "cli_protocol",
                           "dbus_connection", "dbus_protocol", "esound_options",
                           "esound_protocol", "http_protocol", "ioline", "native_options",
                           "native_protocol", "pdispatch", "reserve_monitor_wrapper",
                           "reserve_wrapper", "simple_options", "simple_protocol",
                           "socket_client", "socket_server", "x11_wrapper")],
                       inc=["@src/src", "src"], lib="src/pulse/libpulse.so", libroot="src",
                       prog="pulseaudio", cost_n=2000000),
    # AVBuffer, AVBufferPool (and the Android and Raspberry Pi decoders'
    # counts, not built here), each created by atomic_init().  Debian runs
    # FATE without samples (make check -k); every internal component is
    # built, the external libraries off (--disable-autodetect: only nasm
    # is needed).
    "ffmpeg": dict(title="ffmpeg 5.1.9", pkg="ffmpeg", version="7:5.1.9", system="configure",
                   configure=["--disable-doc", "--disable-stripping", "--disable-autodetect"],
                   deps=["nasm"],
                   test_targets=["fate"], test_reports="tests/data/fate/*.rep",
                   expect=["AVBuffer.refcount", "AVBufferPool.refcount"],
                   also=["FFPoolRef.refcount", "MediaCodecDecContext.refcount"],
                   # lent-out references of a reusable V4L2 buffer slot, which is
                   # requeued at 0, never freed: a candidate that must stay
                   # report-only
                   traps=["V4L2Buffer.context_refcount"],
                   inc=["@src", "."], lib="libavutil/libavutil.a", prog="ffmpeg",
                   cost_n=2000000),
    # rd_refcnt_t, a typedef of the one-member rd_atomic32_t whose
    # operations ./configure writes into config.h (a token-pasting
    # ATOMIC_OP32): the tool reads the project as its compiler sees it
    # (compdb: each copy configured, make's dry run for the compile
    # database).  The family rd_refcnt_* serves counts created at 1, counts
    # created at 0 then kept, and a counter: not re-implemented; the counts
    # created at 1 are converted at their call sites, the others stay
    # report-only.  Tests: the test runner's local set (no broker), quick
    # mode, read test by test from its JSON report (Debian runs none: its
    # `make check` is a file check).
    "librdkafka": dict(title="librdkafka 2.0.2", pkg="librdkafka", version="2.0.2",
                       system="mklove", configure=[], compdb=True,
                       build_targets=[["libs"], ["-C", "tests", "test-runner"]],
                       test_dir="tests", test_program="./test-runner",
                       test_args=["-l", "-Q", "-r"], test_report="test_report_*.json",
                       # the runner's time limits longer (a timeout aborts the
                       # rest of the run), its random seed fixed
                       test_env={"LD_LIBRARY_PATH": "@src/src:@src/src-cpp",
                                 "RDKAFKA_TEST_CONF": os.path.join(
                                     HERE, "projects", "librdkafka-test.conf"),
                                 "TEST_SEED": "1"},
                       expect=["rd_kafka_buf_s.rkbuf_refcnt", "rd_kafka_cert_t.refcnt",
                               "rd_kafka_lwtopic_s.lrkt_refcnt"],
                       # true counts created at 0 and then kept (a refcount_t
                       # would report the keep as an addition on 0)
                       also=["rd_kafka_broker_s.rkb_refcnt", "rd_kafka_toppar_s.rktp_refcnt",
                             "rd_kafka_topic_s.rkt_refcnt"],
                       # application handles, 0 -> 1 -> 0 in normal use; and
                       # requests in flight
                       traps=["rd_kafka_topic_s.rkt_app_refcnt",
                              "rd_kafka_broker_s.rkb_blocking_request_cnt"],
                       inc=["@src/src"], lib="src/librdkafka.a",
                       prog_libs_from=("Makefile.config", "MKL_DYNAMIC_LIBS"),
                       prog="librdkafka", cost_n=1000000),
}
# Two lanes for two CPUs, of about the same length: dbus, pulseaudio and
# librdkafka beside the small ones and ffmpeg (the longest row).
LANES = [["dbus", "pulseaudio", "librdkafka"],
         ["jansson", "json-c-on", "json-c-off", "ffmpeg"]]


class Clock:
    """Progress lines and the phases' times."""

    def __init__(self):
        self.t0 = time.monotonic()
        self.lock = threading.Lock()
        self.times = []  # (project, phase, seconds)

    def say(self, text):
        with self.lock:
            s = int(time.monotonic() - self.t0)
            print("check-convert: [%2d:%02d] %s" % (s // 60, s % 60, text), flush=True)

    def phase(self, proj, name):
        clock = self

        class P:
            def __enter__(self):
                self.t = time.monotonic()
                clock.say("%s: %s ..." % (proj, name))

            def __exit__(self, *exc):
                d = time.monotonic() - self.t
                clock.times.append((proj, name, d))
                clock.say("%s: %s %s, %.0f s" % (proj, name, "failed" if exc[0] else "done", d))
        return P()


def known_reports(prog, a):
    """projects/PROG.reports: reports of the project's own tests that are
    findings (each line: type TAB caller's function or module TAB why)."""
    p = os.path.join(HERE, "projects", prog + ".reports")
    out = set()
    if a.mutant != "reports" and os.path.exists(p):
        for l in open(p):
            if l.strip() and not l.startswith("#"):
                w = l.rstrip("\n").split("\t")
                out.add((w[0], w[1]))
    return out


def unknown_reports(lines, known):
    """The log's lines (pid, breed, type, caller, message) not known: the
    caller "sym+0xoff (module+0xoff)" matches by its function or module."""
    out = []
    for r in lines:
        w = r.split("\t")
        typ, caller = (w[2], w[3]) if len(w) == 5 else ("?", "?")
        sym = caller.split("+")[0].split(" ")[0]
        mod = caller[caller.find("(") + 1:].rstrip(")") if "(" in caller else caller
        prog = os.path.basename(mod.split("+")[0])
        if (typ, sym) not in known and (typ, prog) not in known:
            out.append(r)
    return out


def start_misuse(prog, log):
    """The replay, in the background, with the library's default handler
    (once per type and message: 2^32 gets on a saturated count would log
    2^31 lines)."""
    env = dict(os.environ)
    for v in ("REFCOUNT_REPORT_LOG",):
        env.pop(v, None)
    return subprocess.Popen(B.NICE + [prog, "misuse"], stdout=subprocess.PIPE,
                            stderr=open(log, "w"), universal_newlines=True, env=env)


def end_misuse(proc, log):
    out = proc.communicate()[0].strip()
    err = open(log, errors="replace").read()
    rc = proc.returncode
    reports = [l for l in err.splitlines() if l.startswith("refcount")]
    if rc < 0:
        what = "crash (signal %d%s)" % (-rc, ", assert" if re.search(
            "assertion", err, re.I) else "")
    elif rc:
        what = "exit %d" % rc
    else:
        what = out
    # a crash at the project's own assertion after the library's report: an
    # assertion build's policy on the old value the library saw (dbus's
    # _dbus_assert (old_refcount >= 1)), after the count was saturated
    first = err.find("refcount_t:")
    assertion = re.search("assertion", err, re.I)
    if rc < 0 and reports and assertion and 0 <= first < assertion.start():
        what = "then its own assert aborts"
    return what, reports, re.findall(r"ns per get: ([\d.]+)", err)


def mutate_tests(tree, clock, name):
    """--mutant tests: the converted puts of the first file that has any
    negated (all of them: only one #if branch may be compiled)."""
    for d, dirs, files in os.walk(tree):
        dirs.sort()
        for f in sorted(files):
            if f.endswith((".c", ".h")):
                path = os.path.join(d, f)
                s = open(path, errors="replace").read()
                s, n = re.subn(r"\brefcount(_long)?_dec_and_test\(", r"!\g<0>", s)
                if n:
                    open(path, "w").write(s)
                    clock.say("%s: mutant: %d puts negated in %s" % (name, n, path))
                    return
    raise RuntimeError("mutant: no refcount_*dec_and_test() in the converted tree")


TOOL_RUNS, TOOL_LOCK = {}, threading.Lock()
DISCOVERY_ONLY = "atomic arithmetic as the compiler sees it"  # report.seen_docs()


def start_tool(p, pristine, a, clock):
    """refcount-convert report (JSON) and apply on a copy of the pristine
    source, in the background, once per source (json-c's two builds share
    it).  A row with COMPDB: the tool reads the project as its compiler
    sees it, so the report's copy (conv-base) and apply's (conv-src) are
    each configured as the row is and given the compile database of make's
    dry run (what `make check-convert-corpus` does).  Returns (thread,
    directory of report.json, apply.ok, conv-src, conv-base)."""
    pkg = p["pkg"]
    with TOOL_LOCK:
        if pkg in TOOL_RUNS:
            return TOOL_RUNS[pkg]
        d = os.path.join(a.work, "tool", pkg)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        B.copy_tree(pristine, os.path.join(d, "conv-src"))
        if p.get("compdb"):
            B.copy_tree(pristine, os.path.join(d, "conv-base"))
        t = threading.Thread(target=run_tool, args=(p, pristine, d, a, clock))
        t.start()
        TOOL_RUNS[pkg] = (t, d)
        return t, d


def tool_compdb(p, tree, log):
    """TREE configured as the row configures it (without the library's
    flags, which discovery does not need) and its compile_commands.json,
    made by the tool's own module as the tool would make it (make's dry
    run), at the tree's top so that both copies are read the same way."""
    sys.path.insert(0, os.path.dirname(HERE))
    from refconv import compdb
    B.sh(["./configure"] + p["configure"], cwd=tree, log=log)
    db, note = compdb.make(tree, tree)
    if not db:
        raise RuntimeError("%s: %s" % (tree, note))


def run_tool(p, pristine, d, a, clock):
    pkg = p["pkg"]
    if p.get("compdb"):
        with clock.phase(pkg, "tool: configure, compile database"):
            for t in ("conv-base", "conv-src"):
                tool_compdb(p, os.path.join(d, t), os.path.join(d, "configure.log"))
        pristine = os.path.join(d, "conv-base")

    def report():
        with clock.phase(pkg, "tool: report"):
            with open(os.path.join(d, "report.json.tmp"), "w") as out:
                r = subprocess.run(B.NICE + [TOOL, "report", pristine, "--format=json"],
                                   stdout=out, stderr=open(os.path.join(d, "report.log"), "w"),
                                   cwd=d)  # spatch leaves its rules_* there
        if r.returncode == 0:
            os.rename(os.path.join(d, "report.json.tmp"), os.path.join(d, "report.json"))
    t = threading.Thread(target=report)
    t.start()
    with clock.phase(pkg, "tool: apply"):
        with open(os.path.join(d, "apply.log"), "w") as out:
            r = subprocess.run(B.NICE + [TOOL, "apply", os.path.join(d, "conv-src"),
                                         "--refcount-include", os.path.join(a.lib, "include")],
                               stdout=out, stderr=subprocess.STDOUT, cwd=d)
    if r.returncode == 0:
        open(os.path.join(d, "apply.ok"), "w").close()
    t.join()


def one(name, p, a, clock):
    """The project's row (its misuse replays still running: see finish())."""
    work = os.path.join(a.work, name)
    os.makedirs(work, exist_ok=True)
    row = dict(name=name, project=p["title"], why=[])
    log = lambda f: os.path.join(work, f)
    sysm = B.SYSTEMS[p["system"]]
    with clock.phase(name, "fetch and build-dep"):
        pristine = B.fetch(p["pkg"], p["version"], a.src, log("fetch.log"), p.get("deps"))
    # the tool, beside the baseline: the report of the pristine source and
    # apply on a copy, whose changes go into the built tree afterwards
    tool, td = start_tool(p, pristine, a, clock)
    tree, bdir = log("src"), log("build")
    B.copy_tree(pristine, tree)
    B.remove(bdir)
    os.makedirs(os.path.join(bdir, "home"))
    for f in ("build.log", "conv-build.log"):
        open(log(f), "w").close()
    with clock.phase(name, "configure"):
        sysm.configure(p, tree, bdir, a.lib, log("build.log"))
    with clock.phase(name, "baseline build"):
        sysm.build(bdir, a.jobs, log("build.log"))
    foreign = B.foreign_symbols(os.path.join(bdir, p["lib"]), a.lib)
    if foreign:
        row["why"].append("the baseline defines librefcount's %s" % ", ".join(foreign[:3]))
    with clock.phase(name, "baseline tests"):
        before = sysm.test(p, tree, bdir, None, a.jobs, log("base-test.log"))
    progs = dict(orig=log("api-orig"), conv=log("api-conv"))
    B.program(p, p["prog"], tree, bdir, a.lib, progs["orig"], log("build.log"))
    with clock.phase(name, "waiting for the tool"):
        tool.join()
    t = lambda f: os.path.join(td, f)
    if not os.path.exists(t("report.json")) or not os.path.exists(t("apply.ok")):
        raise RuntimeError("refcount-convert failed, see %s and %s" % (
            t("report.log"), t("apply.log")))
    doc = json.load(open(t("report.json")))
    changed = B.copy_changed(pristine, t("conv-src"), tree,
                             t("conv-base") if p.get("compdb") else None)
    clock.say("%s: %d files converted" % (name, len(changed)))
    if a.mutant == "tests":
        mutate_tests(tree, clock, name)
    edits = os.path.join(HERE, "projects", name + ".edits")
    row["hand edits"] = len(open(edits).read().splitlines()) if os.path.exists(edits) else 0
    conv = {c["field"] for c in doc["candidates"] if c["decision"] == "convert"}
    # the fields the compiler's view alone found (every atomic arithmetic
    # field of a tree with a compile database: statistics, flags, ids), whose
    # lifecycle the tool did not classify: listed, never counted
    seen_only = {c["field"] for c in doc["candidates"]
                 if c["idiom"].startswith(DISCOVERY_ONLY) and c["decision"] != "convert"}
    cands = {c["field"] for c in doc["candidates"]} - seen_only
    expect, also, traps = set(p["expect"]), set(p["also"]), set(p.get("traps", []))
    fp = sorted(cands - expect - also - traps)
    row["counters"] = "found %d/%d, converted %d/%d, %d FP%s%s%s" % (
        len(expect & cands), len(expect), len(expect & conv), len(expect), len(fp),
        " (+%d other real)" % len(cands & also) if cands & also else "",
        ", %d trap%s report-only" % (len(cands & traps - conv), "s" * (
            len(cands & traps - conv) != 1)) if cands & traps - conv else "",
        ", %d seen by discovery only" % len(seen_only - expect - also - traps)
        if seen_only - expect - also - traps else "")
    if not expect <= conv:
        row["why"].append("not converted: " + ", ".join(sorted(expect - conv)))
    if conv & traps:
        row["why"].append("traps converted: " + ", ".join(sorted(conv & traps)))
    if fp:
        row["why"].append("false positives: " + ", ".join(fp))
    with clock.phase(name, "converted build"):
        sysm.rebuild(bdir, a.jobs, log("conv-build.log"))
    rlog = log("test-reports.log")
    if os.path.exists(rlog):
        os.unlink(rlog)
    env = dict(os.environ, REFCOUNT_REPORT_LOG=rlog)
    with clock.phase(name, "converted tests"):
        after = sysm.test(p, tree, bdir, env, a.jobs, log("conv-test.log"))
        lost = sorted(t for t, ok in before.items() if ok and not after.get(t))
        flaky = []
        if lost and len(lost) <= 3:  # once more, alone: a loaded machine's timeout?
            again = sysm.test(p, tree, bdir, env, 1, log("conv-retest.log"), only=lost)
            flaky = [t for t in lost if again.get(t)]
            lost = [t for t in lost if not again.get(t)]
    reports = open(rlog).read().splitlines() if os.path.exists(rlog) else []
    unknown = unknown_reports(reports, known_reports(p["prog"], a))
    npass = lambda r: sum(1 for v in r.values() if v)
    row["tests"] = "%d/%d -> %d/%d%s, %d reports%s" % (
        npass(before), len(before), npass(after) + len(flaky), len(after),
        ", %d passed when rerun alone" % len(flaky) if flaky else "", len(reports),
        " (%s known findings)" % ("all" if len(reports) > 1 else "the")
        if reports and not unknown else " (%d unknown)" % len(unknown) if reports else "")
    if lost:
        row["why"].append("tests regressed: " + ", ".join(lost[:5]))
    if not before:
        row["why"].append("no baseline tests ran")
    for r in unknown:
        clock.say("%s: unknown report: %s" % (name, r))
    if unknown:
        row["why"].append("%d unknown reports" % len(unknown))
    B.program(p, p["prog"], tree, bdir, a.lib, progs["conv"], log("conv-build.log"))
    row["progs"] = progs
    row["replays"] = {k: start_misuse(progs[k], log("misuse-%s.log" % k)) for k in progs}
    clock.say("%s: misuse replays started" % name)
    return row


def finish(row, clock):
    """The misuse replays' results."""
    t = time.monotonic()
    work = os.path.dirname(row["progs"]["orig"])
    res = {k: end_misuse(row["replays"][k], os.path.join(work, "misuse-%s.log" % k))
           for k in ("orig", "conv")}
    del row["replays"]
    (mb, _, nsb), (ma, ra, nsa) = res["orig"], res["conv"]
    kinds = sorted({r.split(":")[1].split(";")[0].strip() for r in ra if ":" in r})
    row["misuse"] = "%s -> report: %s%s" % (mb, ", ".join(kinds) or "none",
                                            ", " + ma if ma else "")
    if nsb or nsa:
        row["ns per get"] = dict(orig=nsb, conv=nsa)
    if not ra or ma.startswith("crash"):
        row["why"].append("misuse: no report or a crash after conversion")
    clock.times.append((row["name"], "misuse replays (after the rest)",
                        time.monotonic() - t))


def lane(names, a, clock, rows):
    for name in names:
        try:
            rows[name] = one(name, PROJECTS[name], a, clock)
        except (RuntimeError, subprocess.CalledProcessError, ValueError, OSError) as e:
            rows[name] = dict(name=name, project=PROJECTS[name]["title"], why=[str(e)])
            clock.say("%s: error: %s" % (name, e))


def costs(rows, a, clock):
    """Every row's cost, under one hold of the machine's benchmark lock."""
    import fcntl
    with open("/tmp/bench.lock", "a") as lk:
        with clock.phase("all", "waiting for /tmp/bench.lock"):
            fcntl.flock(lk, fcntl.LOCK_EX)
        try:
            for r in rows:
                if "progs" in r:
                    with clock.phase(r["name"], "cost rounds"):
                        med, lo, hi, n, o, c = convcost.cost(
                            r["progs"]["orig"], r["progs"]["conv"],
                            PROJECTS[r["name"]]["cost_n"])
                    r["cost"] = "%.3f [%.3f, %.3f] (%d rounds)" % (med, lo, hi, n)
                    r["ns"] = (o, c)
        finally:
            fcntl.flock(lk, fcntl.LOCK_UN)


COLUMNS = ["project", "counters", "hand edits", "tests", "misuse", "cost"]


def table(rows):
    widths = [max(len(c), *(len(str(r.get(c, "-"))) for r in rows)) for c in COLUMNS]
    line = lambda vals: "| " + " | ".join(str(v).ljust(w) for v, w in zip(vals, widths)) + " |"
    print(line(COLUMNS))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print(line([r.get(c, "-") for c in COLUMNS]) + ("" if r["ok"] else "  <- FAILED"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--src", help="where the Debian sources are kept (WORK/src)")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--mutant", choices=("tests", "reports"))
    ap.add_argument("--no-cost", action="store_true")
    a = ap.parse_args()
    a.lib, a.work = os.path.abspath(a.lib), os.path.abspath(a.work)
    a.src = os.path.abspath(a.src or os.path.join(a.work, "src"))
    known = [n for l in LANES for n in l]
    # a name selects its row, or the rows it is the prefix of (json-c: both)
    for n in a.only or ():
        if not any(k == n or k.startswith(n + "-") for k in known):
            ap.error("--only %s: no such row (rows: %s)" % (n, " ".join(known)))
    clock, found = Clock(), {}
    lanes = [[n for n in l if not a.only or any(
        n == o or n.startswith(o + "-") for o in a.only)] for l in LANES]
    threads = [threading.Thread(target=lane, args=(l, a, clock, found)) for l in lanes if l]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    rows = [found[n] for l in lanes for n in l]
    for r in rows:
        if "replays" in r:
            clock.say("%s: waiting for the misuse replays" % r["name"])
            finish(r, clock)
    if not a.no_cost:
        costs(rows, a, clock)
    bad = 0
    for r in rows:
        if r.get("hand edits"):
            r["why"].append("%d hand edits" % r["hand edits"])
        r["ok"] = not r["why"]
        bad += not r["ok"]
        clock.say("%s: %s" % (r["name"], "ok" if r["ok"] else "FAILED: " + "; ".join(r["why"])))
    print()
    table(rows)
    print("cost: converted / original ns per create+get+put+free through the public API, "
          "median of the interleaved rounds' ratios [95%% interval]; CPU: %s, %d CPUs" %
          (cpu(), os.cpu_count()))
    for r in rows:
        if "ns" in r:
            print("  %s: %.1f ns original, %.1f ns converted" % ((r["project"],) + r["ns"]))
        if "ns per get" in r:
            g = r["ns per get"]
            print("  %s misuse, CPU ns per get, first 2^31 / next 2^31: "
                  "original %s, converted %s" % (r["project"], " / ".join(g["orig"]) or "-",
                                                 " / ".join(g["conv"]) or "-"))
    print("\nphases (s):")
    for proj, name, d in clock.times:
        print("  %-10s %-32s %6.0f" % (proj, name, d))
    print("  %-10s %-32s %6.0f" % ("total", "wall", time.monotonic() - clock.t0))
    with open(os.path.join(a.work, "results.json"), "w") as f:
        json.dump(dict(rows=[{k: v for k, v in r.items() if k != "progs"} for r in rows],
                       phases=clock.times), f, indent=1)
    return 1 if bad else 0


def cpu():
    for l in open("/proc/cpuinfo"):
        if l.startswith("model name"):
            return l.split(":", 1)[1].strip()
    return "?"


if __name__ == "__main__":
    sys.exit(main())

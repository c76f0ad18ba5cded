#!/usr/bin/env python3
"""check-convert-corpus: refcount-convert's discovery and classification
scored against the hand-read ground truth of nine Debian projects
(convert/tests/corpus/truth.json, convert/README.md).

For each project: its Debian source at the pinned version (apt-get source
through convert/lab/fetch-src.sh, cached under WORK/src), optionally
configured (--compdb: meson and cmake into build-corpus/, a configure script
in the tree; the tool then reads its compile database, or makes it from
make's dry run: refconv/compdb.py), then `refcount-convert report
--format=json` under a time limit, scored:

  found     true counts with a candidate keyed to their Struct.field
            (struct tag or typedef name)
  time, cpu the report's wall time, and the CPU time of it and its workers
            (the machine may be shared: CPU / 2 is the time on two idle
            cores; neither is a pass/fail target, timing is not a test)
  traps     candidates marked convert that are not true counts
  unsafe    true counts marked convert although a plain refcount_t would
            break them (sentinel, revival from 0, bitfield: convert_safe)
  wrong     (candidate, site) pairs whose site is a use of another
            struct's same-named field (the truth's foreign_sites; a site
            whose owner the truth names is wrong only on other candidates)
  skipped   files the tool skipped (failed or timed out) and said so

A project that cannot be fetched, configured or reported is a row saying
so, never a crash of the harness.  Tuned and held-out totals are printed
apart.  Exit status 1 when any target is missed (found >= 95%, 0 traps,
0 unsafe, 0 wrong, 0 failed rows), with the reasons on the last line.

  corpus.py --work DIR [--set tuned|held-out|all] [--only NAME...]
            [--compdb] [--timeout S] [--mutant convert-all] [--reuse]
--mutant convert-all: every candidate's decision becomes convert (the
classifier that converts whatever it finds); the traps must fail it."""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

import convbuild

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from refconv import compdb as compdb_mod  # noqa: E402 - the tool's own

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
TOOL = os.path.join(TOP, "convert", "refcount-convert")
TRUTH = os.path.join(TOP, "convert", "tests", "corpus", "truth.json")
RECALL_TARGET = 0.95


def log(msg):
    sys.stderr.write("corpus: %s\n" % msg)
    sys.stderr.flush()


def fetch(p, srcdir):
    d = os.path.join(srcdir, p["dir"])
    if os.path.isdir(d):
        return d, None
    os.makedirs(srcdir, exist_ok=True)
    r = subprocess.run(["flock", "/tmp/apt.lock", os.path.join(HERE, "fetch-src.sh"),
                        p["package"], p["version"], d], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    if r.returncode != 0 or not os.path.isdir(d):
        return None, "fetch failed: " + (r.stdout.strip().splitlines() or ["?"])[-1]
    return d, None


def build_dep(p):
    """The project's Debian build dependencies (what its configure checks)."""
    sudo = [] if os.getuid() == 0 else ["sudo"]
    r = subprocess.run(["flock", "/tmp/apt.lock"] + sudo + [
        "env", "DEBIAN_FRONTEND=noninteractive", "apt-get"] + convbuild.APT_WAIT + [
        "build-dep", "-y", "-qq",
        p["package"]], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        universal_newlines=True)
    return r.returncode == 0


def compdb(p, d, timeout, retry=True):
    """compile_commands.json, with the build dependencies installed when the
    first configure fails."""
    db, note = _compdb(p, d, timeout)
    if db is None and retry and note.startswith("configure failed") and build_dep(p):
        db, note = _compdb(p, d, timeout)
    return db, note


def _compdb(p, d, timeout):
    """The tree configured the way its build is, so that the tool reads it
    as the compiler does: meson and cmake into build-corpus/ (their
    compile_commands.json), autotools and the other configure scripts in
    the tree, whose compile database the tool makes itself from make's
    dry run (refconv/compdb.py).  Returns (path or None, note)."""
    b = os.path.join(d, "build-corpus")
    system = p["build"].split()[0]
    if p.get("make"):
        out = os.path.join(d, "compile_commands.json")
        if os.path.exists(out):
            return out, "cached"
        return _make_recipe(p["make"], d, b, out, timeout)
    db = os.path.join(b, "compile_commands.json")
    if system in ("meson", "cmake") and os.path.exists(db):
        return db, "configured already"
    if system not in ("meson", "cmake") and any(
            os.path.exists(os.path.join(d, c)) for c in compdb_mod.CONFIGURED):
        return None, "configured already (the tool makes its compile database)"
    try:
        if system == "meson":
            shutil.rmtree(b, ignore_errors=True)  # a failed configure's leftovers
            cmd, cwd = ["meson", "setup"] + p.get("configure", []) + [b, d], d
        elif system == "cmake":
            cmd, cwd = ["cmake", "-S", d, "-B", b, "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"] + \
                p.get("configure", []), d
        elif os.path.exists(os.path.join(d, "configure")):
            cmd, cwd = ["./configure"] + p.get("configure", []), d
        else:
            return None, "nothing to configure (the tool makes its compile database)"
        r = subprocess.run(cmd, cwd=cwd, timeout=timeout, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, "configure failed: %s" % e
    if r.returncode != 0:
        return None, "configure failed: " + r.stdout.strip()[-200:]
    if system in ("meson", "cmake"):
        return (db, system) if os.path.exists(db) else (None, "configure failed: no %s" % db)
    return None, "configured (the tool makes its compile database)"


def _make_recipe(m, d, b, out, timeout):
    """A project built by its own make with no configure step (NSS's
    coreconf), the way its Debian package drives it: M's "real" make runs
    first (the build's header export, which the compile lines' -I name),
    then the "dry" one, read like any dry run (compdb.dry_run) into OUT:
    the tool cannot know these targets and flags.  {build} in the flags is
    the build directory, outside the scanned tree."""
    os.makedirs(b, exist_ok=True)
    flags = [f.replace("{build}", b) for f in m.get("flags", [])]
    for args in m.get("real", []):
        r = subprocess.run(["make"] + args + flags, cwd=d, timeout=timeout,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        if r.returncode != 0:
            return None, "configure failed: make %s: %s" % (
                " ".join(args), r.stdout.strip()[-200:])
    return compdb_mod.dry_run(d, m["dry"] + flags, os.path.dirname(out), timeout,
                              "the project's make: %s, then its dry run" % ", ".join(
                                  " ".join(a) for a in m.get("real", [])))


def report(d, timeout):
    """The tool's JSON report on tree D: (doc or None, error, seconds, cpu
    seconds).  The report runs in its own process group: on a timeout the
    whole group (its workers, its spatch runs) is killed, nothing is left
    running.  CPU: user + system of the report and every process it
    waited for (on a shared machine, wall time is an upper bound and CPU
    / 2 the time on two idle cores)."""
    import resource
    import signal

    def cpu():
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime
    t0, c0 = time.time(), cpu()
    pr = subprocess.Popen([sys.executable, TOOL, "report", "--format=json", d],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, errors="surrogateescape",
                          start_new_session=True)
    try:
        out, err = pr.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(pr.pid, signal.SIGKILL)
        pr.communicate()
        return None, "report timed out after %d s" % timeout, time.time() - t0, cpu() - c0
    dt, dc = time.time() - t0, cpu() - c0
    if pr.returncode != 0:
        tail = (err.strip().splitlines() or ["?"])[-1]
        return None, "report exit %d: %s" % (pr.returncode, tail[:200]), dt, dc
    try:
        return json.loads(out), None, dt, dc
    except ValueError as e:
        return None, "report is not JSON: %s" % e, dt, dc


TYPEDEF_RE = re.compile(r"typedef\s+struct\s+(\w+)\s+(\w+)\s*;")
TYPEDEF_BODY_RE = re.compile(r"typedef\s+struct\s+(\w+)\s*\{")


def aliases(d):
    """Struct tag <-> typedef name pairs of tree D, both ways."""
    out = {}
    for top, dirs, files in os.walk(d):
        dirs[:] = [x for x in dirs if x not in (".git", ".pc", "build-corpus")]
        for f in files:
            if not f.endswith((".h", ".c")):
                continue
            try:
                text = open(os.path.join(top, f), errors="replace").read()
            except OSError:
                continue
            pairs = TYPEDEF_RE.findall(text)
            for m in TYPEDEF_BODY_RE.finditer(text):
                depth, i = 0, m.end() - 1
                for j in range(i, min(len(text), i + 200000)):
                    depth += text[j] == "{"
                    depth -= text[j] == "}"
                    if depth == 0:
                        t = re.match(r"\s*(\w+)\s*;", text[j + 1:j + 200])
                        if t:
                            pairs.append((m.group(1), t.group(1)))
                        break
            for tag, name in pairs:
                out.setdefault(tag, set()).add(name)
                out.setdefault(name, set()).add(tag)
    return out


def names(field, al):
    st, f = field.rsplit(".", 1)
    return {st + "." + f} | {a + "." + f for a in al.get(st, ())}


def score(p, doc, al, mutant=None):
    cands = doc.get("candidates", [])
    if mutant == "convert-all":
        for c in cands:
            c["decision"] = "convert"
    by_name = {}
    for c in cands:
        by_name.setdefault(c["field"], []).append(c)
    shared = {}
    for t in p["counts"]:
        shared[t["field"]] = shared.get(t["field"], 0) + 1
    found, missed, true_cands, unsafe = 0, [], set(), []
    for t in p["counts"]:
        hits = [c for n in names(t["field"], al) for c in by_name.get(n, [])]
        if shared[t["field"]] > 1:
            # one name in several files: the declaration decides (the truth's
            # paths are the project's own, the tree may hold it one level down)
            hits = [c for c in hits if ("/" + c["where"].split(":")[0]).endswith(
                "/" + t["declared"].split(":")[0])]
        if hits:
            found += 1
            true_cands.update(id(c) for c in hits)
            if not t.get("convert_safe", True) and any(
                    c["decision"] == "convert" for c in hits):
                unsafe.append(t["field"])
        else:
            missed.append(t["field"])
    traps = sorted({c["field"] for c in cands
                    if c["decision"] == "convert" and id(c) not in true_cands})
    foreign = set(p.get("foreign_sites", []))
    owner = p.get("foreign_owners", {})
    wrong = []
    for c in cands:
        sites = [o["at"] for o in c.get("operations", [])] + list(c.get("reads", []))
        wrong += [(c["field"], s) for s in sites if s in foreign and
                  owner.get(s) not in names(c["field"], al)]
    kinds = {}
    for c in cands:
        kinds[c.get("kind", "-")] = kinds.get(c.get("kind", "-"), 0) + 1
    return dict(found=found, true=len(p["counts"]), missed=missed, traps=traps,
                unsafe=unsafe, wrong=wrong, skipped=doc.get("skipped", []),
                candidates=len(cands), kinds=kinds, discovery=doc.get("discovery"))


def row(name, held, s, dt, dc, err):
    if err:
        return "%-11s %-8s %s (%.1f s)" % (name, "held-out" if held else "tuned", err, dt)
    return "%-11s %-8s %3d/%-3d %5d %6d %5d %7d %6.1f s %6.1f s  %s" % (
        name, "held-out" if held else "tuned", s["found"], s["true"], len(s["traps"]),
        len(s["unsafe"]), len(s["wrong"]), len(s["skipped"]), dt, dc,
        s["discovery"] or "")


def main(argv):
    ap = argparse.ArgumentParser(prog="corpus.py")
    ap.add_argument("--work", required=True)
    ap.add_argument("--set", choices=("tuned", "held-out", "all"), default="all")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--compdb", action="store_true")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--mutant", choices=("convert-all",))
    ap.add_argument("--json", help="write the scores here")
    ap.add_argument("--reuse", action="store_true",
                    help="score the reports saved by an earlier run (WORK/reports)")
    a = ap.parse_args(argv)
    truth = json.load(open(TRUTH))
    for n in a.only or ():
        if n not in [p["project"] for p in truth["projects"]]:
            ap.error("--only %s: not a corpus project (%s)" % (
                n, " ".join(p["project"] for p in truth["projects"])))
    projects = [p for p in truth["projects"]
                if (a.set == "all" or p["held_out"] == (a.set == "held-out"))
                and (not a.only or p["project"] in a.only)]
    srcdir = os.path.join(a.work, "src")
    rows, scores, totals = [], {}, {}
    for p in projects:
        name = p["project"]
        log("%s: fetch" % name)
        d, err = fetch(p, srcdir)
        s, dt, dc = None, 0.0, 0.0
        if d and a.compdb:
            db, note = compdb(p, d, a.timeout)
            log("%s: compile database: %s" % (name, note))
        saved = os.path.join(a.work, "reports", name + ".json")
        if d and a.reuse and os.path.exists(saved):
            log("%s: the saved report %s" % (name, saved))
            doc = json.load(open(saved))
            err, dt, dc = None, doc.get("seconds", 0.0), doc.get("cpu", 0.0)
        elif d:
            log("%s: report" % name)
            doc, err, dt, dc = report(d, a.timeout)
            if doc is not None:
                os.makedirs(os.path.dirname(saved), exist_ok=True)
                with open(saved, "w") as f:
                    json.dump(dict(doc, seconds=round(dt, 1), cpu=round(dc, 1)), f)
        if d:
            if doc is not None:
                s = score(p, doc, aliases(d), a.mutant)
        scores[name] = dict(held_out=p["held_out"], error=err, seconds=round(dt, 1),
                            cpu=round(dc, 1), **(s or {}))
        rows.append(row(name, p["held_out"], s, dt, dc, err))
        log(rows[-1])
        t = totals.setdefault("held-out" if p["held_out"] else "tuned", dict(
            found=0, true=0, traps=0, unsafe=0, wrong=0, skipped=0, failed=0, seconds=0.0))
        t["true"] += len(p["counts"])
        t["seconds"] += dt
        if s:
            for k in ("traps", "unsafe", "wrong", "skipped"):
                t[k] += len(s[k])
            t["found"] += s["found"]
        else:
            t["failed"] += 1
    print("%-11s %-8s %-7s %5s %6s %5s %7s %8s %8s  %s" % (
        "project", "set", "found", "traps", "unsafe", "wrong", "skipped", "time",
        "cpu", "discovery"))
    for r in rows:
        print(r)
    for name, s in scores.items():
        for k, what in (("missed", "missed"), ("traps", "traps marked convert"),
                        ("unsafe", "unsafe convert"), ("skipped", "skipped")):
            if s.get(k):
                v = s[k] if k != "skipped" else ["%s (%s)" % (x.get("file"), x.get(
                    "why")) if isinstance(x, dict) else x for x in s[k]]
                print("  %s %s: %s" % (name, what, ", ".join(v)))
        if s.get("wrong"):
            print("  %s wrong attributions: %s" % (name, ", ".join(
                "%s@%s" % w for w in s["wrong"])))
    fails = []
    for which, t in sorted(totals.items()):
        rec = t["found"] / t["true"] if t["true"] else 1.0
        print("%-8s total: found %d/%d (%.0f%%), traps marked convert %d, unsafe %d, "
              "wrong attributions %d, skipped files %d, failed rows %d, %.0f s" % (
                  which, t["found"], t["true"], 100 * rec, t["traps"], t["unsafe"],
                  t["wrong"], t["skipped"], t["failed"], t["seconds"]))
        if rec < RECALL_TARGET:
            fails.append("%s recall %.0f%% < %.0f%%" % (which, 100 * rec, 100 * RECALL_TARGET))
        for k, what in (("traps", "traps marked convert"), ("unsafe", "unsafe convert"),
                        ("wrong", "wrong attributions"), ("failed", "failed rows")):
            if t[k]:
                fails.append("%s %s %d" % (which, what, t[k]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(dict(scores=scores, totals=totals, fails=fails), f, indent=1)
    if fails:
        print("check-convert-corpus: FAILED: " + "; ".join(fails))
        return 1
    print("check-convert-corpus: every target met")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

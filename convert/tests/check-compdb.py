#!/usr/bin/env python3
"""check-convert-compdb: refcount-convert makes the compile database of a
tree that has none, the way its build would (convert/refconv/compdb.py),
on convert/tests/compdb/ and the sources of convert/tests/compiler/attrib/
(whose verdicts differ with and without the compiler's view: with it,
gobj.ref_count is refused for read.c:16's escape and source.ref_count
converted; without it, both are refused for a use that could not be
attributed):

- autotools/: a configured tree, built, whose Makefile is older than its
  Makefile.in, with a recursive make into lib/ (flags of its own, in
  automake's silent-rule form) and a recipe line continued on the next:
  make's dry run gives every unit, runs nothing (config.status,
  configure) and leaves the tree as it was;
- unconfigured/: a configure script and a Makefile that runs it to make
  what it includes: never run, the tool says the tree is not configured
  and reads the spelled source;
- meson/ (set up into _out/, its compile_commands.json there, then
  removed: `ninja -t compdb`), cmake/ (Unix Makefiles with a cache entry
  the units need: cmake again into a scratch directory; Ninja: `ninja -t
  compdb`): found under any name;
- generated/, read through make's dry run and through meson: table.c,
  which the build generates from pool-table.tmpl (make's rule, ninja's
  custom target) and has not yet, and enums.c, whose generated enums.h
  is missing: both named in `skipped`; pool.users, which the template
  reads through a macro, refused; conn.refs converted by `apply`.

--mutant NAME makes it fail: no-dry-run (no database from make),
no-what-if (only the units of a tree not yet built), remake (makefiles
remade by the dry run), no-continued (a recipe's continued line read
alone), no-separators (`echo ...;gcc` one word), configured-anyway (a tree with a configure script
taken as configured), no-build-dirs (meson and CMake build directories
not looked for), no-cache-entries (the scratch cmake without the build
directory's cache), skip-all (a skipped file refuses every count),
no-macros (a skipped file's macros not followed), no-inputs (the inputs
the build records for a source not generated yet not read), not-named (a unit whose include is
missing not named)."""

import contextlib
import io
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from refconv import cli, clangscan, compdb, model, scan, skipped  # noqa: E402

MUTANTS = ("no-dry-run", "no-what-if", "remake", "no-continued", "no-separators", "configured-anyway", "no-build-dirs",
           "no-cache-entries", "skip-all", "no-macros", "no-inputs", "not-named")
ATTRIB = os.path.join(HERE, "compiler", "attrib")
WITH = {"gobj.ref_count": ("report-only", "read.c:16: address taken"),
        "source.ref_count": ("convert", "")}
WITHOUT = {"gobj.ref_count": ("report-only", "read.c:16: a use that could not be"),
           "source.ref_count": ("report-only", "read.c:16: a use that could not be")}


def mutate(mutant):
    if mutant == "no-dry-run":
        compdb.dry_run = lambda *a, **k: (None, "the no-dry-run mutant")
    elif mutant == "no-what-if":
        compdb.what_if = lambda root: []
    elif mutant == "remake":
        run = compdb._run

        def remaking(cmd, cwd, *a, **k):
            out = []
            for w in cmd:
                if out and out[-1] == "-o" and w in compdb.MAKEFILES:
                    out.pop()
                elif not w.startswith("MAKE="):
                    out.append(w)
            return run(out, cwd, *a, **k)
        compdb._run = remaking
    elif mutant == "no-continued":
        compdb.recipe_lines = lambda text: text.splitlines()
    elif mutant == "no-separators":
        compdb.shell_words = lambda line: line.split()
    elif mutant == "configured-anyway":
        compdb.CONFIGURED = ("configure",)
    elif mutant == "no-build-dirs":
        compdb.build_dirs = lambda root, depth=2: []
    elif mutant == "no-cache-entries":
        compdb._cache_entries = lambda cache: []
    elif mutant == "skip-all":
        skipped.users = lambda text, fields, defs: set(fields)
    elif mutant == "no-macros":
        users = skipped.users
        skipped.users = lambda text, fields, defs: users(text, fields, [])
    elif mutant == "no-inputs":
        skipped._make_inputs = skipped._ninja_inputs = lambda root, f: []
    elif mutant == "not-named":
        clangscan._fatal = lambda tu: []


def attrib_tree(work, fixture):
    """The attrib sources laid out as the build fixtures expect: the
    headers and read.c at the top, obj.c and src.c in lib/."""
    shutil.copytree(os.path.join(HERE, "compdb", fixture), work, symlinks=True)
    os.makedirs(os.path.join(work, "lib"), exist_ok=True)
    for f in ("obj.h", "src.h", "read.c"):
        shutil.copy(os.path.join(ATTRIB, f), work)
    for f in ("obj.c", "src.c"):
        shutil.copy(os.path.join(ATTRIB, f), os.path.join(work, "lib"))


def run(work, cmd):
    r = subprocess.run(cmd, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if r.returncode:
        raise RuntimeError("%s: %s" % (" ".join(cmd), r.stdout[-400:]))


def report(work):
    """The report doc of WORK and what the tool said on standard error."""
    del scan.SKIPPED[:]
    scan.SOLO.clear()
    compdb.forget()
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        m = model.build(work)
    return m, cli.report_doc(m), err.getvalue()


def verdicts(name, doc, err, want):
    got = {c["field"]: (c["decision"], c["reason"]) for c in doc["candidates"]}
    print("check-convert-compdb: %s: %s" % (name, doc["discovery"]))
    bad = []
    for field, (dec, why) in sorted(want.items()):
        d, r = got.get(field, ("missing", ""))
        if d != dec or why not in r:
            bad.append("%s: %s %s: %s, not %s (%s); the tool said: %s" % (
                name, field, d, r, dec, why, err.strip()))
    return bad


def tree_state(work):
    return {os.path.join(d, f): os.stat(os.path.join(d, f)).st_mtime_ns
            for d, _, files in os.walk(work) for f in files}


def autotools(work):
    attrib_tree(work, "autotools")
    for d in (work, os.path.join(work, "lib")):
        shutil.copy(os.path.join(d, "Makefile.in"), os.path.join(d, "Makefile"))
    run(work, ["make", "-s"])  # built: every object up to date
    later = time.time() + 60  # and the makefiles older than their Makefile.in
    for d in (work, os.path.join(work, "lib")):
        os.utime(os.path.join(d, "Makefile.in"), (later, later))
    before = tree_state(work)
    _m, doc, err = report(work)
    bad = verdicts("autotools", doc, err, WITH)
    import json
    db = compdb.locate(work)[0]
    units = sorted(os.path.relpath(os.path.join(e["directory"], e["file"]), work)
                   for e in json.load(open(db))) if db else []
    if units != ["lib/obj.c", "lib/src.c", "read.c"]:
        bad.append("autotools: the dry run's units %s, not lib/obj.c, lib/src.c, read.c"
                   % units)
    if "make's dry run" not in err:
        bad.append("autotools: the dry run not said on standard error: %s" % err)
    after = tree_state(work)
    if after != before:
        bad.append("autotools: the tree changed: %s" % ", ".join(sorted(
            os.path.relpath(f, work) for f in set(before) ^ set(after) | {
                f for f in before if after.get(f, 0) != before[f]})))
    return bad


def unconfigured(work):
    attrib_tree(work, "unconfigured")
    _m, doc, err = report(work)
    bad = verdicts("unconfigured", doc, err, WITHOUT)
    if os.path.exists(os.path.join(work, "configure-ran")):
        bad.append("unconfigured: ./configure was run")
    if "not configured" not in err or "spelled source" not in err:
        bad.append("unconfigured: not said why on standard error: %s" % err)
    return bad


def meson(work):
    attrib_tree(work, "meson")
    run(work, ["meson", "setup", "_out"])
    _m, doc, err = report(work)
    bad = verdicts("meson", doc, err, WITH)
    os.unlink(os.path.join(work, "_out", "compile_commands.json"))
    _m, doc, err = report(work)
    bad += verdicts("meson, ninja -t compdb", doc, err, WITH)
    if "ninja -t compdb" not in err:
        bad.append("meson: `ninja -t compdb` not said: %s" % err)
    return bad


def cmake(work):
    bad = []
    for gen, how in (("Unix Makefiles", "scratch"), ("Ninja", "ninja -t compdb")):
        w = work + "-" + gen.split()[0].lower()
        attrib_tree(w, "cmake")
        run(w, ["cmake", "-S", ".", "-B", "_cm", "-G", gen, "-DATTRIB_INCLUDE=" + w])
        _m, doc, err = report(w)
        bad += verdicts("cmake, " + gen, doc, err, WITH)
        if how not in err:
            bad.append("cmake, %s: %s not said: %s" % (gen, how, err))
    return bad


def generated(work):
    bad = []
    for system in ("make", "meson"):
        w = work + "-" + system
        shutil.copytree(os.path.join(HERE, "compdb", "generated"), w)
        table = "table.c"
        if system == "meson":
            run(w, ["meson", "setup", "_out"])
            table = "_out/table.c"
        bad += generated_tree(w, system, table)
    return bad


def generated_tree(work, system, table):
    """One build of generated/: TABLE not there, enums.c not read whole."""
    name = "generated, " + system
    m, doc, err = report(work)
    bad = verdicts(name, doc, err, {
        "pool.users": ("report-only", "%s was skipped (not there: the build generates "
                       "it and has not yet): it is generated from pool-table.tmpl," % table),
        "conn.refs": ("convert", "")})
    sk = {s["file"]: s["why"] for s in doc["skipped"]}
    print("check-convert-compdb: %s: skipped %s" % (name, sk))
    if "'enums.h' file not found" not in sk.get("enums.c", ""):
        bad.append("%s: enums.c (its enums.h not generated) not named: %s" % (name, sk))
    if table not in sk:
        bad.append("%s: %s (not generated) not named: %s" % (name, table, sk))
    from refconv import rewrite
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = rewrite.apply(m, os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                           "include"))
    conn, pool = (open(os.path.join(work, f)).read() for f in ("conn.h", "pool.h"))
    if rc or "refcount_t refs;" not in conn or "int users;" not in pool:
        bad.append("%s: apply (exit %d) did not convert conn.refs alone: %s" % (
            name, rc, out.getvalue().strip().splitlines()[-1:]))
    return bad


def main(argv):
    work = os.path.abspath(argv[0])
    mutant = argv[2] if len(argv) > 2 and argv[1] == "--mutant" else None
    if mutant and mutant not in MUTANTS:
        sys.exit("check-compdb.py: --mutant %s: not one of %s" % (mutant, " ".join(MUTANTS)))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    os.environ["REFCONV_CACHE"] = os.path.join(work, "cache")
    if mutant:
        mutate(mutant)
    bad = []
    for case in (autotools, unconfigured, meson, cmake, generated):
        bad += case(os.path.join(work, case.__name__))
    for b in bad:
        print("check-convert-compdb: FAIL: " + b)
    if bad:
        return 1
    print("check-convert-compdb: every build read as its build would give it")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""check-convert-classes: refcount-convert on convert/tests/classes/, one
project per class of wrong conversion (its README.md), each built against
librefcount after `apply` and its tests run with REFCOUNT_REPORT_LOG.

  check-classes.py WORK [--mutant NAME] [--lib LIBREFCOUNT.A]

First the fixture itself: the unconverted tree's tests must pass, and so
must the hand-converted files under classes/converted/ (right conversions
of one disguise of classes 6, 7 and 8, built against the library).  Then,
for each class, a copy with its disguises only: compile database, report
(JSON) and apply in-process, build, test.  It asserts safety: every test
passes, the log is empty, no trap is marked convert or converted, nothing
truth.json calls convert_safe=false is converted, and no candidate that is
not a count is marked convert.  It prints, and does not assert, how many
convert_safe counts were converted, per class.

--mutant NAME must make it fail, in the fixture's tests:
  convert-all      every candidate and family converted (decision forced)
  creation-as-inc  a creation rewritten as an increment
  inc-as-set       an increment rewritten as refcount_set(..., 1)
  new-as-old       a kept new value rewritten with the old-value formula
The three rewrite mutants change the tool's output names (registry.
lib_names), and make the same mistake in the hand-converted file of their
class, so that they act even where the tool converts nothing."""

import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
FIX = os.path.join(HERE, "classes")
sys.path.insert(0, os.path.dirname(HERE))
from refconv import cli, model, registry, rewrite  # noqa: E402

COMMON = ("Makefile", "tools/compdb.py", "src/track.c", "src/track.h", "tests/check.h")
# mutant: (library name it changes, what it becomes; the hand-converted
# file, its right text, the mistake)
REWRITES = {
    "creation-as-inc": ("create", "_inc(%s)", "c6-calloc.c",
                        "refcount_set(&q->ref_count, 1);", "refcount_inc(&q->ref_count);"),
    "inc-as-set": ("inc", "_set(%s, 1)", "c7-public.c",
                   "refcount_inc(&c->refcount);", "refcount_set(&c->refcount, 1);"),
    "new-as-old": (None, None, "c8-sync.c", "refs = old - 1;", "refs = old;"),
}
MUTANTS = ("convert-all",) + tuple(REWRITES)


def sh(cmd, cwd, env=None):
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    return p.returncode, p.stdout


def assemble(dest, cls):
    """A copy of the fixture with class CLS's disguises only (all if None)."""
    shutil.rmtree(dest, ignore_errors=True)
    if cls is None:
        shutil.copytree(FIX, dest, ignore=shutil.ignore_patterns("converted"))
        return dest
    for f in COMMON:
        os.makedirs(os.path.dirname(os.path.join(dest, f)), exist_ok=True)
        shutil.copy(os.path.join(FIX, f), os.path.join(dest, f))
    for d, pat in (("src", r"%s[-.]"), ("tests", r"test-%s-")):
        for f in sorted(os.listdir(os.path.join(FIX, d))):
            if re.match(pat % cls, f):
                shutil.copy(os.path.join(FIX, d, f), os.path.join(dest, d, f))
    return dest


def build_and_test(tree, lib, log):
    """Build TREE against librefcount and run its tests with LOG; a list of
    what failed."""
    flags = ["CPPFLAGS=-I" + os.path.join(TOP, "include"), "LDLIBS=" + lib]
    if os.path.exists(log):
        os.unlink(log)
    rc, out = sh(["make", "-s", "all"] + flags, tree)
    if rc:
        return ["does not build: " + " | ".join(out.strip().splitlines()[-4:])]
    env = dict(os.environ, REFCOUNT_REPORT_LOG=log)
    rc, out = sh(["make", "-s", "check"] + flags, tree, env)
    bad = ["%s fails (%s)" % (ln.split()[1], " | ".join(
        x for x in out.splitlines() if "check failed" in x or "track:" in x or
        "never destroyed" in x)[:300]) for ln in out.splitlines() if ln.startswith("FAIL:")]
    if rc and not bad:
        bad.append("make check: exit %d" % rc)
    if os.path.exists(log) and os.path.getsize(log):
        lines = open(log).read().splitlines()
        bad.append("%d library reports logged: %s" % (len(lines), "; ".join(
            sorted({"\t".join(x.split("\t")[2:4]) for x in lines}))[:300]))
    return bad


def mutate_tool(mutant):
    if mutant in REWRITES and REWRITES[mutant][0]:
        what, fmt = REWRITES[mutant][:2]
        names = registry.lib_names

        def wrong(prefix, macro):
            d = names(prefix, macro)
            d[what] = prefix + fmt
            if what == "create":
                d["create_old"] = "(" + prefix + "_inc(%s), 0)"
            return d
        registry.lib_names = wrong


def force_all(m):
    """convert-all: every candidate and every family converted."""
    for fm in m["fields"].values():
        fm["decision"], fm["reasons"] = "convert", []
        if not fm.get("width"):
            fm["width"] = registry.WIDTHS["int"]
    for fam in m.get("families", {}).values():
        fam.refused = []


def matches(row, c):
    return c["field"] in [row["field"]] + row.get("aliases", []) or \
        c["where"] == row["declared"]


def convert_class(tree, proj, lib, log, mutant):
    """Report and apply on TREE; build and test it.  (failures, converted
    convert_safe counts, convert_safe counts, what the tool did)."""
    rc, out = sh(["make", "-s", "compdb"], tree)
    if rc:
        return ["make compdb: " + out], 0, 0, ""
    before = {r["declared"]: open(os.path.join(tree, r["declared"].split(":")[0])).read()
              for r in proj["counts"] + proj["traps"]}
    m = model.build(tree)
    if mutant == "convert-all":
        force_all(m)
    doc = cli.report_doc(m)
    said = io.StringIO()
    try:
        with contextlib.redirect_stdout(said):
            rewrite.apply(m, os.path.join(TOP, "include"))
    except Exception as e:  # a crash of apply is a failure, not a traceback
        return ["apply raised %s: %s" % (type(e).__name__, e)], 0, 0, said.getvalue()
    bad = build_and_test(tree, lib, log)

    def converted(row):
        f, line = row["declared"].split(":")
        old = before[row["declared"]].split("\n")[int(line) - 1]
        new = open(os.path.join(tree, f)).read().split("\n")
        moved = len(new) < int(line) or new[int(line) - 1] != old
        return moved or any(c["decision"] == "convert" and matches(row, c)
                            for c in doc["candidates"])
    for t in proj["traps"]:
        if converted(t):
            bad.append("trap %s (%s) converted" % (t["field"], t["disguise"]))
    for c in proj["counts"]:
        if not c["convert_safe"] and converted(c):
            bad.append("%s (%s, convert_safe false) converted" % (c["field"], c["disguise"]))
    for c in doc["candidates"]:
        if c["decision"] == "convert" and not any(matches(r, c) for r in proj["counts"]):
            bad.append("%s (%s) marked convert, and it is no count" % (c["field"], c["where"]))
    safe = [c for c in proj["counts"] if c["convert_safe"]]
    done = [c["field"] for c in safe if converted(c)]
    return bad, len(done), len(safe), ", ".join(done)


def oracles(work, lib, mutant):
    """The hand-converted files, each in its class's tree: they must pass
    (a right conversion passes the tests); a rewrite mutant makes its
    mistake in its class's file."""
    bad = []
    for name in sorted(os.listdir(os.path.join(FIX, "converted"))):
        cls = name.split("-")[0]
        tree = assemble(os.path.join(work, "converted-" + cls), cls)
        text = open(os.path.join(FIX, "converted", name)).read()
        if mutant in REWRITES and REWRITES[mutant][2] == name:
            right, wrong = REWRITES[mutant][3:]
            if right not in text:
                return ["the %s mutant did not apply to converted/%s" % (mutant, name)]
            text = text.replace(right, wrong)
        with open(os.path.join(tree, "src", name), "w") as f:
            f.write(text)
        bad += ["converted/%s: %s" % (name, x) for x in
                build_and_test(tree, lib, os.path.join(work, "converted-%s.log" % cls))]
    return bad


def main(work, mutant, lib):
    work = os.path.abspath(work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    truth = json.load(open(os.path.join(FIX, "truth.json")))
    plain = assemble(os.path.join(work, "unconverted"), None)
    rc, out = sh(["make", "-s", "check", "CFLAGS=-O2 -Wall -Wextra -Werror"], plain)
    if rc:
        print(out)
        print("check-convert-classes: FAILED: the unconverted fixture's tests fail")
        return 1
    mutate_tool(mutant)
    bad = oracles(work, lib, mutant)
    total = [0, 0]
    for proj in truth["projects"]:
        cls = proj["project"]
        tree = assemble(os.path.join(work, cls), cls)
        fails, n, of, names = convert_class(tree, proj, lib,
                                            os.path.join(work, cls + ".log"), mutant)
        total[0] += n
        total[1] += of
        print("check-convert-classes: %-3s %-70s %d/%d convert_safe counts converted%s%s" % (
            cls, proj["shape"][:70], n, of, " (%s)" % names if names else "",
            "; UNSAFE: " + "; ".join(fails) if fails else ""))
        bad += ["%s: %s" % (cls, x) for x in fails]
    print("check-convert-classes: %d/%d convert_safe counts converted (not asserted)" %
          tuple(total))
    if bad:
        print("check-convert-classes: FAILED%s:\n  %s" % (
            " (mutant %s)" % mutant if mutant else "", "\n  ".join(bad)))
        return 1
    print("check-convert-classes: the unconverted tree and the hand-converted files pass; "
          "every class converted safely")
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    opt = lambda o, d: args[args.index(o) + 1] if o in args else d
    m = opt("--mutant", None)
    if m is not None and m not in MUTANTS:
        sys.exit("check-classes.py: --mutant %s" % "|".join(MUTANTS))
    if not args or args[0].startswith("--"):
        sys.exit("usage: check-classes.py WORK [--mutant NAME] [--lib LIBREFCOUNT.A]")
    lib = opt("--lib", os.path.join(TOP, "build", "librefcount.a"))
    if not os.path.isfile(lib):
        sys.exit("check-classes.py: %s: no such library (make lib)" % lib)
    sys.exit(main(args[0], m, lib))

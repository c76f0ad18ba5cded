#!/usr/bin/env python3
"""check-convert-classes: refcount-convert on convert/tests/classes/, one
project per class of wrong conversion (its README.md), each built against
librefcount after `apply` and its tests run with REFCOUNT_REPORT_LOG.

  check-classes.py WORK [--mutant NAME | --mutants] [--lib LIBREFCOUNT.A]

First the fixture itself: the unconverted tree's tests must pass, and so
must the hand-converted files under classes/converted/ (right conversions
of one disguise of classes 6, 7 and 8, built against the library).  Then,
for each class, a copy with its disguises only: compile database, report
(JSON) and apply in-process, build, test.  It asserts safety: every test
passes, the log is empty, no trap is marked convert or converted, nothing
truth.json calls convert_safe=false is converted, and no candidate that is
not a count is marked convert.  It prints, and does not assert, how many
convert_safe counts were converted, per class.

--mutant NAME runs the mutant alone, and must make it fail; --mutants
(make check-convert-classes) runs the tool as it is, then each mutant, and
fails unless each mutant fails a test (a test program or the library's log,
of a class or of a hand-converted file) that the tool as it is passes.  Each
class's tree is read once; the mutants change decisions and output names
after the reading, and a converted tree built before is not built again.
  convert-all      every candidate and family converted (decision forced)
  creation-as-inc  a creation rewritten as an increment
  inc-as-set       an increment rewritten as refcount_set(..., 1)
  new-as-old       a kept new value rewritten with the old-value formula
creation-as-inc and inc-as-set change the tool's output names (registry.
lib_names); each rewrite mutant makes its mistake in the hand-converted
file of its class too, so that it acts even where the tool converts
nothing.  new-as-old gives a kept new value (`v = add_and_fetch()`) the
forms of a kept old value."""

import contextlib
import copy
import difflib
import glob
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
    "new-as-old": ("new", None, "c8-sync.c", "refs = old - 1;", "refs = old;"),
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


BUILT = {}  # a tree's sources: what its build and tests gave


def build_and_test(tree, lib, log):
    """Build TREE against librefcount and run its tests with LOG; a list of
    what failed (the same sources, built before, give the same list)."""
    text = "".join(open(f).read() for f in sorted(glob.glob(os.path.join(tree, "*", "*.[ch]"))))
    if text not in BUILT:
        BUILT[text] = built_and_tested(tree, lib, log)
    return list(BUILT[text])


def built_and_tested(tree, lib, log):
    flags = ["CPPFLAGS=-I" + os.path.join(TOP, "include"), "LDLIBS=" + lib]
    if os.path.exists(log):
        os.unlink(log)
    rc, out = sh(["make", "-s", "-j2", "all"] + flags, tree)
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


@contextlib.contextmanager
def mutated_tool(mutant):
    """The tool's output names with a rewrite mutant's mistake, meanwhile."""
    names = registry.lib_names
    if mutant in REWRITES and REWRITES[mutant][0]:
        what, fmt = REWRITES[mutant][:2]

        def wrong(prefix, macro):
            d = names(prefix, macro)
            if what == "new":  # the kept new value's forms: the old value's
                d["inc_new"] = d["inc_old"] + "%.0s"
                d["put_new"] = d["put_old"]
                return d
            d[what] = prefix + fmt
            if what == "create":
                d["create_old"] = "(" + prefix + "_inc(%s), 0)"
            return d
        registry.lib_names = wrong
    try:
        yield
    finally:
        registry.lib_names = names


def force_all(m):
    """convert-all: every candidate and every family converted."""
    for fm in m["fields"].values():
        fm["decision"], fm["reasons"] = "convert", []
        if not fm.get("width"):
            fm["width"] = registry.WIDTHS["int"]
        fm.setdefault("scalar", "int")
    for fam in m.get("families", {}).values():
        fam.refused = []


def matches(row, c):
    return c["field"] in [row["field"]] + row.get("aliases", []) or \
        c["where"] == row["declared"]


def changed_lines(old, new):
    """The 1-based lines of OLD that are not in NEW as they were."""
    a, b = old.split("\n"), new.split("\n")
    kept = set()
    for i, _j, n in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
        kept.update(range(i + 1, i + n + 1))
    return set(range(1, len(a) + 1)) - kept


def convert_class(tree, proj, m0, lib, log, mutant):
    """Apply (a copy of the model M0 of TREE, as MUTANT has it) to a fresh
    copy of TREE; build and test it.  (failures, converted convert_safe
    counts, convert_safe counts, their names)."""
    assemble(tree, proj["project"])
    before = {f: open(os.path.join(tree, f)).read() for f in
              {r["declared"].split(":")[0] for r in proj["counts"] + proj["traps"]}}
    m = copy.deepcopy(m0)
    if mutant == "convert-all":
        force_all(m)
    doc = cli.report_doc(m)
    with open("%s%s.report.json" % (tree, "-" + mutant if mutant else ""), "w") as f:
        json.dump(doc, f, indent=1)  # what the tool said, for whoever reads the failure
    try:
        with mutated_tool(mutant), contextlib.redirect_stdout(io.StringIO()):
            rewrite.apply(m, os.path.join(TOP, "include"))
    except Exception as e:  # a crash of apply is a failure, not a traceback
        return ["apply raised %s: %s" % (type(e).__name__, e)], 0, 0, ""
    bad = build_and_test(tree, lib, log)
    changed = {f: changed_lines(t, open(os.path.join(tree, f)).read())
               for f, t in before.items()}

    def converted(row):
        f, line = row["declared"].split(":")
        return int(line) in changed[f] or any(
            c["decision"] == "convert" and matches(row, c) for c in doc["candidates"])
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


def read_class(tree, cls):
    """The model of class CLS's tree, read once (it does not depend on the
    mutant: they change decisions and output names, after)."""
    assemble(tree, cls)
    rc, out = sh(["make", "-s", "compdb"], tree)
    if rc:
        raise SystemExit("check-convert-classes: %s: make compdb: %s" % (cls, out))
    return model.build(tree)


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


def run(work, truth, models, lib, mutant):
    """One conversion of every class (as MUTANT has the tool): the list of
    failures; prints one line per class."""
    bad = oracles(work, lib, mutant)
    total = [0, 0]
    for proj in truth["projects"]:
        cls = proj["project"]
        fails, n, of, names = convert_class(os.path.join(work, cls), proj, models[cls], lib,
                                            os.path.join(work, cls + ".log"), mutant)
        total[0] += n
        total[1] += of
        print("check-convert-classes: %-3s %-62s %d/%d convert_safe counts converted%s%s" % (
            cls, proj["shape"][:62], n, of, " (%s)" % names if names else "",
            "; UNSAFE: " + "; ".join(fails) if fails else ""))
        bad += ["%s: %s" % (cls, x) for x in fails]
    print("check-convert-classes: %d/%d convert_safe counts converted (not asserted)" %
          tuple(total))
    return bad


def test_failures(bad):
    """What in BAD is a test of the fixture failing: a test program, or
    the library's log, by class or hand-converted file."""
    return {re.sub(r"^(\S+: )\d+ library reports logged.*", r"\1log",
                   re.sub(r" fails \(.*", " fails", b)) for b in bad
            if " fails (" in b or "library reports logged" in b}


def main(work, mutants, lib):
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
    models = {p["project"]: read_class(os.path.join(work, p["project"]), p["project"])
              for p in truth["projects"]}
    status, seen = 0, set()
    for mutant in mutants:
        if mutant:
            print("check-convert-classes: the %s mutant" % mutant)
        bad = run(work, truth, models, lib, mutant)
        if not mutant:
            seen = test_failures(bad)
            if bad:
                print("check-convert-classes: FAILED:\n  %s" % "\n  ".join(bad))
                status = 1
            else:
                print("check-convert-classes: the unconverted tree and the hand-converted "
                      "files pass; every class converted safely")
            continue
        new = sorted(test_failures(bad) - seen)
        if len(mutants) == 1:  # the mutant alone: it fails the run, as it must
            print("check-convert-classes: FAILED (mutant %s):\n  %s" % (mutant, "\n  ".join(bad))
                  if bad else "check-convert-classes: the %s mutant passed" % mutant)
            return 1 if bad else 0
        if new:
            print("check-convert-classes: the %s mutant fails, as it must: %s" % (
                mutant, "; ".join(new)))
        else:
            print("check-convert-classes: FAILED: the %s mutant fails no test that "
                  "the tool as it is passes" % mutant)
            status = 1
    return status


if __name__ == "__main__":
    args = sys.argv[1:]
    opt = lambda o, d: args[args.index(o) + 1] if o in args else d
    m = opt("--mutant", None)
    if m is not None and m not in MUTANTS:
        sys.exit("check-classes.py: --mutant %s" % "|".join(MUTANTS))
    if not args or args[0].startswith("--"):
        sys.exit("usage: check-classes.py WORK [--mutant NAME | --mutants] "
                 "[--lib LIBREFCOUNT.A]")
    lib = opt("--lib", os.path.join(TOP, "build", "librefcount.a"))
    if not os.path.isfile(lib):
        sys.exit("check-classes.py: %s: no such library (make lib)" % lib)
    if m:  # the mutant alone: exit 1 when anything fails, as it must
        sys.exit(main(args[0], [m], lib))
    sys.exit(main(args[0], [None] + (list(MUTANTS) if "--mutants" in args else []), lib))

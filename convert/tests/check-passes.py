#!/usr/bin/env python3
"""check-convert-passes: each spatch pass of refcount-convert reads only
the files where what it looks for can match (convert/refconv/scan.py
accessing(), defining(); creation.called_only()), and that choice never
changes the report.  On convert/tests/passes/, whose counts are used
across files in the spellings the selections must see through:

- look.c: `s->`, a comment, a line break, then `ref`, after a string
  that holds "/*" (a comment marker that is not one);
- pool.c: a store to an array element's count, `slots[i] . uses`
  (spatch's `E->f` matches `a[i].f`);
- alloc.c: the zero source made_alloc() defined K&R style;
- put.c: a put through a macro, then the releases (a member's, the
  object's), with no count named;
- caller.c: the address of hooked_init() taken (never proven a creation,
  its calls not read), a call of shared_init() on an object from outside;

the report must be the one every pass gives when it reads every file, and
must hold what each of those files contributes.

--mutant NAME makes it fail: no-blank (comments not blanked), strings (a
comment marker inside a string taken as one), arrow (a field only
through `->`), knr (a definition only when `{` follows its parameters),
no-names (the put macros not looked for), address (every function taken
as one whose address is taken)."""

import difflib
import json
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from refconv import creation, model, report as R, scan  # noqa: E402

MUTANTS = ("no-blank", "strings", "arrow", "knr", "no-names", "address")


def mutate(mutant):
    if mutant == "no-blank":
        scan.code = lambda text: text
    elif mutant == "strings":
        scan.LEXICAL_RE = re.compile(r"(/\*.*?\*/|//[^\n]*)", re.S)
    elif mutant == "arrow":
        accessing = scan.accessing

        def arrow(files, fields, names=()):
            return [f for f in accessing(files, fields, names) if names and re.search(
                r"\b(?:%s)\b" % scan._alt(names), scan.code(scan.read(f))) or re.search(
                r"->\s*(?:%s)\b" % scan._alt(fields), scan.code(scan.read(f)))]
        scan.accessing = arrow
    elif mutant == "knr":
        defining = scan.defining

        def strict(files, fns):
            return [f for f in defining(files, fns) if re.search(
                r"\b(?:%s)\s*\([^()]*\)\s*\{" % scan._alt(fns), scan.code(scan.read(f)))]
        scan.defining = strict
    elif mutant == "no-names":
        accessing = scan.accessing
        scan.accessing = lambda files, fields, names=(): accessing(files, fields)
    elif mutant == "address":
        creation._used_not_called = lambda fn, text: True


def report(tree, work):
    del scan.SKIPPED[:]
    doc = R.report_doc(model.build(tree, work))
    doc.pop("root")
    return doc


def every_file():
    """The reference: every pass reads every file."""
    scan.accessing = lambda files, fields, names=(): list(files)
    scan.defining = lambda files, fns: list(files)
    creation.called_only = lambda fns, files: dict(fns)


def facts(doc):
    """What look.c, pool.c, alloc.c, put.c and caller.c contribute."""
    by = {c["field"]: c for c in doc["candidates"]}
    want = [
        ("seen.ref", lambda c: c["decision"] == "report-only" and "look.c:7: compared "
         "with a variable" in c["reason"]),
        ("slot.uses", lambda c: any(x["at"] == "pool.c:7" for x in c["sets"])),
        ("made.refs", lambda c: any("(made_alloc)" in x for x in c["creations"])),
        ("rel.users", lambda c: "put.c:5 free()" in c["releases"]),
        ("fresh.count", lambda c: any("fresh_init's callers: calloc" in x
                                      for x in c["creations"])),
        ("hooked.holds", lambda c: not c["creations"]),
        # a pure get called on a fresh object in count.c and on another in
        # caller.c: the fresh call is the creation, the get stays a get
        ("shared.pins", lambda c: c["creations"] == [
            "count.c:71 (shared_init(s) on a fresh object: the creation there, "
            "the get kept)"]),
    ]
    return ["%s: not as look.c, pool.c, alloc.c, put.c and caller.c make it" % k
            for k, ok in want if k not in by or not ok(by[k])]


def main(argv):
    work = argv[0]
    mutant = argv[2] if len(argv) > 2 and argv[1] == "--mutant" else None
    shutil.rmtree(work, ignore_errors=True)
    tree = os.path.join(work, "tree")
    shutil.copytree(os.path.join(HERE, "passes"), tree)
    saved = (scan.accessing, scan.defining, creation.called_only)
    every_file()
    ref = report(tree, os.path.join(work, "every-file"))
    scan.accessing, scan.defining, creation.called_only = saved
    if mutant:
        mutate(mutant)
    got = report(tree, os.path.join(work, "selected"))
    errors = facts(ref)
    if got != ref:
        a, b = (json.dumps(x, indent=1, sort_keys=True).splitlines() for x in (ref, got))
        diff = [d.strip() for d in difflib.unified_diff(a, b, "every file", "selected", n=0)]
        errors.append("the report with each pass's files is not the one with every "
                      "file:\n  " + "\n  ".join(diff[:12]))
    for e in errors:
        print("check-convert-passes: %s" % e)
    if errors:
        return 1
    print("check-convert-passes: each pass's files give the report every file gives "
          "(%d candidates)" % len(got["candidates"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""check-convert-compiler: discovery on the compiled code
(convert/refconv/clangscan.py) on convert/tests/compiler/:

- count.c: the count behind a one-member struct, a wrapper of a wrapper and
  a macro is found and keyed by its struct type; a same-named plain field
  of another struct is not a candidate;
- holder.c: functions that only call out-of-line wrappers (wrap.c) are
  walked in the round after those are known to be wrappers;
- holder.c and client.c: each file's own `struct client` is a field of its
  own (two declarations, one name);
- packed.c: a bitfield count in a word a compare-and-swap loop updates
  through a union (the field changed by += on the union's local copy);
- optional/esd.c, which the compile database does not name: read with the
  flags of its compiled neighbour optional/base.c;
- attrib/: a read through a checked-cast macro (`AS_OBJ (p)->ref_count`)
  in a file that sees two structs with that field is attributed by the
  type the compiler resolves, to the one struct, never by name; its
  address taken (read.c:16) is that struct's escape; without a compile
  database neither use can be attributed, and each counts against both;
- unread/: a field keyed by its name alone (a use through a cast macro is
  untyped) whose `.` uses the spelled-source passes do not read: the
  compiler finds them and the field is not converted.

--mutant NAME makes it fail: by-name (every struct declaring the name),
no-revisit (a function skipped once is never walked), no-uncompiled (only
the compile database's units), no-packed (the compare-and-swap of a union
word not read through), merge (fields keyed by name alone),
attrib-by-name (an untyped use goes to every struct whose declaration the
file sees), unattributed-dropped (an untyped use that could be either
struct's counted against neither), unread-by-key (a use the passes did not
read matched to a name-keyed field by its struct's key), add-words (an
operation only the compiler's view found said by its kind, "add", not as
the increment or decrement the model reads).

Every report's text must read as a person reads it (check-report-text.py)."""

import importlib.util
import io
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from refconv import clangscan, model, report  # noqa: E402

MUTANTS = ("by-name", "no-revisit", "no-uncompiled", "no-packed", "merge",
           "attrib-by-name", "no-conventions", "no-noop", "zero-created", "no-put-release",
           "unattributed-dropped", "unread-by-key", "add-words")
_spec = importlib.util.spec_from_file_location(
    "check_report_text", os.path.join(HERE, "check-report-text.py"))
TEXT = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(TEXT)


def text_problems(doc, name):
    """The text report of DOC as a person reads it (check-report-text.py)."""
    out = io.StringIO()
    report.print_report(doc, out)
    return TEXT.problems(out.getvalue(), name)


def _db(work, units):
    with open(os.path.join(work, "compile_commands.json"), "w") as f:
        json.dump([dict(directory=os.path.join(work, os.path.dirname(u)),
                        file=os.path.basename(u),
                        arguments=["cc", "-std=gnu11"] + flags + ["-c", os.path.basename(u)])
                   for u, flags in units], f)


def mutate(mutant):
    if mutant == "no-revisit":
        parse = clangscan._parse

        def forgetful(pool, root, jobs, skipped, later):
            out = parse(pool, root, jobs, skipped, later)
            later.clear()
            return out
        clangscan._parse = forgetful
    elif mutant == "no-packed":
        clangscan._copy_member = lambda ci, lhs: None
    elif mutant == "no-uncompiled":
        clangscan.uncompiled = lambda root, entries, seen: []
    elif mutant == "no-conventions":
        from refconv import clangconv
        clangconv.conventions = lambda facts: {}
    elif mutant == "no-noop":
        from refconv import analyse
        analyse.noop_macros = lambda defs: []
    elif mutant == "no-put-release":
        from refconv import analyse
        analyse._put_release = lambda name, params, b, ops: None
    elif mutant == "zero-created":
        model._created_at_zero = lambda fm, root: None
    elif mutant == "attrib-by-name":
        def by_name(st, field, f, typed, recs, struct_fields, typedefs, seen_by):
            homes = {d["file"] for d in struct_fields.get(field, []) if model._key(d) == st}
            return typed == st if typed else any(seen_by.sees(f, h) for h in homes)
        model._attributed = by_name
    elif mutant == "unattributed-dropped":
        attributed = model._attributed
        model._attributed = lambda *a: attributed(*a) is True
    elif mutant == "unread-by-key":
        from refconv import clangattr
        clangattr.field_key = lambda key, field, fields: key
    elif mutant == "add-words":  # the compiler's kind printed as what an operation does
        report._seen_does = lambda m, o: o["kind"]


def discovery(work, mutant):
    shutil.copytree(os.path.join(HERE, "compiler"), work,
                    ignore=shutil.ignore_patterns("attrib", "typed", "unread"))
    _db(work, [("count.c", []), ("wrap.c", []), ("holder.c", []), ("client.c", []),
               ("packed.c", []),
               ("optional/base.c", ["-DWITH_OPTIONAL", "-I.."])])
    res, note = clangscan.discover(work)
    if res is None:
        return ["no discovery: %s" % note]
    fields = res["fields"]
    if mutant == "merge":
        fields = {k: v for k, v in fields.items() if "@" not in k}
    found = {f.get("name", k) for k, f in fields.items()}
    if mutant == "by-name":  # attribution by name: every struct declaring the name
        found |= {"other.ref"} if "obj.ref" in found else set()
    want = {"obj.ref", "pool.users", "holder.refs", "client.ref", "esd.ref",
            "closure.ref_count"}
    bad = ["missed " + x for x in sorted(want - found)]
    bad += ["not a count: " + x for x in sorted(found & {"other.ref", "closure.flags"})]
    clients = {os.path.basename(f["where"].split(":")[0]) for f in fields.values()
               if f.get("name") == "client.ref"}
    if clients != {"holder.c", "client.c"}:
        bad.append("client.ref declared in %s, not in holder.c and client.c apart" %
                   ", ".join(sorted(clients)))
    wraps = set(res["wrappers"])
    if not {"my_add", "my_dec", "my_inc", "ext_dec", "ext_inc"} <= wraps:
        bad.append("wrappers %s" % ", ".join(sorted(wraps)))
    print("check-convert-compiler: %s; found %s" % (note, ", ".join(sorted(found))))
    return bad + (words(work) if mutant in (None, "add-words") else [])


def words(work):
    """The report of what only the compiler's view found names each
    operation by its direction as the model reads it (ext_dec: step -1, a
    decrement; __atomic_sub_fetch: a subtraction of its argument), never
    "add"; and its text reads as a person reads it."""
    doc = report.report_doc(model.build(work))
    bad = text_problems(doc, "discovery")
    said = {(o["op"], o["does"].split(",")[0]) for c in doc["candidates"]
            if c["idiom"].startswith("atomic arithmetic as the compiler")
            for o in c["operations"]}
    for want in (("ext_dec", "decrement"),
                 ("__atomic_add_fetch", "atomic addition of an argument"),
                 ("__atomic_sub_fetch", "atomic subtraction of an argument")):
        if want not in said:
            bad.append("%s not said as %s: %s" % (want + (sorted(said),)))
    return bad


def attribution(work):
    shutil.copytree(os.path.join(HERE, "compiler", "attrib"), work)
    _db(work, [("obj.c", []), ("src.c", []), ("read.c", [])])
    doc = report.report_doc(model.build(work))
    bad = text_problems(doc, "attrib")
    reads = {c["field"]: c["reads"] for c in doc["candidates"]}
    print("check-convert-compiler: reads %s" % json.dumps(reads, sort_keys=True))
    if "read.c:8" not in reads.get("gobj.ref_count", []):
        bad.append("AS_OBJ (p)->ref_count not attributed to struct gobj")
    if "read.c:8" in reads.get("source.ref_count", []):
        bad.append("AS_OBJ (p)->ref_count attributed to struct source by name")
    got = {c["field"]: (c["decision"], c["reason"]) for c in doc["candidates"]}
    if "read.c:16: address taken" not in got.get("gobj.ref_count", ("", ""))[1]:
        bad.append("&AS_OBJ (p)->ref_count not struct gobj's escape: %s" %
                   (got.get("gobj.ref_count"),))
    if got.get("source.ref_count", ("",))[0] != "convert":
        bad.append("source.ref_count refused for struct gobj's escape: %s" %
                   (got.get("source.ref_count"),))
    # without the compiler's view: each untyped use counts against both
    os.unlink(os.path.join(work, "compile_commands.json"))
    doc = report.report_doc(model.build(work))
    bad += text_problems(doc, "attrib without a compile database")
    for c in doc["candidates"]:
        if c["decision"] == "convert" or "read.c:16: a use that could not be " \
                "attributed" not in c["reason"]:
            bad.append("without a compile database, %s %s: %s" % (
                c["field"], c["decision"], c["reason"]))
    return bad


def unread(work):
    """unread/: the `.` uses of a name-keyed field that no pass read make
    it report-only, each named as not accounted for."""
    shutil.copytree(os.path.join(HERE, "compiler", "unread"), work)
    _db(work, [("obj.c", [])])
    doc = report.report_doc(model.build(work))
    got = {c["field"]: (c["decision"], c["reason"].split("; ")) for c in doc["candidates"]}
    print("check-convert-compiler: unread %s" % json.dumps(got, sort_keys=True))
    dec, why = got.get("obj.refcount", ("missing", []))
    lines = sorted(r.split(":")[1] for r in why if "not accounted for" in r)
    if dec != "report-only" or lines != ["21", "22", "23"]:
        return ["obj.refcount's unread `.` uses not accounted for: %s, %s" % (dec, why)]
    return text_problems(doc, "unread")


def typed(work):
    """typed/: a typedef'd count behind the project's own functions, on a
    primitive a generated header token-pastes: the count created at 1 is
    converted at its call sites (the no-op finaliser with it), and so is
    the one put through a put-release macro (its object macro redirected);
    the one created at 0 and the counter stay report-only."""
    shutil.copytree(os.path.join(HERE, "compiler", "typed"), work)
    _db(work, [("obj.c", [])])
    m = model.build(work)
    doc = report.report_doc(m)
    got = {c["field"]: (c["decision"], c["kind"]) for c in doc["candidates"]}
    print("check-convert-compiler: typed %s" % json.dumps(got, sort_keys=True))
    bad = text_problems(doc, "typed")
    if got.get("page.refs") != ("convert", "reference-count"):
        bad.append("page.refs (created at 1) not converted")
    if got.get("session.refs", ("convert",))[0] != "report-only":
        bad.append("session.refs (created at 0, then got) not report-only")
    if got.get("blob.hold") != ("convert", "reference-count"):
        bad.append("blob.hold (put through a put-release macro) not converted")
    if got.get("pool.users") != ("report-only", "counter"):
        bad.append("pool.users (got from 0 in normal use) not a counter")
    if [a["type"] for a in doc["abstractions"]] != ["ref_t"]:
        bad.append("the shared type ref_t not stated as refused: %s" % doc["abstractions"])
    from refconv import rewrite
    import contextlib
    import io
    with contextlib.redirect_stdout(io.StringIO()):
        rewrite.apply(m, os.path.join(os.path.dirname(os.path.dirname(HERE)), "include"))
    text = open(os.path.join(work, "obj.c")).read()
    for want in ("struct page { refcount_t refs;", "refcount_set(&p->refs, 1);",
                 "refcount_inc(&p->refs);", "if (!refcount_dec_and_test(&p->refs))",
                 "struct session { ref_t refs;", "struct blob { refcount_t hold;",
                 "#define blob_put(b) do { if (refcount_dec_and_test(&(b)->hold)) "
                 "blob_free(b); } while (0)", "refcount_set(&b->hold, 1);"):
        if want not in text:
            bad.append("apply: no '%s'" % want)
    return bad


def main(work, mutant=None):
    work = os.path.abspath(work)
    shutil.rmtree(work, ignore_errors=True)
    mutate(mutant)
    bad = discovery(os.path.join(work, "discovery"), mutant)
    bad += attribution(os.path.join(work, "attrib"))
    bad += unread(os.path.join(work, "unread"))
    bad += typed(os.path.join(work, "typed"))
    if bad:
        print("check-convert-compiler: FAILED: %s" % "; ".join(bad))
        return 1
    return 0


if __name__ == "__main__":
    m = sys.argv[sys.argv.index("--mutant") + 1] if "--mutant" in sys.argv else None
    if m is not None and m not in MUTANTS:
        sys.exit("check-compiler.py: --mutant %s" % "|".join(MUTANTS))
    sys.exit(main(sys.argv[1], m))

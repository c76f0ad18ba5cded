"""refcount-convert's command line: report, apply, check."""

import argparse
import json
import os
import sys

from . import model as M, scan
from .release import relied_release


def rel(root, f):
    return os.path.relpath(f, root)


def field_doc(root, fm):
    """One JSON-able document for a candidate field (also what the text
    report prints)."""
    keys = {(x["typedefs"][0] if x["typedefs"] else x["struct"]) for x in fm["decls"]}
    d = fm["decls"][0] if len(fm["decls"]) == 1 or len(keys) == 1 else None
    where = ("%s:%d" % (rel(root, d["file"]), d["line"])) if d else (
        "%s:%d" % (rel(root, fm["sites"][0]["file"]), fm["sites"][0]["line"]))
    st = (d["typedefs"][0] if d and d["typedefs"] else d and d["struct"]) or "?"
    loc = lambda x: "%s:%d" % (rel(root, x["file"]), x["line"])
    return dict(
        where=where, field="%s.%s" % (st, fm["field"]), idiom=fm["idiom"],
        decision=fm["decision"], kind=fm.get("kind", "unknown"),
        reason="; ".join(fm["reasons"]) or "every use is init/inc/dec/read, "
        "a release follows the final put",
        type=d["type"] if d else None,
        to=(fm.get("width") or [None])[0],
        operations=[dict(at=loc(s), op=s["op"], context=(s["ctx"] + " " + s["cmp"] +
                         " " + s["const"]).strip(), meaning=s["meaning"])
                    for s in fm["sites"]],
        plain=[dict(at=loc(s), meaning=s["meaning"], condition=" && ".join(s["cond"]))
               for s in fm["plain"]],
        reads=[loc(x) for x in sorted(fm["reads"], key=lambda x: (
            x["file"], x["line"], x["col"]))],
        sentinels=[dict(at=loc(x), kind=x["kind"], value=x["value"])
                   for x in fm["sentinels"]],
        initialisers=[dict(at=loc(x), value=x["value"], designated=x["designated"],
                           sentinel=x["sentinel"]) for x in fm["initialisers"]],
        sets=[dict(at=loc(x), value=x["value"]) for x in fm["sets"]],
        noops=["%s %s()" % (loc(x), x["op"]) for x in fm.get("noops", [])],
        creations=["%s (%s)" % (loc(x), ", ".join(x["sources"])) for x in fm["creations"]] +
        ["%s (%s(%s) on a fresh object: the creation there, the get kept)" % (
            loc(x), x["fn"], x["arg"]) for x in fm.get("call_creations", [])],
        frees_on_le0=[x["at"] for x in
                      [dict(at=loc(s)) for s in fm["sites"]
                       if s["cmp"] in ("<=", "<") and s["meaning"] == "last"]],
        # the recorded release-like calls, and the release the default
        # reason relies on
        releases=sorted({"%s:%d %s()" % (rel(root, x["file"]), x["line"], x["call"])
                         for x in fm["releases"] + relied_release(fm)}))


def report_doc(m):
    root = m["root"]
    return dict(
        root=root,
        wrappers=[dict(name=n, kind="macro" if o.field else "function",
                       returns=o.returns, step=o.delta, of=o.via,
                       field=o.field, atomic=o.atomic,
                       at=["%s:%d" % (rel(root, f), a) for f, a, _ in o.defs])
                  for n, o in sorted(list(m["mwraps"].items()) +
                                     list(m["fwraps"].items()))],
        macro_file=m["macro_file"],
        discovery=m.get("discovery", "spatch on the spelled source, every #if "
                        "variant considered (no compile database)"),
        skipped=[dict(file=rel(root, f), why=why) for f, why in scan.SKIPPED],
        candidates=candidates(m), abstractions=abstractions(m))


def abstractions(m):
    """A project's own count type (a typedef the candidates declare, whose
    operations are the project's functions and macros) shared by fields of
    mixed verdicts: not re-implemented on refcount_t (that would convert
    its counters and its counts created at 0 with its counts), and said
    so; its fields are judged one by one, the proven ones converted at
    their call sites."""
    by_type = {}
    for _key, fm in sorted(m["fields"].items()):
        if len(fm["decls"]) == 1 and fm["decls"][0]["type"] in m.get("typedef_names", ()):
            d = fm["decls"][0]
            by_type.setdefault(d["type"], {})["%s.%s" % (
                (d["typedefs"] or [d["struct"]])[0] or "?", fm["field"])] = fm["decision"]
    out = []
    for t, fields in sorted(by_type.items()):
        if len(set(fields.values())) > 1:
            out.append(dict(
                type=t, decision="report-only", fields=fields,
                reason="its operations serve %d fields of mixed verdicts (%s): not "
                "re-implemented on refcount_t; the fields proven one by one are "
                "converted at their call sites" % (len(fields), ", ".join(
                    "%s %s" % (k, v) for k, v in sorted(fields.items())))))
    return out


def candidates(m):
    """The spatch model's candidates, then the fields only the compiler's
    view found (report-only: their lifecycle is not classified)."""
    root = m["root"]
    from .family import covers
    fams = m.get("families", {})
    out = [field_doc(root, fm) for _, fm in sorted(m["fields"].items())
           if not covers(fams, fm)]
    out += family_docs(root, fams)
    seen = m.get("compiler")
    if not seen:
        return out
    have = {c["where"] for c in out}
    named = {c["field"]: c["where"].rsplit(":", 1)[0] for c in out}
    for key, f in sorted(seen["fields"].items()):
        where, name = f["where"], f.get("name", key)
        if not where.startswith(root + os.sep):
            continue  # a struct declared outside the tree is never touched
        where = rel(root, where.rsplit(":", 1)[0]) + ":" + where.rsplit(":", 1)[1]
        if where in have or named.get(name) == where.rsplit(":", 1)[0]:
            continue  # the spatch model's candidate (same declaration)
        via = sorted(f["via"])
        out.append(dict(
            where=where, field=name, idiom="atomic arithmetic as the compiler "
            "sees it" + (" via " + ", ".join(via[:4]) if via else ""),
            decision="report-only", kind="unknown",
            reason="found on the compiled code (compile database, types resolved); "
            "its lifecycle (final put, release, creation) is not proven: not converted",
            type=None, to=None,
            operations=[dict(at=rel(root, o["at"].rsplit(":", 1)[0]) + ":" +
                             o["at"].rsplit(":", 1)[1], op=o["op"], context="",
                             meaning=o["kind"]) for o in f["ops"]],
            plain=[], reads=[], sentinels=[], initialisers=[], sets=[], creations=[],
            frees_on_le0=[], releases=[]))
    return out


def family_ops(root, fam):
    """A family's operations: each macro's definitions, what `apply`
    rewrites (its call sites are not attributed to one struct)."""
    what = lambda r: ("read" if r[0] == "read" else "create" if r[0] == "store" else
                      "inc" if r[2] == +1 else "put, true on the final put" if r[1] == "dec0"
                    else "put, %s value" % r[1])
    return [dict(at="%s:%d" % (rel(root, f), first), op=name, context=(prim + "()") if prim else "plain store",
                 meaning=what(fam.ops[name]))
            for name, prim, f, first, _ in sorted(fam.defs, key=lambda d: (d[2], d[3]))]


def family_docs(root, fams):
    """One candidate per struct whose count is declared by a project's own
    refcount family (family.py): converted where the family is defined."""
    out = []
    for field, fam in sorted(fams.items()):
        ok = not fam.refused
        for st, f, line in sorted(fam.fields, key=lambda x: (x[1], x[2])):
            out.append(dict(
                where="%s:%d" % (rel(root, f), line), field=fam.name_of(st),
                idiom="the project's refcount family %s (%s)" % (
                    fam.declare, ", ".join(sorted(fam.ops))),
                decision="convert" if ok else "report-only",
                kind="reference-count" if ok else "unknown",
                reason=("every use goes through the family, whose puts are tested "
                        "and followed by a release: the family is re-implemented "
                        "on %s in %s, its call sites unchanged" % (fam.width[0],
                                                                   rel(root, fam.header)))
                if ok else "the family %s is not converted: %s" % (
                    fam.declare, "; ".join(fam.refused[:3])),
                type=fam.type, to=fam.width[0] if ok else None,
                operations=family_ops(root, fam), plain=[],
                reads=[], sentinels=[], initialisers=[], sets=[], creations=[],
                frees_on_le0=[], releases=[]))
    return out


def print_report(doc, out=sys.stdout):
    for c in doc["candidates"]:
        out.write("%s\t%s\t%s\t%s\t%s\n" % (c["where"], c["field"], c["idiom"],
                                            c["decision"], c["reason"]))
    for s in doc["skipped"]:
        out.write("skipped\t%s\t%s\n" % (s["file"], s["why"]))
    for a in doc.get("abstractions", []):
        out.write("abstraction\t%s\t%s\t%s\n" % (a["type"], a["decision"], a["reason"]))
    for c in doc["candidates"]:
        out.write("\n%s (%s -> %s):\n" % (c["field"], c["type"], c["to"]))
        for o in c["operations"]:
            out.write("  operation   %s %s [%s] -> %s\n" % (o["at"], o["op"],
                                                        o["context"], o["meaning"]))
        for o in c["plain"]:
            out.write("  plain       %s -> %s under %s\n" % (o["at"], o["meaning"],
                                                           o["condition"] or "-"))
        out.write("  reads       %d%s\n" % (len(c["reads"]), (": " + ", ".join(
            c["reads"][:6]) + (" ..." if len(c["reads"]) > 6 else "")) if c["reads"] else ""))
        for k in ("sentinels", "initialisers", "sets"):
            for o in c[k]:
                out.write("  %-11s %s %s\n" % (k[:-1], o["at"], o["value"]))
        for o in c.get("noops", []):
            out.write("  no-op       %s (becomes (void)0)\n" % o)
        out.write("  creations   %s\n" % (", ".join(c["creations"]) or "none"))
        out.write("  frees <= 0  %s\n" % (", ".join(c["frees_on_le0"]) or "none"))
        out.write("  releases    %s\n" % (", ".join(c["releases"]) or "none"))
    if doc["wrappers"]:
        out.write("\nwrappers:\n")
        for w in doc["wrappers"]:
            out.write("  %s (%s of %s, %s value, step %+d%s) %s\n" % (
                w["name"], w["kind"], w["of"], w["returns"], w["step"],
                ", field " + w["field"] if w["field"] else "", " ".join(w["at"])))


def main(argv):
    import signal
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if "--" in argv:
        i = argv.index("--")
        argv, command = argv[:i], argv[i + 1:]
    else:
        command = []
    ap = argparse.ArgumentParser(prog="refcount-convert")
    ap.add_argument("action", choices=("report", "apply", "check"))
    ap.add_argument("dir")
    ap.add_argument("--format", choices=("text", "json"), default="text")
    ap.add_argument("--refcount-include", default=os.path.join(
        os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
        "include"), help="librefcount's include directory (layout check)")
    ap.add_argument("--log", help="check: the report log file to use")
    a = ap.parse_args(argv)
    if not os.path.isdir(a.dir):
        ap.error("%s is not a directory" % a.dir)
    if a.action == "check":
        from . import check
        return check.run(a.dir, command, a.log)
    if a.log:
        ap.error("--log is check's option, not %s's" % a.action)
    if not scan.sources(a.dir):
        ap.error("%s has no C source (*.c, *.h)" % a.dir)
    if a.action == "apply" and not os.path.isfile(
            os.path.join(a.refcount_include, "refcount", "types.h")):
        ap.error("--refcount-include %s: no refcount/types.h there (librefcount's "
                 "include directory, e.g. PREFIX/include)" % a.refcount_include)
    m = M.build(a.dir)
    if a.action == "report":
        doc = report_doc(m)
        if a.format == "json":
            json.dump(doc, sys.stdout, indent=1)
            sys.stdout.write("\n")
        else:
            print_report(doc)
            # how the code was read, for the person at the terminal
            sys.stderr.write("refcount-convert: %s: %s\n" % (a.dir, doc["discovery"]))
            if not doc["candidates"]:
                sys.stderr.write("refcount-convert: %s: no candidate (no field "
                                 "operated on as a count)\n" % a.dir)
        return 0
    from . import rewrite
    return rewrite.apply(m, a.refcount_include)

"""refcount-convert's report: the document `report` prints as text or dumps
as JSON (--format=json), made of typed records built from the model
(model.py).  The JSON keys are a contract (convert/lab/corpus.py,
projects.py and the checks read them; convert/README.md, "Reading the
report"); the text is a rendering of the same document: one line per
count, then each count's inventory, then a summary."""

import os
import re
import sys
from dataclasses import asdict, dataclass, field as dc_field
from typing import List, Optional

from . import reasons as R, scan
from .release import _release_after, relied_release


@dataclass
class Operation:
    at: str         # FILE:LINE
    op: str         # the operation as called (a primitive, a wrapper, a macro)
    context: str    # how its result is used, as the passes read it
    meaning: Optional[str]  # the model's word (inc, dec, last, notlast, read)
    does: str       # what it does to the count, in words


@dataclass
class Plain:
    at: str
    meaning: Optional[str]
    condition: str  # the #if branch it is in ("" in every build)
    does: str


@dataclass
class Sentinel:
    at: str
    kind: str       # store or test
    value: str


@dataclass
class Initialiser:
    at: str
    value: str
    designated: bool
    sentinel: bool


@dataclass
class Store:
    at: str
    value: str


@dataclass
class Finding:
    code: str       # reasons.CATALOGUE's code
    at: str         # the FILE:LINE that decided it ("" when none)
    says: str
    to_convert: str  # "" for a convert verdict


@dataclass
class Candidate:
    where: str
    field: str
    idiom: str
    decision: str   # convert or report-only
    kind: str       # reference-count, counter or unknown
    reason: str     # the decision's own reasons, joined by "; "
    type: Optional[str]
    to: Optional[str]
    operations: List[Operation] = dc_field(default_factory=list)
    plain: List[Plain] = dc_field(default_factory=list)
    reads: List[str] = dc_field(default_factory=list)
    sentinels: List[Sentinel] = dc_field(default_factory=list)
    initialisers: List[Initialiser] = dc_field(default_factory=list)
    sets: List[Store] = dc_field(default_factory=list)
    noops: List[str] = dc_field(default_factory=list)
    creations: List[str] = dc_field(default_factory=list)
    frees_on_le0: List[str] = dc_field(default_factory=list)
    releases: List[str] = dc_field(default_factory=list)
    findings: List[Finding] = dc_field(default_factory=list)
    evidence: str = ""    # the first finding's FILE:LINE
    to_convert: str = ""  # the first finding's remedy

    def judge(self, findings):
        self.findings = findings
        self.evidence = findings[0].at if findings else ""
        self.to_convert = findings[0].to_convert if findings else ""
        return self


@dataclass
class Wrapper:
    name: str
    kind: str       # macro or function
    returns: str
    step: object    # +1, -1, 0, or [arg, index, sign]
    of: Optional[str]
    field: Optional[str]
    atomic: bool
    at: List[str]


@dataclass
class Skipped:
    file: str
    why: str


@dataclass
class Abstraction:
    type: str
    decision: str
    fields: dict
    reason: str


@dataclass
class Group:
    reason: str     # a reasons.CATALOGUE code
    says: str
    count: int
    fields: List[str]


@dataclass
class Summary:
    found: int
    converted: int
    report_only: int
    by_reason: List[Group]
    skipped: int


@dataclass
class Report:
    root: str
    wrappers: List[Wrapper]
    macro_file: object
    discovery: str
    skipped: List[Skipped]
    candidates: List[Candidate]
    abstractions: List[Abstraction]
    summary: Summary


def rel(root, f):
    return os.path.relpath(f, root)


def _test(s):
    """How a site's result is kept and tested, in words ("" for a
    statement)."""
    ctx = s["ctx"]
    kept = ctx.startswith("kept") and s.get("var")
    exp = s["var"] if kept else "result"
    if ctx.startswith("cmp") and len(ctx) > 3:
        exp += " %s %s" % (ctx[3], ctx[4:])
    if s["cmp"]:
        t = "%s %s %s" % (exp, s["cmp"], s["const"])
    else:
        t = {"!": "!" + exp, "bool": exp + " as a truth value",
             "return": exp + " returned", "value": exp + " used as a value"}.get(ctx, "")
    if ctx == "assert":
        t = ("asserted " + t).strip()
    return "; ".join(x for x in ("kept in " + s["var"] if kept else "", t) if x)


def _does(s):
    """What a site does to the count, in words: never the model's
    shorthand, never a decrement called anything but a put."""
    kind = {+1: "get", -1: "put", 0: "read"}.get(s["step"], "operation")
    t, m = _test(s), s["meaning"]
    how = " (%s)" % t if t else ""
    if s.get("created"):
        return "creation (a get from 0 on a fresh object)"
    if s.get("putrel") and m == "last":
        return "put that releases the object at the final put"
    if m in ("read", "inc"):
        return {"read": "read", "inc": "get"}[m] + how
    if m == "dec":
        return "put whose result is not tested"
    if m == "last":
        return "put, tested for the final put" + how
    if m == "notlast":
        return "put, tested for references remaining" + how
    return "%s whose result apply cannot rewrite%s" % (kind, how)


def _plain_does(w):
    kind = "get" if w["step"] == +1 else "put"
    how = {None: ", its value used", "last": ", tested for the final put",
           "notlast": ", tested for references remaining"}.get(w["meaning"], "")
    return "%s by a plain %s%s, %s" % (
        kind, "++" if w["step"] == +1 else "--", how,
        ("only under #if " + " && ".join(w["cond"])) if w["cond"] else "in every build")


def _proven(fm, loc):
    """The convert verdict's finding: the final put and the release of the
    object after it (the one the decision read, release.py)."""
    puts = [s for s in fm["sites"] if s["meaning"] in ("last", "notlast")]
    release = _release_after(fm)[0]
    before = [s for s in puts if release and s["file"] == release["file"] and
              s["line"] <= release["line"]]
    put = max(before, key=lambda s: s["line"]) if before else (puts or [None])[0]
    at = loc(put) if put else loc(release) if release else ""
    return [Finding("proven", at, "%s: %s() at %s" % (R.PROVEN, release["call"], loc(
        release)) if release else R.PROVEN_NO_RELEASE, "")]


def _findings(fm, loc):
    """The report-only verdict's findings, one per reason, in the model's
    order (the first decided)."""
    out = []
    for r in fm["reasons"]:
        code, at, says, fix = R.read(r)
        if not at and code == "no-release":
            at = next((loc(s) for s in fm["sites"] if s["meaning"] in (
                "last", "notlast")), "")
        out.append(Finding(code, at, says, fix))
    return out


def field_doc(root, fm):
    """One candidate field of the spatch model."""
    keys = {(x["typedefs"][0] if x["typedefs"] else x["struct"]) for x in fm["decls"]}
    d = fm["decls"][0] if len(fm["decls"]) == 1 or len(keys) == 1 else None
    loc = lambda x: "%s:%d" % (rel(root, x["file"]), x["line"])
    where = loc(d) if d else loc(fm["sites"][0])
    st = (d["typedefs"][0] if d and d["typedefs"] else d and d["struct"]) or "?"
    c = Candidate(
        where=where, field="%s.%s" % (st, fm["field"]), idiom=fm["idiom"],
        decision=fm["decision"], kind=fm.get("kind", "unknown"),
        reason="; ".join(fm["reasons"]) or "every use is init/inc/dec/read, "
        "a release follows the final put",
        type=d["type"] if d else None,
        to=(fm.get("width") or [None])[0],
        operations=[Operation(loc(s), s["op"], (s["ctx"] + " " + s["cmp"] + " " +
                                                s["const"]).strip(), s["meaning"], _does(s))
                    for s in fm["sites"]],
        plain=[Plain(loc(s), s["meaning"], " && ".join(s["cond"]), _plain_does(s))
               for s in fm["plain"]],
        reads=[loc(x) for x in sorted(fm["reads"], key=lambda x: (
            x["file"], x["line"], x["col"]))],
        sentinels=[Sentinel(loc(x), x["kind"], x["value"]) for x in fm["sentinels"]],
        initialisers=[Initialiser(loc(x), x["value"], x["designated"], x["sentinel"])
                      for x in fm["initialisers"]],
        sets=[Store(loc(x), x["value"]) for x in fm["sets"]],
        noops=["%s %s()" % (loc(x), x["op"]) for x in fm.get("noops", [])],
        creations=["%s (%s)" % (loc(x), ", ".join(x["sources"])) for x in fm["creations"]] +
        ["%s (%s(%s) on a fresh object: the creation there, the get kept)" % (
            loc(x), x["fn"], x["arg"]) for x in fm.get("call_creations", [])],
        frees_on_le0=[loc(s) for s in fm["sites"]
                      if s["cmp"] in ("<=", "<") and s["meaning"] == "last"],
        # the recorded release-like calls, and the release the default
        # reason relies on
        releases=sorted({"%s:%d %s()" % (rel(root, x["file"]), x["line"], x["call"])
                         for x in fm["releases"] + relied_release(fm)}))
    return c.judge(_findings(fm, loc) if fm["reasons"] else _proven(fm, loc))


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
            out.append(Abstraction(
                type=t, decision="report-only", fields=fields,
                reason="its operations serve %d fields of mixed verdicts (%s): not "
                "re-implemented on refcount_t; the fields proven one by one are "
                "converted at their call sites" % (len(fields), ", ".join(
                    "%s %s" % (k, v) for k, v in sorted(fields.items())))))
    return out


def _direction(m, name):
    """An operation's step as the model reads the name (a primitive, a
    wrapper, a convention read on the compiled code): +1 or -1, ("arg", +1
    or -1) when an argument gives the step (its sign for an argument of 1),
    or None when unknown."""
    name = name if name in m["ops"] else re.sub(r"_\d+$", "", name)
    o = m["ops"].get(name) or m["mwraps"].get(name) or m["fwraps"].get(name)
    d = o.delta if o else ((m.get("compiler") or {}).get("conventions") or {}).get(
        name, (None, None, None))[2]
    if isinstance(d, int):
        return (d > 0) - (d < 0) or None
    if isinstance(d, (tuple, list)) and isinstance(d[-1], int) and d[-1]:
        return ("arg", (d[-1] > 0) - (d[-1] < 0))
    return None


def _seen_does(m, o):
    """A compiler's-view operation in words (its lifecycle not classified):
    an increment or a decrement when the step is fixed, an addition or a
    subtraction of an argument (whose sign is not read) otherwise."""
    k = o["kind"]
    if k == "add":
        k = {+1: "increment", -1: "decrement",
             ("arg", +1): "atomic addition of an argument",
             ("arg", -1): "atomic subtraction of an argument"}.get(
            _direction(m, o["op"]), "atomic arithmetic")
    return {"load": "read", "store": "store", "swap": "exchange",
            "bits": "bit operation"}.get(k, k) + ", not classified as a get or a put"


def seen_docs(m, have):
    """The fields only the compiler's view found (report-only: their
    lifecycle is not classified); HAVE: the spatch model's candidates."""
    root, seen = m["root"], m.get("compiler")
    if not seen:
        return []
    out, named = [], {c.field: c.where.rsplit(":", 1)[0] for c in have}
    wheres = {c.where for c in have}
    short = lambda at: rel(root, at.rsplit(":", 1)[0]) + ":" + at.rsplit(":", 1)[1]
    for key, f in sorted(seen["fields"].items()):
        where, name = f["where"], f.get("name", key)
        if not where.startswith(root + os.sep):
            continue  # a struct declared outside the tree is never touched
        where = short(where)
        if where in wheres or named.get(name) == where.rsplit(":", 1)[0]:
            continue  # the spatch model's candidate (same declaration)
        via = sorted(f["via"])
        reason = "found on the compiled code (compile database, types resolved); " \
            "its lifecycle (final put, release, creation) is not proven: not converted"
        ops = [Operation(short(o["at"]), o["op"], "", o["kind"], _seen_does(m, o))
               for o in f["ops"]]
        code, _at, says, fix = R.read(reason)
        out.append(Candidate(
            where=where, field=name, idiom="atomic arithmetic as the compiler "
            "sees it" + (" via " + ", ".join(via[:4]) if via else ""),
            decision="report-only", kind="unknown", reason=reason, type=None, to=None,
            operations=ops).judge([Finding(code, ops[0].at if ops else "", says, fix)]))
    return out


def candidates(m):
    """The spatch model's candidates, the families', then the fields only
    the compiler's view found."""
    from .family import covers
    root, fams = m["root"], m.get("families", {})
    out = [field_doc(root, fm) for _, fm in sorted(m["fields"].items())
           if not covers(fams, fm)]
    out += family_docs(root, fams)
    return out + seen_docs(m, out)


def family_ops(root, fam):
    """A family's operations: each macro's definitions, what `apply`
    rewrites (its call sites are not attributed to one struct)."""
    what = lambda r: ("read" if r[0] == "read" else "create" if r[0] == "store" else
                      "inc" if r[2] == +1 else "put, true on the final put" if r[1] == "dec0"
                      else "put, %s value" % r[1])
    value = lambda v: "its argument %d" % (v[1] + 1) if isinstance(v, tuple) else v
    step = lambda st: (
        "atomic addition of its argument %d" % (st[1] + 1) if isinstance(st, tuple) and
        st[0] == "param" else "atomic subtraction of its argument %d" % (st[1] + 1)
        if isinstance(st, tuple) else "atomic arithmetic whose step is not read")
    does = lambda r: (
        "read" if r[0] == "read" else
        "creation, stores %s" % value(r[1]) if r[0] == "store" else
        "get" if r[2] == +1 else
        "put, tested for the final put at every call" + (
            " (its %s value)" % r[1] if r[1] in ("new", "old") else "") if r[2] == -1 else
        step(r[2]))
    return [Operation("%s:%d" % (rel(root, f), first), name,
                      (prim + "()") if prim else "plain store", what(fam.ops[name]),
                      "%s, %s" % (does(fam.ops[name]), "through %s()" % prim if prim
                                  else "by a plain store"))
            for name, prim, f, first, _ in sorted(fam.defs, key=lambda d: (d[2], d[3]))]


def family_docs(root, fams):
    """One candidate per struct whose count is declared by a project's own
    refcount family (family.py): converted where the family is defined."""
    out = []
    for _field, fam in sorted(fams.items()):
        ok = not fam.refused
        ops = family_ops(root, fam)
        if ok:
            puts = [o.at for o in ops if o.does.startswith("put")]
            why = [Finding("family-proven", (puts or [o.at for o in ops] or [""])[0],
                           R.FAMILY_PROVEN % (fam.declare, fam.width[0],
                                              rel(root, fam.header)), "")]
        else:
            why = [Finding(*R.read(r)) for r in fam.refused[:3]]
        for st, f, line in sorted(fam.fields, key=lambda x: (x[1], x[2])):
            out.append(Candidate(
                where="%s:%d" % (rel(root, f), line), field=fam.name_of(st),
                idiom="the project's refcount family %s%s" % (fam.declare, (
                    " (%s)" % ", ".join(sorted(fam.ops))) if fam.ops else ""),
                decision="convert" if ok else "report-only",
                kind="reference-count" if ok else "unknown",
                reason=("every use goes through the family, whose puts are tested "
                        "and followed by a release: the family is re-implemented "
                        "on %s in %s, its call sites unchanged" % (fam.width[0],
                                                                   rel(root, fam.header)))
                if ok else "the family %s is not converted: %s" % (
                    fam.declare, "; ".join(fam.refused[:3])),
                type=fam.type, to=fam.width[0] if ok else None,
                operations=ops).judge(why))
    return out


def summary(cands, skipped):
    """Found, converted, and report-only grouped by the reason that decided."""
    groups = {}
    for c in cands:
        if c.decision != "convert" and c.findings:
            groups.setdefault(c.findings[0].code, []).append(c.field)
    by = [Group(code, R.heading(code), len(fs), fs) for code, fs in
          sorted(groups.items(), key=lambda g: (-len(g[1]), g[0]))]
    conv = sum(1 for c in cands if c.decision == "convert")
    return Summary(len(cands), conv, len(cands) - conv, by, len(skipped))


def build(m):
    """The model's report, as records."""
    root = m["root"]
    cands = candidates(m)
    skipped = [Skipped(rel(root, f), why) for f, why in scan.SKIPPED]
    return Report(
        root=root,
        wrappers=[Wrapper(n, "macro" if o.field else "function", o.returns, o.delta,
                          o.via, o.field, o.atomic,
                          ["%s:%d" % (rel(root, f), a) for f, a, _ in o.defs])
                  for n, o in sorted(list(m["mwraps"].items()) +
                                     list(m["fwraps"].items()))],
        macro_file=m["macro_file"],
        discovery=m.get("discovery", "spatch on the spelled source, every #if "
                        "variant considered (no compile database)"),
        skipped=skipped, candidates=cands, abstractions=abstractions(m),
        summary=summary(cands, skipped))


def report_doc(m):
    """The model's report as a JSON-able document (the contract)."""
    return asdict(build(m))


# The text: one line per count, each count's inventory, the summary.

STEPS = {+1: "a get", -1: "a put", 0: "a read"}
RETURNS = {"new": "returns the new value", "old": "returns the old value",
           "void": "returns nothing", "dec0": "returns true at the final put",
           "putrel": "runs the release at the final put", "read": "returns the count"}
ARTICLE = {"macro": "a macro", "function": "a function"}


def _at(f):
    return "%s: %s" % (f["at"], f["says"]) if f["at"] else f["says"]


def _lines(c):
    """A count's inventory, (label, text) pairs."""
    out = [("idiom", c["idiom"])] + [("why", _at(f)) for f in c["findings"]]
    fixes = [f["to_convert"] for f in c["findings"] if f["to_convert"]]
    out += [("to convert", x) for i, x in enumerate(fixes) if x not in fixes[:i]]
    out += [("operation", "%s %s: %s" % (o["at"], o["op"], o["does"]))
            for o in c["operations"]]
    out += [("plain", "%s: %s" % (o["at"], o["does"])) for o in c["plain"]]
    out.append(("reads", "%d: %s%s" % (len(c["reads"]), ", ".join(c["reads"][:6]),
                                       " ..." if len(c["reads"]) > 6 else "")
                if c["reads"] else "none"))
    out += [("sentinel", "%s %s, a %s" % (o["at"], o["value"], o["kind"]))
            for o in c["sentinels"]]
    out += [("initialiser", "%s %s%s" % (o["at"], o["value"], ", designated" *
                                         bool(o["designated"])))
            for o in c["initialisers"]]
    out += [("set", "%s to %s" % (o["at"], o["value"])) for o in c["sets"]]
    out += [("no-op", "%s, becomes (void)0" % o) for o in c["noops"]]
    for label, k in (("creations", "creations"), ("frees <= 0", "frees_on_le0"),
                     ("releases", "releases")):
        out.append((label, ", ".join(c[k]) or "none"))
    return out


def _head(c):
    """A count's detail heading: its verdict, declaration and types."""
    as_type = " as %s" % c["type"] if c["type"] else ""
    if c["decision"] == "convert":
        to = ", becomes %s" % c["to"] if c["to"] else ""
    else:
        to = " (%s if converted)" % c["to"] if c["to"] else ""
    return "%s: %s, declared %s%s%s" % (c["field"], c["decision"], c["where"], as_type, to)


def _wrapper(w):
    st = w["step"]
    if isinstance(st, (list, tuple)):
        what = "a step of its argument %d" % (st[1] + 1)
    else:
        what = STEPS.get(st) or ("a step of %+d" % st if isinstance(st, int) else
                                 "a step not read")
    return "%s (%s): %s%s%s, %s that %s" % (
        w["name"], ", ".join(w["at"]), ARTICLE.get(w["kind"], w["kind"]),
        " over " + w["of"] if w["of"] else "", " on ." + w["field"] if w["field"] else "",
        what, RETURNS.get(w["returns"], "returns a value not read"))


def _summary(doc, out):
    s = doc["summary"]
    out.write("\nsummary: %d found, %d converted, %d report-only\n" % (
        s["found"], s["converted"], s["report_only"]))
    if s["by_reason"]:
        out.write("  report-only, by the reason that decided:\n")
    for g in s["by_reason"]:
        fs = g["fields"]
        out.write("  %5d  %s: %s%s\n" % (
            g["count"], g["says"], ", ".join(fs[:8]),
            ", and %d more" % (len(fs) - 8) if len(fs) > 8 else ""))
    for a in doc["abstractions"]:
        out.write("  abstraction %s, %s: %s\n" % (a["type"], a["decision"], a["reason"]))
    for x in doc["skipped"]:
        out.write("  skipped %s: %s\n" % (x["file"], x["why"]))
    if not doc["skipped"]:
        out.write("  skipped: no file\n")


def print_report(doc, out=sys.stdout):
    """The report as text (convert/README.md, "Reading the report")."""
    cands = doc["candidates"]
    wf = max([len(c["field"]) for c in cands] + [5])
    ww = max([len(c["where"]) for c in cands] + [8])
    if cands:
        out.write("%-11s  %-*s  %-*s  %s\n" % ("verdict", wf, "count", ww, "declared",
                                              "why (at what decided it)"))
    for c in cands:
        f = (c["findings"] or [dict(at="", says=c["reason"], to_convert="")])[0]
        out.write("%-11s  %-*s  %-*s  %s%s\n" % (
            c["decision"], wf, c["field"], ww, c["where"], _at(f),
            "; to convert: " + f["to_convert"] if f["to_convert"] else ""))
    for c in cands:
        out.write("\n%s\n" % _head(c))
        for label, text in _lines(c):
            out.write("  %-12s %s\n" % (label, text))
    if doc["wrappers"]:
        out.write("\nwrappers:\n")
        for w in doc["wrappers"]:
            out.write("  %s\n" % _wrapper(w))
    _summary(doc, out)

"""Creation sites: an increment that takes the first reference of a fresh
object, whose count is 0, becomes refcount_set(r, 1) (convert/README.md,
"Creation").  The tool converts one only when it proves, within the
function, that the object is fresh on every path that reaches it:

- every assignment of the pointer that reaches the increment (spatch's
  `def` facts, convert/cocci/fields.cocci) is a zero source or NULL, and no
  path reaches it from the function's entry without one (`undef`);
- between each such assignment and the increment (in source order), no
  operation other than a read, no store and no address of the counter.

A zero source is a call of a zeroing allocator (registry.ZALLOC), of a
macro whose body is one such call (dbus_new0), or of a function whose every
return is NULL, a zero source, or a variable whose reaching assignments are
(`ret`, `rdef`, `rundef`: convert/cocci/returns.cocci, run on the functions
that reach a candidate), to a fixpoint.  A function may also return an
object taken elsewhere (a cache) whose count it asserts is 0 on every path
between the assignment and the return (no `noassert` fact): that source is
"asserted", the project's own checked claim rather than a proof, and the
report says so.
"""

import os
import re

from . import analyse as A, registry, scan

FACTS = ("def", "undef", "ret", "rdef", "rundef", "noassert", "param")
CALL_RE = re.compile(r"^[(]*(?:\w+\**\))?[(]*(\w+)\(")
NULLS = ("NULL", "0", "(void*)0", "((void*)0)", "nullptr")


# A fill with zeroes that yields its pointer (`memset(p, 0, n)`, in a
# macro's or function's result): a zeroing allocation by its effect,
# whatever allocates the memory under it.
ZERO_FILL = "memset(_, 0, _)"


def call_name(expr):
    """The function an expression calls first (through casts and
    parentheses), or ZERO_FILL for `memset(E, 0, N)`."""
    e = A.nospace(expr)
    m = CALL_RE.match(e)
    if not m:
        return None
    if m.group(1) == "memset":
        end = scan._match_brace(e.replace("(", "{").replace(")", "}"), m.end() - 1)
        args = A.split_args(e[m.end():end]) if end > 0 else []
        if len(args) == 3 and args[1] in ("0", "'\\0'", "0x0"):
            return ZERO_FILL
    return m.group(1)


def is_null(expr):
    return A.nospace(expr) in NULLS


def zero_macros(defs):
    """Macros whose body is one call of a zeroing allocator (dbus_new0)."""
    out = {}
    for name, params, body, _f, _a, _b in defs:
        if params is not None and (call_name(body) in registry.ZALLOC or
                                   call_name(body) == ZERO_FILL):
            out[name] = "allocator"
    return out


def _touches(uses, f, base, first, last, readops):
    """Writes of a candidate field of BASE in file F strictly between lines
    FIRST and LAST: operations other than reads, stores, address taken."""
    out = []
    for r in uses:
        _, ctx, b, field, op, _v, uf, line, _c = r
        if uf != f or A.nospace(b) != A.nospace(base) or not first < int(line) < last:
            continue
        if _exclusive(f, int(line), last):
            continue  # the other branch of an #if (dbus's DBUS_DISABLE_ASSERT)
        if ctx == "oparg" and op.strip() in readops or ctx in ("read", "cmp"):
            continue
        out.append((int(line), ctx, op.strip() or ctx))
    return out


_CONDS = {}


def _exclusive(f, a, b):
    """Lines A and B of F are in two branches of one #if: never both
    compiled."""
    if f not in _CONDS:
        _CONDS[f] = scan.conditions(scan.read(f))
    c = _CONDS[f]
    ca, cb = (c[a], c[b]) if max(a, b) < len(c) else ([], [])
    return any("!" + x in cb for x in ca) or any("!" + x in ca for x in cb)


def zero_sources(facts, defs, uses=(), readops=()):
    """Function and macro names whose result is a fresh object at 0:
    name -> "allocator", "zero" (returns only those) or "asserted"."""
    zero = {n: "allocator" for n in registry.ZALLOC + (ZERO_FILL,)}
    zero.update(zero_macros(defs))
    rets, rdefs, rundef, noassert = {}, {}, set(), set()
    for _, kind, base, f2, x, v, f, line, col in facts:
        pos = (f, int(line), int(col))
        if kind == "ret":
            rets.setdefault(f2, []).append((base, pos))
        elif kind == "rdef":
            rdefs.setdefault(pos, []).append((x, int(v), base))
        elif kind == "rundef":
            rundef.add(pos)
        elif kind == "noassert":
            noassert.add((pos, int(v)))
    changed = True
    while changed:
        changed = False
        for fn, rs in sorted(rets.items()):
            if fn in zero:
                continue
            kind, fresh = "zero", 0
            for e, pos in rs:
                if is_null(e):
                    continue
                n = call_name(e)
                if n in zero:
                    kind = "asserted" if zero[n] == "asserted" else kind
                    fresh += 1
                    continue
                if pos in rundef or pos not in rdefs:
                    break
                ok = True
                for r, q, base in rdefs[pos]:
                    n = call_name(r)
                    if is_null(r):
                        continue
                    if n in zero and not _touches(uses, pos[0], base, q, pos[1], readops):
                        kind = "asserted" if zero[n] == "asserted" else kind
                    elif (pos, q) not in noassert and \
                            not _touches(uses, pos[0], base, q, pos[1], readops):
                        kind = "asserted"
                    else:
                        ok = False
                        break
                if not ok:
                    break
                fresh += 1
            else:
                if fresh:
                    zero[fn] = kind
                    changed = True
    return zero


def wanted(facts, zero):
    """The functions called where a creation candidate's pointer (or a
    returned variable) is assigned, not yet known as zero sources."""
    return {call_name(x) for _, kind, _b, _f2, x, _v, _f, _l, _c in facts
            if kind in ("def", "rdef") and call_name(x) and call_name(x) not in zero}


def creations(fm, facts, zero, uses, readops):
    """The proven creation sites of field FM: fm["creations"]; an increment
    that is not one gets s["not_created"], the reason."""
    field = fm["field"]
    defs, undef, params = {}, set(), {}
    for _, kind, base, f2, x, v, f, line, col in facts:
        if f2 != field:
            continue
        pos = (f, int(line), int(col))
        if kind == "def":
            defs.setdefault(pos, []).append((x, int(v), base))
        elif kind == "undef":
            undef.add(pos)
        elif kind == "param":
            n, fnline = v.split()
            params[pos] = (base, x, int(n), int(fnline))
    for s in fm["sites"]:
        if s["step"] != +1 or s["meaning"] != "inc":
            continue
        pos = (s["file"], s["line"], s["col"])
        why, sources = None, []
        if pos in undef and pos in params:
            p, fn, n, fnline = params[pos]
            t = _touches(uses, s["file"], p, fnline, s["line"], readops)
            why = "%s is %s's parameter" % (p, fn) + (
                "; line %d: %s on the count before it" % (t[0][0], t[0][2]) if t
                else ", and not every call passes a fresh object")
            if not t:
                s["param_creation"] = (fn, n)
        elif pos in undef:
            why = "%s may come from outside the function (a parameter, or a " \
                  "path with no assignment)" % s["base"]
        elif pos not in defs:
            why = "no assignment of %s reaches it" % s["base"]
        else:
            for r, q, base in sorted(set(defs[pos])):
                n = call_name(r)
                if is_null(r):
                    continue
                if n not in zero:
                    why = "%s = %s (line %d) is not a zeroing allocation" % (
                        base, " ".join(r.split()), q)
                    break
                t = _touches(uses, s["file"], base, q, s["line"], readops)
                if t:
                    why = "line %d: %s on the count before it" % (t[0][0], t[0][2])
                    break
                sources.append(n + (" (asserted 0)" if zero[n] == "asserted" else ""))
        if why or not sources:
            s["not_created"] = why or "only NULL reaches it"
            if any(call_name(r) in zero for r, _q, _b in defs.get(pos, ())):
                s["from0"] = s["from0"] or "a zeroing allocation reaches it on some path"
            continue
        fm["creations"].append(dict(file=s["file"], line=s["line"], col=s["col"],
                                    base=s["base"], op=s["op"],
                                    sources=sorted(set(sources))))


def param_functions(fields):
    """Functions whose parameter's count is first incremented there:
    name -> the parameter's index."""
    return {s["param_creation"][0]: s["param_creation"][1]
            for fm in fields.values() for s in fm["sites"] if s.get("param_creation")}


def _used_not_called(fn, text):
    """FN's name in TEXT other than in a call: its address is taken, and a
    call through a pointer cannot be followed."""
    return re.search(r"\b%s\b(?!\s*\()" % re.escape(fn), text) is not None


def called_only(fns, files):
    """FNS (param_functions()) without the ones whose name the tree uses
    other than in a call: prove_params() never proves those, so their
    calls are not read at all (convert/cocci/calls.cocci runs on the files
    that name the rest)."""
    return {fn: n for fn, n in fns.items() if not any(
        _used_not_called(fn, scan.read(f)) for f in scan.mentioning(files, [fn]))}


def calls_rules(fns):
    text = scan.read(os.path.join(scan.COCCI_DIR, "calls.cocci"))
    out = ["@initialize:python@\n@@\ndef call(k, e, r, q, p):\n"
           "    print(\"CALL\\t%s\\t%s\\t%s\\t%s\\t%s\\t%s\\t%s\" % "
           "(k, e, r, q, p[0].file, p[0].line, p[0].column))\n"]
    for i, (fn, n) in enumerate(sorted(fns.items())):
        args = ["A%d" % j for j in range(n)]
        t = text.replace("{{FN}}", fn).replace("{{ID}}", str(i)).replace(
            "{{INDEX}}", str(n)).replace("{{ARGS}}", "".join(a + ", " for a in args)).replace(
            "{{ARGDECL}}", "".join(a + ", " for a in args))
        out.append(t)
    return "\n".join(out)


def prove_params(fields, fns, out, zero, files, uses=(), readops=()):
    """Mark the parameter creations whose every call passes a fresh object.
    A function some of whose calls pass a fresh object and others not
    takes that object's count from 0 in normal use: its increment gets
    s["from0"], with the call that passes it."""
    calls, defs, undef = {}, {}, set()
    for l in out.splitlines():
        w = l.split("\t")
        if len(w) != 8 or w[0] != "CALL":
            continue
        _, kind, e, r, q, f, line, col = w
        pos = (f, int(line), int(col))
        calls.setdefault(pos, [])
        if kind == "def":
            calls[pos].append((r, int(q), e))
        elif kind == "undef":
            undef.add(pos)
    text = "\n".join(scan.read(f) for f in files)
    proven = {}
    for fn in fns:
        if _used_not_called(fn, text):
            continue  # its address is taken: calls we cannot see
        srcs, ok = set(), True
        mine = [p for p in calls if _call_at(p, fn)]
        for pos in mine:
            rs = calls[pos]
            if pos in undef or not rs or any(
                    not is_null(r) and call_name(r) not in zero for r, _q, _e in rs):
                ok = False
                break
            srcs |= {call_name(r) for r, _q, _e in rs if not is_null(r)}
        if ok and mine:
            proven[fn] = sorted(srcs)
    # an unproven function -> a call that passes a fresh object.  Only the
    # functions called_only() keeps: the calls of one whose address is
    # taken are not read (convert/README.md, "Limits"), so the answer must
    # not depend on whether a run happened to read them
    fresh, seen = {}, [fn for fn in fns if not _used_not_called(fn, text)]
    for pos in sorted(calls):
        fn = next((fn for fn in seen if fn not in proven and _call_at(pos, fn)), None)
        rs = calls[pos]
        if fn is None or fn in fresh or pos in undef or not any(
                call_name(r) in zero for r, _q, _e in rs):
            continue
        if all(is_null(r) or (call_name(r) in zero and not _touches(
                uses, pos[0], e, q, pos[1], readops)) for r, q, e in rs):
            fresh[fn] = pos
    for fm in fields.values():
        for s in fm["sites"]:
            pc = s.get("param_creation")
            if pc and pc[0] in fresh:
                f, line, _c = fresh[pc[0]]
                s["from0"] = s["from0"] or "a fresh object reaches it through " \
                    "the call at %s:%d, and not every call passes one" % (
                        os.path.relpath(f, fm.get("root", "/")), line)
            if pc and pc[0] in proven:
                s.pop("not_created", None)
                fm["creations"].append(dict(
                    file=s["file"], line=s["line"], col=s["col"], base=s["base"],
                    op=s["op"], sources=["%s's callers: %s" % (pc[0], ", ".join(
                        proven[pc[0]]))]))


def _call_at(pos, fn):
    f, line, col = pos
    lines = scan.read(f).split("\n")
    # the name itself, not a longer one it begins (g_queue_ref_unlocked)
    return line <= len(lines) and re.match(r"%s\b" % re.escape(fn), lines[line - 1][col:]) \
        is not None


def why(fm, s):
    return s.get("not_created") or "not analysed"


def initialisers(fm, files):
    """Positional and designated initialisers of the field's struct.  A
    field declared more than once (one struct name and type in several
    files) has the initialisers of each; a positional one is read only when
    every declaration puts the field at one index, else it is refused (its
    declaration is not told)."""
    keys = {d["typedefs"][0] if d["typedefs"] else d["struct"] for d in fm["decls"]}
    if len(fm["decls"]) < 1 or len(keys) != 1:
        return
    structs = sorted({d["struct"] for d in fm["decls"] if d["struct"]})
    tds = sorted({t for d in fm["decls"] for t in d["typedefs"]})
    index = {d["index"] for d in fm["decls"]}
    names = [r"struct\s+%s" % re.escape(n) for n in structs] + [re.escape(t) for t in tds]
    if not names:
        return
    pat = re.compile(r"\b(?:%s)\s+\w+(\s*\[[^]]*\])?\s*=\s*\{" % "|".join(names))
    for f in files:
        if scan.words(f).isdisjoint(structs + tds):  # a cheap test before the regex
            continue
        text = scan.read(f)
        for m in pat.finditer(text):
            end = scan._match_brace(text, m.end() - 1)
            body = text[m.end():end]
            if "{" in body:
                continue
            items = A.split_args(body)
            line = text.count("\n", 0, m.start()) + 1
            desig = [i for i in items if A.nospace(i).startswith("." + fm["field"] + "=")]
            if desig:
                v = A.nospace(desig[0]).split("=", 1)[1]
            elif any(i.startswith(".") for i in items):
                continue
            elif len(index) > 1:
                fm["refused"].append((dict(file=f, line=line), "a positional initialiser "
                                      "of a struct whose declarations put '%s' at "
                                      "different places" % fm["field"]))
                continue
            elif len(items) > min(index):
                v = items[min(index)]
            else:
                continue
            fm["initialisers"].append(dict(
                file=f, line=line, value=v.strip(), designated=bool(desig),
                sentinel=bool(registry.SENTINEL_RE.match(A.nospace(v)))))

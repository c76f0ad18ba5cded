"""Creation sites: an increment that takes the first reference of a fresh
object, whose count is 0, becomes refcount_set(r, 1) (docs/convert.md,
"Creation").  The tool converts one only when it proves, within the
function, that the object is fresh on every path that reaches it:

- every assignment of the pointer that reaches the increment (spatch's
  `def` facts, tools/cocci/fields.cocci) is a zero source or NULL, and no
  path reaches it from the function's entry without one (`undef`);
- between each such assignment and the increment (in source order), no
  operation other than a read, no store and no address of the counter.

A zero source is a call of a zeroing allocator (registry.ZALLOC), of a
macro whose body is one such call (dbus_new0), or of a function whose every
return is NULL, a zero source, or a variable whose reaching assignments are
(`ret`, `rdef`, `rundef`), to a fixpoint.  A function may also return an
object taken elsewhere (a cache) whose count it asserts is 0 on every path
between the assignment and the return (no `noassert` fact): that source is
"asserted", the project's own checked claim rather than a proof, and the
report says so.
"""

import re

from . import analyse as A, registry

FACTS = ("def", "undef", "ret", "rdef", "rundef", "noassert")
CALL_RE = re.compile(r"^[(]*(?:\w+\**\))?[(]*(\w+)\(")
NULLS = ("NULL", "0", "(void*)0", "((void*)0)", "nullptr")


def call_name(expr):
    m = CALL_RE.match(A.nospace(expr))
    return m.group(1) if m else None


def is_null(expr):
    return A.nospace(expr) in NULLS


def zero_macros(defs):
    """Macros whose body is one call of a zeroing allocator (dbus_new0)."""
    out = {}
    for name, params, body, _f, _a, _b in defs:
        if params is not None and call_name(body) in registry.ZALLOC:
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
        if ctx == "oparg" and op.strip() in readops or ctx in ("read", "cmp"):
            continue
        out.append((int(line), ctx, op.strip() or ctx))
    return out


def zero_sources(facts, defs, uses=(), readops=()):
    """Function and macro names whose result is a fresh object at 0:
    name -> "allocator", "zero" (returns only those) or "asserted"."""
    zero = {n: "allocator" for n in registry.ZALLOC}
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


def creations(fm, facts, zero, uses, readops):
    """The proven creation sites of field FM: fm["creations"]; an increment
    that is not one gets s["not_created"], the reason."""
    field = fm["field"]
    defs, undef = {}, set()
    for _, kind, base, f2, x, v, f, line, col in facts:
        if f2 != field:
            continue
        pos = (f, int(line), int(col))
        if kind == "def":
            defs.setdefault(pos, []).append((x, int(v), base))
        elif kind == "undef":
            undef.add(pos)
    for s in fm["sites"]:
        if s["step"] != +1 or s["meaning"] != "inc":
            continue
        pos = (s["file"], s["line"], s["col"])
        why, sources = None, []
        if pos in undef:
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
            continue
        fm["creations"].append(dict(file=s["file"], line=s["line"], col=s["col"],
                                    base=s["base"], op=s["op"],
                                    sources=sorted(set(sources))))


def why(fm, s):
    return s.get("not_created") or "not analysed"

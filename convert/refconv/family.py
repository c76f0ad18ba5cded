"""A project's own refcount abstraction, converted where it is defined.

The class: a family of macros in one header, one of which declares the
count's field (`#define X_DECLARE T f`, used as a struct member) and the
others each apply one atomic operation to `(p)->f` of their argument (a
store, a read, an increment, a decrement whose result is old or new, as
the project's own inline functions resolve to a registry primitive).
When every access to a field `f` declared that way goes through the
family, and every use of the family is that of a reference count (each
put's result is tested against the final put, and that test is followed by
a release of the same object within its function; no get's result is
used, so no increment from 0 is tested for; no store of 0 is used), the
family's bodies are re-implemented on refcount_t and its call sites stay
as they are.  Any failed proof refuses the whole family (its fields are
then left to the call-site conversion, which judges each field itself).
"""

import os
import re

from . import analyse as A, registry, scan

DECLARE_RE = re.compile(r"^([A-Za-z_][\w\s\*]*?)\s+(\w+)$")
FUNC_RE = re.compile(r"^[ \t]*(?:static\s+)?(?:\w+\s+)*?(\w+)\s*\(([^()]*)\)\s*\{", re.M)


class Family:
    def __init__(self, header, field, ftype, declare):
        self.header, self.field, self.type, self.declare = header, field, ftype, declare
        self.ops = {}       # macro name -> (role, returns)
        self.defs = []      # (macro, file, first, last)
        self.fields = []    # (struct, file, line) declaring the field
        self.refused = []   # why the family is not converted
        self.typedefs = []  # typedef names of the structs in fields
        self.kind = "declare"  # or "type": a count type (counttype.py)
        self.width = registry.WIDTH32  # the library type the count becomes
        self.members = {}   # struct -> its member of the count type
        self.decl = None    # a count type's declaration of the field

    def name_of(self, st):
        """Struct.member of a field of the family."""
        return "%s.%s" % (st, self.members.get(st, self.field))


def _functions(files):
    """name -> [(params, body)] of every function definition (all #if
    variants), the inline atomics a family calls."""
    out = {}
    for f in files:
        text = scan.read(f)
        for m in FUNC_RE.finditer(text):
            end = scan._match_brace(text, m.end() - 1)
            if end < 0:
                continue
            params = [p.split()[-1].lstrip("*") if p.split() else ""
                      for p in m.group(2).split(",")]
            out.setdefault(m.group(1), []).append((params, text[m.end():end]))
    return out


def _macro_functions(defs):
    """Function-like macros as one-statement functions, `M(x) E` as
    `return E;`, for _resolve (a primitive chosen by #if is a macro, one
    definition per variant)."""
    out = {}
    for name, params, body, _f, _first, _last in defs:
        if params:
            out.setdefault(name, []).append((params, "return %s;" % body))
    return out


def _step(arg, params):
    """An argument as a step: +1, -1, ("param", i) or ("param-neg", i)."""
    a = A.nospace(arg)
    if a in ("1", "1u", "1U"):
        return +1
    if a in ("-1", "(-1)"):
        return -1
    neg = re.match(r"^-\(?(\w+)\)?$", a)
    if neg and neg.group(1) in params:
        return ("param-neg", params.index(neg.group(1)))
    return ("param", params.index(a)) if a in params else None


def _neg(st):
    if isinstance(st, int):
        return -st
    if st:
        return ("param" if st[0] == "param-neg" else "param-neg", st[1])
    return None


def _resolve(name, funcs, depth=0):
    """What NAME(a, ...) does to its first parameter's count: (role,
    returns, step) with role read, store, rmw; step an int or ("param", i).
    Every variant the registry can read must agree, or None."""
    if depth > 4:
        return None
    seen = set()
    for params, body in funcs.get(name, []):
        b = A.nospace(re.sub(r"/\*.*?\*/|//[^\n]*|^\s*#.*$", "", body, flags=re.M))
        for f in registry.FENCES:
            b = re.sub(r"%s\(\w*\);" % f, "", b)
        b = b.replace("(void)", "")
        # a function of one statement that returns nothing (`{ prim(&p->v,
        # 1); }`): read as the call, its result dropped
        void = re.match(r"^(?!return)((\w+)\(.*\));$", b)
        if void and void.group(2) in registry.ATOMIC_STORES:
            void = None  # a store, read below
        if void:
            b = "return%s;" % void.group(1)
        if b.startswith("return") and b.endswith(";"):
            b = "return%s;" % A.unparen(b[6:-1])
        p0 = re.escape(params[0]) if params else "$^"
        m = re.match(r"^return\(?(\w+)\((.*)\)\)?([-+]\w+)?;$", b)
        # a decrement tested inside the operation (`(dec(x) == 1)`): true
        # on the final put
        cmp = re.match(r"^return(\w+)\((.*)\)(==|!=|<=|>=|<|>)(\d+);$", b)
        r = None
        if re.match(r"^return\(?%s->\w+\)?;$" % p0, b):
            r = ("read", "read", 0)
        elif re.match(r"^%s->\w+=\w+;$" % p0, b):
            r = ("store", "set", 0)
        elif cmp:
            inner = _resolve_call(cmp.group(1), A.split_args(cmp.group(2)), params,
                                  funcs, depth)
            if inner and inner[0] == "rmw" and inner[2] == -1:
                what = registry.DEC_TESTS.get((inner[1], cmp.group(3), int(cmp.group(4))))
                r = ("rmw", "dec0", -1) if what == "last" else None
        elif m:
            call, args = m.group(1), A.split_args(m.group(2))
            if call in registry.PRIMITIVES and args and \
                    re.match(r"^(&\(?%s\)?->\w+|\(?%s\)?)$" % (p0, p0),
                             A.nospace(args[0])):
                _fam, ret, _p, delta = registry.PRIMITIVES[call]
                if delta == 0:
                    r = ("read", "read", 0)
                else:
                    st = delta if isinstance(delta, int) else _step(args[delta[1]], params)
                    if not isinstance(delta, int) and delta[2] < 0:
                        st = _neg(st)
                    r = ("rmw", ret, st)
            elif call in funcs and args and A.unparen(A.nospace(args[0])) == params[0]:
                inner = _resolve(call, funcs, depth + 1)
                if inner and inner[0] == "rmw" and isinstance(inner[2], tuple):
                    st = _step(args[inner[2][1]], params)
                    if inner[2][0] == "param-neg":
                        st = _neg(st)
                    inner = (inner[0], inner[1], st)
                r = inner
            if r and r[0] == "rmw" and m.group(3):
                r = (r[0], registry.adjust(r[1], m.group(3)[0], int(m.group(3)[1:]), r[2])
                     if m.group(3)[1:].isdigit() and isinstance(r[2], int) else None, r[2])
        elif re.match(r"^(\w+)\(&\(?%s\)?->\w+,\w+(,\w+)?\);$" % p0, b):
            call = re.match(r"^(\w+)\(", b).group(1)
            if call in registry.ATOMIC_STORES:
                r = ("store", "set", 0)
        if r and void and r[0] == "rmw":
            r = (r[0], "void", r[2])
        if r:
            seen.add(r)
    return seen.pop() if len(seen) == 1 else None


def _resolve_call(call, args, params, funcs, depth):
    """What `return CALL(ARGS);` does inside a definition of PARAMS (the
    same reading as _resolve's, for a call whose result is compared)."""
    text = "%s(%s)" % (call, ",".join(args))
    return _resolve("\0call", {"\0call": [(params, "return %s;" % text)], **funcs},
                    depth + 1) if depth < 4 else None


def find(root, files, defs, struct_fields=None):
    """The families of the tree: {field: Family}."""
    out, operated = {}, set()  # (file, field) some macro operates on: (p)->field
    for _name, params, body, f, _first, _last in defs:
        if params:
            for pm in re.finditer(r"\(\s*(\w+)\s*\)\s*->\s*(\w+)", body):
                if pm.group(1) == params[0]:
                    operated.add((f, pm.group(2)))
    for name, params, body, f, first, _last in defs:
        m = DECLARE_RE.match(body) if params is None else None
        if m and (f, m.group(2)) in operated and m.group(2) != name and \
                not re.search(r"\b(struct|union|enum|typedef|return)\b", body):
            out.setdefault(m.group(2), Family(f, m.group(2), " ".join(m.group(1).split()),
                                              name))
    from . import counttype
    for field, fam in counttype.find(files, defs, struct_fields or {}, Family, scan.typedef_map(files)).items():
        out.setdefault(field, fam)
    if not out:
        return {}
    funcs = _functions(files)
    for name, entries in _macro_functions(defs).items():
        funcs.setdefault(name, entries)
    for field, fam in out.items():
        for name, params, body, f, first, last in defs:
            if f != fam.header or not params:
                continue
            acc = re.findall(r"(\w+)\s*\(\s*&\s*\(\s*%s\s*\)\s*->\s*%s\b" % (
                re.escape(params[0]), field), body)
            if not acc and fam.kind == "type":
                v = counttype.stores(body, params[0], field)
                if v is not None:  # `((P)->f = (V))`: a plain store
                    fam.ops[name] = ("store", ("param", params.index(v))
                                     if v in params else v, 0)
                    fam.defs.append((name, None, f, first, last))
            if not acc:
                continue
            if len(set(acc)) != 1:
                fam.refused.append("%s applies more than one operation" % name)
                continue
            r = _resolve(acc[0], funcs)
            if r is None and acc[0] in registry.PRIMITIVES:  # a primitive itself
                call = next(_calls(body, acc[0]), None)
                r = call and _resolve_call(acc[0], A.split_args(call[2]), params, funcs, 0)
            if r is None:
                fam.refused.append("%s: %s() is not read as one atomic operation"
                                   % (name, acc[0]))
                continue
            m = re.search(r"%s\s*\(\s*&\s*\(\s*%s\s*\)\s*->\s*%s\s*\)\s*([-+])\s*(\d+)" % (
                acc[0], re.escape(params[0]), field), body)
            if m and r[0] == "rmw" and isinstance(r[2], int):
                r = (r[0], registry.adjust(r[1], m.group(1), int(m.group(2)), r[2]), r[2])
            sv = re.search(r"%s\s*\(\s*&\s*\(\s*%s\s*\)\s*->\s*%s\s*,\s*([^(),]+)\)" % (
                acc[0], re.escape(params[0]), field), body)
            if r[0] == "store":  # the value stored: a constant or a parameter
                v = A.nospace(sv.group(1)) if sv else "?"
                r = ("store", ("param", params.index(v)) if v in params else v, 0)
            prev = fam.ops.get(name)
            if prev and prev != r:
                fam.refused.append("%s means different things in its variants" % name)
            fam.ops[name] = r
            fam.defs.append((name, acc[0], f, first, last))
    # a count type is one whose operations count: at least one decrement
    # (a struct whose member macros merely read or store is no count)
    return {k: fam for k, fam in out.items() if fam.kind != "type" or any(
        r[0] == "rmw" and r[2] == -1 for r in fam.ops.values())}


def _calls(text, name):
    """(start, end) of every NAME(...) call in TEXT."""
    for m in re.finditer(r"\b%s\s*\(" % re.escape(name), text):
        end = scan._match_brace(text.replace("(", "{").replace(")", "}"), m.end() - 1)
        if end > 0:
            yield m.start(), end + 1, text[m.end():end]


def _function_end(text, pos):
    """Where the function containing POS ends (its brace depth back at 0)."""
    depth = text.count("{", 0, pos) - text.count("}", 0, pos)
    i = pos
    while i < len(text) and depth > 0:
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
        i += 1
    return i


BASE_RE = r"(\w+)\s*\)?\s*(->|\.)\s*%s\b"


def _plain_owner(text, pos, base, field, struct_fields):
    """The struct declaring FIELD plainly (not through the family's macro)
    that BASE's declaration before POS names (`struct blob *b`, `blob_t
    *b`), or None: such a use is that struct's, not the family's."""
    decl = None
    for m in re.finditer(r"\b(?:struct\s+)?(\w+)\s*\*?\s*\b%s\b\s*[;=,)]"
                         % re.escape(base), text[:pos]):
        decl = m.group(1)
    if decl is None:
        return None
    for d in struct_fields.get(field, []):
        if decl == d["struct"] or decl in d["typedefs"]:
            return d["struct"] or decl
    return None


def check(root, files, defs, fam, struct_fields=None):
    """The family's proofs over every use in the tree (fam.refused).  A use
    of the field's name whose base is declared with a struct type that
    declares that field plainly is that struct's (attribution by type),
    not the family's."""
    from .release import _releases_object
    field, hdr = fam.field, fam.header
    roles = {n: r for n, r in fam.ops.items()}
    uses = 0
    hdr_macros = {n for n, p, _b, df, _a, _z in defs if df == hdr and p}
    # the family's own definitions (every #if variant) and its declaration
    own = [(a, b) for _, _, df, a, b in fam.defs] + [
        (a, b) for n, _, _, df, a, b in defs if n == fam.declare and df == hdr]
    for f in files:
        text = scan.read(f)
        inside = lambda pos: f == hdr and any(
            a <= text.count("\n", 0, pos) + 1 <= b for a, b in own)
        for m in re.finditer(BASE_RE % re.escape(field), text):
            if not inside(m.start()) and not _plain_owner(
                    text, m.start(), m.group(1), field, struct_fields or {}):
                fam.refused.append("%s:%d: %s used outside the family" % (
                    os.path.relpath(f, root), text.count("\n", 0, m.start()) + 1, field))
        if fam.kind == "type":
            _embedded_uses(root, f, text, fam, hdr_macros, struct_fields or {})
        for m in re.finditer(r"^\s*%s\s*;" % fam.declare, text, re.M) \
                if fam.kind == "declare" else ():
            st = re.findall(r"\bstruct\s+(\w+)\s*\{", text[:m.start()])
            fam.fields.append((st[-1] if st else "?", f,
                               text.count("\n", 0, m.end()) + 1))
        for name, (role, ret, step) in roles.items():
            for s, e, args in _calls(text, name):
                if inside(s):
                    continue
                uses += 1
                at = "%s:%d" % (os.path.relpath(f, root), text.count("\n", 0, s) + 1)
                before = text[:s].rstrip()
                after = text[e:].lstrip()
                stmt = before[-1:] in (";", "{", "}", ")", "") and after.startswith(";")
                if role == "store":
                    v = ret if not isinstance(ret, tuple) else A.nospace(
                        (A.split_args(args) + ["?"] * 9)[ret[1]])
                    if not re.match(r"^[1-9]\d*[uUlL]*$", v):
                        fam.refused.append("%s: %s stores %s (a creation stores a "
                                           "positive constant)" % (at, name, v))
                elif role == "rmw" and step == +1 and not stmt:
                    fam.refused.append("%s: the get's result is used (an increment "
                                       "from 0 tested for: a counter)" % at)
                elif role == "rmw" and step == -1:
                    what = _put_test(ret, before, after)
                    if not what:
                        fam.refused.append("%s: the put's result is not tested against "
                                           "the final put" % at)
                        continue
                    obj = _object(fam, args)
                    rest = text[e:_function_end(text, s)]
                    if what == "last":  # if (PUT(x) <= 0) release(x), or a block
                        semi, brace = rest.find(";"), rest.find("{")
                        rest = rest[:scan._match_brace(rest, brace) + 1] if \
                            0 <= brace < semi else rest[:semi + 1]
                    if not _releases_object(rest, None, obj):
                        fam.refused.append("%s: no release of %s follows the final put"
                                           % (at, obj))
                elif role == "rmw" and step not in (+1, -1):
                    fam.refused.append("%s: %s is not a get or a put" % (at, name))
    if not uses:
        fam.refused.append("no use")
    return fam


def _put_test(ret, before, after):
    """What a put's test selects, "last" or "notlast", from the text around
    the call: a comparison after it (`PUT(x) == 1`), or for a put that
    tests itself (dec0) the `if (` or `if (!` before it; else None."""
    cm = re.match(r"^(==|!=|<=|>=|<|>)\s*(\d+)", after)
    if cm:
        return registry.DEC_TESTS.get((ret, cm.group(1), int(cm.group(2))))
    if ret == "dec0" and after.startswith(")"):
        if re.search(r"\bif\s*\(\s*!\s*$", before):
            return "notlast"
        if re.search(r"\bif\s*\(\s*$", before):
            return "last"
    return None


def _object(fam, args):
    """The object whose count a call's first argument names: the argument
    itself (a declare family's macros take the object), or, for a count
    type, X of `&X->member`."""
    first = A.split_args(args)[0].strip() if args.strip() else ""
    if fam.kind != "type":
        return args.strip()
    m = re.match(r"^&\s*\(?\s*(\w+)\s*\)?\s*(?:->|\.)\s*\w+$", first)
    return m.group(1) if m else first


def _embedded_uses(root, f, text, fam, hdr_macros, struct_fields):
    """Every use of a member of the count type goes through the family's
    header's macros (`OP(&obj->member`); another use of it, on an object of
    an embedding struct (or one the text cannot type), refuses the
    family."""
    embedding = {st for st, _f, _l in fam.fields}
    for member in sorted(set(fam.members.values())):
        for m in re.finditer(BASE_RE % re.escape(member), text):
            head = text[:m.start()]
            call = re.search(r"\b(\w+)\s*\(\s*&\s*\(?\s*$", head)
            if call and call.group(1) in hdr_macros:
                continue
            owner = _plain_owner(text, m.start(), m.group(1), member, struct_fields)
            if owner is not None and owner not in embedding:
                continue
            fam.refused.append("%s:%d: %s used outside the family" % (
                os.path.relpath(f, root), text.count("\n", 0, m.start()) + 1, member))


def names(fam, P=None):
    """Each family macro's atomic call -> its refcount_t (or
    refcount_long_t) form."""
    P = P or fam.width[1]
    out = {}
    for name, (role, ret, step) in fam.ops.items():
        if role == "read":
            out[name] = P + "_read(%s)"
        elif role == "store":
            out[name] = P + "_set(%s, %s)"  # a creation: a positive constant
        elif step == +1:
            out[name] = P + "_inc(%s)"
        elif ret == "new":
            out[name] = "(!" + P + "_dec_and_test(%s))"   # 0 on the final put
        elif ret == "old":
            out[name] = "(" + P + "_dec_and_test(%s) ? 1 : 2)"  # 1 on the final put
        elif ret == "dec0":
            out[name] = P + "_dec_and_test(%s)"  # true on the final put
        else:
            out[name] = None
    return out


def rewrite(fam, text):
    """The family header's text with its operations and its declaration on
    refcount_t (line numbers kept)."""
    new = names(fam)
    lines = text.split("\n")
    P = fam.width[1]
    for name, prim, _f, first, last in fam.defs:
        body = "\n".join(lines[first - 1:last])
        if prim is None:  # a plain store `(P)->f = V` (a count type's init)
            body = re.sub(r"\(\s*(\w+)\s*\)\s*->\s*%s\s*=(?!=)\s*(\([^()]*\)|[^()]+?)(\s*\))"
                          % fam.field, lambda m: P + "_set(&(%s)->%s, %s)%s" % (
                              m.group(1), fam.field, m.group(2).strip(), m.group(3)), body)
            lines[first - 1:last] = body.split("\n")
            continue
        pat = re.compile(r"%s\s*\(\s*(&\s*\(\s*\w+\s*\)\s*->\s*%s)\s*(?:,\s*([^()]*?))?\)"
                         r"(\s*[-+]\s*\d+)?" % (prim, fam.field))
        role = fam.ops[name]

        def sub(m):
            ptr = A.nospace(m.group(1))
            if role[0] == "store":
                return new[name] % (ptr, m.group(2))
            return new[name] % ptr
        body = pat.sub(sub, body)
        lines[first - 1:last] = body.split("\n")
    if fam.kind == "type":  # the count member retyped in the type
        n = fam.decl["line"] - 1
        lines[n] = re.sub(r"^(\s*)%s(\s+%s\s*;)" % (re.escape(fam.type).replace(
            r"\ ", r"\s+"), fam.field), r"\g<1>%s\2" % fam.width[0], lines[n], count=1)
        return "\n".join(lines)
    text = "\n".join(lines)
    return re.sub(r"(#\s*define\s+%s\b[\s\\]*)%s(\s+%s\b)" % (
        fam.declare, re.escape(fam.type).replace(r"\ ", r"\s+"), fam.field),
        r"\1refcount_t\2", text, count=1)


def own_defs(fams):
    """(file, first, last) of every family's own macros and declaration."""
    return [(f, a, b) for fam in fams.values() for _n, _p, f, a, b in fam.defs]


def covers(fams, fm):
    """The model's field FM is one a converted family re-implements: its
    Struct.field is a family struct's (by struct tag or typedef), or it is
    keyed by name alone and no struct declares that name but through the
    family's macro.  Never by the member name alone: a same-named field of
    another struct is converted (or refused) at its own call sites."""
    fam = fams.get(fm["field"])
    if fam is None or fam.refused:
        return False
    if fm.get("stype"):
        own = set(fam.decl["typedefs"]) | {fam.decl["struct"]} if fam.decl else set()
        return fm["stype"] in {st for st, _f, _l in fam.fields} | set(fam.typedefs) | own
    # keyed by name: no struct declares it but the count type itself
    return all(fam.decl and (d["file"], d["line"]) == (fam.decl["file"], fam.decl["line"])
               for d in fm.get("decls", []))


def families(root, files, defs, struct_fields=None):
    """The tree's families, each with its proofs' verdict.  An installed
    header defining a family is converted only when an installed header
    declares a struct holding its count (then the .pc gets Requires:);
    otherwise every user of that header would need librefcount for nothing."""
    from .rewrite import public_header
    out = {f: check(root, files, defs, fam, struct_fields)
           for f, fam in find(root, files, defs, struct_fields).items()}
    tds = scan.typedef_map(files) if out else {}
    for fam in out.values():
        tags = {"struct " + st for st, _f, _l in fam.fields}
        fam.typedefs = sorted(n for n, t in tds.items() if " ".join(t.split()) in tags)
    for fam in out.values():
        if not fam.refused and public_header(root, fam.header) and \
                not any(public_header(root, f) for _, f, _ in fam.fields):
            fam.refused.append("%s is an installed header, and no installed struct "
                               "holds the count" % os.path.relpath(fam.header, root))
    return out

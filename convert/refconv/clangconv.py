"""The result convention of a project's wrappers, read on the compiled code
(clangscan.py walks the functions; convert/README.md, "Result conventions
read on the compiled code"): what each function returns when every return
gives the same thing (an atomic builtin's result on a parameter's lvalue,
another such function's, a local assigned once from one), or the one
store it makes; resolved through calls to a fixpoint: new value, old
value or read, and the step (a constant or a parameter)."""

import re


class _Lazy:
    def __getattr__(self, name):
        from . import clangscan
        return getattr(clangscan, name)


S = _Lazy()


def _value(ci, c, params):
    """An operation's step as written: ("int", n), ("param", j, sign) for
    a parameter (or its negation), else None."""
    K = ci.CursorKind
    c, sign = S._strip(ci, c), 1
    if c.kind == K.UNARY_OPERATOR and [t.spelling for t in c.get_tokens()][:1] == ["-"]:
        kids = list(c.get_children())
        c, sign = (S._strip(ci, kids[0]), -1) if kids else (c, 1)
    if c.kind == K.INTEGER_LITERAL:
        toks = [t.spelling for t in c.get_tokens()]
        m = re.match(r"^(\d+)[uUlL]*$", toks[0]) if len(toks) == 1 else None
        return ("int", sign * int(m.group(1))) if m else None
    if c.kind == K.DECL_REF_EXPR and c.spelling in params:
        return ("param", params.index(c.spelling), sign)
    return None


def _describe(ci, e, params, stmt, cache):
    """What expression E computes, for a wrapper's result convention:
    ("atomic", builtin, pointer param, step), ("call", callee, args), or
    None.  STMT: the statement holding E (its words name a token-pasted
    builtin)."""
    K = ci.CursorKind
    e = S._strip(ci, e)
    kids = list(e.get_children())
    if e.kind == K.CALL_EXPR:
        args = kids[1:]
        if e.spelling.startswith(("__sync_", "__atomic_")):
            p = S._path(ci, args[0], params) if args else None
            if p and p[0] == "param" and p[3] and len(p[2]) <= 1:
                return ("atomic", re.sub(r"_\d+$", "", e.spelling), p[1],
                        _value(ci, args[1], params) if len(args) > 1 else None)
            return None
        out = []
        for a in args:
            v = _value(ci, a, params)
            p = None if v else S._path(ci, a, params)
            out.append(v or (("ptr", p[1]) if p and p[0] == "param" and not p[2] else None))
        return ("call", e.spelling, tuple(out))
    if e.kind == K.UNEXPOSED_EXPR and len(kids) >= 2 and \
            kids[0].type.kind == ci.TypeKind.POINTER:
        name = S._spelled_name(ci, e.extent.start, cache) or "atomic_pasted_" + "_".join(
            t.spelling for t in stmt.get_tokens() if re.match(r"^[a-z]+$", t.spelling))
        p = S._path(ci, kids[0], params)
        if "atomic" in name and p and p[0] == "param" and p[3] and len(p[2]) <= 1:
            return ("atomic", name, p[1], _value(ci, kids[2] if len(kids) >= 3 else kids[1],
                                                 params))
    return None


def summary(ci, fn, params, cache):
    """What a function returns, when every return gives the same thing: an
    atomic operation's result, a call's, or a local variable assigned once
    from one (`r = sub(R, 1); if (r < 0) ...; return r;`); or the one
    store it makes of a parameter into a member of a parameter (`a->v =
    v`, an atomic store): ("store", pointer param, value).  None
    otherwise."""
    K = ci.CursorKind
    rets, assigns, stores = [], {}, []

    def walk(c):
        for ch in c.get_children():
            kids = list(ch.get_children())
            if ch.kind == K.RETURN_STMT:
                rets.append((kids[0], ch) if kids else (None, ch))
            elif ch.kind == K.BINARY_OPERATOR and len(kids) == 2 and [
                    t.spelling for t in ch.get_tokens()][len(list(kids[0].get_tokens())):][:1] \
                    == ["="]:
                lhs = S._strip(ci, kids[0])
                if lhs.kind == K.DECL_REF_EXPR:
                    assigns.setdefault(lhs.spelling, []).append((kids[1], ch))
                elif lhs.kind == K.MEMBER_REF_EXPR:
                    base = list(lhs.get_children())
                    b = S._strip(ci, base[0]) if base else None
                    v = _value(ci, kids[1], params)
                    if b is not None and b.kind == K.DECL_REF_EXPR and b.spelling in \
                            params and v and v[0] == "param":
                        stores.append(("store", params.index(b.spelling), v))
            elif ch.kind == K.VAR_DECL:
                init = [k for k in kids if k.kind != K.TYPE_REF]
                if init:
                    assigns.setdefault(ch.spelling, []).append((init[-1], ch))
            elif ch.kind in (K.CALL_EXPR, K.UNEXPOSED_EXPR) and len(kids) >= 2 and \
                    "store" in (ch.spelling if ch.kind == K.CALL_EXPR else
                                S._spelled_name(ci, ch.extent.start, cache)):
                a = kids[1:] if ch.kind == K.CALL_EXPR else [kids[0], kids[-1]]
                p = S._path(ci, a[0], params) if a else None
                v = _value(ci, a[1], params) if len(a) > 1 else None
                if p and p[0] == "param" and p[3] and v and v[0] == "param":
                    stores.append(("store", p[1], v))
            walk(ch)
    walk(fn)
    out = set()
    for e, st in rets:
        if e is not None and S._strip(ci, e).kind == K.DECL_REF_EXPR:
            a = assigns.get(S._strip(ci, e).spelling, [])
            e, st = a[0] if len(a) == 1 else (None, st)
        out.add(_describe(ci, e, params, st, cache) if e is not None else None)
    if len(out) == 1 and None not in out:
        return out.pop()
    if not rets and len(stores) == 1 or len(set(stores)) == 1 and \
            all(S._strip(ci, e).kind == K.DECL_REF_EXPR for e, _ in rets if e is not None):
        return stores[0]
    return None


def conventions(facts):
    """Each wrapper's result convention, from what its summary computes, to
    a fixpoint through calls: name -> (pointer param, returns, step) with
    returns new, old or read (an add of 0) and step an int or ("param", j,
    sign); name -> (pointer param, "store", ("param", j, 1)) for a store."""
    summ = {}
    for name, _f, _l, uses in facts:
        for op, _i, p, _w in uses:
            if op == "=summary":
                summ.setdefault(name, set()).add(p)
    summ = {n: s.pop() for n, s in summ.items() if len(s) == 1}
    out = {}
    for _ in range(6):
        for name, s in summ.items():
            if name in out:
                continue
            if s[0] == "store":
                out[name] = (s[1], "store", s[2])
            elif s[0] == "atomic":
                n = s[1]
                m = re.search(r"(add|sub)_(and_)?fetch|fetch_(and_)?(add|sub)", n)
                if not m or s[3] is None:
                    continue
                ret = "new" if m.group(1) else "old"
                sign = -1 if "sub" in m.group(0) else 1
                v = s[3]
                if v == ("int", 0):
                    out[name] = (s[2], "read", 0)
                else:
                    out[name] = (s[2], ret, sign * v[1] if v[0] == "int" else
                                 ("param", v[1], sign * v[2]))
            elif s[0] == "call" and s[1] in out:
                pidx, ret, step = out[s[1]]
                args = s[2]
                ptr = args[pidx] if pidx < len(args) else None
                if not ptr or ptr[0] not in ("ptr", "param"):
                    continue
                if isinstance(step, tuple):
                    a = args[step[1]] if step[1] < len(args) else None
                    if a is None or a[0] == "ptr":
                        continue
                    step = step[2] * a[1] if a[0] == "int" else \
                        ("param", a[1], step[2] * a[2])
                out[name] = (ptr[1], ret, step)
    return out

"""Discovery and the whole-field check: wrappers, operation sites, candidate
fields, their inventory, and the decision (convert or report-only)."""

import os
import re

from . import registry, scan

CTX_PRIORITY = ["stmt", "assert", "cmp+", "cmp-", "cmp", "!", "bool", "return", "kept",
                "value"]
USE_PRIORITY = ["oparg", "noop", "aset", "member", "plain-stmt", "plain-cmp", "plain-value", "arith",
                "set", "cmp", "addr", "read"]
CONST_RE = re.compile(r"^\(?\s*(\([\w ]+\)\s*)?[-~]?\s*(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\s*\)?$"
                      r"|^[A-Z][A-Z0-9_]*$")


def _regex(names):
    return "^(%s)$" % "|".join(sorted(names)) if names else "^$"


def split_args(es):
    out, depth, cur = [], 0, ""
    for ch in es:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def unparen(text):
    """TEXT, stripped, without the parentheses that enclose all of it."""
    t = text.strip()
    while t.startswith("(") and scan._match_brace(
            t.replace("(", "{").replace(")", "}"), 0) == len(t) - 1:
        t = t[1:-1].strip()
    return t


def nospace(s):
    return re.sub(r"\s+", "", s)


FIELD_ARG_RE = re.compile(r"^&\(?(.+?)\)?->(\w+)$")


CAST_RE = re.compile(r"^&\(\((?:struct)?\w+\*+\)")


def field_of(arg):
    """'&E->f' -> (E, f); a cast of E is dropped (&((T *)(r))->f)."""
    a = nospace(arg)
    if CAST_RE.match(a):
        a = "&(" + CAST_RE.sub("", a)
    m = FIELD_ARG_RE.match(a)
    return (m.group(1), m.group(2)) if m else None


class Op:
    def __init__(self, name, family, returns, delta, ptr_arg=0, field=None,
                 where=None, atomic=True, via=None):
        self.name, self.family, self.returns = name, family, returns
        self.delta, self.ptr_arg, self.field = delta, ptr_arg, field
        self.where, self.atomic, self.via = where, atomic, via
        self.defs = []  # (file, first, last) of wrapper definitions

    def step(self, args):
        if isinstance(self.delta, int):
            return self.delta
        _, i, sign = self.delta
        if i >= len(args):
            return None
        v = nospace(args[i])
        return sign if v in ("1", "1u", "1U") else -sign if v in ("-1", "(-1)") else None


def primitive_ops():
    return {n: Op(n, fam, ret, d, p) for n, (fam, ret, p, d) in
            registry.PRIMITIVES.items()}


def macro_wrappers(defs, ops):
    """#define NAME(p) PRIM(&p->f, 1, ...) [+-1]: wrappers of one RMW, also the
    plain (++p->f) forms; to a fixpoint (wrappers of wrappers)."""
    found, changed = {}, True
    while changed:
        changed = False
        for name, params, body, f, first, last in defs:
            if not params:
                continue
            b = nospace(body)
            while b.startswith("(") and b.endswith(")") and \
                    scan._match_brace(b.replace("(", "{").replace(")", "}"), 0) == len(b) - 1:
                b = b[1:-1]
            p = re.escape(params[0])
            pm = re.match(r"^(\+\+|--)\(?%s\)?->(\w+)$" % p, b)
            through = _put_release(name, params, b, ops) or \
                _pass_through(name, params, b, ops)
            if through:
                op = through
            elif len(params) != 1:
                continue
            elif pm:
                op = Op(name, "plain", "new", +1 if pm.group(1) == "++" else -1,
                        field=pm.group(2), atomic=False, via=pm.group(1))
                op.param, op.cast = params[0], False
                op.ptr_text = "&(%s)->%s" % (params[0], pm.group(2))
            else:
                m = re.match(r"^(\w+)\((.*)\)([-+]1)?$", b)
                if not m or m.group(1) not in ops or m.group(1) == name:
                    continue
                inner = ops[m.group(1)]
                args = split_args(m.group(2))
                if inner.field:  # a wrapper of an object wrapper
                    if nospace(args[0]) not in (params[0], "(%s)" % params[0]):
                        continue
                    field = inner.field
                    ptr_text = None
                else:
                    if inner.ptr_arg >= len(args):
                        continue
                    fa = field_of(args[inner.ptr_arg])
                    if not fa or fa[0].strip("()") != params[0]:
                        continue
                    field = fa[1]
                    ptr_text = args[inner.ptr_arg]
                step = inner.step(args)
                if step is None:
                    continue
                ret = inner.returns
                if m.group(3):
                    ret = registry.adjust(ret, m.group(3)[0], 1, step) or "value"
                op = Op(name, inner.family, ret, step, field=field,
                        atomic=inner.atomic, via=inner.name)
                if ret == "putrel":  # the release: the object's own, or none
                    rel = args[inner.release_arg] if inner.release_arg < len(args) else ""
                    if not re.search(r"\b%s\b" % p, rel):
                        continue
                    op.release = rel
                op.param = params[0]
                op.ptr_text = ptr_text or "&(%s)->%s" % (params[0], field)
                op.cast = bool(ptr_text and CAST_RE.match(nospace(ptr_text)))
            prev = found.get(name)
            if prev is None:
                found[name] = op
                changed = True
            elif prev.atomic is False and op.atomic:
                op.defs = prev.defs
                found[name] = op
            found[name].defs.append((f, first, last))
            found[name].defs = sorted(set(found[name].defs))
            if name not in ops:
                ops[name] = found[name]
                changed = True
    return found


def _put_release(name, params, b, ops):
    """#define NAME(R, D) do { if (PUT(R) > 0) break; D; } while (0) (or
    `if (PUT(R) == 0) D;`): a put whose final one runs the release D, a
    parameter (librdkafka's rd_refcnt_destroywrapper): an operation that
    returns nothing ("putrel"), its release the argument at release_arg."""
    m = re.match(r"^do\{if\((\w+)\((\w+)\)(==|!=|<=|>=|<|>)(\d+)\)(break;(\w+);|"
                 r"(\w+);)\}while\(0\)$", b)
    if not m or m.group(1) not in ops or len(params) != 2 or m.group(2) != params[0]:
        return None
    inner = ops[m.group(1)]
    if inner.field or inner.step([m.group(2)]) != -1 or inner.ptr_arg != 0:
        return None
    what = registry.DEC_TESTS.get((inner.returns, m.group(3), int(m.group(4))))
    d = m.group(6) if m.group(6) else m.group(7)
    if d != params[1] or what != ("notlast" if m.group(6) else "last"):
        return None
    op = Op(name, inner.family, "putrel", -1, ptr_arg=0, atomic=inner.atomic,
            via=inner.name)
    op.release_arg, op.param, op.cast = 1, params[0], False
    return op


def _pass_through(name, params, b, ops):
    """#define NAME(R, ...) OP(R, ...): a macro passing its pointer
    parameter on to an operation that takes the count's address (a
    project's typedef'd count behind its own functions, `#define
    my_ref_get(R) my_atomic_add(R, 1)`): an operation of the same
    convention, the step a constant or one of NAME's parameters."""
    m = re.match(r"^(\w+)\((.*)\)$", b)
    if not m or m.group(1) not in ops or m.group(1) == name:
        return None
    inner, args = ops[m.group(1)], split_args(m.group(2))
    if inner.field or inner.ptr_arg >= len(args) or \
            args[inner.ptr_arg].strip("()") not in params:
        return None
    delta = inner.step(args)
    if delta is None and isinstance(inner.delta, tuple) and inner.delta[1] < len(args) \
            and args[inner.delta[1]].strip("()") in params:
        delta = ("arg", params.index(args[inner.delta[1]].strip("()")), inner.delta[2])
    if delta is None:
        return None
    op = Op(name, inner.family, inner.returns, delta,
            ptr_arg=params.index(args[inner.ptr_arg].strip("()")),
            atomic=inner.atomic, via=inner.name)
    op.param, op.cast = params[op.ptr_arg], False
    return op


NOOP_BODY = re.compile(r"^(do\{\}while\(0\)|\(\(?void\)\s*0\)?|)$")


def noop_macros(defs):
    """Macros of one parameter that every definition expands to nothing
    (`#define my_ref_destroy(R) do { } while (0)`: a finaliser of a count
    that needs none in this build): a statement calling one on a count is
    removed when the count is converted."""
    out = {}
    for name, params, body, _f, _a, _z in defs:
        if params is not None and len(params) == 1:
            out[name] = out.get(name, True) and bool(NOOP_BODY.match(nospace(body)))
    return sorted(n for n, ok in out.items() if ok)


def compiled_ops(ops, seen, defs):
    """The wrappers whose result convention the compiled code gave
    (clangscan.conventions(): what each one's active #if branch computes,
    through any depth of calls), as operations taking the count's address;
    and the stores among them, with the macros passing on to one: {name:
    index of the value argument}."""
    stores = {}
    for name, (pidx, ret, step) in sorted(((seen or {}).get("conventions") or {}).items()):
        if name in ops:
            continue
        if ret == "store":
            stores[name] = step[1]
            continue
        delta = step if isinstance(step, int) else ("arg", step[1], step[2])
        ops[name] = Op(name, "compiled", ret, delta, pidx, via="the compiled code")
    for name, params, body, _f, _a, _z in defs:
        m = re.match(r"^(\w+)\((.*)\)$", nospace(body)) if params else None
        if m and m.group(1) in stores and name not in stores:
            args = [a.strip("()") for a in split_args(m.group(2))]
            v = stores[m.group(1)]
            if args and args[0] == params[0] and v < len(args) and args[v] in params:
                stores[name] = params.index(args[v])
    return stores


def function_wrappers(root, files, incdirs, mlines, ops, work):
    """Functions whose body is `return PRIM(p, 1...) [+-1];` on a pointer
    parameter: found by spatch (convert/cocci/wrappers.cocci)."""
    prims = [n for n, o in ops.items() if o.field is None]
    out = scan.spatch(scan.template("wrappers.cocci", PRIMS=_regex(prims)),
                      scan.mentioning(files, prims), incdirs, mlines, workdir=work)
    found = {}
    for line in out.splitlines():
        w = line.split("\t")
        if len(w) != 9 or w[0] != "WRAP":
            continue
        _, fn, prm, prim, es, adj, f, first, last = w
        inner = ops[prim]
        args = split_args(es)
        a = nospace(args[inner.ptr_arg]) if inner.ptr_arg < len(args) else ""
        if a == prm:
            sub = None
        else:
            fa = field_of(a)
            if not fa or fa[0] != prm:
                continue
            sub = fa[1]
        step = inner.step(args)
        if step is None:
            continue
        ret = inner.returns
        if adj:
            ret = registry.adjust(ret, adj[0], int(adj[1:]), step) or "value"
        op = Op(fn, inner.family, ret, step, via=prim)
        op.sub = sub
        op.defs.append((f, int(first), int(last)))
        found.setdefault(fn, op)
    for fn, prm, prim, es, adj, f, first, last in ifdef_wrappers(files, prims):
        if fn in found:
            continue
        if prim == "=read":
            op = Op(fn, "read", "read", 0, via="load")
            op.sub = es
            op.defs.append((f, first, last))
            found[fn] = op
            continue
        inner = ops[prim]
        args = split_args(es)
        fa = field_of(args[inner.ptr_arg]) if inner.ptr_arg < len(args) else None
        sub = fa[1] if fa and fa[0] == prm else None
        step = inner.step(args)
        if len(args) > 1 and nospace(args[1]) == "0":
            step = 0  # an atomic read through an add of 0
        if (not sub and nospace(args[0]) != prm) or step is None:
            continue
        ret = (registry.adjust(inner.returns, adj[0], 1, step) or "value") if adj \
            else inner.returns
        if step == 0:
            ret = "read"
        op = Op(fn, inner.family, ret, step, via=prim)
        op.sub = sub
        op.defs.append((f, first, last))
        found[fn] = op
    for n, o in found.items():
        ops.setdefault(n, o)
    return found


FUNC_RE = re.compile(r"^(\w[\w \t\*]*\s+)?(\w+)\s*\(\s*([\w \t]+\*\s*)(\w+)\s*\)\s*\{", re.M)


def ifdef_wrappers(files, prims):
    """The wrappers spatch does not see: a body whose first preprocessor
    branch is the one `return PRIM(...) [+-1];` (dbus's #if DBUS_USE_SYNC
    _dbus_atomic_inc), the other branches being a locked fallback."""
    prim_re = re.compile(r"^return\(?(%s)\((.*)\)([-+]1)?\)?;$" % "|".join(
        re.escape(p) for p in prims))
    for f in files:
        if not f.endswith(".c"):
            continue
        text = scan.read(f)
        if "#if" not in text:
            continue
        for m in FUNC_RE.finditer(text):
            end = scan._match_brace(text, m.end() - 1)
            body = text[m.end():end]
            if "#if" not in body:
                continue
            first = []
            for l in body.split("\n"):
                s = l.strip()
                if re.match(r"#\s*(else|elif|endif)", s):
                    break
                if s and not s.startswith("#"):
                    first.append(s)
            body1 = nospace(" ".join(s for s in first if not re.match(
                r"(%s)\b" % "|".join(registry.FENCES), s)))
            rm = re.match(r"^return\(?%s->(\w+)\)?;$" % re.escape(m.group(4)), body1)
            if rm:  # a load after a barrier: a read wrapper
                yield (m.group(2), m.group(4), "=read", rm.group(1), "", f,
                       text.count("\n", 0, m.start()) + 1, text.count("\n", 0, end) + 1)
                continue
            mm = prim_re.match(nospace(" ".join(first)))
            if mm:
                yield (m.group(2), m.group(4), mm.group(1), mm.group(2),
                       mm.group(3) or "", f, text.count("\n", 0, m.start()) + 1,
                       text.count("\n", 0, end) + 1)


def in_defs(op_defs, f, line):
    return any(df == f and a <= line <= b for df, a, b in op_defs)


def meaning(op_returns, step, ctx, cmpop, const):
    """What a site does: inc, dec, last, notlast, read, or None
    (unconvertible)."""
    if step == 0 and op_returns == "read":
        return "read"
    if op_returns == "putrel":  # a put that runs the release itself
        return "last" if ctx == "stmt" else None
    if step == +1:  # a kept old value: __refcount_inc(r, &old)
        return "inc" if ctx in ("stmt", "kept", "keptdecl") else None
    if step != -1:
        return None
    if ctx == "stmt":
        return "dec"
    if ctx in ("kept", "keptdecl"):  # stored, then tested: what the test means
        ctx = "cmp"
    ret = op_returns
    if ctx.startswith("cmp") and len(ctx) > 3:
        ret = registry.adjust(ret, ctx[3], int(nospace(ctx[4:]) or 0), step)
        ctx = "cmp"
    if ret is None:
        return None
    if ctx == "cmp":
        try:
            c = int(nospace(const).rstrip("uUlL"), 0)
        except ValueError:
            return None
        return registry.DEC_TESTS.get((ret, nospace(cmpop), c))
    if ctx in ("!", "bool"):
        return registry.DEC_TESTS.get((ret, ctx, None))
    if ret == "dec0" and ctx in ("value", "return"):
        return "last"
    return None


def pick(rows, priority, key):
    best = {}
    for r in rows:
        k = key(r)
        pr = next(i for i, p in enumerate(priority) if r[1].startswith(p))
        if k not in best or pr < best[k][0]:
            best[k] = (pr, r)
    return [r for _, r in best.values()]

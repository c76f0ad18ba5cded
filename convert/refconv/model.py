"""refcount-convert's model of a tree: runs discovery, the two spatch passes
and the whole-field check, and returns the candidates with their
inventories and decisions (what `report` prints and `apply` rewrites)."""

import os
import re
import tempfile

from . import analyse as A, creation, registry, scan, unread
from .release import _line_text, _release_gap, _releases_object


def _plain_kind(text, col, field):
    """++/-- before or after the field access at COL; returns (step, returns)."""
    end = text.find(field, col)
    after = text[end + len(field):].lstrip() if end >= 0 else ""
    before = text[:col]
    if after.startswith("++"):
        return +1, "old"
    if after.startswith("--"):
        return -1, "old"
    b = before.rstrip()
    # the base expression may start before col; look back for ++/-- on the line
    m = re.search(r"(\+\+|--)\s*\(?[\w.\->()\[\]]*$", before + text[col:end])
    if m:
        return (+1 if m.group(1) == "++" else -1), "new"
    if b.endswith("++"):
        return +1, "new"
    return -1, "new"


def build(root, work=None, extra=None):
    root = os.path.abspath(root)
    work = work or tempfile.mkdtemp(prefix="refcount-convert.")
    from . import clangscan
    try:
        seen, note = (None, "spatch only (REFCONV_BACKEND=spatch)") if \
            os.environ.get("REFCONV_BACKEND") == "spatch" else clangscan.discover(root)
    except Exception as e:  # noqa: BLE001 - the spelled-source path still runs
        seen, note = None, "the compiler's view failed (%s: %s): spatch only" % (
            type(e).__name__, e)
    for f, why in (seen or {}).get("skipped", []):
        scan.skip(f, why)
    files = scan.sources(root)
    incdirs = scan.include_dirs(root)
    defs = scan.macros(files)
    mlines = scan.macro_file(defs, files)
    ops = A.primitive_ops()
    stores = A.compiled_ops(ops, seen, defs)
    mwraps = A.macro_wrappers(defs, ops)
    fwraps = A.function_wrappers(root, files, incdirs, mlines, ops,
                                 os.path.join(work, "wrappers"))
    mwraps.update(A.macro_wrappers(defs, ops))  # macros over function wrappers
    wrapper_defs = [d for o in list(mwraps.values()) + list(fwraps.values())
                    for d in o.defs]
    call_ops = {n: o for n, o in ops.items() if o.via != "++" and o.via != "--"}
    out = scan.spatch(scan.template("sites.cocci", OPS=A._regex(call_ops),
                                    ASSERT=registry.ASSERT_RE),
                      scan.mentioning(files, call_ops), incdirs, mlines,
                      workdir=os.path.join(work, "sites"))
    stypes = _types(out)
    struct_fields = scan.structs(files)
    typedefs = scan.typedef_map(files)
    rows = _rows(out, "SITE", 11)
    # a kept result is tested several times (an assert, then the test):
    # keep the test that means something; an increment whose old value is
    # tested == 0 is meant to be from 0 (a creation, or refused)
    kept, from0 = {}, {}
    for r in rows:
        if r[1].strip() == "cmp" and r[2] in ops and A.nospace(r[4]) == "==":
            # a get's result tested for the step from 0 (`if (get(&o->f) ==
            # 1)`, new value; `== 0`, old value): an increment from 0
            o = ops[r[2]]
            if o.step(A.split_args(r[3])) == +1 and (o.returns, A.nospace(r[5])) in (
                    ("new", "1"), ("old", "0")):
                from0[(r[6], int(r[7]), int(r[8]))] = "its %s value is tested == %s" % (
                    o.returns, A.nospace(r[5]))
        if r[1].startswith("kept") and r[2] in ops:
            o = ops[r[2]]
            step = o.step(A.split_args(r[3]))
            if step == +1 and A.nospace(r[4]) == "==" and A.nospace(r[5]) == "0":
                from0[(r[6], int(r[7]), int(r[8]))] = "its old value is tested == 0"
            if A.meaning(o.returns, step, r[1], r[4], r[5]) and (
                    step != +1 or (r[6], r[7], r[8]) not in kept):
                kept[(r[6], r[7], r[8])] = r
    rows = [r for r in rows if not r[1].startswith("kept") or
            kept.get((r[6], r[7], r[8]), r) is r]
    rows = A.pick(rows, A.CTX_PRIORITY, key=lambda r: (r[6], r[7], r[8]))
    from . import family
    fams = family.families(root, files, defs, scan.structs(files))
    # a use inside a family's own macros is the family's (its structs
    # declare the field through the family's macro), never a use of a
    # same-named field of a struct declared plainly
    wrapper_defs += family.own_defs(fams)
    # a call of a count type's operation (`PIX_REF_INC(&s->ref)`) is the
    # family's use, judged with it, never a use of a field of that name
    fam_ops = {n for fam in fams.values() if fam.kind == "type" for n in fam.ops}
    sites, unknown = [], []
    for _, ctx, name, es, cop, const, f, line, col, var, vtype in rows:
        line = int(line)
        if A.in_defs(wrapper_defs, f, line) or name in fam_ops:
            continue
        op = ops[name]
        args = A.split_args(es)
        if op.field:
            base, field = (args[0] if args else "?"), op.field
        else:
            fa = A.field_of(args[op.ptr_arg]) if op.ptr_arg < len(args) else None
            if not fa:
                unknown.append(dict(file=f, line=line, op=name, args=es))
                continue
            base, field = fa
            if getattr(op, "sub", None):
                field = field  # the field is the wrapper's struct (DBusAtomic)
        step = op.step(args)
        what = A.meaning(op.returns, step, ctx, cop, const)
        if op.returns == "putrel" and not op.field:
            what = None  # its release an argument: rewritten only in a macro
        st = None if op.field else _canon(stypes.get((f, line, int(col))), field,
                                          struct_fields, typedefs)
        sites.append(dict(file=f, line=line, col=int(col), op=name, base=base,
                          field=field, stype=st, ctx=ctx.strip(), cmp=cop.strip(),
                          const=const.strip(), step=step, meaning=what,
                          family=op.family, atomic=op.atomic, wrapper=op.via,
                          var=var.strip(), vtype=vtype.strip(),
                          putrel=op.returns == "putrel",
                          from0=from0.get((f, line, int(col)), "")))
    # a field is keyed by (struct, name) when every site's struct is known,
    # else by its name alone
    untyped = {s["field"] for s in sites if s["stype"] is None}
    for s in sites:
        if s["field"] in untyped:
            s["stype"] = None
    keys = sorted({(s["stype"] or "", s["field"]) for s in sites
                   if s["meaning"] in ("last", "notlast")})
    cands = sorted({f for _, f in keys})
    model = dict(discovery=note, compiler=seen, root=root, ops=ops, mwraps=mwraps, fwraps=fwraps, sites=sites,
                 # a project's own count types: typedefs of a non-scalar
                 # type name (`typedef my_atomic_t my_ref_t`)
                 typedef_names={n for n, t in typedefs.items() if not t.startswith(
                     ("struct ", "union ", "enum ")) and n not in registry.WIDTHS and
                     not scan.resolve(t, typedefs)},
                 unknown=unknown, fields={}, macro_file=mlines, incdirs=incdirs,
                 work=work, files=files, defs=defs)
    model["families"] = fams
    if not cands:
        return model
    ptr_ops = [n for n, o in call_ops.items() if not o.field]
    dec_macros = [n for n, o in call_ops.items() if o.field and o.delta == -1]
    decops = [n for n, o in call_ops.items() if not o.field]
    incops = [n for n in ptr_ops if ops[n].step(["p", "1"]) == +1]
    readops = [n for n in ptr_ops if ops[n].returns == "read"]
    out = scan.spatch(scan.template(
        "fields.cocci", FIELDS=A._regex(cands), OPS=A._regex(ptr_ops),
        INCOPS=A._regex(incops), DECOPS=A._regex(decops),
        DECMACROS=A._regex(dec_macros), RELEASE=registry.RELEASE_RE,
        ASSERT=registry.ASSERT_RE, READOPS=A._regex(readops),
        NOOPS=A._regex(A.noop_macros(defs)),
        STORES=A._regex([n for n, v in list(registry.ATOMIC_STORES.items()) +
                         list(stores.items()) if v == 1]),
        INITS=A._regex([n for n, v in registry.ATOMIC_STORES.items() if v != 1])),
        scan.accessing(files, cands, dec_macros), incdirs, mlines,
        workdir=os.path.join(work, "fields"))
    utypes = _types(out)
    rows = _rows(out, "FIELD", 9)
    facts = [r for r in rows if r[1] in creation.FACTS]
    rows = [r for r in rows if r[1] not in creation.FACTS]
    notes = [r for r in rows if r[1] in ("release", "release-macro")]
    uses = A.pick([r for r in rows if r not in notes], A.USE_PRIORITY,
                  key=lambda r: (r[6], r[7], r[8]))
    # zero sources: the functions whose result reaches a creation candidate,
    # their returns read by convert/cocci/returns.cocci, to a fixpoint
    asked = set()
    for _ in range(4):
        zero = creation.zero_sources(facts, defs, uses, readops)
        want = creation.wanted(facts, zero) - asked
        if not want:
            break
        asked |= want
        out = scan.spatch(scan.template(
            "returns.cocci", FNS=A._regex(want), FIELDS=A._regex(cands),
            ASSERT=registry.ASSERT_RE, READOPS=A._regex(readops)),
            scan.defining(files, want), incdirs, mlines,
            workdir=os.path.join(work, "returns"))
        facts += _rows(out, "FIELD", 9)
    model["zero"] = zero
    cache = {}
    seen_by = _Includes(files)
    resolved = _resolve_untyped(root, seen, rows + facts, keys, utypes, struct_fields,
                                typedefs, seen_by)

    def mine(st, field, f, line, col):
        if not st:
            return True
        u = _canon(utypes.get((f, int(line), int(col))), field, struct_fields, typedefs)
        return _attributed(st, field, f, u, resolved.get((
            os.path.realpath(f), int(line), field)), struct_fields, typedefs, seen_by)

    for st, field in keys:
        decls = [d for d in struct_fields.get(field, [])
                 if not st or _key(d) == st] or struct_fields.get(field, [])
        fs = [s for s in sites if s["field"] == field and (s["stype"] or "") == st]
        fm = dict(field=field, stype=st, decls=decls, root=root, sites=fs, struct_fields=struct_fields, reads=[], sentinels=[],
                  sets=[], plain=[], initialisers=[], creations=[], releases=[], noops=[],
                  refused=[], conditions=[])
        for r in notes:
            _, kind, base, f2, x, v, f, line, col = r
            if not mine(st, field, f, line, col):
                continue
            if kind == "release" and f2 == field:
                fm["releases"].append(dict(file=f, line=int(v), call=x))
            elif kind == "release-macro" and ops[f2].field == field:
                fm["releases"].append(dict(file=f, line=int(v), call=x))
        for _, ctx, base, f2, op, v, f, line, col in uses:
            ours = f2 == field and mine(st, field, f, line, col)
            if ours is False:
                continue
            line, col = int(line), int(col)
            if A.in_defs(wrapper_defs, f, line):
                continue
            where = dict(file=f, line=line, col=col, base=base, op=op.strip(),
                         value=v.strip())
            if ctx == "oparg":
                continue
            if ours is None:  # it may be this struct's: counted against it
                fm["refused"].append((where, UNATTRIBUTED % field))
                continue
            if ctx == "noop":  # removed with the conversion
                fm["noops"].append(dict(where, op=op.strip()))
                continue
            if ctx.startswith("plain"):
                step, ret = _plain_kind(_line_text(cache, f, line), col - 1, field)
                c = ctx[6:]
                what = A.meaning(ret, step, "stmt" if c == "stmt" else
                                 "cmp" if c == "cmp" else "value", op, v)
                where.update(step=step, meaning=what)
                cond = scan.conditions(scan.read(f))[line] if True else []
                where["cond"] = cond
                fm["plain"].append(where)
                if what is None:
                    fm["refused"].append((where, "plain ++/-- whose value is used"))
                elif not cond:
                    fm["refused"].append((where, "non-atomic ++/-- outside a "
                                          "conditional (non-threaded) build branch"))
            elif ctx in ("set", "aset"):
                if ctx == "aset":
                    where["atomic"] = op.strip()
                if registry.SENTINEL_RE.match(A.nospace(v)):
                    fm["sentinels"].append(dict(where, kind="store", text=A.nospace(v)))
                else:
                    fm["sets"].append(where)
            elif ctx == "cmp":
                nv = A.nospace(v)
                if op.strip() in ("==", "!=") and registry.SENTINEL_RE.match(nv):
                    fm["sentinels"].append(dict(where, kind="test", text=nv))
                elif nv == "0" and op.strip() == "==":
                    fm["refused"].append((where, "compared == 0 outside a "
                                          "decrement: 0 is a live state here"))
                elif A.CONST_RE.match(nv):
                    fm["reads"].append(dict(where, kind="compare"))
                else:
                    fm["refused"].append((where, "compared with a variable "
                                          "(%s %s): a threshold, not a refcount" %
                                          (op.strip(), v.strip())))
            elif ctx == "member":
                fm["refused"].append((where, "its member .%s is used directly "
                                      "(not through an operation)" % op.strip()))
            elif ctx == "arith":
                fm["refused"].append((where, "other arithmetic (%s %s)" %
                                      (op.strip(), v.strip())))
            elif ctx == "addr":
                fm["refused"].append((where, "address taken outside an "
                                      "operation (escapes)"))
            else:
                fm["reads"].append(dict(where, kind="read"))
        for s in fs:
            if s["meaning"] == "read" and s["ctx"] == "cmp" and s["const"] == "0" \
                    and s["cmp"] == "==":
                fm["refused"].append((s, "compared == 0 outside a decrement: "
                                      "0 is a live state here"))
            if s["meaning"] is None:
                fm["refused"].append((s, "%s result used as a value (%s)" %
                                      (s["op"], s["ctx"])))
        if seen and len(decls) == 1:  # the type as the build compiles it
            fm["compiled_type"] = seen.get("types", {}).get("%s:%d" % (
                os.path.realpath(decls[0]["file"]), decls[0]["line"]))
        creation.creations(fm, facts, zero, uses, readops)
        creation.initialisers(fm, files)
        _decide(fm, typedefs, root)
        model["fields"][(st + "." if st else "") + field] = fm
    _skipped_uses(model)
    # creations through a parameter: proven at every call (calls.cocci)
    fns = creation.called_only(creation.param_functions(model["fields"]), files)
    if fns:
        named = scan.mentioning(files, fns)  # only these can take an address
        out = scan.spatch(creation.calls_rules(fns), named,
                          incdirs, mlines, workdir=os.path.join(work, "calls"))
        creation.prove_params(model["fields"], fns, out, zero, named,
                                uses, readops)
        for fm in model["fields"].values():
            _decide(fm, typedefs, root)
    _skipped_uses(model)
    conv = {(fm["stype"] + "." if fm["stype"] else "") + fm["field"]: fm
            for fm in model["fields"].values() if fm["decision"] == "convert"}
    lines = {(os.path.realpath(r[6]), int(r[7]), r[3]) for r in rows + facts}
    real = [os.path.realpath(f) for f in files]
    if not seen:  # without the compiler's view: every use through `.` read
        unread.mark(conv, unread.dot_uses(conv, lines, real), root,
                    "a use through `.` the spelled-source passes do not read: "
                    "not accounted for")
    else:  # with it: every use of a field to convert read
        from . import clangattr
        missed = clangattr.unparsed_uses(
            root, conv, lines, real,
            lambda st, fld: (lambda k: (k + "." if k else "") + fld)(
                _canon(st, fld, struct_fields, typedefs)))
        again = {f for where in missed.values() for f, _l in where} - scan.SOLO
        if again:  # once more, those files each read alone
            scan.SOLO |= again | {os.path.realpath(f) for f in files if
                                  os.path.realpath(f) in again}
            scan.SOLO |= {f for f in files if os.path.realpath(f) in again}
            del scan.SKIPPED[:]
            return build(root, os.path.join(work, "again"), extra)
        unread.mark(conv, missed, root, "a use the spelled-source passes did not "
                    "read (a function spatch could not parse, or a form no pass "
                    "reads): not accounted for")
    return model


UNATTRIBUTED = ("a use that could not be attributed (untyped, several structs "
                "declaring '%s' visible, not resolved by the compiler): counted "
                "against each")


def _attributed(st, field, f, typed, recs, struct_fields, typedefs, seen_by):
    """A use of FIELD in file F belongs to key ST (True): spatch typed it so
    (TYPED); untyped, the compiler resolved its struct so (RECS); else ST's
    declaration is visible in F and no other struct's that declares FIELD
    is.  A use is attributed by its type, never by the name alone.  None:
    untyped and unresolved where ST's and another struct's declarations are
    both visible, so it may be either's and counts against each."""
    if typed is not None:
        return typed == st
    if recs:
        return any(_canon(r, field, struct_fields, typedefs) == st for r in recs)
    homes = {d["file"] for d in struct_fields.get(field, []) if _key(d) == st}
    others = {d["file"] for d in struct_fields.get(field, []) if _key(d) != st}
    if not homes:
        return True
    if not any(seen_by.sees(f, h) for h in homes):
        return False
    return None if any(seen_by.sees(f, h) for h in others) else True


def _resolve_untyped(root, seen, rows, keys, utypes, struct_fields, typedefs, seen_by):
    """The uses spatch could not type (`G_OBJECT (x)->ref_count`) of a field
    several visible structs declare, resolved by the compiler when there is
    a compile database: {(file, line, field): {struct}}."""
    if not seen:
        return {}
    from . import clangattr
    names = {f for _st, f in keys}
    wanted = {}
    for r in rows:
        field, f, line, col = r[3], r[6], r[7], r[8]
        if field not in names or not f.endswith(".c") or _canon(
                utypes.get((f, int(line), int(col))), field, struct_fields, typedefs):
            continue
        decls = {(_key(d), d["file"]) for d in struct_fields.get(field, [])}
        if sum(1 for _k, h in decls if seen_by.sees(f, h)) > 1:
            wanted.setdefault(f, set()).add((int(line), field))
    return clangattr.member_records(root, wanted)


class _Includes:
    """Which tree files a file can see through its #include lines
    (transitively; a name resolves to every tree header whose path ends
    with it, an over-approximation)."""

    INC = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)

    def __init__(self, files):
        self.by_tail = {}
        for f in files:
            if f.endswith(".h"):
                self.by_tail.setdefault(os.path.basename(f), []).append(f)
        self.memo = {}

    def direct(self, f):
        out = []
        for name in self.INC.findall(scan.read(f)):
            out += [h for h in self.by_tail.get(os.path.basename(name), [])
                    if h.endswith("/" + name) or os.path.basename(name) == name]
        return out

    def sees(self, f, h):
        if f == h:
            return True
        if f not in self.memo:
            seen, todo = set(), [f]
            while todo:
                x = todo.pop()
                for y in self.direct(x):
                    if y not in seen:
                        seen.add(y)
                        todo.append(y)
            self.memo[f] = seen
        return h in self.memo[f]


def _undoes_underflow(put_text, between):
    """The put's result kept in a variable (`old = dec(&o->ref);`) and the
    increment inside a test of that variable for an underflow (`if (old <=
    0)`, `< 0`, `< 1`) before it: the increment undoes a put that should
    not have happened (dbus's unrefs), on a path the last put never takes;
    a refcount_t saturates there itself.  Not a revival."""
    m = re.match(r"\s*(?:[\w ]+\s)?\**(\w+)\s*=[^=]", put_text)
    if not m:
        return False
    under = re.compile(r"\bif\s*\(.*\b%s\s*(?:<=\s*0|<\s*0|<\s*1)\b" % re.escape(m.group(1)))
    return any(under.search(t) for t in between)


def _revived(fm):
    """An increment of the same object's count after its final put, in the
    function of that put (`if (dec_and_test(&s->ref)) { inc(&s->ref);
    s->dispose(s); ...`): the count is revived from 0, which a refcount_t
    reports as a use after free and saturates."""
    cache = {}
    for s in fm["sites"]:
        if s["meaning"] != "last":
            continue
        for i in fm["sites"]:
            if i["step"] != +1 or i["file"] != s["file"] or i["line"] <= s["line"] or \
                    A.nospace(i["base"]) != A.nospace(s["base"]):
                continue
            between = [_line_text(cache, s["file"], n) for n in range(s["line"] + 1, i["line"])]
            if any(t.startswith("}") for t in between):
                continue
            if _undoes_underflow(_line_text(cache, s["file"], s["line"]), between):
                continue
            return "%s:%d: incremented after its final put at line %d, in the same " \
                "function: revived from 0, which a refcount_t reports as a use " \
                "after free" % (os.path.relpath(i["file"], fm.get("root", "/")),
                                i["line"], s["line"])
    return None


def _created_at_zero(fm, root):
    """A count stored 0 and got (`init(&o->ref, 0); ... get(&o->ref)`): its
    first get is an increment from 0, which a refcount_t reports as a use
    after free and saturates.  A store of 0 after the final put on its
    object, with that object's release after it in the function, is a
    teardown, not a creation."""
    cache = {}
    zero = [x for x in fm["sets"] if A.nospace(x.get("value", "")) in ("0", "(0)")
            and not _teardown(fm, x, cache)]
    if zero and any(s["step"] == +1 for s in fm["sites"]):
        return "%s:%d: stored 0 (created at 0, then got): a refcount_t reports that " \
            "first get as an addition on 0" % (os.path.relpath(zero[0]["file"], root),
                                               zero[0]["line"])
    return None


def _teardown(fm, x, cache):
    """Store X follows a final put on the same object in its function (no
    function's end between), and a release of that object follows X there."""
    f, base, end = x["file"], A.nospace(x["base"]), x["line"]
    while end < x["line"] + 200 and not _line_text(cache, f, end + 1).startswith("}"):
        end += 1
    rest = "\n".join([_line_text(cache, f, x["line"])[x["col"] - 1:]] + [
        _line_text(cache, f, n) for n in range(x["line"] + 1, end + 1)])
    return any(s["meaning"] == "last" and s["file"] == f and s["line"] <= x["line"]
               and A.nospace(s["base"]) == base and not any(
                   _line_text(cache, f, n).startswith("}")
                   for n in range(s["line"], x["line"]))
               for s in fm["sites"]) and _releases_object(rest, None, base)


def _kind(fm, extra, root):
    """reference-count (every proof held), counter (incremented from 0
    outside a proven creation: an idle counter in normal use) or unknown."""
    if fm["decision"] == "convert":
        return "reference-count"
    for s, why in extra:
        if s.get("from0") and not s.get("created"):
            fm["reasons"].insert(0, "counter: incremented from 0 at %s:%d in "
                                 "normal use" % (os.path.relpath(s["file"], root),
                                                 s["line"]))
            return "counter"
    return "unknown"


def _skipped_uses(model):
    """A field a skipped file may use is not converted (skipped.py)."""
    from . import skipped
    skipped.refuse(model)


def _rows(out, tag, width):
    """spatch's TAG rows of WIDTH columns; a row of another width (which
    spatch.rows() could not mend) is dropped, its file marked skipped."""
    out_rows = []
    for l in out.splitlines():
        if not l.startswith(tag + "\t"):
            continue
        w = l.split("\t")
        if len(w) == width:
            out_rows.append(w)
        else:
            f = next((x for x in w if os.path.isfile(x)), None)
            scan.skip(f or "?", "a %s row of %d columns, not %d" % (tag, len(w), width))
    return out_rows


def _types(out):
    """spatch's TYPE lines: position -> the inferred type of the base."""
    types = {}
    for l in out.splitlines():
        if l.startswith("TYPE\t"):
            w = l.split("\t")
            if len(w) != 5:
                continue
            _, T, f, line, col = w
            types[(f, int(line), int(col))] = T
    return types


def _key(decl):
    return decl["typedefs"][0] if decl["typedefs"] else decl["struct"]


def _canon(T, field, struct_fields, typedefs):
    """The declaration key of type T's struct for FIELD, or None."""
    if not T:
        return None
    n = T.replace("const ", "").strip()
    n = re.sub(r"^struct\s+", "", n)
    n = re.sub(r"^struct\s+", "", typedefs.get(n, n)) if n in typedefs else n
    for d in struct_fields.get(field, []):
        if d["struct"] == n or n in d["typedefs"] or T.strip() in d["typedefs"]:
            return _key(d)
    return None


def _decide(fm, typedefs, root):
    reasons = []
    if len(fm["decls"]) > 1 and len({d["type"] for d in fm["decls"]}) == 1 \
            and len({_key(d) for d in fm["decls"]}) == 1:
        fm["width"] = scan.width(fm["decls"][0]["type"], typedefs, fm["struct_fields"])
        fm["scalar"] = scan.resolve(fm["decls"][0]["type"], typedefs, fm["struct_fields"])
        if not fm["width"]:
            reasons.append("no library type of the width of '%s'" %
                           fm["decls"][0]["type"])
    elif len(fm["decls"]) != 1:
        reasons.append("declared in %d structs (%s)" % (len(fm["decls"]), ", ".join(
            sorted({d["struct"] or "?" for d in fm["decls"]})) or "none found"))
    else:
        w = scan.width(fm["decls"][0]["type"], typedefs, fm["struct_fields"])
        fm["scalar"] = scan.resolve(fm["decls"][0]["type"], typedefs, fm["struct_fields"])
        if not w and fm.get("compiled_type") in registry.WIDTHS:
            # the spelled source has #if variants of the type (a one-member
            # struct with a mutex member in a build without atomics); the
            # compile database's build has one
            fm["scalar"] = fm["compiled_type"]
            w = registry.WIDTHS[fm["scalar"]]
        fm["width"] = w
        if not w:
            reasons.append("no library type of the width of '%s'" %
                           fm["decls"][0]["type"])
    if not fm["releases"] and _release_gap(fm) is not None:
        reasons.append("no release-like call after the final decrement")
    neg = [x for x in fm["sentinels"] if x.get("text") == "-1"] + [
        x for x in fm["sites"] if x["meaning"] == "read" and x["ctx"] == "cmp"
        and A.nospace(x.get("const") or "") == "-1"]
    signed = {t for ts in registry.OLDP_TYPES.values() for t in ts}
    if neg and fm.get("scalar") in signed:
        x = neg[0]
        reasons.append("%s:%d: a negative sentinel (-1) on a signed count: an "
                       "immortal state a refcount_t's word cannot hold, and "
                       "static instances the tool cannot see may hold it" %
                       (os.path.relpath(x["file"], root), x["line"]))
    revived = _revived(fm)
    if revived:
        reasons.append(revived)
    zero = _created_at_zero(fm, root)
    if zero:
        reasons.append(zero)
    extra = []
    created = {(c["file"], c["line"], c["col"]) for c in fm["creations"]}
    for s in fm["sites"]:
        s["created"] = (s["file"], s["line"], s["col"]) in created
        if s["from0"] and not s["created"]:
            extra.append((s, "an increment from 0 (%s) that is not a proven "
                          "creation: %s" % (s["from0"], creation.why(fm, s))))
        if not s["ctx"].startswith("kept") or s["meaning"] is None or s["created"]:
            continue
        if s["ctx"] == "keptdecl":
            extra.append((s, "%s's old value initialises '%s %s' "
                                  "(only a creation is rewritten there)"
                                  % (s["op"], s["vtype"], s["var"])))
        elif fm.get("width") and scan.resolve(s["vtype"], typedefs, fm["struct_fields"]) \
                not in registry.OLDP_TYPES[fm["width"][0]]:
            extra.append((s, "%s's old value is kept in '%s %s', which is "
                                  "not the %s that __%s_*() write" % (
                                      s["op"], s["vtype"], s["var"],
                                      registry.OLDP_TYPES[fm["width"][0]][0],
                                      fm["width"][1])))
    for where, why in fm["refused"] + extra:
        reasons.append("%s:%d: %s" % (os.path.relpath(where["file"], root),
                                      where["line"], why))
    for x in fm["sentinels"]:  # an atomic store of a sentinel: not rewritten
        if x.get("atomic"):
            reasons.append("%s:%d: set by %s (%s): an atomic store, a creation "
                           "and not an escape; apply does not rewrite that "
                           "form yet" % (os.path.relpath(x["file"], root), x["line"],
                                         x["atomic"], x.get("value", "")))
    atomic = [s for s in fm["sites"] if s["atomic"]]
    if not atomic:
        reasons.append("no atomic operation (plain counter)")
    if not reasons:
        gap = _release_gap(fm)
        if gap:
            reasons.append(gap)
    fm["decision"] = "report-only" if reasons else "convert"
    fm["reasons"] = reasons
    fm["kind"] = _kind(fm, extra, root)
    fam = sorted({s["family"] for s in fm["sites"]})
    fm["idiom"] = "; ".join(registry.IDIOMS.get(f, f) for f in fam) + (
        " via " + ", ".join(sorted({s["op"] for s in fm["sites"]
                                    if s["wrapper"]})) if any(
            s["wrapper"] for s in fm["sites"]) else "")

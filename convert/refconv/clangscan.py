"""Discovery as the compiler sees it: with the project's
compile_commands.json, each translation unit is parsed by libclang (Debian's
python3-clang-14) with the project's own flags, so macros are expanded, the
active #if branch is the one the build compiles, and every field access has
its resolved struct type.  Found here:

- atomic operations after expansion: the __atomic/__c11_atomic builtins
  (AtomicExpr, named by the builtin spelled in the macro's body), the
  __sync builtins (calls), and inline assembly on a parameter's lvalue;
- wrappers at any depth: a function whose effect is one of those on an
  lvalue reached from a pointer parameter (`&a->value`, `a`), or a call of
  another wrapper on such an lvalue, to a fixpoint over the whole tree;
  macro wrappers need nothing: they are expanded;
- sites: an atomic operation or a wrapper call on `&X->f` (or `&X.f`),
  keyed by the struct type of X as the compiler resolved it, never by the
  field's name, with the spelled (expansion) location of the use.

A field reached only through a one-member struct (`pa_atomic_t _ref`, the
wrapper works on `&a->value`) is keyed by the outer field (`pa_memblock._ref`).
"""

import json
import os
import re
import shlex
import sys
import time

from . import clangconv
from . import compdb as builddb

RMW = re.compile(r"(fetch_(add|sub|and|or|xor|nand)|(add|sub|and|or|xor|nand)_"
                 r"(and_)?fetch|exchange|compare_exchange|compare_and_swap|"
                 r"lock_test_and_set|fetch_and_(add|sub)|(add|sub)_and_fetch|"
                 r"__atomic_(add|sub)|xchg|cmpxchg)")
# inline assembly that is a read-modify-write: its instruction shape
ASM_RMW = re.compile(r"\block\b|xchg|xadd|ldrex|ldaxr|ldxr|\bcas|amoadd|lwarx|ldarx")
ATOMIC_FAST = re.compile(r"atomic|ATOMIC|Atomic|__sync_")
STORE = re.compile(r"(store|init)\b")
LOAD = re.compile(r"load\b")
_ci = None


def _lib():
    """clang.cindex, from Debian's python3-clang-14 (also when the running
    python3 is not Debian's own), or None."""
    global _ci
    if _ci is not None:
        return _ci or None
    for extra in ([], ["/usr/lib/python3/dist-packages"]):
        sys.path.extend(extra)
        try:
            import clang.cindex as ci
            for so in ("/usr/lib/llvm-14/lib/libclang-14.so.1",
                       "/usr/lib/llvm-14/lib/libclang.so.1"):
                if os.path.exists(so):
                    ci.Config.set_library_file(so)
                    break
            from ctypes import POINTER, c_uint
            ci.conf.lib.clang_getSpellingLocation.argtypes = [
                ci.SourceLocation, POINTER(ci.c_object_p), POINTER(c_uint),
                POINTER(c_uint), POINTER(c_uint)]
            _ci = ci
            return ci
        except Exception:  # noqa: BLE001 - any failure means: no libclang
            continue
    _ci = False
    return None


def compdb(root):
    """The tree's compile database: its own compile_commands.json, else one
    the tool made the way the build would (compdb.py), or None."""
    return builddb.locate(root)[0]


def _args(e):
    args = e.get("arguments") or shlex.split(e.get("command", ""))
    out, skip = [], False
    for i, a in enumerate(args[1:]):
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
            continue
        if a in ("-c", "-MD", "-MMD", "-M", "-MM") or a == e["file"] or \
                a.endswith(os.path.basename(e["file"])) and not a.startswith("-"):
            continue
        out.append(a)
    return out + ["-working-directory=" + e["directory"], "-Wno-everything",
                  "-ferror-limit=0"]


def _spelled_name(ci, loc, cache):
    """The identifier at LOC's spelling location (the builtin's name where
    a macro body spells it)."""
    from ctypes import byref, c_uint
    f, line, col, off = ci.c_object_p(), c_uint(), c_uint(), c_uint()
    ci.conf.lib.clang_getSpellingLocation(loc, byref(f), byref(line),
                                          byref(col), byref(off))
    if not f:
        return ""
    name = ci.conf.lib.clang_getFileName(ci.File(f))
    m = re.match(rb"\w+", _source(cache, name)[off.value:off.value + 80])
    if m and not re.search(rb"atomic|sync", m.group(0)):
        return ""
    return m.group(0).decode() if m else ""


def _strip(ci, c):
    K = ci.CursorKind
    while True:
        kids = list(c.get_children())
        if c.kind in (K.PAREN_EXPR, K.CSTYLE_CAST_EXPR) or (
                c.kind == K.UNEXPOSED_EXPR and len(kids) == 1):
            c = kids[-1] if kids else c
            if not kids:
                return c
        else:
            return c


def _path(ci, c, params):
    """An argument as ('param', index, members) when it is an lvalue reached
    from a parameter, ('field', record, field, decl) for `&X->f`, else None."""
    K = ci.CursorKind
    c = _strip(ci, c)
    addr = False
    if c.kind == K.UNARY_OPERATOR:
        kids = list(c.get_children())
        if kids:
            inner = kids[0].type.get_canonical()
            if c.type.kind == ci.TypeKind.POINTER and \
                    c.type.get_pointee().get_canonical() == inner:
                addr = True  # &lvalue
                c = _strip(ci, kids[0])
            elif inner.kind == ci.TypeKind.POINTER:
                c = _strip(ci, kids[0])  # *pointer: the pointer's lvalue
                if c.kind == K.DECL_REF_EXPR and c.spelling in params:
                    return ("param", params.index(c.spelling), [], True)
                return None
    members = []
    top = outer = None
    while c.kind == K.MEMBER_REF_EXPR:
        members.insert(0, c.spelling)
        ref = c.referenced
        if top is None and ref is not None and ref.kind == K.FIELD_DECL:
            top = ref  # the member whose address is taken
        if ref is not None and ref.kind == K.FIELD_DECL:
            outer = ref  # the first member below the base
        kids = list(c.get_children())
        if not kids:
            break
        c = _strip(ci, kids[0])
    if members and not addr:
        return None  # `p->f` passed: the effect is on what f points to
    field = None
    if top is not None and members:
        rec = top.semantic_parent
        name = rec.spelling or rec.type.spelling
        if not name or "anonymous" in name or "unnamed" in name:
            name = rec.type.spelling
        name = re.sub(r"\s*\((unnamed|anonymous)[^)]*\)", "(anonymous)", name)
        loc = top.location
        t = top.type.get_canonical()
        inner = [x for x in t.get_declaration().get_children()
                 if x.kind == K.FIELD_DECL] if t.kind == ci.TypeKind.RECORD else []
        single = t.kind != ci.TypeKind.RECORD or len(inner) == 1
        field = (single, re.sub(r"^(struct|union) ", "", name), top.spelling,
                 "%s:%d" % (os.path.realpath(loc.file.name) if loc.file else "?",
                            loc.line))
        # the scalar the build compiles the field as (a one-member struct's
        # member: the #if variants of the struct are resolved)
        _TYPES[field[3]] = (inner[0].type if inner else t).get_canonical().spelling
    if c.kind == K.DECL_REF_EXPR and c.spelling in params:
        # a parameter's lvalue (wrapper evidence); `&p->f` is also a use of
        # the field f of p's struct
        # whether the struct the parameter reaches is a one-member type
        # (pa_atomic_t): a wrapper into a struct of several members is an
        # object's own function (g_object_ref), never a field's operation
        one = outer is None or len([x for x in outer.semantic_parent.get_children()
                                    if x.kind == K.FIELD_DECL]) == 1
        return ("param", params.index(c.spelling), members, one) + (field or ())
    return ("field",) + field if field else None


def _union_of(ci, arg):
    """The canonical type of the union whose member's address ARG takes
    (`&u->word`), or None."""
    c = _strip(ci, arg)
    kids = list(c.get_children()) if c.kind == ci.CursorKind.UNARY_OPERATOR else []
    m = _strip(ci, kids[0]) if kids else None
    if m is None or m.kind != ci.CursorKind.MEMBER_REF_EXPR or m.referenced is None:
        return None
    rec = m.referenced.semantic_parent
    if rec is None or rec.kind != ci.CursorKind.UNION_DECL:
        return None
    return rec.type.get_canonical().spelling


def _copy_member(ci, lhs):
    """For `tmp.s.f` where tmp is a local variable of a union type: (that
    union's canonical type, field tuple of f as _path gives it), else None."""
    K = ci.CursorKind
    c = _strip(ci, lhs)
    if c.kind != K.MEMBER_REF_EXPR or c.referenced is None or \
            c.referenced.kind != K.FIELD_DECL:
        return None
    top, base = c.referenced, c
    while base.kind == K.MEMBER_REF_EXPR:
        kids = list(base.get_children())
        if not kids:
            return None
        base = _strip(ci, kids[0])
    if base.kind != K.DECL_REF_EXPR or base is c:
        return None
    t = base.type.get_canonical()
    d = t.get_declaration() if t.kind == ci.TypeKind.RECORD else None
    if d is None or d.kind != K.UNION_DECL:
        return None
    rec = top.semantic_parent
    name = re.sub(r"^(struct|union) ", "", rec.spelling or rec.type.spelling)
    loc = top.location
    return t.spelling, (False, name, top.spelling, "%s:%d" % (
        os.path.realpath(loc.file.name) if loc.file else "?", loc.line))


def _where(c):
    loc = c.location
    return "%s:%d" % (os.path.realpath(loc.file.name) if loc.file else "?", loc.line)


def _in_tree(root, c):
    f = c.location.file
    return f is not None and f.name.startswith(root)


# What makes a function worth walking (its spelled text, as bytes): an atomic
# primitive's name or inline assembly; else a name in the round's WANT set
# (the wrappers found so far and the macros over them or over a primitive).
RELEVANT = re.compile(rb"atomic|ATOMIC|Atomic|__sync_|\basm\b|__asm")
CALLED = re.compile(rb"(\w+)\s*\(")
# The functions this worker process has walked already (a header's inline
# function is the same in every unit that includes it).
_WALKED = set()
# The compiled scalar type of each field seen: "file:line" -> type.
_TYPES = {}


def _source(cache, name):
    if name not in cache:
        try:
            with open(name, "rb") as fh:
                cache[name] = fh.read()
        except OSError:
            cache[name] = b""
    return cache[name]


def scan_tu(root, e, want=None, only=None):
    """One translation unit's facts: functions (wrapper evidence) and
    uses (callee or builtin, argument index, path, spelled location), and
    the functions left unwalked with the names their text calls.  Only the
    functions whose spelled text names an atomic primitive, inline
    assembly or a WANT name are walked (ONLY: exactly these keys); the
    others are returned as (key, called names), for a later round to walk
    when one of those names turns out to be a wrapper.  WANT None: every
    function."""
    ci = _lib()
    K = ci.CursorKind
    idx = ci.Index.create()
    tu = idx.parse(e["file"] if os.path.isabs(e["file"]) else
                   os.path.join(e["directory"], e["file"]), args=_args(e))
    cache, fns, later = {}, {}, {}
    packed = dict(cas=set(), changes=[])

    def words(stack):
        """The words of the innermost enclosing node with spelled tokens."""
        for c in reversed(stack):
            toks = [t.spelling for t in c.get_tokens()]
            if toks:
                return [t for t in toks if re.match(r"^[a-z]+$", t)]
        return []

    def visit(c, fn, params, uses, stack=()):
        stack = stack + (c,)
        for ch in c.get_children():
            k = ch.kind
            kids = None
            if k == K.CALL_EXPR:
                kids = list(ch.get_children())
                name = ch.spelling
                if name.startswith("__sync_") or name.startswith("__atomic_"):
                    op = "@" + re.sub(r"_\d+$", "", name)
                    args = kids[1:]
                else:
                    op = name
                    args = kids[1:]
                for i, a in enumerate(args):
                    p = _path(ci, a, params)
                    if p:
                        uses.append((op, i, p, _where(ch)))
                if op.startswith("@") and kind_of(op) == "swap" and args:
                    packed["cas"].add(_union_of(ci, args[0]))
            elif k == K.COMPOUND_ASSIGNMENT_OPERATOR:
                kids = list(ch.get_children())
                f = _copy_member(ci, kids[0]) if kids else None
                if f:
                    packed["changes"].append(f + (_where(ch),))
            elif k == K.UNEXPOSED_EXPR:
                kids = list(ch.get_children())
                if len(kids) >= 2 and kids[0].type.kind == ci.TypeKind.POINTER:
                    name = _spelled_name(ci, ch.extent.start, cache)
                    if not name:
                        # pasted from a macro's arguments (`__atomic_ ## OP1
                        # ## _ ## OP2`): the invocation's words name it
                        name = "atomic_pasted_" + "_".join(words(stack + (ch,)))[:60]
                    if "atomic" in name:
                        p = _path(ci, kids[0], params)
                        if p:
                            uses.append(("@" + name, 0, p, _where(ch)))
                        # a compare-and-swap: named so, or the builtin's
                        # shape (pointer, expected, desired, weak, orders)
                        if kind_of("@" + name) == "swap" or len(kids) >= 5:
                            packed["cas"].add(_union_of(ci, kids[0]))
            elif k == K.ASM_STMT:
                text = " ".join(t.spelling for t in ch.get_tokens()
                                if t.spelling.startswith('"'))
                if ASM_RMW.search(text):
                    op = "@asm-add" if re.search(r"xadd|inc|dec|add|sub", text) \
                        else "@asm"
                    for a in ch.get_children():
                        p = _path(ci, a, params)
                        if p and p[0] == "param":
                            uses.append((op, 0, p, _where(ch)))
            visit(ch, fn, params, uses, stack)

    for c in tu.cursor.get_children():
        if c.kind != K.FUNCTION_DECL or not c.is_definition() or not _in_tree(root, c):
            continue
        key = (c.spelling, c.location.file.name, c.location.line)
        if key in fns or key in _WALKED:
            continue
        if only is not None and key not in only:
            continue
        if want is not None and only is None:
            ext = c.extent
            text = _source(cache, key[1])[ext.start.offset:ext.end.offset] if (
                ext.start.file and ext.end.file and
                ext.start.file.name == ext.end.file.name == key[1]) else b"asm"
            if not RELEVANT.search(text):
                called = {w.decode("latin-1") for w in CALLED.findall(text)}
                if not called & want:
                    later[key] = called
                    continue
        params = [a.spelling for a in c.get_arguments()]
        uses, packed = [], dict(cas=set(), changes=[])
        visit(c, c.spelling, params, uses)
        # a member packed in a word that a compare-and-swap loop updates:
        # the word is a union's member, the new value a local copy of that
        # union whose member's field is changed by += / -= (glib's
        # GClosure bitfields): that field is changed by an atomic
        # read-modify-write, keyed by the struct declaring it
        for union, field, at in packed["changes"]:
            if union in packed["cas"]:
                uses.append(("@cas-packed-add", 0, ("field",) + field, at))
        summ = clangconv.summary(ci, c, params, cache)
        if summ:
            uses.append(("=summary", 0, summ, _where(c)))
        fns[key] = uses
        _WALKED.add(key)
    types = [("=type", 0, ("type", d, t), "") for d, t in sorted(_TYPES.items())]
    return [(k[0], k[1], k[2], u) for k, u in fns.items()] + [
        ("=types", "", 0, types)] + _fatal(tu), later


def _fatal(tu):
    """The unit's fatal diagnostic (an include not found: a header the build
    generates and has not generated yet), as a fact: the compiler's view of
    the unit is partial."""
    for d in tu.diagnostics:
        if d.severity >= 4:
            loc = d.location
            return [("=fatal", "", 0, [("=fatal", 0, ("fatal", "%s:%d: %s" % (
                os.path.basename(loc.file.name) if loc.file else "?", loc.line,
                d.spelling)), "")])]
    return []


def _worker(job):
    root, e, want, only = job
    t0 = time.time()
    f = os.path.normpath(os.path.join(e["directory"], e["file"]))
    try:
        fs, later = scan_tu(root, e, want, only)
        return f, fs, later, None, time.time() - t0
    except Exception as x:  # noqa: BLE001 - a failing file is skipped
        return f, [], {}, "%s: %s" % (type(x).__name__, x), time.time() - t0


def _over(defs, names):
    """NAMES and the macros whose body names one of them, to a fixpoint, plus
    the macros whose body names an atomic primitive (an index from each word
    to the macros whose body holds it)."""
    atomic = re.compile(r"atomic|ATOMIC|Atomic|__sync_")
    users = {}
    out, todo = set(), list(names)
    for n, b in defs:
        if atomic.search(b):
            todo.append(n)
        for w in set(re.findall(r"\w+", b)):
            users.setdefault(w, set()).add(n)
    while todo:
        n = todo.pop()
        if n in out:
            continue
        out.add(n)
        todo.extend(users.get(n, ()))
    return out


def _parse(pool, root, jobs, skipped, later):
    """JOBS [(entry, want, only)] over the pool: the facts; the functions
    left unwalked go into LATER {key: (entry, called names)}."""
    facts = []
    for (f, fs, lt, err, _dt), (e, _w, _o) in zip(pool.imap(_worker, [
            (root, e, w, o) for e, w, o in jobs]), jobs):
        if err:
            skipped.append((f, "libclang: " + err))
        for name, _f, _l, uses in fs:
            if name == "=fatal" and not e.get("borrowed"):  # not the flags it borrowed
                skipped.append((f, "not read whole by the compiler (%s)" % uses[0][2][1]))
        facts.extend(x for x in fs if x[0] != "=fatal")
        for k, called in lt.items():
            later.setdefault(k, (e, called))
    return facts


def _wrappers(facts):
    """Functions whose parameter's lvalue gets an atomic effect, directly or
    through another wrapper, at any depth: name -> {(param index, members
    below it): kind}."""
    uses_of = {}
    for name, f, line, uses in facts:
        uses_of.setdefault(name, {})[(f, line)] = uses
    wraps = {}
    changed = True
    while changed:
        changed = False
        for name, defs in uses_of.items():
            for uses in defs.values():
                for op, i, p, _w in uses:
                    if p[0] != "param":
                        continue
                    eff = {}
                    if op.startswith("@"):
                        k = kind_of(op)
                        if k and i == 0:
                            eff[()] = k
                    else:
                        for (j, q), k in wraps.get(op, {}).items():
                            if j == i:
                                eff[q] = k
                    for q, k in eff.items():
                        key = (p[1], tuple(p[2]) + q)
                        if len(key[1]) > 3:  # a recursive walk, not a wrapper
                            continue
                        if p[2] and not p[3]:
                            # into a struct of several members: a field site
                            # counts a wrapper's inner member only through a
                            # one-member type, so this is no field's wrapper
                            continue
                        cur = wraps.setdefault(name, {})
                        if key not in cur or (cur[key] != "add" and k == "add"):
                            cur[key] = k
                            changed = True
    return wraps


def kind_of(op):
    """add (an arithmetic read-modify-write: what a count does), bits,
    swap, store or load."""
    n = op[1:]
    if n == "asm-add" or re.search(r"add|sub|inc|dec", n):
        return "add"
    if n.startswith("asm") or re.search(r"exchange|xchg|swap|test_and_set", n):
        return "swap"
    if re.search(r"fetch_(and|or|xor|nand)|(and|or|xor|nand)_(and_)?fetch|"
                 r"_(and|or|xor)$", n):
        return "bits"
    if STORE.search(n):
        return "store"
    if LOAD.search(n):
        return "load"
    return None


def discover(root, jobs=2, max_bytes=2 << 20):
    """Fields operated on by atomic read-modify-writes, as the compiler
    sees the tree: {"Struct.field": dict(where, ops=[...], via=[...])},
    wrappers, skipped files, and a note; None without a compile database
    or libclang."""
    root = os.path.abspath(root)
    db, made = builddb.locate(root)
    if not db:
        return None, made
    if not _lib():
        return None, "no libclang (python3-clang-14): spatch only"
    entries, seen = [], set()
    listed = json.load(open(db))
    for e in listed:
        f = e["file"] if os.path.isabs(e["file"]) else os.path.join(e["directory"], e["file"])
        f = os.path.realpath(f)
        if not f.endswith(".c") or f in seen or not f.startswith(root):
            continue
        seen.add(f)
        entries.append(e)
    compiled = len(entries)
    if listed and not compiled:  # a database made for another copy of the tree
        return None, "%s lists %d unit%s, none of them under %s (made " \
            "for another copy of the tree? run the build's configure here " \
            "again): spatch on the spelled source only, every #if variant " \
            "considered" % (_shown(db, root), len(listed),
                               "s" * (len(listed) != 1), root)
    entries += uncompiled(root, entries, seen)
    skipped, facts = [], []
    gone = [e for e in entries if not os.path.exists(os.path.join(e["directory"], e["file"]))]
    for e in gone:
        skipped.append((os.path.normpath(os.path.join(e["directory"], e["file"])),
                        "not there: the build generates it and has not yet"))
    entries = [e for e in entries if e not in gone]
    big = [e for e in entries if os.path.getsize(os.path.join(e["directory"], e["file"]))
           > max_bytes]
    for e in big:
        skipped.append((os.path.normpath(os.path.join(e["directory"], e["file"])), "larger than %d bytes" % max_bytes))
    entries = [e for e in entries if e not in big]
    # which units to parse: those whose text names an atomic primitive, or a
    # macro that expands to one, then those naming a wrapper found so far
    # (or a macro over one), to a fixpoint.  Only the choice of units goes
    # by text; what an operation does and whose field it is, goes by the AST
    from . import scan
    text = {}
    for e in entries:
        f = os.path.join(e["directory"], e["file"])
        text[e["file"], e["directory"]] = scan.read(f)
    defs = [(n, b) for n, _p, b, _f, _a, _z in scan.macros(
        [x for x in scan.sources(root) if x.endswith(".h")] +
        [os.path.join(e["directory"], e["file"]) for e in entries])]
    words = {}

    def unit_words(e):
        k = (e["file"], e["directory"])
        if k not in words:
            words[k] = set(re.findall(r"\w+", text[k]))
        return words[k]

    # then, inside each unit, only the functions whose spelled text names a
    # primitive, inline assembly or one of those names are walked; a
    # function left unwalked is walked in a later round if a name it calls
    # turns out to be a wrapper (or a macro over one)
    from multiprocessing import Pool
    facts, wraps, done, later, walked = [], {}, set(), {}, set()
    names = set()
    with Pool(jobs) as pool:
        for _rnd in range(8):
            want = _over(defs, names)
            wantb = frozenset(want)
            todo = [(e, wantb, None) for e in entries
                    if (e["file"], e["directory"]) not in done and
                    (ATOMIC_FAST.search(text[e["file"], e["directory"]]) or
                     want & unit_words(e))]
            again = {}
            for k, (e, called) in later.items():
                if k not in walked and called & want:
                    again.setdefault(id(e), (e, set()))[1].add(k)
            todo += [(e, None, frozenset(ks)) for e, ks in again.values()]
            if not todo:
                break
            new = _parse(pool, root, todo, skipped, later)
            facts += new
            walked |= {(n, f, line) for n, f, line, _u in new} | {
                k for _e, ks in again.values() for k in ks}
            done |= {(e["file"], e["directory"]) for e, _w, o in todo if o is None}
            wraps = _wrappers(facts)
            names = set(wraps)
        from .skipped import unfound
        unfound(pool, entries, text, skipped)
    units = len(done)
    fields, first = {}, {}
    for name, f, line, uses in facts:
        for op, i, p, at in uses:
            if op.startswith("=") or p[0] == "param" and len(p) == 4:
                continue
            single, rec, fld, decl = p[-4:]
            kinds = set()
            if op.startswith("@"):
                k = kind_of(op)
                if k and i == 0:
                    kinds.add(k)
            else:
                # through a wrapper that reaches a member below the field:
                # the field is the count only when it is a one-member
                # struct (my_atomic_t); otherwise the effect is the inner
                # struct's own field, seen where the wrapper uses it
                kinds |= {k for (j, q), k in wraps.get(op, {}).items()
                          if j == i and (not q or single)}
            if not kinds:
                continue
            # two structs of one name (each file's own `Client`) are two
            # fields: the declaration tells them apart, never the name
            key = "%s.%s" % (rec, fld)
            if first.setdefault(key, decl) != decl:
                key += "@" + decl
            fm = fields.setdefault(key, dict(
                name="%s.%s" % (rec, fld), where=decl, ops=[], via=set(), kinds=set()))
            fm["ops"].append(dict(at=at, op=op.lstrip("@"),
                                  kind=sorted(kinds)[0], function=name))
            fm["kinds"] |= kinds
            if not op.startswith("@"):
                fm["via"].add(op)
    # a count is changed by arithmetic: fields only swapped, or/and-ed,
    # stored or loaded are not candidates
    fields = {k: v for k, v in fields.items() if "add" in v["kinds"]}
    borrowed = len([e for e in entries if e.get("borrowed") and
                    (e["file"], e["directory"]) in done])
    types = {p[1]: p[2] for _n, _f, _l, uses in facts for op, _i, p, _w in uses
             if op == "=type"}
    return dict(fields=fields, wrappers=wraps, skipped=skipped, units=units, types=types,
                conventions={n: c for n, c in clangconv.conventions(facts).items()
                             if n in wraps or c[1] == "store"}), "libclang on %d of %d units of %s%s" % (
                    units - borrowed, compiled, _shown(db, root),
                    ", and on %d of %d sources the build does not compile, with "
                    "the flags of their nearest compiled neighbour" % (
                        borrowed, len(entries) - compiled) if borrowed else "")


def _shown(db, root):
    """The database's path as the report names it: relative to the tree, or
    where the tool made it."""
    return os.path.relpath(db, root) if db.startswith(root + os.sep) else db


def uncompiled(root, entries, seen):
    """The tree's .c files the compile database does not name (an option
    the configuration turned off, a module the build no longer lists):
    entries that borrow the flags of the compiled unit nearest in the tree
    (the same directory, else the longest common path)."""
    from . import scan
    by_dir = {}
    for e in entries:
        f = os.path.realpath(os.path.join(e["directory"], e["file"]))
        by_dir.setdefault(os.path.dirname(f), e)
    if not by_dir:
        return []
    out = []
    for f in scan.sources(root):
        f = os.path.realpath(f)
        if not f.endswith(".c") or f in seen:
            continue
        d = os.path.dirname(f)
        nbr = by_dir.get(d) or by_dir[max(by_dir, key=lambda x: (
            len(os.path.commonpath([x, d])), x))]
        args = _args(nbr)[:-3]
        out.append(dict(directory=nbr["directory"], file=f, borrowed=True,
                        arguments=["cc"] + args + ["-c", f]))
    return out


"""refcount-convert apply: text edits spatch cannot make (field declarations,
wrapper macro bodies, initialisers, includes, build hints) and the generated
semantic patch for the uses (convert/cocci/apply.cocci)."""

import os
import re
import subprocess
import tempfile

from . import analyse as A, registry, scan


METAVARS = ("E", "X", "PT", "op", "C", "C1", "a", "A", "S", "V", "f", "p")


def sections():
    text = scan.read(os.path.join(scan.COCCI_DIR, "apply.cocci"))
    out = {}
    for part in text.split("// @@@ ")[1:]:
        name, body = part.split("\n", 1)
        out[name.strip()] = body
    return out


def fill(t, **kw):
    for k, v in kw.items():
        t = t.replace("{{%s}}" % k, v)
    return t


def key(x):
    return "%s:%d:%d" % (x["file"], x["line"], x["col"])


def semantic_patch(m, conv):
    sec = sections()
    sets, rules, branches = {}, [], []
    n = [0]

    def add(section, keys, **kw):
        if not keys:
            return
        n[0] += 1
        name = "k%d" % n[0]
        sets[name] = sorted(keys)
        body = fill(sec[section], RULE="r%d" % n[0], KEYS=name, **kw)
        # spatch re-parses a changed file (positions then name a temporary
        # extract), so every position-restricted rewrite is one branch of
        # the first rule, with its metavariables renamed apart.
        head, pat = body.split("\n@@\n", 1)
        decls = head.split("\n", 1)[1]
        ren = lambda s: re.sub(r"\b(%s)\b" % "|".join(METAVARS),
                               lambda mm: mm.group(1) + str(n[0]), s)
        branches.append((ren(decls), ren(pat.strip("\n"))))

    for _key, fm in conv:
        field = fm["field"]
        P = fm["width"][1]
        names = registry.lib_names(P, fm["width"][2])
        tests = [x for x in fm["sentinels"] if x["kind"] == "test"]
        near = {(s["file"], s["line"]) for s in fm["sites"]}
        guards = [x for x in tests if x["op"] == "!=" and any(
            (x["file"], x["line"] + d) in near for d in (0, 1))]
        add("guard", [key(x) for x in guards], F=field)
        add("sentinel", [key(x) for x in fm["sentinels"] if x not in guards],
            F=field, P=P)
        for s in fm["sites"]:
            if s["meaning"] == "inc" and s.get("created"):
                s["meaning"] = "create"
        by_shape = {}
        for s in fm["sites"]:
            op = m["ops"][s["op"]]
            if op.field is not None and (op.cast or op.returns == "putrel"):
                continue  # the site stays: its macro is redirected
            by_shape.setdefault(op.field is not None and s["op"], []).append(s)
        for shape, ss in by_shape.items():
            if shape:  # a macro wrapper taking the object
                decl = "expression E;"
                call, ptr = "%s@p(E)" % shape, "&E->%s" % field
            else:
                decl = "identifier X;\nexpression PT;"
                call, ptr = "X@p(PT, ...)", "PT"
            add("expr", [key(s) for s in ss if s["meaning"] == "read"], DECL=decl,
                CALL=call, NEW=names["read"] % ptr)
            # results kept in a variable: the old value through oparg
            kept = [s for s in ss if s["ctx"].startswith("kept")]
            add("expr", [key(s) for s in kept if s["meaning"] == "create"], DECL=decl,
                CALL=call, NEW=names["create_old"] % ptr)
            # a kept value stays what it was: the new value of a *_fetch
            # primitive, the old value of a fetch_*
            new_v = [s for s in kept if m["ops"][s["op"]].returns == "new"]
            old_v = [s for s in kept if s not in new_v]
            add("kept", [key(s) for s in old_v if s["meaning"] == "inc"], DECL=decl,
                CALL=call, NEW=names["inc_old"] % (ptr, "V"))
            add("kept", [key(s) for s in old_v if s["meaning"] in ("last", "notlast")],
                DECL=decl, CALL=call, NEW=names["put_old"] % ("V", ptr, "V", "V"))
            add("kept", [key(s) for s in new_v if s["meaning"] == "inc"], DECL=decl,
                CALL=call, NEW=names["inc_new"] % (ptr, "V", "V"))
            add("kept", [key(s) for s in new_v if s["meaning"] in ("last", "notlast")],
                DECL=decl, CALL=call, NEW=names["put_new"] % ("V", ptr, "V", "V"))
            ss = [s for s in ss if not s["ctx"].startswith("kept")]
            for what in ("last", "notlast", "inc", "dec", "create"):
                new = names[what] % ptr
                for ctx, section in (("cmp", "cmp"), ("cmp+", "cmpadj"),
                                     ("cmp-", "cmpadj"), ("!", "not"),
                                     ("bool", "expr"), ("value", "expr"),
                                     ("return", "expr"), ("stmt", "expr")):
                    ks = [key(s) for s in ss if s["meaning"] == what and (
                        s["ctx"] == ctx if len(ctx) != 4 else s["ctx"].startswith(ctx))]
                    add(section, ks, DECL=decl, CALL=call, NEW=new)
        for what in ("last", "notlast"):
            add("plaincmp", [key(s) for s in fm["plain"] if s["meaning"] == what],
                F=field, NEW=names[what] % ("&E->" + field))
        add("plainstmt", [key(s) for s in fm["plain"] if s["meaning"] in ("inc", "dec")],
            F=field, P=P)
        add("set", [key(x) for x in fm["sets"] if not x.get("atomic")], F=field, P=P)
        # a store through an atomic primitive (atomic_init(&b->f, 1)): a set
        add("aset", [key(x) for x in fm["sets"] if x.get("atomic")], F=field, P=P)
        add("read", [key(x) for x in fm["reads"]], F=field, P=P)
        add("noop", [key(x) for x in fm.get("noops", [])], F=field)

    header = fill(sec["header"], SETS="\n".join(
        "%s = %r" % (k, set(v)) for k, v in sets.items()))
    first = ""
    if branches:
        first = "@positioned@\n%s\n@@\n(\n%s\n)\n\n" % (
            "\n".join(d for d, _ in branches),
            "\n|\n".join(b for _, b in branches))
    return header + first + "\n".join(rules)


def insert_include(text, lines):
    """After the last #include outside any conditional (the include guard
    aside), before the first declaration; else after the guard."""
    ls = text.split("\n")
    depth, base, at, guard = 0, 0, None, None
    for i, l in enumerate(ls):
        s = l.strip()
        if re.match(r"#\s*if", s):
            depth += 1
            if guard is None and re.match(r"#\s*ifndef\s+\w+", s) and i + 1 < len(ls) \
                    and re.match(r"\s*#\s*define\s+\w+\s*$", ls[i + 1]):
                guard, base = i + 1, depth
        elif re.match(r"#\s*endif", s):
            depth -= 1
        elif re.match(r"#\s*include\b", s) and depth == base:
            at = i
        elif depth == base and at is not None and \
                re.match(r"(struct|typedef|static|extern|int|void)\b", s):
            break
    if at is None:
        at = guard if guard is not None else -1
    ls[at + 1:at + 1] = lines
    return "\n".join(ls)


def layout_check(fm, incdir):
    """The new type has the size, alignment and offset of the old one."""
    old = registry.CTYPES.get(fm["scalar"], fm["scalar"])
    new = fm["width"][0]
    src = ("#include <stddef.h>\n#include <stdint.h>\n#include <sys/types.h>\n"
           "#include <stdatomic.h>\n#include <refcount/types.h>\n"
           "struct o { char c; %s x; }; struct n { char c; %s x; };\n"
           "typedef char size_check[sizeof(%s) == sizeof(%s) ? 1 : -1];\n"
           "typedef char off_check[offsetof(struct o, x) == offsetof(struct n, x)"
           " && sizeof(struct o) == sizeof(struct n) ? 1 : -1];\n") % (old, new, old, new)
    with tempfile.NamedTemporaryFile("w", suffix=".c", delete=False) as t:
        t.write(src)
    r = subprocess.run(["cc", "-fsyntax-only", "-I", incdir, t.name],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    os.unlink(t.name)
    return r.returncode == 0, "%s -> %s" % (old, new)


def _decls(fm):
    """The declarations of a field to convert, each once: a key declared
    more than once (one struct name in several files, one type) has every
    declaration retyped, and the layout check, of that one type, holds for
    each."""
    return list({(d["file"], d["line"]): d for d in fm["decls"]}.values())


def retype(text, d, field, t):
    """TEXT with declaration D of FIELD retyped to T, or None when D's line
    does not read `TYPE FIELD`."""
    ls = text.split("\n")
    ty = r"\s+".join(re.escape(w) for w in d["type"].split())
    new = re.sub(r"(^|[{;])(\s*)%s(\s+)(%s\s*[;:\[])" % (ty, re.escape(field)),
                 lambda mm: mm.group(1) + mm.group(2) + t + mm.group(3) + mm.group(4),
                 ls[d["line"] - 1], count=1) if 0 < d["line"] <= len(ls) else None
    if new is None or new == ls[d["line"] - 1]:
        return None
    ls[d["line"] - 1] = new
    return "\n".join(ls)


def family_includes(headers):
    """The include of the family headers apply_families() rewrote, added
    last: an added line moves the lines after it, and the call sites'
    rewrite goes by the positions the report found."""
    for h in sorted(headers):
        scan.write(h, insert_include(scan.read(h), ["/* refcount-convert */",
                                                    registry.INCLUDE]))


def apply_families(m):
    """The project's own refcount abstractions whose proofs held,
    re-implemented on refcount_t where they are defined (family.py), their
    line numbers kept; the Struct.field names of the fields they cover and
    the headers that need the library's include (family_includes())."""
    from . import family
    done, headers = set(), set()
    for field, fam in sorted(m.get("families", {}).items()):
        root = m["root"]
        if fam.refused:
            print("refused: the family %s (%s): %s" % (
                fam.declare, os.path.relpath(fam.header, root), "; ".join(fam.refused[:5])))
            continue
        t = family.rewrite(fam, scan.read(fam.header))
        scan.write(fam.header, t)
        headers.add(fam.header)
        done |= {fam.name_of(st) for st, _, _ in fam.fields}
        print("changed: %s (the family %s, %d fields: %s)" % (
            os.path.relpath(fam.header, root), fam.declare, len(fam.fields),
            ", ".join(sorted(fam.name_of(st) for st, _, _ in fam.fields))))
        if public_header(root, fam.header):  # a struct it declares holds the count
            hints(root, [(field, dict(decls=[dict(file=fam.header)], sites=[]))], m)
    return done, headers


def apply(m, incdir):
    from . import callcreate
    root = m["root"]
    from .family import covers
    done, headers = apply_families(m)
    fams = m.get("families", {})
    # a field a converted family re-implements, by Struct.field (a
    # same-named field of another struct is converted at its call sites)
    conv = [(f, fm) for f, fm in sorted(m["fields"].items())
            if fm["decision"] == "convert" and not covers(fams, fm)]
    for f, fm in sorted(m["fields"].items()):
        if fm["decision"] != "convert":
            print("refused: %s: %s" % (f, "; ".join(fm["reasons"])))
    if not conv:
        family_includes(headers)
        print("refcount-convert: %s" % ("%d families converted" % len(done) if done
                                         else "nothing to convert"))
        return 0
    ok_conv = []
    for f, fm in conv:
        ok, what = layout_check(fm, incdir)
        stuck = ["%s:%d" % (os.path.relpath(d["file"], root), d["line"]) for d in _decls(fm)
                 if retype(scan.read(d["file"]), d, fm["field"], fm["width"][0]) is None]
        if not ok:
            print("refused: %s: layout check failed (%s)" % (f, what))
        elif stuck:  # a declaration left as it was would not compile
            print("refused: %s: its declaration at %s does not read '%s %s' on one "
                  "line: not retyped, so nothing converted" % (
                      f, ", ".join(stuck), fm["decls"][0]["type"], fm["field"]))
        else:
            print("layout: %s: %s, same size, alignment and offset" % (f, what))
            ok_conv.append((f, fm))
    conv = ok_conv
    if not conv:
        family_includes(headers)
        print("refcount-convert: %s" % ("%d families converted" % len(done) if done
                                         else "nothing to convert"))
        return 0
    before = {f: scan.read(f) for f in m["files"]}
    # 1. the uses (spatch)
    touched = sorted({x["file"] for _, fm in conv for k in (
        "sites", "plain", "reads", "sentinels", "sets", "noops") for x in fm.get(k, [])})
    # what reading skipped was judged by the model (the fields a skipped
    # file may use are not converted); a file this rewrite skips is not
    # rewritten
    read_skips = list(scan.SKIPPED)
    for f, why in read_skips:
        print("refcount-convert: skipped %s: %s" % (f, why))
    scan.spatch(semantic_patch(m, conv), touched, m["incdirs"],
                m["macro_file"], in_place=True,
                workdir=os.path.join(m["work"], "apply"))
    if scan.SKIPPED != read_skips:
        for f, why in scan.SKIPPED[len(read_skips):]:
            print("refcount-convert: skipped %s: %s" % (f, why))
        # a conversion accounts for every use, or does not happen
        for f, t in before.items():
            scan.write(f, t)
        family_includes(headers)  # the families' own proofs held
        print("refcount-convert: files were skipped while rewriting: nothing converted")
        return 1
    # 2. text edits: declarations, wrapper macros, initialisers, includes
    edits = {}

    def text(f):
        if f not in edits:
            edits[f] = scan.read(f)
        return edits[f]

    needs = {}
    for _key, fm in conv:
        field = fm["field"]
        t, P, MAC = fm["width"]
        names = registry.lib_names(P, MAC)
        for d in _decls(fm):  # every declaration of the key, each retyped
            edits[d["file"]] = retype(text(d["file"]), d, field, t)
            needs.setdefault(d["file"], set()).add("types")
        for cc in fm.get("call_creations", []):  # a pure get on a fresh object
            edits[cc["file"]] = callcreate.rewrite(
                text(cc["file"]), cc["line"], cc["fn"], cc["arg"], field, P,
                cc["returns"], cc["tests"])
            needs.setdefault(cc["file"], set()).add("ops")
        for name, op in m["mwraps"].items():
            if op.field != field:
                continue
            if op.returns == "putrel":
                red, what = "do { if (%s_dec_and_test(%s)) %s; } while (0)" % (
                    P, op.ptr_text, op.release), "put, the last one releases"
            elif op.delta == 0:
                red, what = "%s_read(%s)" % (P, op.ptr_text), "read"
            elif op.delta == +1:
                red, what = "%s_inc(%s)" % (P, op.ptr_text), "get"
            elif op.returns == "old":
                red, what = "(%s_dec_and_test(%s) ? 1 : 2)" % (P, op.ptr_text), \
                    "put: 1 if it was the last"
            else:
                red, what = "(!%s_dec_and_test(%s))" % (P, op.ptr_text), \
                    "put: 0 if it was the last"
            for f, first, last in op.defs:
                ls = text(f).split("\n")
                ls[first - 1:last] = ["#define %s(%s) %s /* refcount-convert: %s */" % (
                    name, op.param, red, what)]
                ls[first:first] = [""] * (last - first)  # keep line numbers
                edits[f] = "\n".join(ls)
                needs.setdefault(f, set()).add("ops")
        for ini in fm["initialisers"]:
            ls = text(ini["file"]).split("\n")
            new = names["init_immortal"] if ini["sentinel"] else names["init"] % ini["value"]
            l = ls[ini["line"] - 1]
            i = l.find("{")
            ls[ini["line"] - 1] = l[:i] + l[i:].replace(ini["value"], new, 1)
            edits[ini["file"]] = "\n".join(ls)
            needs.setdefault(ini["file"], set()).add("types")
        for s in fm["sites"] + fm["plain"]:
            if s.get("putrel"):
                continue  # the site stays: its macro is redirected
            needs.setdefault(s["file"], set()).add("ops")
            for c in s.get("cond") or []:
                needs.setdefault(s["file"], set()).add(("nonatomic", c))
    for f in m["files"]:
        if scan.read(f) != before[f]:  # changed by spatch: uses operations
            needs.setdefault(f, set()).add("ops")
    for h in headers:  # the families' headers (their bodies rewritten)
        needs.setdefault(h, set()).add("ops")
    for f, what in needs.items():
        lines = []
        conds = sorted(c for _, c in [w for w in what if isinstance(w, tuple)])
        if conds:
            lines += ["#if %s" % " && ".join(conds), registry.NONATOMIC_BREED, "#endif"]
        lines.append(registry.INCLUDE if "ops" in what else
                     registry.INCLUDE.replace("refcount.h", "types.h"))
        edits[f] = insert_include(text(f), ["/* refcount-convert */"] + lines)
    for f, t in edits.items():
        scan.write(f, t)
    changed = 0
    for f in m["files"]:
        after = scan.read(f)
        if after != before[f]:
            changed += 1
            import difflib
            n = sum(max(i2 - i1, j2 - j1) for op, i1, i2, j1, j2 in difflib.SequenceMatcher(
                None, before[f].split("\n"), after.split("\n"),
                autojunk=False).get_opcodes() if op != "equal")
            print("changed: %s (%d lines)" % (os.path.relpath(f, root), n))
    for field, fm in conv:
        print("converted: %s -> %s (%d operations, %d plain, %d reads, %d sentinels, "
              "%d initialisers, %d stores)" % (
                  field, fm["width"][0], len(fm["sites"]), len(fm["plain"]),
                  len(fm["reads"]), len(fm["sentinels"]), len(fm["initialisers"]),
                  len(fm["sets"])))
    hints(root, conv, m)
    print("refcount-convert: %d files changed" % changed)
    return 0


BUILD_FILES = ("CMakeLists.txt", "Makefile.am", "meson.build")


def public_header(root, header):
    """Installed: listed in a build file's list whose name says PUBLIC or
    include_HEADERS (the nearest `set(NAME` or `NAME =` above it)."""
    base = os.path.basename(header)
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if x not in scan.SKIP_DIRS]
        for f in files:
            if f not in BUILD_FILES:
                continue
            name = None
            for line in scan.read(os.path.join(d, f)).split("\n"):
                m = re.match(r"\s*(?:set\s*\(\s*(\w+)|(\w+)\s*\+?=)", line)
                if m:
                    name = m.group(1) or m.group(2)
                if re.search(r"[/\s(]%s\b" % re.escape(base), line) and name and \
                        re.search(r"PUBLIC|include_HEADERS", name):
                    return True
    return False


def hints(root, conv, m):
    """pkg-config and C standard."""
    print("build: compile with $(pkg-config --cflags refcount), link "
          "$(pkg-config --libs refcount) (-lrefcount)")
    headers = {d["file"] for _, fm in conv for d in fm["decls"]
               if d["file"].endswith(".h") and public_header(root, d["file"])}
    for d, _, files in os.walk(root):
        if any(x in d for x in scan.SKIP_DIRS):
            continue
        for f in files:
            if f.endswith(".pc.in") and headers:
                p = os.path.join(d, f)
                t = scan.read(p)
                if "refcount" in t:
                    continue
                if re.search(r"^Requires:", t, re.M):
                    t = re.sub(r"^(Requires:.*)$", r"\1 refcount", t, count=1, flags=re.M)
                else:
                    t = t.rstrip("\n") + "\nRequires: refcount\n"
                scan.write(p, t)
                print("build: %s: Requires: refcount (a public header embeds "
                      "the count)" % os.path.relpath(p, root))
    print("build: C11 or later compiles the operations inline; below C11 "
          "<refcount/refcount.h> declares them out of line (-lrefcount)")
    kept = sorted({"%s:%d" % (os.path.relpath(s["file"], root), s["line"])
                   for _, fm in conv for s in fm["sites"]
                   if s["ctx"] == "kept" and s["meaning"] in ("inc", "last", "notlast")})
    if kept:
        print("build: the __refcount_*() forms (an old value kept, %d sites) "
              "need C11 or later" % len(kept))

"""Which counts a file the tool could not read may use.  A skipped file
(spatch failed or timed out on it, the compiler could not read it whole,
or the build generates it and has not yet) refuses only the counts whose
uses may lie in it: a field is refused when the file's text names it, or
names a macro whose body names it (through other macros, to a fixpoint).
A source the build has not generated yet stands for the files it is
generated from: its prerequisites in make's database (`make -pq`, of the
makefile beside it), the inputs ninja lists for it in a ninja build
directory, and the tree's files of its name with another suffix
(`parse.y`, `table.c.in`, `enums.c.template`).  One whose inputs cannot be
found may use anything: every count is refused.  Also found here: the
units the compiler cannot read whole, whose generated header is missing."""

import os
import re
import shlex
import subprocess

from . import scan


def _ninja_inputs(root, f):
    """The inputs of F as a build.ninja under ROOT lists them, or []."""
    from .compdb import build_dirs
    out = []
    for _system, b in build_dirs(root):
        if not os.path.exists(os.path.join(b, "build.ninja")):
            continue
        try:
            r = subprocess.run(["ninja", "-C", b, "-t", "query", os.path.relpath(f, b)],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               universal_newlines=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            continue
        where = None
        for line in r.stdout.splitlines():
            if re.match(r"^\s+(input|outputs):", line):
                where = line.split(":")[0].strip()
            elif where == "input" and line.startswith("    "):
                p = os.path.normpath(os.path.join(b, line.strip().lstrip("|").strip()))
                if os.path.isfile(p):
                    out.append(p)
    return out


def _make_inputs(root, f):
    """The prerequisites of F in the rules of the makefile beside it (or at
    ROOT), as `make -pq` prints its database (no makefile remade), or []."""
    from .compdb import MAKEFILES
    d = next((x for x in (os.path.dirname(f), root) if any(
        os.path.isfile(os.path.join(x, m)) for m in MAKEFILES)), None)
    if d is None:
        return []
    target = os.path.relpath(f, d)
    try:
        r = subprocess.run(["make", "-pq"] + [o for m in MAKEFILES for o in ("-o", m)] +
                           [target], cwd=d, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, universal_newlines=True,
                           errors="surrogateescape", timeout=60,
                           env=dict(os.environ, LC_ALL="C"))
    except (OSError, subprocess.TimeoutExpired):
        return []
    out = []
    for line in r.stdout.splitlines():
        if line.startswith(target + ":") and not line.startswith(target + "::"):
            for w in line[len(target) + 1:].split():
                p = os.path.normpath(os.path.join(d, w))
                if w != "|" and os.path.isfile(p):
                    out.append(p)
    return out


def inputs(root, f):
    """The files F is generated from (F itself when it exists): what the
    build records (make's database, ninja's), and the tree's files of its
    name with another suffix."""
    if os.path.isfile(f):
        return [f]
    stem = os.path.basename(f).split(".")[0]
    found = []
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if x not in scan.SKIP_DIRS and not x.startswith(".")]
        found += [os.path.join(d, x) for x in files if x.split(".")[0] == stem and
                  not x.endswith((".c", ".o", ".lo", ".obj"))]
    built = [x for x in _ninja_inputs(root, f) + _make_inputs(root, f)
             if x.startswith(os.path.join(root, ""))]  # not /usr/bin/sed
    return sorted(set(found + built))


def users(text, fields, defs):
    """The names of FIELDS that TEXT may use: named in it, or named by a
    macro (DEFS: scan.macros) it names, through other macros."""
    by_word = {}
    for name, _p, body, _f, _a, _z in defs:
        for w in set(re.findall(r"\w+", body)):
            by_word.setdefault(w, set()).add(name)
    words = set(re.findall(r"\w+", text))
    out = set()
    for field in fields:
        reach, todo = set(), [field]
        while todo:  # the macros that expand to the field, at any depth
            w = todo.pop()
            if w not in reach:
                reach.add(w)
                todo.extend(by_word.get(w, ()))
        if reach & words:
            out.add(field)
    return out


def refuse(model):
    """Each field a skipped file may use is not converted (a conversion
    must account for every use), the file and why named in its reasons."""
    root = model["root"]
    fields = {fm["field"] for fm in model["fields"].values()}
    defs = model.get("defs") or scan.macros(model["files"])
    for f, why in scan.SKIPPED:
        srcs = inputs(root, f)
        if srcs:
            text = "\n".join(scan.read(x) for x in srcs)
            hit = users(text, fields, defs)
            how = "its uses of .%s are unknown" if srcs == [f] else \
                "it is generated from %s, which may use .%%s" % ", ".join(
                    os.path.relpath(x, root) for x in srcs)
        else:
            hit = fields
            how = "nothing it is generated from was found: it may use .%s"
        for fm in model["fields"].values():
            if fm["field"] not in hit:
                continue
            r = "%s was skipped (%s): %s" % (os.path.relpath(f, root), why,
                                            how % fm["field"])
            if r not in fm["reasons"]:
                fm["reasons"].append(r)
                fm["decision"] = "report-only"
                if fm.get("kind") == "reference-count":
                    fm["kind"] = "unknown"


INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)


def _fatal_worker(e):
    f = os.path.normpath(os.path.join(e["directory"], e["file"]))
    from . import clangscan as cs
    try:
        ci = cs._lib()
        tu = ci.Index.create().parse(f, args=cs._args(e), options=ci.TranslationUnit.
                                     PARSE_SKIP_FUNCTION_BODIES)
        return f, cs._fatal(tu)
    except Exception:  # noqa: BLE001 - a unit libclang fails on is no suspect
        return f, []


def unfound(pool, entries, text, skipped):
    """The units of the database (not those read with a neighbour's flags)
    with a quoted include found nowhere (not beside the unit,
    in its -I and -iquote directories, nor the system's), a header the
    build generates and has not generated yet: parsed without function
    bodies, each whose include libclang does not find either (an #if
    may leave it out) is skipped, named with the include."""
    sys_dirs = ["/usr/local/include", "/usr/include"]
    suspects = []
    for e in entries:
        if e.get("borrowed"):  # the flags of a neighbour: its -I may not fit
            continue
        args = e.get("arguments") or shlex.split(e.get("command", ""))
        dirs = [os.path.dirname(os.path.join(e["directory"], e["file"]))]
        for i, a in enumerate(args):
            d = a[2:] if a.startswith("-I") and len(a) > 2 else a[7:] if \
                a.startswith("-iquote") and len(a) > 7 else args[i + 1] if \
                a in ("-I", "-iquote") and i + 1 < len(args) else None
            if d:
                dirs.append(os.path.join(e["directory"], d))
        if any(not any(os.path.exists(os.path.join(d, h)) for d in dirs + sys_dirs)
               for h in INCLUDE.findall(text[e["file"], e["directory"]])):
            suspects.append(e)
    for f, fatal in pool.imap(_fatal_worker, suspects):
        for _n, _f, _l, uses in fatal:
            skipped.append((f, "not read whole by the compiler (%s)" % uses[0][2][1]))

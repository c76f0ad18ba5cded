#!/usr/bin/env python3
"""mk/need.py - the Debian packages the targets install, and the audit that
every entry point installs what it uses before it uses it.

  need.py list [--purgeable] [--eval RULE]...
      every package that a recipe's $(NEED) names (mk/need), one a line,
      read from make's own database (make -p) and expanded by make: the
      $(NEED) calls are the one list.  --purgeable: only those that are not
      in mk/base-packages (the machine image), which .ci/run removes
      before the tests.
  need.py audit [--allow TARGET:PKG]... [--drop PKG]... TARGET...
      for each TARGET alone, `make -n -B TARGET`: every use of a package
      of the list that the image lacks must come after a $(NEED) of it (or
      of a package that depends on it) in whatever order make -j may
      choose: in the same recipe, or in the recipe of a prerequisite (a
      sub-make's recipes: in the recipe that runs it, or before them in
      the sub-make).  A use is a command of the package
      (/usr/bin, or a link to it there), a -l of its library, an #include
      of its header (not one under __has_include), or a Python import of
      its module, on a recipe line or in a script or C source that the
      line names, and so on through the scripts those name and the local
      modules they import; a use of a package is one of the packages of
      the list it recommends too (mk/need installs no Recommends).  What a
      package provides is read from dpkg, so the packages must be
      installed (make check-need installs them).
      --allow TARGET:PKG: a use the audit sees that TARGET never reaches.
      --drop PKG: the mutant, a $(NEED) that no longer names PKG.
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASE = os.path.join(ROOT, "mk", "base-packages")
MARK = "%NEED%"
NEED_REF = re.compile(r"(?<!\$)\$\(NEED\)|" + re.escape(MARK))
PKG_NAME = re.compile(r"^[a-z0-9][a-z0-9+.-]+$")
TOKEN = re.compile(r"[^\s;|&()<>'\"`=,{}]+")


def fail(msg):
    sys.exit("mk/need.py: " + msg)


def make(args, extra_env=None):
    """make in the tree, with none of the calling make's flags."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}
    env.update(extra_env or {})
    return subprocess.run(["make", "-C", ROOT, "--no-print-directory",
                           "NEED=" + MARK] + args,
                          env=env, capture_output=True, text=True)


SUB_BEGIN, SUB_END = "%SUB-MAKE%", "%SUB-MAKE-END%"


def dry_shell(cmd):
    """The recipes' shell under `make -n` in the audit: make runs a line
    that names $(MAKE) even then; run it only if it is a sub-make (itself
    under -n), between two marks, never a test (check-input's line)."""
    words = cmd.split()
    if not words or os.path.basename(words[0]) != "make" or \
            os.environ.get("NEED_DRY_NOSUB"):
        sys.exit(0)
    print(SUB_BEGIN, flush=True)
    rc = subprocess.call(["/bin/sh", "-c", cmd])
    print(SUB_END, flush=True)
    sys.exit(rc)


def joined_lines(text):
    """Lines with their backslash-newline continuations joined."""
    return re.sub(r"\\\n", " ", text).split("\n")


def need_args(line):
    """The argument texts of each $(NEED) on a recipe line: up to the
    first shell separator outside a $(...)."""
    out = []
    for m in NEED_REF.finditer(line):
        depth, i, s = 0, m.end(), line
        while i < len(s):
            if s.startswith("$(", i):
                depth += 1
                i += 2
                continue
            c = s[i]
            if c == ")" and depth:
                depth -= 1
            elif depth == 0 and (c in ";|&)" or s.startswith(" then", i)):
                break
            i += 1
        out.append(s[m.end():i].strip())
    return out


def base_packages():
    with open(BASE) as f:
        return {l.strip() for l in f if l.strip() and not l.startswith("#")}


def packages(evals=()):
    """Every package named by a $(NEED) in any recipe, expanded by make."""
    if os.environ.get("NEED_LISTING"):
        fail("a $(NEED) argument runs mk/need.py list: it would never end")
    os.environ["NEED_LISTING"] = "1"
    db = make(["-p", "-q", "Makefile"] + sum((["--eval", e] for e in evals), []))
    if "# Files" not in db.stdout:
        fail("make -p printed no database:\n" + db.stderr)
    texts = set()
    for line in joined_lines(db.stdout.split("# Files", 1)[1]):
        if line.startswith("\t"):
            texts.update(t for t in need_args(line) if t)
    for t in sorted(texts):
        if re.search(r"\$\$|`", t):
            fail(f"a $(NEED) takes its packages from the shell ('{t}'): "
                 "name them, or a make variable, so that they can be listed")
    if not texts:
        fail("no $(NEED) in any recipe")
    rule = "need-expand: ; @printf '%s\\n' " + " ".join(sorted(texts))
    out = make(["-s", "--eval", rule, "need-expand"])
    if out.returncode:
        fail("expanding the $(NEED) arguments failed:\n" + out.stderr)
    pkgs = set(out.stdout.split())
    for p in sorted(pkgs):
        if not PKG_NAME.match(p):
            fail(f"a $(NEED) names '{p}', which is no Debian package name")
    return sorted(pkgs)


# --- what each package provides, and what covers it ----------------------

def dpkg_files(pkg):
    out = subprocess.run(["dpkg", "-L", pkg], capture_output=True, text=True)
    if out.returncode:
        fail(f"{pkg} is not installed: the audit reads what it provides "
             "from dpkg (make check-need installs it)")
    return [f for f in out.stdout.split("\n") if f and not os.path.isdir(f)]


def provides(pkg):
    """(kind, token) pairs by which a recipe or script uses pkg."""
    toks = set()
    for f in dpkg_files(pkg):
        m = re.match(r"^/(?:usr/)?s?bin/([^/]+)$", f)
        if m:
            toks.add(("command", m.group(1)))
            toks.add(("binary", os.path.realpath(f)))
        m = re.match(r"^/usr/lib/(?:[^/]+/)?lib([^/]+)\.so$", f)
        if m:
            toks.add(("library", "-l" + m.group(1)))
        m = re.match(r"^/usr/lib/python3/dist-packages/([A-Za-z_]\w*)(/|\.py$)", f)
        if m:
            toks.add(("module", m.group(1)))
        if f.startswith("/usr/include/"):
            rel = f[len("/usr/include/"):]
            toks.add(("header", rel))
            if "/" in rel:  # found through a -I of its directory
                toks.add(("header", rel.split("/", 1)[1]))
    return toks


def dependency_graph():
    """Installed package -> the packages it depends on (virtual names
    resolved through Provides)."""
    out = subprocess.run(["dpkg-query", "-W", "-f", "${Package}\t${Status}\t"
                          "${Depends}, ${Pre-Depends}\t${Provides}\t${Recommends}\n"],
                         capture_output=True, text=True, check=True).stdout
    deps, provider, recommends = {}, {}, {}
    names = lambda field: [re.sub(r"[\s:(].*", "", alt.strip())  # noqa: E731
                           for d in field.split(",") for alt in d.split("|") if alt.strip()]
    for line in out.splitlines():
        name, status, dep, prov, rec = line.split("\t")
        if not status.endswith(" installed"):
            continue
        deps[name], recommends[name] = names(dep), names(rec)
        for v in prov.split(","):
            if v.strip():
                provider.setdefault(re.sub(r"[\s:(].*", "", v.strip()), []).append(name)
    return deps, provider, recommends


def closure(pkgs, graph):
    deps, provider, _ = graph
    seen, todo = set(), list(pkgs)
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        todo.extend(deps.get(p, []))
        todo.extend(provider.get(p, []))
    return seen


# --- what a recipe line uses ----------------------------------------------

def repo_file(tok):
    """The repository file a token names, relative to ROOT, or None."""
    path = os.path.relpath(tok, ROOT) if os.path.isabs(tok) else tok
    if path.startswith(("..", "build/", "/")) or not os.path.isfile(os.path.join(ROOT, path)):
        return None
    return path


def file_kind(path):
    if path.endswith((".c", ".cc")):
        return "c"
    if path.endswith(".py"):
        return "python"
    if path.endswith(".sh"):
        return "shell"
    with open(os.path.join(ROOT, path), errors="replace") as f:
        first = f.readline()
    if first.startswith("#!"):
        return "python" if "python" in first else "shell"
    return None


def python_local(path, mod, names):
    """The repository files of a local import of mod (names: what was
    imported from it) seen from path."""
    here = os.path.dirname(path)
    level = len(mod) - len(mod.lstrip("."))
    parts = [p for p in mod.lstrip(".").split(".") if p]
    bases = [here] if level else []
    d = here
    while not level and d not in ("", "/"):
        bases.append(d)
        d = os.path.dirname(d)
    out = []
    for b in bases:
        for _ in range(max(level - 1, 0)):
            b = os.path.dirname(b)
        stem = os.path.join(b, *parts) if parts else b
        for cand in [stem + ".py", os.path.join(stem, "__init__.py")] + \
                [os.path.join(stem, n + ".py") for n in names]:
            if os.path.isfile(os.path.join(ROOT, cand)):
                out.append(os.path.normpath(cand))
    return out


def scan_python(path, text, uses, more):
    for m in re.finditer(r"^\s*(?:from\s+(\S+)\s+import\s+\(?([\w\s,]+)|import\s+([\w.,\s]+?)$)",
                         text, re.M):
        if m.group(1):
            mods = [m.group(1)]
            names = [n.split()[0] for n in m.group(2).split(",") if n.strip()]
        else:
            mods = [x.split()[0] for x in m.group(3).split(",") if x.strip()]
            names = []
        for mod in mods:
            if not mod.startswith("."):
                uses.add(("module", mod.split(".")[0]))
            more.extend(python_local(path, mod, names))
    for m in re.finditer(r"\[\s*[\"']([\w.+-]+)[\"']\s*[],]", text):
        uses.add(("command", m.group(1)))  # a list's first word: a command line
    # a script of the tree it names, os.path.join(HERE, "..", "tool") or so
    for m in re.finditer(r"[\"']([\w.+-]+(?:/[\w.+-]+)*)[\"']", text):
        d = os.path.dirname(path)
        while True:
            cand = os.path.normpath(os.path.join(d, m.group(1)))
            if cand != path and os.path.isfile(os.path.join(ROOT, cand)) and \
                    file_kind(cand):
                more.append(cand)
                break
            if d in ("", "."):
                break
            d = os.path.dirname(d)


def scan_c(text, uses):
    optional = set(re.findall(r"__has_include\s*\(\s*<([^>]+)>", text))
    for h in re.findall(r"^\s*#\s*include\s*<([^>]+)>", text, re.M):
        if h not in optional:
            uses.add(("header", h))


def scan_file(path, cache):
    """What a script or C source uses: (kind, token, file) triples."""
    if path in cache:
        return cache[path]
    cache[path] = set()  # a cycle of imports ends here
    kind = file_kind(path)
    with open(os.path.join(ROOT, path), errors="replace") as f:
        text = f.read()
    pairs, more = set(), []
    if kind == "c":
        scan_c(text, pairs)
    elif kind == "python":
        # comments out: whole lines, and PEP 8's inline ones
        scan_python(path, re.sub(r"(?m)(^\s*|  )#.*$", "", text), pairs, more)
    uses = {(k, t, path) for k, t in pairs}
    if kind == "shell":
        uses |= line_uses(re.sub(r"(^|\s)#.*", "", text), cache, path)
    for p in more:
        uses |= scan_file(p, cache)
    cache[path] = uses
    return uses


def line_uses(line, cache, where=None):
    """(kind, token, where) pairs that a recipe line (or shell text) uses."""
    out = set()
    for tok in TOKEN.findall(line):
        if tok.startswith("-l"):
            out.add(("library", tok, where or "the recipe"))
            continue
        if re.match(r"^/(usr/)?s?bin/", tok):
            tok = os.path.basename(tok)
        out.add(("command", tok, where or "the recipe"))
        path = repo_file(tok)
        if path and path != where and file_kind(path):
            out.update(scan_file(path, cache))
    return out


# --- the audit -------------------------------------------------------------

def owners(pkgs):
    """(kind, token) -> the packages of pkgs that provide it; a command
    also by the names that lead to it through symbolic links (gnuplot,
    an alternative, is gnuplot-nox's /usr/bin/gnuplot-nox)."""
    own, real = {}, {}
    for p in pkgs:
        for u in provides(p):
            own.setdefault(u, set()).add(p)
            if u[0] == "binary":
                real[u[1]] = p
    for d in ("/usr/bin", "/usr/sbin"):
        for n in os.listdir(d):
            p = real.get(os.path.realpath(os.path.join(d, n)))
            if p:
                own.setdefault(("command", n), set()).add(p)
    return own


TRACE = re.compile(r"^\S+:\d+: (?:update )?target '(.+)' (?:does not exist|due to: .*)$")
DRY = "%: SHELL := " + os.path.abspath(__file__)


def prerequisites(target):
    """target -> its prerequisites (normal and order-only), for each target
    that `make -n -B target` itself updates (not a sub-make's), from the
    database make prints after."""
    out = make(["-p", "-n", "-B", "--eval", DRY, target], {"NEED_DRY_NOSUB": "1"})
    prereqs, updated, cur = {}, set(), None
    files = out.stdout.split("\n# Files\n", 1)[-1].split("\n# files hash-table stats")[0]
    for line in files.split("\n"):
        m = re.match(r"^([^#\s%][^:=]*?):{1,2}(?![=:])(.*)$", line)
        if m:
            cur = m.group(1)
            prereqs.setdefault(cur, set()).update(m.group(2).replace("|", " ").split())
        elif cur and line.startswith("#  Successfully updated"):
            updated.add(cur)
    return {t: p for t, p in prereqs.items() if t in updated}


def trace_lines(target):
    """The lines of `make -n -B --trace target`: each recipe after the
    line naming its target, a sub-make's between SUB_BEGIN and SUB_END."""
    out = make(["-n", "-B", "--trace", "--eval", DRY, target])
    if out.returncode:
        fail(f"make -n -B {target} failed:\n{out.stderr}")
    return joined_lines(out.stdout)


def named_in(line, drops):
    return {w for x in need_args(line) for w in x.split() if w not in drops}


def top_needs(lines, drops):
    """target -> the packages its recipe NEEDs, for this make's recipes."""
    needs, cur, depth = {}, None, 0
    for line in lines:
        depth += (line == SUB_BEGIN) - (line == SUB_END)
        m = TRACE.match(line)
        if depth == 0 and m:
            cur = m.group(1)
        elif depth == 0 and cur:
            needs.setdefault(cur, set()).update(named_in(line, drops))
    return needs


def before(t, prereqs, needs):
    """The packages NEEDed by the recipes make finishes before t's starts:
    those of its prerequisites, all the way down."""
    seen, todo, pkgs = set(), list(prereqs.get(t, ())), set()
    while todo:
        u = todo.pop()
        if u not in seen:
            seen.add(u)
            pkgs |= needs.get(u, set())
            todo.extend(prereqs.get(u, ()))
    return pkgs


def audit_target(target, own, graph, drops, allowed, listed):
    """The uses of target alone that no $(NEED) comes before, whatever the
    order make -j picks: {package: (kind, token, where)}.  A recipe is
    covered by its prerequisites' recipes and its own earlier lines; a
    sub-make's recipes, by what came before the sub-make in the recipe
    that runs it and by each other in their order."""
    prereqs, lines = prerequisites(target), trace_lines(target)
    needs = top_needs(lines, drops)
    found, cache, memo, named, stack = {}, {}, {}, set(), []
    for line in lines:
        m = TRACE.match(line)
        if line == SUB_BEGIN:
            stack.append(named)
            named = set(named)
        elif line == SUB_END:
            named = stack.pop() | named
        elif m:
            if not stack:
                named = before(m.group(1), prereqs, needs)
        else:
            named |= named_in(line, drops)
            key = frozenset(named)
            covered = memo[key] if key in memo else memo.setdefault(key, closure(named, graph))
            for x in need_args(line):
                line = line.replace(x, "")
            for kind, tok, where in sorted(line_uses(line, cache)):
                for p in sorted(own.get((kind, tok), ())):
                    # mk/need installs no Recommends: a use of p is one of
                    # those of the list too (a cross gcc's libc)
                    for q in [p] + [r for r in graph[2].get(p, []) if r in listed]:
                        if q not in covered and q not in found and q not in allowed:
                            found[q] = (kind, tok if q == p else
                                        f"{tok} of {p}, which recommends it", where)
    return found


def audit(targets, drops, allow):
    base = base_packages()
    pkgs = [p for p in packages() if p not in base]
    own, graph = owners(pkgs), dependency_graph()
    bad = 0
    for t in targets:
        allowed = {a.split(":", 1)[1] for a in allow if a.split(":", 1)[0] == t}
        for p, (kind, tok, where) in audit_target(t, own, graph, drops, allowed, set(pkgs)).items():
            print(f"need audit: make {t} uses {p} ({kind} {tok}, in {where}) "
                  f"with no $(NEED) of it before", file=sys.stderr)
            bad += 1
    if bad:
        sys.exit(1)
    print(f"need audit: each of {len(targets)} targets, made alone, NEEDs "
          f"what it uses of the {len(pkgs)} packages the image lacks before it uses it")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "-c":
        dry_shell(sys.argv[2])
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    ls = sub.add_parser("list")
    ls.add_argument("--purgeable", action="store_true")
    ls.add_argument("--eval", action="append", default=[], metavar="RULE",
                    help="more makefile text (the mutants of check-packages)")
    au = sub.add_parser("audit")
    au.add_argument("--drop", action="append", default=[], metavar="PKG")
    au.add_argument("--allow", action="append", default=[], metavar="TARGET:PKG")
    au.add_argument("targets", nargs="+")
    args = ap.parse_args()
    if args.cmd == "list":
        base = base_packages() if args.purgeable else set()
        print("\n".join(p for p in packages(args.eval) if p not in base))
    else:
        audit(args.targets, args.drop, args.allow)


if __name__ == "__main__":
    main()

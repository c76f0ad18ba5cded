"""What refcount-convert reads from a tree besides spatch's matches: the
sources, compile_commands.json, macro definitions (wrappers and the ones
spatch must be told about), struct definitions, preprocessor conditions.
Runs spatch."""

import json
import os
import re
import subprocess
import sys

from . import registry

SKIP_DIRS = {".git", ".pc", "debian", "build", "_build", "CMakeFiles"}
# a meson or CMake build directory, whatever its name
BUILD_MARKS = ("meson-info", "CMakeCache.txt")
COCCI_DIR = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "cocci")


def sources(root):
    out = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS
                         and not x.startswith("build") and not any(
                             os.path.exists(os.path.join(d, x, m)) for m in BUILD_MARKS))
        for f in sorted(files):
            if f.endswith((".c", ".h")):
                out.append(os.path.join(d, f))
    return out


def include_dirs(root):
    """-I directories: the compile database's when there is one (compdb.py:
    the tree's own, or one made the way its build would; only its own with
    REFCONV_BACKEND=spatch), then every directory holding a header (spatch
    reads every #if variant, so the headers of the other variants must be
    found as well)."""
    from . import compdb
    p = compdb.existing(root) if os.environ.get("REFCONV_BACKEND") == "spatch" \
        else compdb.locate(root)[0]
    headers = sorted({os.path.dirname(f) for f in sources(root) if f.endswith(".h")})
    if not p:
        return headers
    dirs = []
    for e in json.load(open(p)):
        args = e.get("arguments") or e.get("command", "").split()
        for i, a in enumerate(args):
            d = a[2:] if a.startswith("-I") else (
                args[i + 1] if a == "-I" and i + 1 < len(args) else None)
            if d:
                d = os.path.join(e.get("directory", root), d)
                if d not in dirs:
                    dirs.append(d)
    return dirs + [d for d in headers if d not in dirs]


def read(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        return f.read()


def write(path, text):
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)


DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(\(([^)]*)\))?[ \t]*"
                       r"((?:[^\n]*\\\n)*[^\n]*)", re.M)


_MEMO = {}


def memo(kind, f, compute):
    """COMPUTE(F)'s value, computed once per content of file F (its size
    and modification time) for each KIND: what discovery and the passes
    would otherwise compute again from the same file."""
    st = os.stat(f)
    sig = (st.st_size, st.st_mtime_ns)
    hit = _MEMO.get((kind, f))
    if hit is None or hit[0] != sig:
        hit = _MEMO[kind, f] = (sig, compute(f))
    return hit[1]


def words(f):
    """The set of words of file F."""
    return memo("words", f, lambda f: frozenset(re.findall(r"\w+", read(f))))


def macros(files):
    """Every #define: (name, params or None, body, file, first, last line)."""
    return [d for f in files for d in memo("macros", f, _macros)]


def _macros(f):
    out, line, pos = [], 1, 0
    text = read(f)
    for m in DEFINE_RE.finditer(text):
        line += text.count("\n", pos, m.start())
        pos = m.start()
        first = line
        last = first + m.group(0).count("\n")
        body = re.sub(r"\\\n", " ", m.group(4))
        body = re.sub(r"/\*.*?\*/|//.*$", " ", body).strip()
        params = None
        if m.group(2) is not None:
            params = [p.strip() for p in m.group(3).split(",") if p.strip()]
        out.append((m.group(1), params, body, f, first, last))
    return out


DECL_WORDS = {"static", "inline", "__inline", "__inline__", "extern",
              "__forceinline"}


# A macro of one argument naming a type in a declaration, `STACK_OF(X509)
# *cas = NULL;` (a type-building macro of another package's header)
TYPE_MACRO_RE = re.compile(r"^[ \t]*(?:const\s+)?([A-Z][A-Z0-9_]*)\s*\(\s*(\w+)\s*\)"
                           r"\s*\*+\s*\w+\s*[=;,]", re.M)


def macro_file(defs, files=()):
    """spatch's --macro-file: the macros that hide declarations (GIT_INLINE,
    JSON_INLINE, attribute macros), which otherwise make it skip the
    function; and the type-building macros the tree uses in declarations
    but does not define (another package's `STACK_OF(type)`), read as
    `struct type` so that the function is parsed."""
    defined = {d[0] for d in defs}
    lines = ["#define %s(x) struct x" % n for n in sorted({
        m.group(1) for f in files for m in TYPE_MACRO_RE.finditer(read(f))} - defined)]
    for name, params, body, _f, _a, _b in defs:
        words = re.sub(r"__attribute__\s*\(\(.*\)\)", " ", body).split()
        if params is None and words and all(w in DECL_WORDS for w in words):
            lines.append("#define %s %s" % (name, body))
        elif params is not None and len(params) == 1 and words and \
                words[-1] == params[0] and \
                all(w in DECL_WORDS for w in words[:-1]) and len(words) > 1:
            lines.append("#define %s(%s) %s" % (name, params[0], body))
    return sorted(set(lines))


STRUCT_RE = re.compile(r"\b(typedef\s+)?struct\s+(\w*)\s*\{", re.M)


def _match_brace(text, i):
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return -1


def structs(files):
    """Struct fields: field name -> [dict(struct, typedefs, type, file,
    line, index)] (index: the field's position, for positional
    initialisers)."""
    out = {}
    for f in files:
        text = read(f)
        nocom = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)),
                       text, flags=re.S)
        nocom = re.sub(r"//[^\n]*", "", nocom)
        for m in STRUCT_RE.finditer(nocom):
            start = m.end() - 1
            end = _match_brace(nocom, start)
            if end < 0:
                continue
            tail = re.match(r"\s*(\w+)?\s*;", nocom[end + 1:])
            typedefs = [tail.group(1)] if m.group(1) and tail and tail.group(1) else []
            body = nocom[start + 1:end]
            # preprocessor lines (platform variants of a member) are blanked
            body = re.sub(r"^[ \t]*#[^\n]*", lambda mm: " " * len(mm.group(0)),
                          body, flags=re.M)
            # only this level's declarations
            flat, depth = [], 0
            for ch in body:
                depth += ch == "{"
                flat.append(ch if depth == 0 else " ")
                depth -= ch == "}"
            flat = "".join(flat)
            pos = start + 1
            for idx, decl in enumerate(flat.split(";")):
                d = " ".join(decl.split())
                fm = re.match(r"^(.*?)\b(\w+)\s*(\[[^]]*\])?(\s*:\s*\d+)?$", d)
                if fm and fm.group(1).strip():
                    line = nocom.count("\n", 0, pos + len(decl) - len(decl.lstrip())) + 1
                    out.setdefault(fm.group(2), []).append(dict(
                        struct=m.group(2), typedefs=typedefs,
                        type=fm.group(1).strip(), file=f, line=line, index=idx))
                pos += len(decl) + 1
    return out


def resolve(decl_type, typedefs=None, fields=None, depth=0):
    """The scalar C type a declared type stands for (qualifiers dropped),
    through typedefs, the project's intN names and one-member structs
    (DBusAtomic, git_atomic32); None when unknown."""
    t = " ".join(w for w in decl_type.split() if w not in registry.QUALIFIERS)
    if t in registry.WIDTHS:
        return t
    if depth > 4:
        return None
    for pat, w in registry.WIDTH_NAMES:
        if re.match(pat, t):
            return "int32_t" if w == registry.WIDTH32 else "int64_t"
    if typedefs and t in typedefs:
        return resolve(typedefs[t], typedefs, fields, depth + 1)
    m = re.match(r"^(?:struct (\w+)|(\w+))$", t)
    if m and fields is not None:
        members = [(n, d) for n, ds in fields.items() for d in ds
                   if (m.group(1) and d["struct"] == m.group(1)) or
                   (m.group(2) and m.group(2) in d["typedefs"])]
        # one member; platform variants of it (#ifdef DBUS_WIN ... #else):
        # the last declaration, the #else branch
        if members and len({n for n, _ in members}) == 1:
            return resolve(members[-1][1]["type"], typedefs, fields, depth + 1)
    return None


def width(decl_type, typedefs=None, fields=None):
    """The library type (type, prefix, macro prefix) for a declared type."""
    r = resolve(decl_type, typedefs, fields)
    return registry.WIDTHS[r] if r else None


def typedef_map(files):
    """Scalar typedefs and one-int struct typedefs (DBusAtomic)."""
    out = {}
    for f in files:
        for m in re.finditer(r"typedef\s+([\w ]+?)\s+(\w+)\s*;", read(f)):
            out.setdefault(m.group(2), m.group(1))
    return out


def conditions(text):
    """For each line (1-based), the stack of preprocessor conditions it is
    compiled under, as C expressions."""
    stack, out = [], [None]
    for line in text.split("\n"):
        s = line.strip()
        m = re.match(r"#\s*(if|ifdef|ifndef|elif|else|endif)\b\s*(.*)", s)
        if m:
            kind, expr = m.group(1), re.sub(r"/\*.*?\*/|//.*", "", m.group(2)).strip()
            if kind == "ifdef":
                stack.append(["defined(%s)" % expr, []])
            elif kind == "ifndef":
                stack.append(["!defined(%s)" % expr, []])
            elif kind == "if":
                stack.append(["(%s)" % expr, []])
            elif kind in ("elif", "else") and stack:
                prev, negs = stack[-1]
                negs = negs + ["!" + prev if prev.startswith("(") or prev.startswith("defined")
                               else "!(%s)" % prev]
                stack[-1] = ["(%s)" % expr if kind == "elif" else "", negs]
            elif kind == "endif" and stack:
                stack.pop()
        out.append([c for cur, negs in stack for c in negs + ([cur] if cur else [])])
    return out


def mentioning(files, names):
    """The files whose text holds one of NAMES as a word: what a rule about
    those identifiers can match.  spatch then parses only these (it cannot
    prefilter on a regex-constrained identifier itself)."""
    if not names:
        return []
    names = set(names)
    return [f for f in files if not names.isdisjoint(words(f))]


# C's comments, and the string and character literals a comment marker
# may sit in ("/*" in a path): code() blanks the comments, keeps the rest
LEXICAL_RE = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|(/\*.*?\*/|//[^\n]*)',
                        re.S)


def code(text):
    """TEXT with its line continuations joined and every comment a blank:
    what the tokens are, for the file selections below."""
    return LEXICAL_RE.sub(lambda m: " " if m.group(1) else m.group(0),
                          text.replace("\\\n", ""))


def blanked(text):
    """TEXT with every comment and string or character literal a blank,
    its line breaks kept: the code of each line, at that line."""
    return LEXICAL_RE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def _alt(names):
    return "|".join(sorted(re.escape(n) for n in names))


def accessing(files, fields, names=()):
    """The files whose code accesses one of FIELDS through a pointer (`->`
    then the name, blanks or comments between), or of an array element
    (`]` then `.` and the name: spatch's standard isomorphism ptr_to_array
    lets a rule's `E->f` match `a[i].f`), or names one of NAMES: the only
    files in which a rule whose every match is `E->f` with f one of FIELDS,
    or a call of one of NAMES, can match (convert/cocci/fields.cocci).  A
    file that names a field only otherwise (`x.f`, another struct's
    declaration, a local of that name) or names only an allocator has no
    such match and is not parsed."""
    pat = [r"(?:->|\]\s*\.)\s*(?:%s)\b" % _alt(fields)] if fields else []
    pat += [r"\b(?:%s)\b" % _alt(names)] if names else []
    if not pat:
        return []
    rx = re.compile("|".join(pat))
    return [f for f in mentioning(files, list(fields) + list(names))
            if rx.search(code(read(f)))]


def defining(files, fns):
    """The files whose code may define one of FNS: the name, its
    parenthesised parameters, then `{` (a definition) or a word (K&R
    parameter declarations, an attribute macro) before any other token; a
    call or a prototype is followed by an operator or `;`.  A rule that
    matches inside the body of one of FNS (convert/cocci/returns.cocci)
    matches only in these."""
    head = re.compile(r"\b(?:%s)\s*\(" % _alt(fns))
    out = []
    for f in mentioning(files, fns):
        text = code(read(f))
        for m in head.finditer(text):
            depth, i = 1, m.end()
            while depth and i < len(text):
                depth += {"(": 1, ")": -1}.get(text[i], 0)
                i += 1
            rest = text[i:i + 200].lstrip()
            if rest[:1] == "{" or re.match(r"[A-Za-z_]", rest):
                out.append(f)
                break
    return out


# What spatch could not read in this run, [(file, why)]: a failing or slow
# file is skipped and reported, never the end of the run.
SKIPPED = []
SOLO = set()  # files read by spatch alone, one run each
# Per-file limits: a file larger than MAX_BYTES is not given to spatch (an
# amalgamation); FILE_TIMEOUT seconds per file of a batch.
MAX_BYTES = int(os.environ.get("REFCONV_MAX_BYTES", 2 << 20))
FILE_TIMEOUT = int(os.environ.get("REFCONV_FILE_TIMEOUT", 30))
BATCH = 32
ROW_RE = re.compile(r"^[A-Z]+\t")


def skip(f, why):
    if all(x[0] != f for x in SKIPPED):
        SKIPPED.append((f, why))


def rows(out):
    """spatch's rows, one per line: a line that does not start a row (an
    expression spatch printed over two lines) continues the one before."""
    lines = []
    for l in out.splitlines():
        if ROW_RE.match(l) or not lines:
            lines.append(l)
        else:
            lines[-1] += " " + l.strip()
    return "\n".join(lines) + ("\n" if lines else "")


def _run(cmd, files):
    """One spatch run on FILES: (ok, stdout, why)."""
    limit = FILE_TIMEOUT * len(files)
    try:
        r = subprocess.run(cmd + ["--timeout", str(limit)] + files,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, errors="surrogateescape",
                           timeout=limit + 10)
    except subprocess.TimeoutExpired:
        return False, "", "timed out (%d s)" % limit
    if r.returncode != 0:
        why = "timed out (%d s)" % limit if "timeout" in r.stderr else \
            "spatch failed (%d): %s" % (r.returncode, (r.stderr.strip().splitlines()
                                                      or ["?"])[-1][:120])
        return False, r.stdout, why
    return True, r.stdout, ""


def _batch(cmd, files):
    """FILES in one run; when it fails, each half again, down to the file
    that fails, which is skipped."""
    ok, out, why = _run(cmd, files)
    if ok:
        return out
    if len(files) == 1:
        skip(files[0], why)
        return ""
    h = len(files) // 2
    return _batch(cmd, files[:h]) + _batch(cmd, files[h:])


def spatch(cocci_text, targets, incdirs, macro_lines, in_place=False,
           workdir=None):
    """Run spatch on TARGETS (files), in batches of BATCH files, two at a
    time; returns stdout, its rows one per line.  Files that fail or time
    out are skipped and listed in SKIPPED."""
    os.makedirs(workdir, exist_ok=True)
    sp = os.path.join(workdir, "rules.cocci")
    write(sp, cocci_text)
    mf = os.path.join(workdir, "macros.h")
    write(mf, "\n".join(macro_lines) + "\n")
    cmd = ["spatch", "--very-quiet", "--sp-file", sp, "--macro-file", mf,
           "--include-headers"]
    for d in incdirs:
        cmd += ["-I", d]
    if in_place:
        cmd += ["--in-place", "--no-show-diff"]
    files = []
    for f in targets:
        size = os.path.getsize(f) if os.path.isfile(f) else 0
        if size > MAX_BYTES:
            skip(f, "larger than %d bytes (%d)" % (MAX_BYTES, size))
        elif not any(x[0] == f for x in SKIPPED):
            files.append(f)
    if not files:
        return ""
    # a file whose uses a batch left unread (model.py asks the compiler)
    # is read in a run of its own: spatch's parse of a file can depend on
    # the files before it in the same run
    alone = [f for f in files if f in SOLO]
    files = [f for f in files if f not in SOLO]
    batches = [files[i:i + BATCH] for i in range(0, len(files), BATCH)] + [
        [f] for f in alone]
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=2) as ex:
        outs = list(ex.map(lambda b: _batch(cmd, b), batches))
    return rows("".join(o if o.endswith("\n") or not o else o + "\n" for o in outs))


def template(name, **subst):
    text = read(os.path.join(COCCI_DIR, name))
    for k, v in subst.items():
        text = text.replace("{{%s}}" % k, v)
    return text

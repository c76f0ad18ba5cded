#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""kdoc2man: man pages from the kernel-doc comments of librefcount's headers.

    kdoc2man.py --out DIR --version V --date D [--alias FROM=TO] HEADER=PAGE ...

For each HEADER (e.g. include/refcount/kref.h=kref) it writes DIR/PAGE.3, an
overview page: the header's file comment (its DOC: sections), the types,
structs and enums it documents, and the list of its functions and macros.
Each documented function or macro gets a page of its own, DIR/NAME.3, made
from its kernel-doc comment: NAME, SYNOPSIS (the include and the
declaration), ARGUMENTS, DESCRIPTION, and the sections the project's
kernel-doc order names (docs/style.md): MEMORY ORDERING, CONTEXT, RETURN
VALUE, MISUSE, SOURCE.  A part the comment does not have is left out.  Every
page ends with SEE ALSO.

--alias FROM=TO (e.g. refcount_long_=refcount_): a public function of a
HEADER whose name starts with FROM and that has no kernel-doc of its own is
documented by TO's function of the same suffix: its page gives its own
synopsis and points to that page (refcount_long_inc(3) to refcount_inc(3)).

It prints the pages it wrote, one per line.  It fails, naming the header and
line, on a kernel-doc comment it cannot read.
"""
import argparse
import os
import re
import sys

SECTIONS = [  # (label that starts a paragraph, man section)
    ("Memory ordering:", "MEMORY ORDERING"),
    ("Context:", "CONTEXT"),
    ("Return:", "RETURN VALUE"),
    ("Misuse:", "MISUSE"),
    ("Follows ", "SOURCE"),
]
LABELS = "|".join(re.escape(label.rstrip()) for label, _ in SECTIONS[:4])
# The generated table's markers in <refcount/refcount.h> (tests/unit.mk).
MARKER = re.compile(r"^(BEGIN|END) misuse table")
HEAD = re.compile(r"^(?:(typedef|struct|enum)\s+)?([A-Za-z_][A-Za-z0-9_]*)"
                  r"(\(\))?\s+-\s+(.*)$")


class Doc:
    def __init__(self, kind, name, summary, line):
        self.kind, self.name, self.summary, self.line = kind, name, summary, line
        self.args = []  # (name, text)
        self.paras = []  # lists of lines
        self.decl = ""


def comment_lines(text, start):
    """The lines of the comment whose '/**' is at text line @start."""
    lines = text.split("\n")
    out = []
    for i in range(start + 1, len(lines)):
        s = lines[i]
        if s.strip().startswith("*/"):
            return out, i
        s = re.sub(r"^\s*\* ?", "", s, count=1) if s.strip().startswith("*") else s
        out.append(s)
    raise ValueError("unterminated comment")


def declaration(lines, end):
    """The C declaration after a comment: up to '{', ';' or a macro's end."""
    out = []
    for s in lines[end + 1:]:
        if not out and not s.strip():
            continue
        if s.startswith("#define") or (out and out[0].startswith("#define")):
            out.append(s.rstrip("\\").rstrip())
            if not s.rstrip().endswith("\\"):
                break
            continue
        if s.startswith("#"):
            break
        out.append(s)
        if "{" in s or s.rstrip().endswith(";"):
            break
    text = " ".join(x.strip() for x in out)
    if text.startswith("#define"):
        m = re.match(r"#define\s+([A-Za-z0-9_]+(\([^)]*\))?)", text)
        return "#define " + (m.group(1) if m else "")
    text = text.split("{")[0].rstrip().rstrip(";")
    text = re.sub(r"\b(static|__refcount_inline|__refcount_always_inline|"
                  r"__refcount_must_check|__refcount_nonnull|__refcount_cold)\b",
                  "", text)
    return re.sub(r"\s+", " ", text).strip() + ";"


def macro_definition(lines, end, name):
    """The "#define NAME(args)" of a documented macro: the first one of that
    name within the next lines (guards and comments may come first), else
    the name alone (a macro the user defines, such as REFCOUNT_BREED)."""
    for s in lines[end + 1:end + 40]:
        m = re.match(r"\s*#\s*define\s+(%s(\([^)]*\))?)" % re.escape(name), s)
        if m:
            return "#define " + m.group(1)
    return "#define " + name


def parse(path):
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")
    docs, filedoc = [], []
    i = 0
    while i < len(lines):
        s = lines[i].strip()
        if i < 3 and s == "/*" and not filedoc:
            body, end = comment_lines(text, i)
            filedoc = body
            i = end + 1
            continue
        one = re.match(r"^/\*\*\s+(.*?)\s*\*/$", s)
        if one:  # /** NAME - summary */
            body, end = [one.group(1)], i
        elif s != "/**":
            i += 1
            continue
        else:
            body, end = comment_lines(text, i)
        if not body:
            raise ValueError(f"{path}:{i + 1}: empty kernel-doc comment")
        m = HEAD.match(body[0].strip())
        if not m:
            raise ValueError(f"{path}:{i + 2}: no 'name - summary' line")
        kind = m.group(1) or ("function" if m.group(3) else "macro")
        d = Doc(kind, m.group(2), m.group(4), i + 1)
        k = 1
        while k < len(body) and body[k].strip() and not body[k].startswith("@"):
            d.summary += " " + body[k].strip()
            k += 1
        while k < len(body) and body[k].startswith("@"):
            am = re.match(r"@([A-Za-z0-9_.]+):\s*(.*)", body[k])
            if not am:
                raise ValueError(f"{path}:{i + 2 + k}: bad argument line")
            arg = [am.group(1), am.group(2)]
            k += 1
            while k < len(body) and body[k].strip() and \
                    not body[k].startswith("@"):
                arg[1] += " " + body[k].strip()
                k += 1
            d.args.append(tuple(arg))
        para = []
        for s in body[k:] + [""]:
            if s.strip():
                para.append(s)
            elif para:
                d.paras.append(para)
                para = []
        if d.kind == "macro":
            d.decl = macro_definition(lines, end, d.name)
        elif d.kind == "function":
            d.decl = declaration(lines, end)
        docs.append(d)
        i = end + 1
    return filedoc, docs


PUBLIC = re.compile(r"^(?:static\s+)?(?:__refcount_\w+\s+)*"
                    r"(?:void|bool|int|unsigned int|unsigned long)\s*\**\s*"
                    r"(?:__refcount_\w+\s+)*([a-z]\w*)\s*\(", re.M)


def public_functions(path):
    """[(name, declaration)] of the functions HEADER defines or declares."""
    text = open(path, encoding="utf-8").read()
    bare = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"),
                  text, flags=re.S)
    lines = text.split("\n")
    out = []
    for m in PUBLIC.finditer(bare):
        start = bare.count("\n", 0, m.start())
        out.append((m.group(1), declaration(lines, start - 1)))
    return out


def alias_page(name, decl, target, include, overview, date, version):
    """The page of an alias: its synopsis, and TARGET's page for the rest."""
    m = re.search(r"\b(\w+_t)\s*\*", decl)
    on = f"on a {m.group(1)}" if m else f"as {overview}(3) describes"
    r = th(name, date, version)
    r += [".SH NAME", f"{name} \\- {target}() {on}", ".SH SYNOPSIS", ".nf",
          f".B #include <{include}>", ".PP", esc(decl), ".fi",
          ".SH DESCRIPTION", f".BR {name} ()", "is", f".BR {target} (3)",
          f"{on}: the same arguments, return value, memory ordering, context",
          "and reports;", f".BR {overview} (3)", "says what differs.",
          ".SH SEE ALSO", f".BR {target} (3),", f".BR {overview} (3)"]
    return r


def esc(s):
    s = s.replace("\\", "\\e")
    s = re.sub(r"@([A-Za-z_][A-Za-z0-9_]*)", r"\\fI\1\\fR", s)
    s = re.sub(r"\b([A-Za-z_][A-Za-z0-9_]*)\(\)", r"\\fB\1\\fR()", s)
    s = re.sub(r"`([^`]+)`", r"\\fB\1\\fR", s)
    return s


def roff_lines(lines):
    """Paragraph text as roff: prose filled, tables and code as .nf blocks."""
    out, pre = [], None
    lines = [s for s in lines if not MARKER.match(s.strip())]
    for s in lines:
        is_pre = s.startswith("\t") or s.lstrip().startswith("|") or \
            s.startswith("  ")
        if is_pre and pre is None:
            out += [".PP", ".nf", ".in +4n"]
            pre = True
        elif not is_pre and pre:
            out += [".in", ".fi"]
            pre = None
        t = esc(s.strip() if not is_pre else s.replace("\t", "        "))
        if t.startswith((".", "'")):
            t = "\\&" + t
        out.append(t)
    if pre:
        out += [".in", ".fi"]
    return out


def split_labels(para):
    """A paragraph that runs several labelled parts together, split."""
    text = " ".join(x.strip() for x in para)
    if any(x.startswith(("\t", "|", "  ")) for x in para):
        return [para]
    parts = re.split(r"(?<=[.)])\s+(?=(?:%s):)" % LABELS, text)
    return [[p] for p in parts]


def sectioned(paras):
    """[(man section, [lines])]: DESCRIPTION first, then SECTIONS' order."""
    out = {"DESCRIPTION": []}
    for para in paras:
        for p in split_labels(para):
            head = p[0].lstrip()
            sec = "DESCRIPTION"
            for label, name in SECTIONS:
                if head.startswith(label):
                    sec = name
                    if label.endswith(":"):
                        p = [head[len(label):].lstrip()] + p[1:]
                    break
            out.setdefault(sec, []).append(p)
    order = ["DESCRIPTION"] + [n for _, n in SECTIONS]
    return [(s, out[s]) for s in order if out.get(s)]


def th(name, date, version):
    return [f'.TH {name.upper()} 3 {date} "librefcount {version}" '
            '"librefcount manual"']


def function_page(d, include, overview, date, version):
    r = th(d.name, date, version)
    r += [".SH NAME", f"{d.name} \\- {esc(d.summary)}", ".SH SYNOPSIS",
          ".nf", f".B #include <{include}>", ".PP", esc(d.decl), ".fi"]
    if d.args:
        r.append(".SH ARGUMENTS")
        for a, text in d.args:
            r += [".TP", f".I {a}", esc(text)]
    for sec, paras in sectioned(d.paras):
        r.append(f".SH {sec}")
        for i, p in enumerate(paras):
            if i:
                r.append(".PP")
            r += roff_lines(p)
    r += [".SH SEE ALSO", f".BR {overview} (3)"]
    return r


def overview_page(page, include, filedoc, docs, date, version, others):
    summary = filedoc[0].split(" - ", 1)[1] if filedoc and " - " in \
        filedoc[0] else page
    r = th(page, date, version)
    r += [".SH NAME", f"{page} \\- {esc(summary)}", ".SH SYNOPSIS", ".nf",
          f".B #include <{include}>", ".fi"]
    paras, para = [], []
    for s in filedoc[1:] + [""]:
        if s.strip():
            para.append(s)
        elif para:
            paras.append(para)
            para = []
    r.append(".SH DESCRIPTION")
    first = True
    for p in paras:
        m = re.match(r"DOC:\s*(.*)", p[0].strip())
        if m:
            r += [".SS " + esc(m.group(1))]
            p = p[1:]
            first = True
            if not p:
                continue
        if not first:
            r.append(".PP")
        first = False
        r += roff_lines(p)
    types = [d for d in docs if d.kind in ("typedef", "struct", "enum")]
    if types:
        r.append(".SH TYPES")
        for d in types:
            r += [".SS " + esc(f"{d.kind} {d.name}"), esc(d.summary)]
            for a, text in d.args:
                r += [".TP", f".I {a}", esc(text)]
            for p in d.paras:
                r.append(".PP")
                r += roff_lines(p)
    funcs = [d for d in docs if d.kind in ("function", "macro")]
    if funcs:
        r.append(".SH FUNCTIONS AND MACROS")
        for d in funcs:
            r += [".TP", f".BR {d.name} (3)", esc(d.summary)]
    see = [o for o in others if o != page]
    if see:
        r.append(".SH SEE ALSO")
        r.append(",\n".join(f".BR {o} (3)" for o in see))
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--version", required=True)
    ap.add_argument("--date", required=True)
    ap.add_argument("--alias", action="append", default=[],
                    metavar="FROM=TO")
    ap.add_argument("headers", nargs="+", metavar="HEADER=PAGE")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    pages = {}
    overviews = [spec.split("=", 1)[-1] for spec in a.headers]
    for spec in a.headers:
        if "=" not in spec:
            sys.exit(f"kdoc2man: '{spec}' is not HEADER=PAGE")
        path, page = spec.split("=", 1)
        include = path.split("include/", 1)[-1]
        try:
            filedoc, docs = parse(path)
        except (OSError, ValueError) as e:
            sys.exit(f"kdoc2man: {e}")
        pages[page] = overview_page(page, include, filedoc, docs, a.date,
                                    a.version, overviews)
        for d in docs:
            if d.kind in ("function", "macro"):
                if d.name in pages:
                    sys.exit(f"kdoc2man: {path}:{d.line}: {d.name} "
                             "is documented twice")
                pages[d.name] = function_page(d, include, page, a.date,
                                              a.version)
    for spec in a.alias:
        if "=" not in spec:
            sys.exit(f"kdoc2man: --alias '{spec}' is not FROM=TO")
        frm, to = spec.split("=", 1)
        for hspec in a.headers:
            path, page = hspec.split("=", 1)
            include = path.split("include/", 1)[-1]
            for name, decl in public_functions(path):
                if not name.startswith(frm) or name in pages:
                    continue
                target = to + name[len(frm):]
                if target not in pages:
                    sys.exit(f"kdoc2man: {path}: {name} has no kernel-doc "
                             f"and {target} has no page to alias")
                pages[name] = alias_page(name, decl, target, include, page,
                                         a.date, a.version)
                ov = pages[page]
                at = ov.index(".SH SEE ALSO") if ".SH SEE ALSO" in ov \
                    else len(ov)
                if ".SH FUNCTIONS AND MACROS" not in ov:
                    ov.insert(at, ".SH FUNCTIONS AND MACROS")
                    at += 1
                ov[at:at] = [".TP", f".BR {name} (3)",
                             f"{target}(), on this header's type"]
    for name, lines in sorted(pages.items()):
        out = os.path.join(a.out, name + ".3")
        with open(out + ".tmp", "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        os.replace(out + ".tmp", out)
        print(out)


if __name__ == "__main__":
    main()

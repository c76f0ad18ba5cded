"""The uses of a field to convert that no spelled-source pass read.  A
conversion must account for every use: a use left out (a function spatch
could not parse; a form no pass reads, `shared.refcount` on a named
object) stays as it was and the converted file does not compile.  One text
scan finds the candidate lines (member_uses); with a compile database the
compiler tells whose field each is (clangattr.unparsed_uses), without one
every use through `.` counts (dot_uses).  Either way the field becomes
report-only, the reason naming each file:line (mark)."""

import bisect
import os
import re

from . import scan

# a designated initialiser's designators before `.field`: `{` or `,`, then
# other designators (`{ .a.refs = 1 }`, `{ [0].refs = 1 }`)
_DESIGNATED = re.compile(r"[{,]\s*(?:(?:\.\s*\w+|\[[^\]\n]*\])\s*)*$")
_ASSIGNED = re.compile(r"\s*(?:=(?!=)|\.|\[)")
_DEFINE = re.compile(r"\s*#\s*define\b")


def member_uses(files, names, seen_lines, dot_only=False):
    """{file: {(line, field)}}: the lines of the .c FILES naming `->field`
    or `.field` for a field of NAMES, outside comments, string and
    character literals and #define bodies, that SEEN_LINES {(file, line,
    field)} (every line the passes gave a row for) does not hold.
    DOT_ONLY: the uses through `.` only, in the .h files too, and not a
    designated initialiser (`.field =` after `{` or `,` in a brace
    initialiser: the initialiser pass reads those)."""
    if not names:
        return {}
    pat = re.compile(r"(->|\.)[ \t]*(%s)\b" % "|".join(sorted(map(re.escape, names))))
    exts = (".c", ".h") if dot_only else (".c",)
    wanted = {}
    for f in files:
        if not f.endswith(exts):
            continue
        text = scan.blanked(scan.read(f))
        starts, defined, in_define = [0], set(), False
        for i, l in enumerate(text.split("\n"), 1):
            starts.append(starts[-1] + len(l) + 1)
            if in_define or _DEFINE.match(l):
                defined.add(i)
                in_define = l.rstrip().endswith("\\")
        for m in pat.finditer(text):
            i = bisect.bisect_right(starts, m.start(2))
            if i in defined or (f, i, m.group(2)) in seen_lines:
                continue
            if dot_only and (m.group(1) == "->" or (
                    _DESIGNATED.search(text, max(0, m.start() - 400), m.start())
                    and _ASSIGNED.match(text, m.end()))):
                continue
            wanted.setdefault(f, set()).add((i, m.group(2)))
    return wanted


def dot_uses(fields, seen_lines, files):
    """Without the compiler's view: {key: [(file, line)]}, each use through
    `.` (`shared.refcount`, `objs[i].refcount`) of the name of a field of
    FIELDS {key: fm} (decision convert) on a line no pass read.  Its struct
    is not known: a `.field` of another struct declaring that name counts
    too (conservative)."""
    out = {}
    for f, hits in member_uses(files, {fm["field"] for fm in fields.values()},
                               seen_lines, dot_only=True).items():
        for line, field in hits:
            for key, fm in fields.items():
                if fm["field"] == field:
                    out.setdefault(key, []).append((f, line))
    return out


def mark(fields, missed, root, why):
    """The fields of FIELDS {key: fm} with a use in MISSED {key: [(file,
    line)]} become report-only, one reason (WHY) per use."""
    for key, where in missed.items():
        fm = fields[key]
        fm["reasons"] = ["%s:%d: %s" % (os.path.relpath(f, root), line, why)
                         for f, line in sorted(where)]
        fm["decision"], fm["kind"] = "report-only", "unknown"

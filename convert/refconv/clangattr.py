"""The struct of a use the spelled source cannot type, as the compiler
resolves it: `G_OBJECT (x)->ref_count` is GObject's.  Each file is parsed by
libclang with its compile-database flags (or its nearest compiled
neighbour's, clangscan.uncompiled) and the cursor at each `field` token of
the wanted lines names the struct.  Used by model.py for the uses of a
field that several structs visible in that file declare."""

import json
import os
import re

from .clangscan import _args, _lib, _source, compdb, uncompiled
from .unread import member_uses


def _records_worker(job):
    """The struct each FIELD token on the wanted lines of one unit belongs
    to, as the compiler resolved the member access there."""
    e, f, wanted = job
    ci = _lib()
    out = {}
    try:
        tu = ci.Index.create().parse(f, args=_args(e))
        lines = _source({}, f).split(b"\n")
        fobj = tu.get_file(f)
        for line, field in wanted:
            text = lines[line - 1] if 0 < line <= len(lines) else b""
            for m in re.finditer(rb"\b%s\b" % re.escape(field.encode()), text):
                c = ci.Cursor.from_location(tu, ci.SourceLocation.from_position(
                    tu, fobj, line, m.start() + 1))
                ref = c.referenced if c is not None else None
                if ref is not None and ref.kind == ci.CursorKind.FIELD_DECL:
                    rec = ref.semantic_parent
                    out.setdefault((line, field), set()).add(
                        rec.spelling or rec.type.spelling)
    except Exception:  # noqa: BLE001 - unresolved: the caller's rule decides
        pass
    return f, out


def member_records(root, wanted, jobs=2):
    """WANTED {file: {(line, field)}} -> {(file, line, field): {struct}}:
    the struct of each `->field` / `.field` access on those lines, as the
    compiler resolves it (through cast macros like `G_OBJECT (x)->f`), for
    the files the compile database compiles (or whose neighbour's flags
    they borrow).  A file it cannot parse resolves nothing."""
    root = os.path.abspath(root)
    db = compdb(root)
    if not db or not _lib() or not wanted:
        return {}
    entries, seen = {}, set()
    for e in json.load(open(db)):
        f = os.path.realpath(e["file"] if os.path.isabs(e["file"]) else
                            os.path.join(e["directory"], e["file"]))
        seen.add(f)
        entries.setdefault(f, e)
    for e in uncompiled(root, list(entries.values()), seen):
        entries.setdefault(e["file"], e)
    todo = [(entries[os.path.realpath(f)], os.path.realpath(f), sorted(w))
            for f, w in wanted.items() if os.path.realpath(f) in entries]
    out = {}
    from multiprocessing import Pool
    with Pool(jobs) as pool:
        for f, res in pool.imap_unordered(_records_worker, todo):
            for (line, field), recs in res.items():
                out[(f, line, field)] = recs
    return out


def field_key(key, field, fields):
    """The key of FIELDS a use of FIELD whose struct maps to KEY counts
    against: KEY itself, or the field keyed by its name alone."""
    return key if key in fields else field


def unparsed_uses(root, fields, seen_lines, files, canon):
    """The uses of each field to convert that the spelled-source passes did
    not read: a function spatch could not parse (a type macro of another
    package's header, `STACK_OF(X509) *cas`) is silently left out, and a
    conversion must account for every use.  FIELDS {key: fm} (decision
    convert), SEEN_LINES {(file, line, field)} every line the passes gave a
    row for; the other lines of the .c files naming `->field` / `.field`
    (unread.member_uses) are resolved by the compiler;
    CANON(struct, field) maps the struct it names to a field key; a field
    keyed by its name alone (some use of it untyped) covers every struct
    that declares that name, so a use whose struct key is not a field of
    FIELDS counts against the name-keyed field.  Returns
    {key: [(file, line)]}."""
    wanted = member_uses(files, {fm["field"] for fm in fields.values()}, seen_lines)
    out = {}
    for (f, line, field), recs in member_records(root, wanted).items():
        for rec in recs:
            key = field_key(canon(rec, field), field, fields)
            if key in fields:
                out.setdefault(key, []).append((f, line))
    return out

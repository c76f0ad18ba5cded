"""A project's own count type, found where it is defined.

The class: a struct type T (by tag or typedef name) whose count member f
the project's macros operate on through their first parameter, `(P)->f`
(a store, a read, an increment, a decrement tested for the final put),
and which other structs embed as a member (`T ref;`), each object's
count.  Its operations are applied to the member's address at the call
sites: `OP(&obj->ref)`.  The primitives under the macros may be macros
too, one per #if variant (the C11 builtins, __sync, a locked fallback);
the variants the registry reads must agree.

Such a type is a family (family.Family) whose fields are the embedding
members: family.py proves it over every use and re-implements its
macros on refcount_t where they are defined, the member f retyped in T.
A type that holds an owner pointer beside the count is found and
refused: the owner can make 0 a live state (an owner keeping the object),
which a refcount_t reports as a use after free.  A struct that holds
anything else (a lock, a condition, a second counter: a read-write lock's
reader count) is not a count type at all.
"""

import re

from . import analyse as A, scan


def _type_names(d):
    """The names a declaration of member f's struct goes by: its typedefs
    and `struct TAG`."""
    return list(d["typedefs"]) + (["struct " + d["struct"]] if d["struct"] else [])


def _operated(defs):
    """(file, member) that some macro operates on through its first
    parameter, `(P)->member`."""
    out = set()
    for _name, params, body, f, _first, _last in defs:
        if params:
            for pm in re.finditer(r"\(\s*(\w+)\s*\)\s*->\s*(\w+)", body):
                if pm.group(1) == params[0]:
                    out.add((f, pm.group(2)))
    return out


def _members_of_type(struct_fields, names):
    """[(struct key, member, file, line)] of every struct member whose
    declared type is one of NAMES."""
    out = []
    for member, decls in struct_fields.items():
        for d in decls:
            if " ".join(d["type"].split()) in names:
                key = d["typedefs"][0] if d["typedefs"] else d["struct"] or "?"
                out.append((key, member, d["file"], d["line"]))
    return out


def find(files, defs, struct_fields, make, typedefs=None):
    """The tree's count types: {member f: Family}, each built by MAKE(header,
    f, declared type of f, type name) with .kind "type", .decl (the
    declaration of f in T), .members {struct: member} and .fields."""
    out = {}
    operated = _operated(defs)
    for f, decls in struct_fields.items():
        for d in decls:
            names = _type_names(d)
            if (d["file"], f) not in operated or not names:
                continue
            users = _members_of_type(struct_fields, names)
            if not users:
                continue
            fam = make(d["file"], f, " ".join(d["type"].split()), names[0])
            fam.kind, fam.decl = "type", d
            width = scan.width(fam.type, typedefs)
            if width:
                fam.width = width
            else:
                fam.refused.append("no library type of the width of '%s'" % fam.type)
            siblings = [(m, x["type"]) for m, ds in struct_fields.items() for x in ds
                        if x["file"] == d["file"] and x["line"] != d["line"] and
                        _type_names(x) == names]
            # a count type holds the count, and at most an owner pointer
            # beside it; a struct with a lock, a condition or other
            # counters (a read-write lock's reader count) is an object of
            # its own, not a count type
            if len(siblings) > 1 or any("*" not in t for _m, t in siblings):
                continue
            siblings = [m for m, _t in siblings]
            if siblings:
                fam.refused.append(
                    "%s holds %s beside the count (%s): 0 may be a live state "
                    "(an owner keeping the object), which a refcount_t reports "
                    "as a use after free" % (names[0], ", ".join(sorted(siblings)), f))
            for key, member, uf, line in users:
                fam.fields.append((key, uf, line))
                fam.members[key] = member
            out.setdefault(f, fam)
    return out


def stores(body, param, field):
    """The value a macro's body stores plainly into `(P)->f` (`((RC)->f =
    (VALUE))`), or None."""
    m = re.search(r"\(\s*%s\s*\)\s*->\s*%s\s*=(?!=)(.*)$" % (
        re.escape(param), re.escape(field)), body)
    if not m:
        return None
    v = m.group(1).strip()
    while v.endswith(")") and v.count(")") > v.count("("):
        v = v[:-1].rstrip()  # the parentheses around the assignment
    return A.unparen(v)

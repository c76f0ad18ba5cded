"""Creations through the object's own get, rewritten where they happen.

The class: `x = new0(T); ...; return x_ref(x);` -- a fresh object, its
count 0 from a zeroing allocation, takes its first reference through the
same get that live objects use.  The get stays an increment (other
callers, in the tree or outside it, pass live objects: an increment never
becomes a store); the call on the fresh object becomes the creation:

    return x_ref(x);   ->   return (refcount_set(&(x)->ref, 1), x);

Only when the get is pure: its body is the increment of its parameter's
count, and at most a NULL test of the parameter that returns, and the
return of the parameter.  A get that does anything else (logs, takes a
lock, touches another object) keeps those effects at the call: the field
is then refused as before.
"""

import re

from . import scan

FUNC_RE = r"\b%s\s*\(([^()]*)\)\s*\{"


def _body(files, fn):
    """(parameter names, body text) of FN's definition, or None."""
    for f in scan.mentioning(files, [fn]):
        text = scan.read(f)
        m = re.search(FUNC_RE % re.escape(fn), text)
        if m:
            end = scan._match_brace(text, m.end() - 1)
            params = [p.split()[-1].lstrip("*") if p.split() else ""
                      for p in m.group(1).split(",")]
            return params, text[m.end():end]
    return None


def pure_get(files, fn, index, field):
    """FN's body is only the increment of its parameter INDEX's FIELD,
    a NULL test of it that returns, and its return: (returns the
    parameter, tests NULL), else None."""
    got = _body(files, fn)
    if not got or index >= len(got[0]):
        return None
    p, body = re.escape(got[0][index]), got[1]
    b = re.sub(r"/\*.*?\*/|//[^\n]*", "", body, flags=re.S)
    b = re.sub(r"\s+", "", b)
    null = r"if\(!%s\)return(?:NULL|0|\(\w+\*\)0)?;|if\(%s==NULL\)return(?:NULL|0)?;" % (p, p)
    tests = bool(re.search(null, b))
    b = re.sub(null, "", b)
    returns = bool(re.search(r"return\(?%s\)?;$" % p, b))
    b = re.sub(r"return\(?%s\)?;$" % p, "", b)
    stmts = [x for x in b.split(";") if x]
    if len(stmts) != 1 or not re.search(r"&\(?%s\)?->%s\b" % (p, field), stmts[0]):
        return None
    return returns, tests


def rewrite(text, line, fn, arg, field, prefix, returns, tests):
    """TEXT with the call FN(ARG) at LINE (1-based) made the creation, or
    None when the call is not there as read."""
    lines = text.split("\n")
    pat = re.compile(r"\b%s\s*\(\s*(%s)\s*\)" % (re.escape(fn), re.escape(arg)))
    m = pat.search(lines[line - 1])
    if not m:
        return None
    a = m.group(1)
    set_ = "%s_set(&(%s)->%s, 1)" % (prefix, a, field)
    if returns:
        new = "(%s, %s)" % (set_, a)
        if tests:  # the get tested NULL: so does its creation
            new = "(%s ? %s : %s)" % (a, new, a)
    else:
        new = "(%s ? (void)%s : (void)0)" % (a, set_) if tests else set_
    lines[line - 1] = lines[line - 1][:m.start()] + new + lines[line - 1][m.end():]
    return "\n".join(lines)

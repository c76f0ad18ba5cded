"""The release of an object after its count's final put, read from the
lines that follow the put in its function (model.py's decision, its
teardown rule, family.py's check), and the release the decision relies
on, which the report's inventory lists."""

import os
import re

from . import analyse as A, registry, scan


def _line_text(cache, f, line):
    if f not in cache:
        cache[f] = scan.read(f).split("\n")
    lines = cache[f]
    return lines[line - 1] if 0 < line <= len(lines) else ""


NO_PUT_TEST = ("no put tests for the last reference (nothing frees the object "
               "when its count reaches 0)")


def _release_after(fm):
    """(release, gap).  A reference count's final put releases the object:
    a release-like call on it in the same function, after the put (before
    the function's closing brace at column 0, within 80 lines).  Every line
    there is read, not only the release-like calls recorded for the field:
    the first one after a put often frees a member (`dbus_free
    (s->children)`) and the object's own release comes next.  A release
    elsewhere frees something else.  RELEASE {file, line, call}: the first
    release found (a put that runs the release itself, a put-release macro,
    is its own); GAP: the reason when none follows, else None."""
    cache = {}
    # a tested put, whichever way its test reads: `if (last) release;` or
    # `if (notlast) return; release;` (the release follows the test either
    # way, in the same function)
    lasts = [s for s in fm["sites"] if s["meaning"] in ("last", "notlast") and
             not s.get("putrel")]
    if not lasts:
        # a put that runs the object's release itself (a put-release macro)
        own = [s for s in fm["sites"] if s.get("putrel")]
        if own:
            return dict(file=own[0]["file"], line=own[0]["line"], call=own[0]["op"]), None
        return None, NO_PUT_TEST
    for s in lasts:
        bases = _aliases(cache, s["file"], s["line"], s["base"])
        for n in range(s["line"] + 1, s["line"] + 81):
            t = _line_text(cache, s["file"], n)
            if t.startswith("}"):
                break
            call = next(filter(None, (_releases_object(t, None, b) for b in bases)), None)
            if call:
                return dict(file=s["file"], line=n, call=call), None
    return None, "%s:%d: no release of the object in the function of its final " \
        "put (the release-like calls seen are in other functions, or free " \
        "another object)" % (os.path.relpath(lasts[0]["file"], fm.get("root", "/")),
                              lasts[0]["line"])


def _release_gap(fm):
    return _release_after(fm)[1]


def relied_release(fm):
    """The release FM's decision relies on when its reason is "a release
    follows the final put" (no reason given), unless the passes recorded a
    release on that line: [] or [{file, line, call}], which the inventory
    lists with the recorded ones."""
    rel = None if fm["reasons"] else _release_after(fm)[0]
    if rel and not any((r["file"], r["line"]) == (rel["file"], rel["line"])
                       for r in fm["releases"]):
        return [rel]
    return []


def _aliases(cache, f, line, base):
    """BASE and what it was assigned from in the lines of its function
    before LINE (`T *r = (T *)(_r);`: _r is the same object)."""
    out = [base]
    for n in range(line - 1, max(0, line - 40), -1):
        t = _line_text(cache, f, n)
        if t.startswith("}"):
            break
        m = re.search(r"\b%s\s*=\s*(\([\w\s*]+\))?\s*\(?\s*(\w+)\s*\)?\s*;"
                      % re.escape(A.nospace(base)), t)
        if m:
            out.append(m.group(2))
    return out


def _releases_object(text, call, base):
    """TEXT releases the object whose count was put: a release-like call
    (registry.RELEASE_RE; CALL when given) with BASE itself as its argument
    (`free(b)`, `av_free((void *)b)`, `x_destroy(&b)`, a callback through a
    pointer, `(*b->vtable->finalize) (b)`), or the object's own release
    callback (`b->free(...)`).  A call on a member
    (`av_buffer_unref(&b->other)`) frees something else.  Returns the
    function called (`free`, `(*b->vtable->finalize)`, `b->free`), or None."""
    b = re.escape(A.nospace(base))
    t = A.nospace(text)
    if call:
        name = re.escape(A.nospace(call).split("(")[0])
    else:
        name = r"\w*(?:%s)\w*\)?" % registry.RELEASE_WORDS
    m = re.search(r"((?:\(\*)?(?:[\w\]\[]+(?:->|\.))*%s)\((\([\w\s*]+\))?&?%s[,)]"
                  % (name, b), t) or \
        re.search(r"(?:^|[^\w>.])(%s(?:->|\.)\w+)\(" % b, t)
    return m.group(1) if m else None

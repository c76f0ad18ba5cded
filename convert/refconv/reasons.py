"""Why a count is converted or left report-only, in a maintainer's words:
the one catalogue of reasons (code, what the report says, what would make
the count convertible), and the reading of the decision's own reason
strings (model.py, release.py, family.py, unread.py) into its codes.

A reason string is "[FILE:LINE: ]TEXT"; TEXT is matched against each
entry's pattern in turn, and the entry's words are filled in with the
pattern's groups.  A string no entry matches keeps its own words (code
"other"): a new reason is never lost, only not yet worded here."""

import re
from collections import namedtuple

Entry = namedtuple("Entry", "code heading pattern says to_convert")

# what a convert verdict rests on: a release of the object after its final
# put (release.py); without one read, said, not claimed
PROVEN = "every use is a get, a put, a read or a creation, and a release " \
    "of the object follows its final put"
PROVEN_NO_RELEASE = "every use is a get, a put, a read or a creation; no " \
    "release of the object was read after its final put"
FAMILY_PROVEN = "every use goes through the family %s, whose puts are tested " \
    "and followed by a release: re-implemented on %s in %s, its call " \
    "sites unchanged"

CATALOGUE = [Entry(*e) for e in (
    # the release after the final put
    ("no-release", "no release after the final put",
     r"^no release-like call after the final decrement$|"
     r"^no release of the object in the function of its final put",
     "no release of the object follows its final put",
     "a release of the object (free() or the project's destroy function) "
     "after its final put, in the same function"),
    ("no-release", "no release after the final put",
     r"^no release of (?P<obj>.+) follows the final put$",
     "no release of {obj} follows a final put",
     "a release of the object after its final put, in the same function"),
    ("no-put-test", "no put tested for the final put",
     r"^no put tests for the last reference",
     "no put is tested for the last reference: nothing frees the object when "
     "its count reaches 0",
     "a put tested for the final put, followed by the object's release"),
    # the declaration
    ("declared-twice", "one name declared several ways",
     r"^declared in (?P<n>\d+) structs \((?P<structs>.*)\)$",
     "declared {n} times ({structs}), by different structs or with different "
     "types: one conversion cannot serve them all",
     "one struct name and one type for every declaration of the field, or a "
     "field name of its own for each"),
    ("no-width", "no refcount type of its width",
     r"^no library type of the width of '(?P<type>.*)'$",
     "its type `{type}` has no refcount type of the same width",
     "a count of the width of an int (refcount_t) or a long (refcount_long_t)"),
    ("positional-init", "a positional initialiser of an uncertain layout",
     r"^a positional initialiser of a struct whose declarations put "
     r"'(?P<f>\w+)' at different places$",
     "a positional initialiser of a struct whose declarations put .{f} at "
     "different places",
     "a designated initialiser (`.{f} = ...`)"),
    ("owner", "an owner beside the count",
     r"^(?P<t>\S+) holds (?P<others>.+) beside the count \((?P<f>\w+)\): 0 may be "
     r"a live state",
     "{t} holds {others} beside the count .{f}: 0 may be a live state (an owner "
     "keeping the object), which a refcount_t reports as a use after free",
     "a count type that holds the count alone"),
    # the lifecycle
    ("counter", "a counter, incremented from 0",
     r"^counter: incremented from 0 at (?P<at>\S+:\d+) in normal use$",
     "incremented from 0 in normal use: a counter, not a reference count",
     "a creation that stores 1 before the first get (a count at 0 is a "
     "dead object)"),
    ("from-zero", "a get from 0 not proven a creation",
     r"^an increment from 0 \((?P<how>.*)\) that is not a proven "
     r"creation: (?P<why>.*)$",
     "a get that may start from 0 ({how}) is not a proven creation: {why}",
     "a creation that stores 1, or a get from 0 only on an object freshly "
     "allocated zeroed on every path"),
    ("created-at-zero", "created at 0",
     r"^stored 0 \(created at 0, then got\)",
     "created with a store of 0, then got: a refcount_t reports that first "
     "get as an addition on 0",
     "a creation that stores 1 (the creator's reference)"),
    ("revived", "revived after its final put",
     r"^incremented after its final put at line (?P<line>\d+), in the "
     r"same function",
     "got after its final put (line {line}): revived from 0, which a "
     "refcount_t reports as a use after free",
     "no get after the final put (take the reference before the put)"),
    ("negative-sentinel", "an immortal state of -1",
     r"^a negative sentinel \(-1\) on a signed count",
     "-1 marks an immortal object: a refcount_t cannot hold it, and static "
     "instances the tool cannot see may hold it",
     "immortal objects marked another way than a count of -1"),
    # uses apply cannot rewrite
    ("kept-declaration", "an old value initialising a declaration",
     r"^(?P<op>\w+)'s old value initialises '(?P<var>.*)' "
     r"\(only a creation is rewritten there\)$",
     "the old value of {op}() initialises the declaration `{var}`, which "
     "apply rewrites only for a creation",
     "the old value assigned in a statement of its own (`old = {op}(...);`)"),
    ("kept-type", "an old value kept in another type",
     r"^(?P<op>\w+)'s old value is kept in '(?P<var>.*)', which is "
     r"not the (?P<want>\w+) that (?P<fn>\S+) write$",
     "the old value of {op}() is kept in `{var}`, not in the {want} that "
     "{fn} write",
     "the old value kept in a variable of type {want}"),
    ("result-used", "a result used as apply cannot rewrite",
     r"^(?P<op>\w+) result used as a value \((?P<ctx>\w+)\)$",
     "the result of {op}() is used in a form apply cannot rewrite",
     "a get as a statement, a put as a statement or tested for the final put"),
    ("plain-value", "a plain ++/-- whose value is used",
     r"^plain \+\+/-- whose value is used$",
     "a plain ++ or -- whose value is used",
     "plain ++ and -- as statements of their own"),
    ("plain-unthreaded", "a plain ++/-- in a threaded build",
     r"^non-atomic \+\+/-- outside a conditional",
     "a plain ++ or -- in a threaded build (outside an #if branch without "
     "threads)",
     "atomic operations, plain ++ and -- only in a build without threads"),
    ("plain-counter", "no atomic operation",
     r"^no atomic operation \(plain counter\)$",
     "no atomic operation: a plain counter",
     "atomic gets and puts (a count shared between threads)"),
    ("zero-live", "0 a live state",
     r"^compared == 0 outside a decrement",
     "tested == 0 apart from a put: 0 is a live state of this count",
     "0 tested only as the result of the final put"),
    ("threshold", "compared with a variable",
     r"^compared with a variable \((?P<test>.*)\): a threshold",
     "compared with a variable ({test}): a threshold, not a reference count",
     "comparisons with constants only"),
    ("member", "a member used directly",
     r"^its member \.(?P<m>\w+) is used directly",
     "its member .{m} is used directly, not through an operation",
     "every use through the count's operations"),
    ("arithmetic", "other arithmetic",
     r"^other arithmetic \((?P<what>.*)\)$",
     "arithmetic other than a get or a put ({what})",
     "gets and puts of 1 only"),
    ("escapes", "its address escapes",
     r"^address taken outside an operation",
     "its address escapes (taken outside an operation)",
     "its address passed only to the count's operations"),
    ("atomic-store", "an atomic store apply does not rewrite",
     r"^set by (?P<op>\w+) \((?P<v>.*)\): an atomic store",
     "set to {v} by {op}(), an atomic store apply does not rewrite yet",
     "that store written as a plain assignment"),
    # uses the tool did not read
    ("unattributed", "a use of unknown struct",
     r"^a use that could not be attributed",
     "a use whose struct is not known (several structs declaring the name "
     "are visible there): counted against each",
     "a compile database, whose compiler tells the struct"),
    ("unread-dot", "a use through `.` not read",
     r"^a use through `\.` the spelled-source passes do not read",
     "a use through `.` that the tool does not read",
     "the use written through a pointer (`p->field`), or a compile database"),
    ("unread", "a use not read",
     r"^a use the spelled-source passes did not read",
     "a use the tool could not read (a function spatch could not parse, or "
     "a form no pass reads)",
     "the use in a form the tool reads (an operation on `&p->field`)"),
    ("skipped-file", "a file not read",
     r"^(?P<file>\S+) was skipped \((?P<why>.*)\): its uses of "
     r"\.(?P<f>\w+) are unknown$",
     "{file} was not read ({why}): its uses of .{f} are unknown",
     "{file} read (see why it was skipped)"),
    ("discovery-only", "found by the compiler's view only",
     r"^found on the compiled code",
     "found by the compiler's view only: its gets, puts, creation and "
     "release are not classified",
     "its operations in a form the spelled-source passes read: a known "
     "primitive or a wrapper of one, on `&p->field`"),
    # a project's own refcount family
    ("family-outside", "the family's field used outside it",
     r"^(?P<f>\w+) used outside the family$",
     "the field .{f} is used outside the family's macros",
     "every use through the family's macros"),
    ("family-store", "a family creation not storing a positive constant",
     r"^(?P<m>\w+) stores (?P<v>.*) \(a creation stores a "
     r"positive constant\)$",
     "{m} stores {v}, where a creation stores a positive constant",
     "a creation that stores 1"),
    ("family-get-used", "a family get whose result is used",
     r"^the get's result is used",
     "a get whose result is used (tested for an increment from 0: a counter)",
     "every get a statement of its own"),
    ("family-put-untested", "a family put not tested",
     r"^the put's result is not tested against the final put$",
     "a put whose result is not tested for the final put",
     "every put tested for the final put"),
    ("family-op", "a family macro not one operation",
     r"^(?P<m>\w+)(?: is not a get or a put$| applies more than "
     r"one operation$|: \w+\(\) is not read as one atomic operation$| means "
     r"different things in its variants$)",
     "the family's macro {m} is not one get, put, read or store",
     "each of the family's macros one atomic get, put, read or store"),
    ("family-unused", "a family without use",
     r"^no use$",
     "the family has no use",
     "uses of the family's macros"),
    ("family-installed", "a family in an installed header",
     r"^(?P<h>\S+) is an installed header, and no installed "
     r"struct holds the count$",
     "{h} is installed and no installed struct holds the count: every user of "
     "it would need librefcount for nothing",
     "a struct of an installed header holding the count"),
)]
_COMPILED = [(e, re.compile(e.pattern)) for e in CATALOGUE]
AT_RE = re.compile(r"^(?P<at>[^\s:]+:\d+): (?P<text>.*)$", re.S)


def read(reason):
    """One reason string: (code, at, says, to_convert); AT the FILE:LINE it
    names ("" when none)."""
    m = AT_RE.match(reason)
    at, text = (m.group("at"), m.group("text")) if m else ("", reason)
    for e, rx in _COMPILED:
        g = rx.search(text)
        if g:
            words = {k: v for k, v in g.groupdict().items() if v is not None}
            return (e.code, words.get("at") or at, e.says.format(**words),
                    e.to_convert.format(**words))
    return "other", at, text, "what the reason names, changed (a reason not yet " \
        "worded in reasons.py)"


def heading(code):
    """The catalogue's short words for CODE (a summary's group)."""
    return next((e.heading for e in CATALOGUE if e.code == code), "other reasons")

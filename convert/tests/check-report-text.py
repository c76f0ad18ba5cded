#!/usr/bin/env python3
"""check-report-text.py REPORT...: refcount-convert's text reports read as
a person reads them (convert/README.md, "Reading the report"):

- no Python value: None, True, False, [], {}, a quoted string, a list or
  tuple of strings, an object's repr;
- each operation says what it does in the report's words (get, put, read,
  creation; increment, decrement, atomic addition or subtraction, atomic
  arithmetic, store, exchange or bit operation for what only the compiler's
  view found): never the model's
  shorthand (inc, dec, last, notlast) nor "add";
- one line per count, convert or report-only, each report-only one saying
  what would make it convertible; every reason worded by the catalogue
  (convert/refconv/reasons.py);
- the summary's counts are those lines' counts, and its groups add up to
  the report-only ones.

Also imported by check-compiler.py (problems()), for the counts only the
compiler's view finds."""

import re
import sys

REPR = [(re.compile(p), what) for p, what in (
    (r"\b(None|True|False)\b", "a Python value"),
    (r"\[\]|\{\}", "an empty Python list or dict"),
    (r"[\[(]['\"]", "a Python list or tuple of strings"),
    (r"(?<![\w`])'[^'\n]*'(?!\w)", "a quoted string"),
    (r"object at 0x", "an object's repr"),
    (r"not yet worded in reasons\.py", "a reason the catalogue (reasons.py) lacks"),
)]
DOES = re.compile(r"^(get|put|read|creation|increment|decrement|atomic arithmetic|"
                  r"atomic addition|atomic subtraction|store|exchange|bit operation|"
                  r"operation)\b")
PLAIN = re.compile(r"^(get by a plain \+\+|put by a plain --)")
COUNT = re.compile(r"^(convert|report-only)  +\S+  +\S+:\d+  +(.*)$")
SUMMARY = re.compile(r"^summary: (\d+) found, (\d+) converted, (\d+) report-only$")
GROUP = re.compile(r"^ +(\d+)  \S")


def problems(text, name="report"):
    """What in TEXT a person could not act on, one line each."""
    out = []
    lines = text.splitlines()
    for i, line in enumerate(lines, 1):
        for rx, what in REPR:
            if rx.search(line):
                out.append("%s:%d: %s: %s" % (name, i, what, line.strip()))
        m = re.match(r"^  operation +\S+ \S+: (.*)$", line)
        if m and not DOES.match(m.group(1)):
            out.append("%s:%d: an operation not said as a get, a put, a read or a "
                       "creation: %s" % (name, i, line.strip()))
        m = re.match(r"^  plain +\S+: (.*)$", line)
        if m and not PLAIN.match(m.group(1)):
            out.append("%s:%d: a plain ++/-- not said as a get or a put: %s" % (
                name, i, line.strip()))
    counts = [COUNT.match(x) for x in lines if COUNT.match(x)]
    for c in counts:
        if c.group(1) == "report-only" and "; to convert: " not in c.group(2):
            out.append("%s: a report-only count without what would convert it: %s"
                       % (name, c.group(0)))
    sums = [SUMMARY.match(x) for x in lines if SUMMARY.match(x)]
    conv = sum(1 for c in counts if c.group(1) == "convert")
    want = (len(counts), conv, len(counts) - conv)
    if len(sums) != 1 or tuple(int(x) for x in sums[0].groups()) != want:
        out.append("%s: not one summary saying %d found, %d converted, %d "
                   "report-only" % ((name,) + want))
    else:
        after = lines[lines.index(sums[0].group(0)) + 1:]
        grouped = sum(int(g.group(1)) for g in map(GROUP.match, after) if g)
        if grouped != want[2]:
            out.append("%s: the summary's groups count %d report-only, not %d" % (
                name, grouped, want[2]))
    return out


def main(argv):
    bad = []
    for f in argv:
        with open(f) as fh:
            bad += problems(fh.read(), f)
    for b in bad:
        print("check-report-text: %s" % b)
    if not argv:
        print("check-report-text: no report given")
        return 2
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

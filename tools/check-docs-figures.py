#!/usr/bin/env python3
"""Figures live in lab/results.md; docs/ argue and link to them.

    check-docs-figures.py [--results=R] docs FILE.md...   no measurement
    check-docs-figures.py results R                       no run narrative
    check-docs-figures.py [--results=R] links FILE...     citations resolve

A document of docs/ fails on a line that holds a confidence interval
("[1.072, 1.094]", "[-0.6, +1.9] %"), a measured ratio or time ("1.083x",
"4.7 cycles"), a machine description (a CPU's brand, model or
microarchitecture, "family 26 model 2", a clock rate, vCPUs, a load
average), or a paragraph that names a CPU vendor beside a decimal ratio.

lab/results.md fails on what a table of record does not need to reproduce
a figure: load averages, branch or worktree names, sessions, times of day
and "started at" narrative.  Git keeps the history.

A citation of the record must resolve, in docs/ and in every FILE given
to `links`: a link "lab/results.md#ANCHOR" to one of R's headings (as
GitHub makes anchors), a citation 'results.md, "NAME"' to a heading that
starts with NAME.  R is lab/results.md unless --results says otherwise.

Each failure names the file, the line, the rule and the text that broke it;
the exit status is 1 if anything failed.
"""
import re
import sys

NUM = r"[-+\u2212]?\d+(?:\.\d+)?"
DOC_RULES = [
    ("an interval", re.compile(
        r"\[\s*%s\s*%%?\s*(?:,|\u2013|\.\.)\s*%s\s*%%?\s*\]" % (NUM, NUM))),
    ("a measured ratio", re.compile(r"\b\d+\.\d+\s*\u00d7")),
    ("a measured time", re.compile(
        r"\b\d+\.\d+\s*(?:ns|\u00b5s|us|ms|s|cycles|Mops/s|k?IOPS)\b")),
    ("a machine description", re.compile(
        r"\b(?:Zen\s*\d*|Xeon|EPYC|Ryzen|Opteron|Threadripper|Core i[3579]|"
        r"GenuineIntel|AuthenticAMD|Graviton|Neoverse|Ampere Altra|"
        r"Cortex-A\d+|Apple M\d|Skylake|Broadwell|Haswell|"
        r"(?:Ivy|Sandy) Bridge|"
        r"(?:Rocket|Ice|Alder|Raptor|Cascade|Coffee|Kaby|Cannon|Tiger|"
        r"Comet|Meteor|Lunar|Arrow) Lake|"
        r"(?:Sapphire|Emerald|Granite) Rapids|Cypress Cove|"
        r"vCPUs?|KVM guest)\b"
        r"|\bfamily \d+ (?:\(0x[0-9a-f]+\) )?model \d+"
        r"|\b\d+(?:\.\d+)?\s*[GM]Hz\b"
        r"|\bload (?:average )?(?:of )?\d")),
]
VENDOR = re.compile(r"\b(?:Intel|AMD)\b")
# A ratio: 0.xx to 3.xx, not a kernel version ("v5.10", "4.14-5.4").
RATIO = re.compile(r"(?<![v\d.])[0-3]\.\d{2,}(?![\d.\u2013-])")

RESULTS_RULES = [
    ("a load average", re.compile(r"\bload average|\bload \d", re.I)),
    ("a branch or worktree", re.compile(r"\bbranch(?:es)?\b|\bwt-\w", re.I)),
    ("a session", re.compile(r"\bsessions?\b", re.I)),
    ("a time of day", re.compile(
        r"\bstarted at\b|\b\d\d:\d\d(?: to \d\d:\d\d)? UTC\b", re.I)),
    ("a narrator", re.compile(r"\b(?:my|helpers?)\b", re.I)),
]

LINK = re.compile(r"\]\((?:\.\./)?lab/results\.md#([^)\s]+)\)")
CITE = re.compile(r'results\.md(?:\]\([^)]*\))?[,:]?\s+"([^"]+)"')


def headings(text):
    """The record's headings, without their markdown, and their anchors."""
    names, anchors, fence = [], set(), False
    for s in text.split("\n"):
        if s.startswith("```"):
            fence = not fence
        if fence or not s.startswith("#"):
            continue
        name = s.lstrip("#").strip().replace("`", "")
        names.append(name)
        slug = re.sub(r"[^\w\- ]", "", name.lower()).replace(" ", "-")
        n, a = 0, slug
        while a in anchors:
            n += 1
            a = "%s-%d" % (slug, n)
        anchors.add(a)
    return names, anchors


def check_links(path, text, record):
    """Citations of the record, which may span lines, that resolve to no
    heading."""
    names, anchors = record
    if not path.endswith(".md"):  # a C comment's leaders are not text
        text = re.sub(r"\n[ \t]*\*[ \t]?", "\n", text)
    words = text.split()
    flat = " ".join(words)
    # The line of each word, to name the line a citation begins on.
    lines, n = [], 1
    for m in re.finditer(r"(\s*)(\S+)", text):
        n += m.group(1).count("\n")
        lines.append(n)

    def line_of(k):
        return lines[min(len(flat[:k].split()), len(lines) - 1)]

    bad = []
    for m in LINK.finditer(flat):
        if m.group(1) not in anchors:
            bad.append((path, line_of(m.start()), "a link to no heading",
                        "lab/results.md#" + m.group(1),
                        "its anchors: " + ", ".join(sorted(anchors))))
    for m in CITE.finditer(flat):
        name = m.group(1).replace("`", "")
        if not any(h.startswith(name) for h in names):
            bad.append((path, line_of(m.start()), "a citation of no heading",
                        name, "lab/results.md has no heading that starts "
                        "so"))
    return bad


def paragraphs(lines):
    """[[(line number, text)]], blank lines between."""
    out, cur = [], []
    for n, s in lines:
        if s.strip():
            cur.append((n, s))
        elif cur:
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out


def check_doc(path, text):
    lines = list(enumerate(text.split("\n"), 1))
    bad = []
    for n, s in lines:
        for rule, rx in DOC_RULES:
            for m in rx.finditer(s):
                bad.append((n, rule, m.group(0)))
    for para in paragraphs(lines):
        v = VENDOR.search(" ".join(s for _, s in para))
        for n, s in para if v else []:
            m = RATIO.search(s)
            if m:
                bad.append((n, "a ratio beside a CPU vendor",
                            "%s ... %s" % (v.group(0), m.group(0))))
                break
    return [(path, n, rule, t, "lab/results.md holds it; link there")
            for n, rule, t in bad]


def check_results(path, text):
    bad = []
    for n, s in enumerate(text.split("\n"), 1):
        for rule, rx in RESULTS_RULES:
            # a code span names code (`session.ref_count`), not the run
            for m in rx.finditer(re.sub(r"`[^`]*`", "``", s)):
                bad.append((path, n, rule, m.group(0),
                            "a table of record says what reproduces the "
                            "figure; git keeps the history"))
    return bad


def read(path):
    try:
        return open(path, encoding="utf-8").read()
    except OSError as e:
        sys.exit("check-docs-figures: %s" % e)


def main(argv):
    results = "lab/results.md"
    if len(argv) > 1 and argv[1].startswith("--results="):
        results = argv.pop(1).split("=", 1)[1]
    if len(argv) < 3 or argv[1] not in ("docs", "results", "links"):
        sys.exit("usage: check-docs-figures.py [--results=R] "
                 "docs FILE.md... | results R | links FILE...")
    record = headings(read(results))
    bad = []
    for path in argv[2:]:
        text = read(path)
        if argv[1] == "results":
            bad += check_results(path, text)
            continue
        if argv[1] == "docs":
            bad += check_doc(path, text)
        bad += check_links(path, text, record)
    for path, n, rule, t, why in bad:
        print("%s:%d: %s, '%s': %s" % (path, n, rule, t, why))
    if bad:
        print("check-docs-figures: FAIL: %d finding(s) in %s"
              % (len(bad), " ".join(argv[2:])))
        return 1
    print("check-docs-figures: %s: %d file(s) clean"
          % (argv[1], len(argv) - 2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""Figures live in lab/results.md; docs/ argue and link to them.

    check-docs-figures.py docs FILE.md...     no measurement in the documents
    check-docs-figures.py results FILE.md     no session narrative in the record

A document of docs/ fails on a line that holds a confidence interval
("[1.072, 1.094]", "[-0.6, +1.9] %"), a measured ratio or time ("1.083x",
"4.7 cycles"), a machine description (a CPU's brand, model or
microarchitecture, "family 26 model 2", a clock rate, vCPUs, a load
average), or a paragraph that names a CPU vendor beside a decimal ratio.
Figures the kernel's own commits published are cited, not measured here:
the section of docs/kernel-semantics.md that quotes them is exempt.

lab/results.md fails on what a table of record does not need to reproduce
a figure: load averages, branch or worktree names, sessions, times of day
and "started at" narrative.  Git keeps the history.

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
        r"\b\d+(?:\.\d+)?\s*(?:ns|\u00b5s|us|ms|cycles|Mops/s|k?IOPS)\b"
        r"(?! budget)")),
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
RATIO = re.compile(r"\b\d\.\d{2,}\b")
# (file name, heading): figures published by the kernel's own commits.
EXEMPT = {("kernel-semantics.md", "Published measurements")}

RESULTS_RULES = [
    ("a load average", re.compile(r"\bload average|\bload \d", re.I)),
    ("a branch or worktree", re.compile(r"\bbranch(?:es)?\b|\bwt-\w", re.I)),
    ("a session", re.compile(r"\bsessions?\b", re.I)),
    ("a time of day", re.compile(
        r"\bstarted at\b|\b\d\d:\d\d(?: to \d\d:\d\d)? UTC\b", re.I)),
    ("a narrator", re.compile(r"\b(?:my|helpers?)\b", re.I)),
]


def paragraphs(lines):
    """[(first line number, [(number, text)])], blank lines between."""
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
    base = path.rsplit("/", 1)[-1]
    kept, heading, fence = [], "", False
    for n, s in enumerate(text.split("\n"), 1):
        if s.startswith("```"):
            fence = not fence
        if not fence and s.startswith("#"):
            heading = s.lstrip("#").strip()
        kept.append((n, "" if (base, heading) in EXEMPT else s))
    bad = []
    for n, s in kept:
        for rule, rx in DOC_RULES:
            for m in rx.finditer(s):
                bad.append((n, rule, m.group(0)))
    for para in paragraphs(kept):
        joined = " ".join(s for _, s in para)
        if not VENDOR.search(joined):
            continue
        for n, s in para:
            m = RATIO.search(s)
            if m:
                v = VENDOR.search(joined).group(0)
                bad.append((n, "a ratio beside a CPU vendor",
                            "%s ... %s" % (v, m.group(0))))
                break
    return [(path, n, rule, t, "lab/results.md holds it; link there")
            for n, rule, t in bad]


def check_results(path, text):
    bad = []
    for n, s in enumerate(text.split("\n"), 1):
        for rule, rx in RESULTS_RULES:
            for m in rx.finditer(s):
                bad.append((path, n, rule, m.group(0),
                            "a table of record says what reproduces the "
                            "figure; git keeps the history"))
    return bad


def main(argv):
    if len(argv) < 3 or argv[1] not in ("docs", "results"):
        sys.exit("usage: check-docs-figures.py docs FILE.md... | "
                 "results FILE.md")
    check = check_doc if argv[1] == "docs" else check_results
    bad = []
    for path in argv[2:]:
        try:
            text = open(path, encoding="utf-8").read()
        except OSError as e:
            sys.exit("check-docs-figures: %s" % e)
        bad += check(path, text)
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

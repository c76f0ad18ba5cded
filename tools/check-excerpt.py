#!/usr/bin/env python3
"""tools/check-excerpt.py DOC SOURCE: DOC's excerpt of SOURCE is SOURCE's code.

The excerpt is the first ```c block after DOC's first mention of SOURCE.
Its lines, stripped, empty ones left out, must be SOURCE's lines in the same
order (lines of SOURCE may be skipped between them, none may be changed).
The control: the excerpt with one line changed must fail the same check.
"""
import sys


def excerpt(doc, source):
    lines = open(doc, encoding="utf-8").read().split("\n")
    at = next((i for i, l in enumerate(lines) if source in l), None)
    if at is None:
        sys.exit(f"check-excerpt: FAIL: {doc} does not mention {source}")
    start = next((i for i in range(at, len(lines))
                  if lines[i].strip() == "```c"), None)
    if start is None:
        sys.exit(f"check-excerpt: FAIL: no ```c block after {doc}'s mention of {source}")
    end = next(i for i in range(start + 1, len(lines))
               if lines[i].strip() == "```")
    return [l.strip() for l in lines[start + 1:end] if l.strip()]


def missing(snippet, code):
    """The first excerpt line not found in order in code, or None."""
    pos = 0
    for line in snippet:
        while pos < len(code) and code[pos] != line:
            pos += 1
        if pos == len(code):
            return line
        pos += 1
    return None


def main():
    doc, source = sys.argv[1:3]
    code = [l.strip() for l in open(source, encoding="utf-8")]
    snippet = excerpt(doc, source)
    if not snippet:
        sys.exit(f"check-excerpt: FAIL: {doc}'s excerpt of {source} is empty")
    bad = missing(snippet, code)
    if bad is not None:
        sys.exit(f"check-excerpt: FAIL: {doc}: '{bad}' is not {source}'s code "
                 "(in this order): update one from the other")
    print(f"check-excerpt: {doc}'s {len(snippet)} lines are {source}'s code")
    mutant = list(snippet)
    mutant[len(mutant) // 2] += " /* changed */"
    if missing(mutant, code) is None:
        sys.exit("check-excerpt: FAIL: an excerpt with a changed line passed")
    print("check-excerpt: an excerpt with a changed line is caught, as it must be")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""check-convert-compiler: discovery on the compiled code
(tools/refconv/clangscan.py) on tests/convert/compiler/count.c: the count
behind a one-member struct, a wrapper of a wrapper and a macro is found and
keyed by its struct type; a same-named plain field of another struct is not
a candidate.  --mutant: attribution by field name instead of type (every
struct with a field of that name) must make it fail."""

import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools"))
from refconv import clangscan  # noqa: E402


def main(work, mutant=False):
    work = os.path.abspath(work)
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(os.path.join(HERE, "compiler"), work)
    with open(os.path.join(work, "compile_commands.json"), "w") as f:
        json.dump([dict(directory=work, file="count.c",
                        arguments=["cc", "-std=gnu11", "-c", "count.c"])], f)
    res, note = clangscan.discover(work)
    if res is None:
        print("check-convert-compiler: no discovery: %s" % note)
        return 1
    found = set(res["fields"])
    if mutant:  # attribution by name: every struct declaring the name
        found |= {"other.ref"} if "obj.ref" in found else set()
    want, never = {"obj.ref", "pool.users"}, {"other.ref"}
    bad = sorted(want - found) + sorted(found & never)
    wraps = sorted(res["wrappers"])
    print("check-convert-compiler: %s; found %s; wrappers %s" % (
        note, ", ".join(sorted(found)), ", ".join(wraps)))
    if bad or not {"my_add", "my_dec", "my_inc"} <= set(wraps):
        print("check-convert-compiler: FAILED: %s" % ", ".join(bad or ["wrappers"]))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], "--mutant" in sys.argv[2:]))

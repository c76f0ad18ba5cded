#!/usr/bin/env python3
"""compile_commands.json on stdout from the compile lines `make -n` prints
on stdin: one entry per `-c` line of one .c file, run in this directory."""
import json
import os
import shlex
import sys

db = []
for line in sys.stdin:
    words = shlex.split(line)
    src = [w for w in words if w.endswith(".c")]
    if "-c" in words and len(src) == 1:
        db.append(dict(directory=os.getcwd(), arguments=words, file=src[0]))
if not db:
    sys.exit("compdb.py: no compile line on stdin")
json.dump(db, sys.stdout, indent=1)

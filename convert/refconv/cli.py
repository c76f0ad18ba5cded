"""refcount-convert's command line: report, apply, check."""

import argparse
import json
import os
import sys

from . import model as M, scan
from .report import print_report, report_doc


def main(argv):
    import signal
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if "--" in argv:
        i = argv.index("--")
        argv, command = argv[:i], argv[i + 1:]
    else:
        command = []
    ap = argparse.ArgumentParser(prog="refcount-convert")
    ap.add_argument("action", choices=("report", "apply", "check"))
    ap.add_argument("dir")
    ap.add_argument("--format", choices=("text", "json"), default="text")
    ap.add_argument("--refcount-include", default=os.path.join(
        os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
        "include"), help="librefcount's include directory (layout check)")
    ap.add_argument("--log", help="check: the report log file to use")
    a = ap.parse_args(argv)
    if not os.path.isdir(a.dir):
        ap.error("%s is not a directory" % a.dir)
    if a.action == "check":
        from . import check
        return check.run(a.dir, command, a.log)
    if a.log:
        ap.error("--log is check's option, not %s's" % a.action)
    if not scan.sources(a.dir):
        ap.error("%s has no C source (*.c, *.h)" % a.dir)
    if a.action == "apply" and not os.path.isfile(
            os.path.join(a.refcount_include, "refcount", "types.h")):
        ap.error("--refcount-include %s: no refcount/types.h there (librefcount's "
                 "include directory, e.g. PREFIX/include)" % a.refcount_include)
    m = M.build(a.dir)
    if a.action == "report":
        doc = report_doc(m)
        if a.format == "json":
            json.dump(doc, sys.stdout, indent=1)
            sys.stdout.write("\n")
        else:
            print_report(doc)
            # how the code was read, for the person at the terminal
            sys.stderr.write("refcount-convert: %s: %s\n" % (a.dir, doc["discovery"]))
            if not doc["candidates"]:
                sys.stderr.write("refcount-convert: %s: no candidate (no field "
                                 "operated on as a count)\n" % a.dir)
        return 0
    from . import rewrite
    return rewrite.apply(m, a.refcount_include)

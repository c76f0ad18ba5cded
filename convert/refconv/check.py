"""refcount-convert check: run a test command with the library's report log
on (REFCOUNT_REPORT_LOG) and list every report with
its call site.  The log's line: pid TAB breed TAB type TAB caller TAB
message (convert/README.md)."""

import os
import subprocess
import sys
import tempfile


def run(root, command, log=None):
    if not command:
        sys.stderr.write("refcount-convert check: no TEST-COMMAND after --\n")
        return 2
    log = os.path.abspath(log) if log else os.path.join(
        tempfile.mkdtemp(prefix="refcount-check."), "reports.log")
    try:  # empty, and writable: a log the library cannot open passes nothing
        open(log, "w").close()
    except OSError as e:
        sys.stderr.write("refcount-convert check: cannot write the log %s: %s\n"
                         % (log, e.strerror or e))
        return 2
    env = dict(os.environ, REFCOUNT_REPORT_LOG=log)
    try:
        rc = subprocess.call(command, cwd=root, env=env)
    except OSError as e:
        # not found, not executable: say which, run from where
        sys.stderr.write("refcount-convert check: cannot run %r in %s: %s "
                         "(the command runs in DIR: give a command on PATH "
                         "or an absolute path)\n"
                         % (command[0], root, e.strerror or e))
        return 2
    reports = {}
    if os.path.exists(log):
        for line in open(log, errors="replace"):
            w = line.rstrip("\n").split("\t")
            if len(w) != 5:
                print("check: malformed log line: %r" % line)
                continue
            _pid, breed, kind, caller, msg = w
            reports.setdefault((kind, caller, breed, msg), 0)
            reports[(kind, caller, breed, msg)] += 1
    for (kind, caller, breed, msg), n in sorted(reports.items()):
        print("report\t%s\t%s\t%s\t%dx\t%s" % (kind, caller, breed, n, msg))
    print("refcount-convert check: test command exited %d; %d report(s) at %d "
          "call site(s); log %s" % (rc, sum(reports.values()), len(reports), log))
    return 1 if rc or reports else 0

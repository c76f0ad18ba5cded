#!/bin/sh
# tests/report-log.sh PROGRAM [MUTANT...]: REFCOUNT_REPORT_LOG=FILE with
# tests/report-log.c's PROGRAM (two call sites, 3 misuses each, in one
# process or, with "fork", in two).
#
#  - stderr: each (type, message) prints once: 2 lines;
#  - REFCOUNT_REPORT_LOG: one line per report, 5 tab-separated fields
#    (pid, breed, type, caller, message) with this pid, "saturating", ADD_UAF
#    or SUB_UAF, the call site (addr2line of the caller's offset) and the
#    kernel's message; two
#    processes append 12 lines to one file; no report, no file; a log that
#    cannot be opened is said once on stderr, and the reports still print;
#  - the mutants must fail: MUTANT-APPEND (a library that opens the log
#    without O_APPEND, so that two processes overwrite each other's lines)
#    and MUTANT-NOLOG (one that says nothing when the log cannot be
#    opened).
set -eu

prog=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/refcount-report-log.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "report-log: FAIL: $*" >&2; exit 1; }
tab=$(printf '\t')

# check PROGRAM: every assertion above; returns non-zero on the first miss.
check() {
	p=$1
	env -u REFCOUNT_REPORT_LOG "$p" 2> "$work/once.err"
	[ "$(grep -c '^refcount_t: ' "$work/once.err")" = 2 ] ||
		{ echo "default: $(grep -c '^refcount_t: ' "$work/once.err") lines, not 2"; return 1; }

	rm -f "$work/log"
	REFCOUNT_REPORT_LOG="$work/log" "$p" none 2> /dev/null
	[ ! -e "$work/log" ] || { echo "log: created with no report"; return 1; }
	REFCOUNT_REPORT_LOG="$work/log" "$p" 2> /dev/null
	[ "$(wc -l < "$work/log")" = 6 ] ||
		{ echo "log: $(wc -l < "$work/log") lines, not 6"; return 1; }
	awk -F "$tab" 'NF != 5 || $2 != "saturating" || $4 !~ /\+0x[0-9a-f]+\)?$/ ||
		!($3 == "ADD_UAF" && $5 == "refcount_t: addition on 0; use-after-free.") &&
		!($3 == "SUB_UAF" && $5 == "refcount_t: underflow; use-after-free.") {
			bad = 1; print "bad line: " $0 }
		END { exit bad }' "$work/log" || return 1
	# The caller is the call site: addr2line names the function.
	while IFS="$tab" read -r _ _ type caller _; do
		off=${caller##*+}
		off=${off%)}
		fn=$(addr2line -f -i -e "$p" "$off" | grep '^site_' | head -1)
		case $type:$fn in
		ADD_UAF:site_inc* | SUB_UAF:site_put*) ;;
		*) echo "log: $type at $caller is in '$fn'"; return 1 ;;
		esac
	done < "$work/log"
	[ "$(cut -f1 "$work/log" | sort -u | wc -l)" = 1 ] || { echo "log: more than one pid"; return 1; }

	# A log that cannot be opened: said once, and the reports still print.
	REFCOUNT_REPORT_LOG="$work/no-such-dir/log" "$p" 2> "$work/nolog.err"
	[ "$(grep -c "^librefcount: REFCOUNT_REPORT_LOG=$work/no-such-dir/log: No such file or directory; reports are not logged\$" "$work/nolog.err")" = 1 ] ||
		{ echo "unopenable log: not said once:"; cat "$work/nolog.err"; return 1; }
	[ "$(grep -c '^refcount_t: ' "$work/nolog.err")" = 2 ] ||
		{ echo "unopenable log: the reports did not print"; return 1; }

	# Two processes, one file: 12 whole lines from two pids, appended.
	echo "a line that was there" > "$work/log"
	REFCOUNT_REPORT_LOG="$work/log" "$p" fork 2> /dev/null
	[ "$(head -1 "$work/log")" = "a line that was there" ] ||
		{ echo "log: the earlier content was overwritten"; return 1; }
	[ "$(tail -n +2 "$work/log" | grep -c "^[0-9]*${tab}saturating${tab}")" = 12 ] ||
		{ echo "log: not 12 whole lines from two processes:"; cat "$work/log"; return 1; }
	[ "$(tail -n +2 "$work/log" | cut -f1 | sort -u | wc -l)" = 2 ] ||
		{ echo "log: not two pids"; return 1; }
	return 0
}

check "$prog" || fail "$prog"
echo "report-log: stderr has 2 of the 6 reports (once per message); REFCOUNT_REPORT_LOG appends one 5-field line per report, from two processes, is not created without a report, and says once when it cannot be opened"
shift
for m in "$@"; do
	if out=$(check "$m" 2>&1); then
		fail "the mutant $m went unnoticed"
	fi
	echo "report-log: the mutant $(basename "$m") fails, as it must: $out" | head -1
done

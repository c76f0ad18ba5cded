#!/bin/sh
# convert/tests/check-fixtures.sh TOOL WORKDIR: every fixture under
# convert/tests/*/ (one idiom of convert/README.md's table each): the
# report and the converted file must be the expected ones.  Then a mutant of
# the tool (a dec-and-test rule with its meaning flipped) must fail them.
set -eu
tool=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
inc=$here/layout
run() { # TOOL [FIXTURE] -> 0 when every fixture (or FIXTURE) matches
	t=$1 fail=0
	for d in "$here"/${2:-*}/obj.c; do
		d=$(dirname "$d") n=$(basename "$d")
		rm -rf "$work/$n" && mkdir -p "$work/$n"
		for s in "$d"/*.c "$d"/*.h; do  # obj.c, and any other file it needs
			[ ! -e "$s" ] || cp "$s" "$work/$n/"
		done
		(cd "$work/$n" && "$t" report . > ../$n.report 2> ../$n.report.err && \
			"$t" apply . --refcount-include "$inc" > ../$n.apply) ||
			{ cat "$work/$n.report.err" >&2; fail=1; continue; }
		diff -u "$d/report.expected" "$work/$n.report" >&2 || fail=1
		for e in "$d"/*.expected; do  # obj.c.expected, and each other file's
			f=$(basename "$e" .expected)
			[ "$f" = report ] || diff -u "$e" "$work/$n/$f" >&2 || fail=1
		done
	done
	return $fail
}
mkdir -p "$work"
run "$tool" || { echo "check-convert-fixtures: FAILED" >&2; exit 1; }
count=$(ls -d "$here"/*/obj.c | wc -l)
# every text report reads as a person reads it: no Python value, each
# operation said as a get, a put, a read or a creation, each report-only
# count with what would convert it, a summary that adds up
python3 "$here/check-report-text.py" "$work"/*.report >&2 ||
	{ echo "check-convert-fixtures: a text report FAILED check-report-text.py" >&2; exit 1; }
# its mutants: a raw value printed (the missing target type), the model's
# shorthand printed for what an operation does; each must fail it
text_mutant() { # FIXTURE SED-EXPR -> 0 when the mutant's report of FIXTURE fails the check
	rm -rf "$work/mutant3" && cp -r "$(dirname "$tool")" "$work/mutant3"
	sed -i "$2" "$work/mutant3/refconv/report.py"
	if cmp -s "$(dirname "$tool")/refconv/report.py" "$work/mutant3/refconv/report.py"; then
		echo "check-convert-fixtures: text mutant $2 did not apply" >&2
		return 1
	fi
	rm -f "$work/$1.report"
	run "$work/mutant3/refcount-convert" "$1" 2>/dev/null || :
	[ -s "$work/$1.report" ] && ! python3 "$here/check-report-text.py" "$work/$1.report" > /dev/null
}
text_mutant family-trap 's/        to = " (%s if converted)" % c\["to"\] if c\["to"\] else ""/        to = " (%s if converted)" % c["to"]/' &&
text_mutant gcc-atomic 's/("operation", "%s %s: %s" % (o\["at"\], o\["op"\], o\["does"\]))/("operation", "%s %s: %s" % (o["at"], o["op"], o["meaning"]))/' || {
	echo "check-convert-fixtures: a text-report mutant (a raw value, the model's shorthand) passed" >&2
	exit 1
}
# the mutant: ("new", "==", 0) means "references remain"
rm -rf "$work/mutant" && cp -r "$(dirname "$tool")" "$work/mutant"
sed -i 's/("new", "==", 0): "last"/("new", "==", 0): "notlast"/' \
	"$work/mutant/refconv/registry.py"
grep -q '("new", "==", 0): "notlast"' "$work/mutant/refconv/registry.py"
if run "$work/mutant/refcount-convert" gcc-atomic 2>/dev/null; then
	echo "check-convert-fixtures: the mutant (a flipped dec-and-test rule) passed" >&2
	exit 1
fi
# the kept old value and the creation proof (kept-old, kept-refused): each
# mutant must fail its fixture
mutant() { # FIXTURE FILE SED-EXPR -> 0 when the mutant fails FIXTURE
	rm -rf "$work/mutant2" && cp -r "$(dirname "$tool")" "$work/mutant2"
	sed -i "$3" "$work/mutant2/refconv/$2"
	if cmp -s "$(dirname "$tool")/refconv/$2" "$work/mutant2/refconv/$2"; then
		echo "check-convert-fixtures: mutant $3 did not apply" >&2
		return 1
	fi
	! run "$work/mutant2/refcount-convert" "$1" 2>/dev/null
}
# a kept result left as it is (no __refcount_inc(r, &old) ...)
mutant kept-old rewrite.py 's/kept = \[s for s in ss if s\["ctx"\].startswith("kept")\]/kept = []/' &&
# a long accepted as the old value's type
mutant kept-refused registry.py 's/"refcount_t": ("int",/"refcount_t": ("long", "int",/' &&
# a cache read that skips the assertion taken as a zero source
mutant kept-old creation.py 's/elif (pos, q) not in noassert and/elif (pos, q) in noassert and/' &&
# a call that passes an object from outside taken as fresh
mutant kept-refused creation.py 's/if pos in undef or not rs or any(/if any(/' &&
# a counter's member used directly taken as a read
mutant kept-refused model.py 's/elif ctx == "member":/elif ctx == "member-none":/' &&
# a get fresh on one path only taken as a get
mutant kept-refused creation.py 's/s\["from0"\] = s\["from0"\] or "a zeroing/s["x"] = s["from0"] or "a zeroing/' &&
# a fresh object passed to a get shared with objects in use taken as a get
mutant shared-get creation.py 's/            fresh.setdefault(fn, pos)/            pass/' &&
# a get on a fresh object made the creation at its call although the final
# put runs only a callback of another name (a completion)
mutant shared-get creation.py 's/    if not pure or not named_release(fm):/    if not pure:/' &&
# the release read from the recorded release-like calls only
mutant release-scan release.py 's/call = next(filter(None, (_releases_object(t, None, b) for b in bases)), None)/call = None/' &&
# the release the decision relies on (a callback through the object, a
# call found after a member's release) left out of the inventory
mutant release-scan report.py 's/for x in fm\["releases"\] + relied_release(fm)}))/for x in fm["releases"]}))/' &&
# a use through `.` no pass read (no compile database) not accounted for
mutant dot-use model.py 's/unread.mark(conv, unread.dot_uses(conv, lines, real), root,/unread.mark(conv, {}, root,/' &&
# ... or a designated initialiser `.field =` taken as such a use
mutant dot-use unread.py 's/_DESIGNATED.search(text, max(0, m.start() - 400), m.start())/False/' &&
# ... or a `.field` in a string literal
mutant dot-use scan.py 's/return LEXICAL_RE.sub(lambda m: re.sub(r"\[^\\n\]", " ", m.group(0)), text)/return text/' &&
# a negative sentinel on a signed count accepted
mutant release-scan model.py 's/if neg and fm.get("scalar") in signed:/if False:/' &&
# a count revived from 0 after its final put accepted
mutant revival model.py 's/    if revived:/    if False:/' &&
# an increment that undoes an underflowing put taken as a revival
mutant revival model.py 's/            if _undoes_underflow(/            if False and _undoes_underflow(/' &&
# a project's refcount family shared by a counter (its get tested) converted
mutant family-trap family.py 's/elif role == "rmw" and step == +1 and not stmt:/elif False:/' &&
# a creation by an atomic store (atomic_init) left as it is
mutant atomic-store rewrite.py 's/if x.get("atomic")\], F=field, P=P)/if False], F=field, P=P)/' &&
# a family whose put is not followed by a release converted
mutant family family.py 's/if not _releases_object(rest, None, obj):/if _releases_object(rest, None, obj):/' &&
# the fields a converted family covers told by the member name alone (a
# same-named field of another struct left unconverted)
mutant family-collide family.py 's/return fm\["stype"\] in {st for/return True or fm["stype"] in {st for/' &&
# a use of a same-named field of a plainly declared struct taken as the
# family's (the family refused)
mutant family-collide family.py 's/if not inside(m.start()) and not _plain_owner(/if not inside(m.start()) and not False and _plain_owner(/' &&
# a struct declared twice (one name, one type): only its first declaration
# retyped
mutant struct-twice rewrite.py 's/for d in _decls(fm):  # every declaration/for d in _decls(fm)[:1]:  # every declaration/' &&
# ... or the initialisers of one declared once only read
mutant struct-twice creation.py 's/if len(fm\["decls"\]) < 1 or len(keys) != 1:/if len(fm["decls"]) != 1:/' &&
# the Win32 decrement read as an old value (its final-put test no longer
# recognised), or a put never tested for the last reference converted
mutant win32 registry.py 's/"InterlockedDecrement": ("win32", "new", 0, -1)/"InterlockedDecrement": ("win32", "old", 0, -1)/' &&
mutant idle-counter release.py 's/if s\["meaning"\] in ("last", "notlast") and/if s["meaning"] == "last" and/;s/return None, NO_PUT_TEST/return None, None/' &&
# a count type's one-statement void operation not read (its get unknown,
# the type refused), or a count type with an owner beside the count not
# refused for it
mutant count-type family.py 's/        if void and void.group(2) in registry.ATOMIC_STORES:/        if void:\n            return None\n        if void and void.group(2) in registry.ATOMIC_STORES:/' &&
mutant count-type-owner counttype.py 's/            if siblings:/            if False:/' &&
# a struct that holds a lock and two counters taken as a count type
mutant count-type-lock counttype.py 's/            if len(siblings) > 1 or any("\*" not in t for _m, t in siblings):/            if False:/' &&
# a store of 0 after the final put, before the release, taken as a creation
mutant teardown-zero model.py 's/            and not _teardown(fm, x, cache)\]/]/' &&
# ... or a store of 0 before a release on an error path taken as a teardown
mutant teardown-zero model.py 's/return any(s\["meaning"\] == "last" and/return True or any(s["meaning"] == "last" and/' || {
	echo "check-convert-fixtures: a kept-value, creation, release, revival, atomic-store, family, declaration, teardown or unread-use mutant passed" >&2
	exit 1
}
# refcount-convert check: a test command that writes one report line in the
# library's log format (convert/README.md) must be listed and fail the check;
# one that writes none must pass.  Mutant: the tool names another variable.
check_cmd() { # TOOL -> 0 when check behaves
	t=$1
	line='printf "7\tsaturating\tsaturated\tobj_get+0x1c (a.out+0x11c4)\trefcount_t: saturated; leaking memory\n" >> "$REFCOUNT_REPORT_LOG"'
	out=$("$t" check "$work" -- sh -c "$line") && return 1
	echo "$out" | grep -q '^report	saturated	obj_get+0x1c (a.out+0x11c4)	saturating	1x	' || return 1
	"$t" check "$work" -- true > /dev/null || return 1
}
check_cmd "$tool" || { echo "check-convert-fixtures: refcount-convert check FAILED" >&2; exit 1; }
# a test command that cannot run is named, exit 2, no traceback
rc=0
err=$("$tool" check "$work" -- refcount-no-such-command 2>&1 >/dev/null) || rc=$?
case "$rc:$err" in
2:*"cannot run 'refcount-no-such-command'"*) ;;
*)	echo "check-convert-fixtures: check with a missing command: exit $rc: $err" >&2
	exit 1 ;;
esac
case "$err" in *Traceback*) echo "check-convert-fixtures: a traceback: $err" >&2; exit 1 ;; esac
# a bad input is named, exit 2: a missing tree, a tree with no C source,
# an include directory without the library, a log the library cannot
# write (its reports would be lost and the check would pass)
mkdir -p "$work/empty"
bad() { # EXPECTED-MESSAGE ARGS...
	want=$1 rc=0
	shift
	err=$("$tool" "$@" 2>&1 >/dev/null) || rc=$?
	case "$rc:$err" in
	2:*"$want"*) ;;
	*)	echo "check-convert-fixtures: refcount-convert $*: exit $rc: $err" >&2
		exit 1 ;;
	esac
}
bad "$work/nowhere is not a directory" check "$work/nowhere" -- true
bad "$work/empty has no C source" report "$work/empty"
bad "--refcount-include $work/empty: no refcount/types.h" \
	apply "$work/gcc-atomic" --refcount-include "$work/empty"
bad "cannot write the log $work/nowhere/log" \
	check "$work" --log "$work/nowhere/log" -- true
# a compile database made for another copy of the tree is named, and the
# report says how it read the code instead
mkdir -p "$work/moved"
cp "$work/gcc-atomic"/*.c "$work/moved/"
printf '[{"directory": "/nonexistent/elsewhere", "file": "obj.c", "arguments": ["cc", "-c", "obj.c"]}]\n' \
	> "$work/moved/compile_commands.json"
err=$("$tool" report "$work/moved" 2>&1 >/dev/null)
case "$err" in
*"compile_commands.json lists 1 unit, none of them under"*"every #if variant considered"*) ;;
*)	echo "check-convert-fixtures: a moved compile database: $err" >&2; exit 1 ;;
esac
sed -i 's/REFCOUNT_REPORT_LOG=log/REFCOUNT_REPORT_FILE=log/' "$work/mutant/refconv/check.py"
grep -q REFCOUNT_REPORT_FILE "$work/mutant/refconv/check.py"
if check_cmd "$work/mutant/refcount-convert" 2>/dev/null; then
	echo "check-convert-fixtures: the check mutant (another log variable) passed" >&2
	exit 1
fi
echo "check-convert-fixtures: $count fixtures passed, their text reports read as a person reads them (its 2 mutants fail);" \
	"the mutant fails gcc-atomic;" \
	"the kept-value, creation, release, revival, atomic-store, family, declaration, teardown and unread-use mutants (30) fail kept-old, kept-refused, shared-get, release-scan, revival, atomic-store, family, family-trap, family-collide, struct-twice, teardown-zero, dot-use, win32, idle-counter, count-type, count-type-owner, count-type-lock;" \
	"check lists a logged report; its mutant fails; bad inputs and a moved compile database are named"

#!/bin/sh
# tests/flags-only.sh OBJDUMP OBJ... - no locked instruction's old value is
# read back in the default breed's hot paths
#
# OBJ: tests/flags-only.c compiled (gcc, clang; x86-64, i386).  For each
# hp_<op> function, with its .cold part, from `OBJDUMP -d`:
#   - every function has at least one `lock` instruction (else the operation
#     was not compiled in: the check would pass on nothing);
#   - flags-only operations (all but the try-gets), the increments
#     included: no `xadd` and no `cmpxchg`: each locked instruction is an
#     add, sub, inc or dec whose flags the branches read (the saturating
#     breed's word is INT_MIN - count: docs/design.md, 'The increment and
#     the flags');
#   - flags-only operations: from the first locked instruction outside
#     .cold to the first `ret` or `jmp` after it (the hot path's return),
#     exactly the conditional branches the design needs: one for every get
#     and every put of 1 (`jle` after `lock dec`/`sub`, `js` after
#     `lock inc`: the count -INT_MAX, whose put a `je` would catch, is never
#     stored), two for sub_and_test(2) (`js`, `jbe`) and rcuref_put
#     (`jb`, `js`);
#   - try-gets (hp_try_*): no `xadd`; `cmpxchg` in their loop; the first
#     one laid out outside .cold (the hot loop; the general loop of the
#     edge cases comes after it) is followed at once by the branch on its
#     own ZF (the retry), and from there to the success path's `ret` or
#     `jmp` no compare, test, setcc or conditional branch: the whole range test is made before the swap, as atomic_t's
#     (docs/design.md, 'The try-get'), so nothing after the locked
#     instruction reads what it read back or holds up the next one.
# Pure disassembly: the verdict is the same on any machine.  Exit 1 and one
# line per violation on a violation.
set -eu
objdump=$1
shift
status=0
for o in "$@"; do
	"$objdump" -d --no-show-raw-insn "$o" | awk -v obj="$o" '
	/^[0-9a-f]+ <hp_[a-z_]+(\.cold)?>:$/ {
		fn = $2
		gsub(/[<>:]/, "", fn)
		cold = fn ~ /\.cold$/
		sub(/\.cold$/, "", fn)
		seen[fn] = 1
		aftercas = 0
		hot = 0
		next
	}
	/^[0-9a-f]+ <.*>:$/ { fn = ""; next }
	fn == "" || !/^ +[0-9a-f]+:\t/ { next }
	{
		insn = $0
		sub(/^ +[0-9a-f]+:\t/, "", insn)
		if (insn ~ /^lock /) {
			if (!cold && !locked[fn] && fn !~ /^hp_try_/) {
				hot = 1
				branches[fn] = 0
			}
			locked[fn]++
		} else if (hot) {
			if (insn ~ /^(ret|jmp)/)
				hot = 0
			else if (insn ~ /^j[a-z]+ /)
				branches[fn]++
		}
		if (insn ~ /xadd/)
			xadd[fn]++
		if (insn ~ /cmpxchg/) {
			aftercas = !cold && !hotcas[fn]++
			cas[fn]++
			next
		}
		if (aftercas == 1) {
			if (insn !~ /^j(ne|nz) /)
				bad[fn] = bad[fn] " the cmpxchg is not followed by its retry branch (" insn ");"
			aftercas = 2
			next
		}
		if (aftercas == 2) {
			if (insn ~ /^(ret|jmp)/)
				aftercas = 0
			else if (insn ~ /^(cmp|test|set|j[a-z]+ )/)
				bad[fn] = bad[fn] " a test after the swap (" insn ");"
		}
	}
	END {
		want["hp_sub_and_test"] = want["hp_rcuref_put"] = 2
		n = 0
		for (f in seen) {
			n++
			if (!locked[f])
				bad[f] = bad[f] " no locked instruction;"
			if (f ~ /^hp_try_/) {
				if (xadd[f])
					bad[f] = bad[f] " xadd in a try-get;"
				if (!cas[f])
					bad[f] = bad[f] " no cmpxchg in a try-get;"
			} else {
				if (xadd[f])
					bad[f] = bad[f] " xadd: a locked instruction whose old value is read back;"
				if (cas[f])
					bad[f] = bad[f] " cmpxchg outside a try-get;"
				w = f in want ? want[f] : 1
				if (locked[f] && branches[f] != w)
					bad[f] = bad[f] " " branches[f] " conditional branches from the locked instruction to the return, not " w ";"
			}
			if (bad[f] != "") {
				print "flags-only: FAIL: " obj ": " f ":" bad[f]
				failed = 1
			}
		}
		if (n != 11) {
			print "flags-only: FAIL: " obj ": " n " hp_ functions, not 11"
			failed = 1
		}
		exit failed
	}' || status=1
done
exit $status

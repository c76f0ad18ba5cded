# lab/bench/check.jq - the structure of refcount-bench --format=json
#
# jq -e -f lab/bench/check.jq FILE exits non-zero unless the document has every
# part and every row.  Structure only: it never looks at how fast anything
# was (benchmarks report figures, tests assert behaviour).
#
# A full run (every suite) unless --arg partial 1: then the rows of the
# suites in machine.suites, and none of the others.
#
# The row names come from the document itself, never from a list here: the
# rows are the impls of the results (every suite that ran must have each
# one), the peers those of targets.versus; the target and the baseline are
# the contract's (refcount-saturating against atomic_t).

def suites: ["timing", "contention", "objects", "codesize"];
def num: type == "number";
def pos: num and . > 0;
def num_or_null: num or . == null;
def load: . == null or (type == "array" and length == 3 and all(num));
def rows($s): [.results[] | select(.suite == $s)];
def partial: $ARGS.named.partial != null;
# rows of suite $s, if it ran, pass f; else there are none
def suite($s; f): if .machine.suites | index([$s]) then rows($s) | f
	else rows($s) == [] end;

. as $doc
| def impls: $doc.results | map(.impl) | unique;
  def peers: $doc.targets.versus | map(.peer);
  def every_impl: (map(.impl) | unique) == impls;
(.machine | type == "object"
	and (.cpu | type == "string") and (.compiler | type == "string")
	and (.cpu_vendor | type == "string") and (.uarch | type == "string")
	and (.cpu_family | num) and (.cpu_model | num)
	and (.tsc_hz | pos) and (.cpus | pos) and (.rounds | . >= 5)
	and (.loadavg | type == "object" and (.start | load)
		and (.end | load))
	and has("cpu_share") and (.cpu_share | num_or_null)
	and (.version | type == "string")
	and (.date | type == "string" and test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T"))
	and (.args | type == "array" and all(type == "string"))
	and (.suites | type == "array" and length > 0
		and all(IN(suites[])))
	and (.pinned_cpu | num and . >= 0))
and (partial or (.machine.suites | sort) == (suites | sort))
and (if .machine.suites | index(["timing"]) or index(["objects"])
	then .machine.cpu_share | num else true end)
and (.results | type == "array")
and (.results | all(.suite | IN(suites[])))
and (.results | all(.impl | IN(impls[])))
and (.results | map(select(.suite != "codesize")) | all((.ratio_ci95_lo | pos)
	and (.ratio_ci95_hi | pos) and .ratio_ci95_lo <= .ratio_ci95_hi
	and (.rounds | . >= 5)))
and suite("timing"; length == (impls | length) and every_impl
	and all((.cycles_per_op | pos) and (.ratio_to_atomic | pos)
		and (.mops | pos) and (.mops_min | pos) and (.mops_max | pos)
		and (.total_cycles | pos)
		and (.protections | type == "array")))
and suite("timing"; map(select(.impl == "atomic_t"))[0].ratio_to_atomic
	== 1)
and suite("contention"; length > 0 and every_impl
	and all((.threads | pos) and (.mops | pos) and (.mops_min | pos)
		and (.mops_max | pos) and (.ratio_to_atomic | pos)
		and (.pattern | IN("getput", "lookup"))))
and suite("contention"; map(.threads) | unique | .[0] == 1)
and suite("contention"; map(select(.pattern == "lookup"
		and (.impl | IN($doc.targets.target, $doc.targets.baseline))))
	| length > 0 and all(.cas_retries_per_op | num and . >= 0))
and suite("contention"; map(select(has("cas_retries_per_op")))
	| all(.cas_retries_per_op | num and . >= 0))
and suite("contention"; map(select(.impl | IN("rcuref", "file_ref"))
		| select(.pattern == "lookup"))
	| all(.cas_retries_per_op == 0))
and suite("objects"; length > 0 and every_impl
	and all((.objects | pos) and (.cycles_per_op | pos)
		and (.ratio_to_atomic | pos)))
and suite("objects"; map(.objects) | any(. == 1000000))
and (impls | length) > 2 and (peers | length) > 0
and (peers | unique | length) == (peers | length)
and (peers | all(IN(impls[])))
and (peers | all(. != $doc.targets.target and . != $doc.targets.baseline))
and suite("codesize"; length == 2 * (impls | length) and every_impl
	and all((.bytes | num) and (.op | IN("inc", "dec_and_test"))))
and (.machine.suites as $ran | .codesize_arch | type == "array"
	and (if $ran | index(["codesize"])
		then length == (map(.arch) | unique | length)
				* (map(.impl) | unique | length) * 2
			and (map(.arch) | unique | length) > 0
			and any(.impl == $doc.targets.baseline)
			and any(.impl == $doc.targets.target)
			and all((.arch | type == "string") and (.bytes | pos)
				and (.insns | pos)
				and (.op | IN("inc", "dec_and_test"))
				and (.impl | IN(impls[])))
		else length == 0 end))
and (.targets | type == "object"
	and .target == "refcount-saturating" and .baseline == "atomic_t"
	and (.within | num)
	and (.intervals | type == "array" and all((.goal | pos)
		and (.ratio | pos) and (.ci95_lo | pos) and (.ci95_hi | pos)
		and (.rounds | . >= 5)
		and (.verdict | IN("met", "missed", "unresolved"))))
	and has("precise")
	and (.peers_with_same_protections | type == "array"
		and all(IN(peers[])))
	and (.versus | type == "array" and (map(.peer) == peers)
		and all(has("timing") and has("contention_min")
			and has("objects_min") and (.timing | num_or_null)
			and (.contention_min | num_or_null)
			and (.contention_max | num_or_null)
			and (.objects_min | num_or_null)
			and (.objects_max | num_or_null))))
and (if .machine.suites | index(["timing"])
	then .targets.timing | (.ratio | pos) and (.met | type == "boolean")
	else .targets.timing == null end)
and (if .machine.suites | index(["contention"])
	then .targets.contention | (.met | num) and (.of | pos)
		and (.worst_ratio | pos) and (.worst_threads | pos)
		and (.worst_pattern | IN("getput", "lookup"))
	else .targets.contention == null end)

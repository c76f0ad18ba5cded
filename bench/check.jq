# bench/check.jq - the structure of refcount-bench --format=json
#
# jq -e -f bench/check.jq FILE exits non-zero unless the document has every
# part and every row.  Structure only: it never looks at how fast anything
# was (benchmarks report figures, tests assert behaviour).

def impls: ["atomic_t", "refcount-atomic", "refcount-fast", "refcount-full",
	    "refcount-saturating", "urcu_ref", "glib", "ck", "rcuref",
	    "file_ref"];
def num: type == "number";
def pos: num and . > 0;
def rows($s): [.results[] | select(.suite == $s)];
def every_impl: (map(.impl) | unique) == (impls | sort);

(.machine | type == "object"
	and (.cpu | type == "string") and (.compiler | type == "string")
	and (.tsc_hz | pos) and (.cpus | pos) and (.rounds | . >= 5))
and (.results | type == "array")
and (.results | all(.suite | IN("timing", "contention", "objects",
				"codesize")))
and (.results | all(.impl | IN(impls[])))
and (rows("timing") | length == 10 and every_impl
	and all((.cycles_per_op | pos) and (.ratio_to_atomic | pos)
		and (.mops | pos) and (.total_cycles | pos)
		and (.protections | type == "array")))
and (rows("timing") | map(select(.impl == "atomic_t"))[0].ratio_to_atomic
	== 1)
and (rows("contention") | length > 0 and every_impl
	and all((.threads | pos) and (.mops | pos)
		and (.ratio_to_atomic | pos)
		and (.pattern | IN("getput", "lookup"))))
and (rows("contention") | map(.threads) | unique | .[0] == 1)
and (rows("contention") | map(select(.pattern == "lookup"
		and (.impl | IN("atomic_t", "refcount-saturating", "rcuref",
				"file_ref"))))
	| length > 0 and all(.cas_retries_per_op | num and . >= 0))
and (rows("contention") | map(select(.impl | IN("rcuref", "file_ref"))
		| select(.pattern == "lookup"))
	| all(.cas_retries_per_op == 0))
and (rows("objects") | length > 0 and every_impl
	and all((.objects | pos) and (.cycles_per_op | pos)
		and (.ratio_to_atomic | pos)))
and (rows("objects") | map(.objects) | any(. == 1000000))
and (rows("codesize") | length == 20 and every_impl
	and all((.bytes | num) and (.op | IN("inc", "dec_and_test"))))

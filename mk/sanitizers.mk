# mk/sanitizers.mk - the sanitizer builds' flags and run-time options,
# written once for every fragment that builds with a sanitizer (the unit
# variants of tests/unit.mk, the flavours of tests/stress.mk)
#
#   SAN_FLAGS_<san>   compiler flags: asan (ASan and UBSan, every error
#                     fatal), tsan, fuzz (libFuzzer's instrumentation with
#                     ASan and UBSan; the fuzzer's main is linked with
#                     -fsanitize=fuzzer)
#   SAN_ENV_<san>     the environment its programs run in: errors abort
#                     with a stack; ASan checks for leaks

SAN_FLAGS_asan := -O1 -g -fsanitize=address,undefined \
	-fno-sanitize-recover=all -fno-omit-frame-pointer
SAN_FLAGS_tsan := -O1 -g -fsanitize=thread
SAN_FLAGS_fuzz := -O1 -g -fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-recover=undefined

SAN_ENV_asan := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
SAN_ENV_tsan := \
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:atexit_sleep_ms=0

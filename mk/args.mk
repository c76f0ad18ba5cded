# mk/args.mk - checks of the variables given on the command line
#
# Each stops make, before anything runs, with a message that names the
# variable and its value.
#
#   $(call need_posint,VAR)   VAR is a whole number, 1 or more (no sign,
#                             no leading 0): FUZZ_SECONDS, STRESS_OPS, ...
#   $(call need_abspath,VAR)  VAR is one absolute path: PREFIX, LIBDIR, ...

# TEXT without its digits: empty if TEXT is all digits
args_nodigits = $(subst 0,,$(subst 1,,$(subst 2,,$(subst 3,,$(subst 4,,\
	$(subst 5,,$(subst 6,,$(subst 7,,$(subst 8,,$(subst 9,,$(1)))))))))))
args_posint = $(and $(filter 1,$(words $(1))),$(filter-out 0%,$(1)),\
	$(if $(strip $(call args_nodigits,$(1))),,$(1)))
need_posint = $(if $(call args_posint,$($(1))),,$(error $(1)=$($(1)): \
	must be a whole number, 1 or more))
need_abspath = $(if $(and $(filter 1,$(words $($(1)))),$(filter /%,$($(1)))),,\
	$(error $(1)=$($(1)): must be one absolute path, without spaces (it \
	is written into refcount.pc)$(if $(filter 1,$(words $($(1)))),; for \
	example $(1)=$(abspath $($(1))))))

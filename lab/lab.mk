# lab/lab.mk - the evidence: what the library costs and what the converter
# does on real projects, apart from the library itself.  Included by the
# top-level Makefile; each part keeps its rules beside its sources:
#
#   lab/bench/bench.mk      make bench: refcount-bench, the 2017 table and
#                           its peers
#   lab/nullblk/nullblk.mk  make nullblk-bench: a userspace null_blk as a fio
#                           ioengine carrying the block layer's six counters
#   lab/convert/convert.mk  make check-convert: refcount-convert applied to
#                           real Debian projects, built and tested
#
# lab/results/ holds the dated runs; lab/bench.md and lab/nullblk.md
# describe the methods.
include lab/bench/bench.mk
include lab/nullblk/nullblk.mk
include lab/convert/convert.mk

# lab/lab.mk - the evidence: what the library costs, apart from the library
# itself (the converter's runs on real projects live with the converter,
# convert/lab/lab.mk).  Included by the
# top-level Makefile; each part keeps its rules beside its sources:
#
#   lab/bench/bench.mk      make bench: refcount-bench, the 2017 table and
#                           its peers
#   lab/nullblk/nullblk.mk  make nullblk-bench: a userspace null_blk as a fio
#                           ioengine carrying the block layer's six counters
#
# lab/results/ holds the dated runs; lab/bench.md and lab/nullblk.md
# describe the methods.
include lab/bench/bench.mk
include lab/nullblk/nullblk.mk

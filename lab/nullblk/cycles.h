/* SPDX-License-Identifier: MIT */
/*
 * cycles.h: the engine's own accounting of what an I/O costs (cycles=1),
 * for make nullblk-bench.  Breed-free, and used by engine.c only, so the
 * accounting is the same code, at the same place, for every breed.
 *
 * Per job, from the first I/O after fio's ramp_time to the job's end:
 *
 *  - engine: the clock read before and after the breed's ->submit, that is
 *    the block layer's whole work for the I/O at irqmode=0 (bio, request,
 *    tag, dispatch, inline completion, bio_endio, free), summed.  A delta
 *    above NB_CYCLES_CAP is a preemption or a host-side stall, not the
 *    model's work: it is counted in over and left out of the sum.
 *  - span: every NB_CYCLES_SPAN I/Os a checkpoint reads the thread's CPU
 *    time (CLOCK_THREAD_CPUTIME_ID) and the clock; from the first
 *    checkpoint to the last, the I/Os, the CPU ns and the wall clock.  The
 *    I/Os per CPU second are the IOPS the job would have on a CPU of its
 *    own (at irqmode=0 the job never sleeps), whatever else the machine
 *    runs.
 *
 * The clock is the TSC (rdtsc) on x86-64 and i386, and clock_gettime
 * (CLOCK_MONOTONIC, ns) elsewhere; NB_CYCLES_UNIT names which, and the
 * job's line says it.  Two clock reads, a compare and two adds per I/O,
 * and a system call every NB_CYCLES_SPAN I/Os.
 */
#ifndef NULLBLK_CYCLES_H
#define NULLBLK_CYCLES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define NB_CYCLES_UNIT "tsc"
/* about 60 us at 2 GHz: far above any I/O of the model at irqmode=0 */
#define NB_CYCLES_CAP (1u << 17)
static inline uint64_t nb_cycles(void)
{
	return __rdtsc();
}
#else
#define NB_CYCLES_UNIT "ns-clock_gettime-fallback"
#define NB_CYCLES_CAP 60000u
static inline uint64_t nb_cycles(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

#define NB_CYCLES_SPAN 1024u
/* per-I/O deltas by clock unit, for the interquartile mean; the last bin
 * holds every delta from NB_CYCLES_BINS - 1 up to the cap */
#define NB_CYCLES_BINS 4096u

struct nb_cycles {
	uint64_t ios; /* timed I/Os (after the ramp) */
	uint64_t engine; /* clock units in ->submit, those over the cap out */
	uint64_t over; /* I/Os whose ->submit took more than the cap */
	/* checkpoints: the first and the last so far, at I/O ios0 and ios1 */
	uint64_t ios0, ios1, cpu0_ns, cpu1_ns, wall0, wall1;
	bool started;
	uint32_t hist[NB_CYCLES_BINS]; /* the deltas under the cap */
};

static inline uint64_t nb_thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline void nb_cycles_checkpoint(struct nb_cycles *c)
{
	uint64_t cpu = nb_thread_cpu_ns(), wall = nb_cycles();

	if (!c->started) {
		c->started = true;
		c->ios0 = c->ios;
		c->cpu0_ns = cpu;
		c->wall0 = wall;
	}
	c->ios1 = c->ios;
	c->cpu1_ns = cpu;
	c->wall1 = wall;
}

/* one timed I/O whose ->submit ran from @t0 to @t1 */
static inline void nb_cycles_add(struct nb_cycles *c, uint64_t t0, uint64_t t1)
{
	uint64_t d = t1 - t0;

	if (d > NB_CYCLES_CAP) {
		c->over++;
	} else {
		c->engine += d;
		c->hist[d < NB_CYCLES_BINS ? d : NB_CYCLES_BINS - 1]++;
	}
	if (!(c->ios % NB_CYCLES_SPAN))
		nb_cycles_checkpoint(c);
	c->ios++;
}

/*
 * The mean of the deltas between the first and the third quartile (the
 * interquartile mean): what an I/O costs when nothing else runs in the
 * middle of it, with sub-unit resolution; a context switch just before an
 * I/O (cold caches) moves the upper quarter, not this.  0 when a quarter
 * reaches the last bin.
 */
static inline double nb_cycles_iqm(const struct nb_cycles *c)
{
	uint64_t n = c->ios - c->over, lo = n / 4, hi = n - n / 4, seen = 0;
	double sum = 0;

	if (hi <= lo)
		return 0;
	for (uint32_t v = 0; v < NB_CYCLES_BINS && seen < hi; v++) {
		uint64_t from = seen > lo ? seen : lo;

		seen += c->hist[v];
		if (seen > from)
			sum += (double)v *
			       (double)((seen < hi ? seen : hi) - from);
		if (v == NB_CYCLES_BINS - 1 && c->hist[v] && seen > lo)
			return 0;
	}
	return sum / (double)(hi - lo);
}

/*
 * interleave=N: one job runs every breed, on a device of each, N I/Os of
 * one breed (a slice) and then N of the next, the order rotated from round
 * to round (a round: one slice of each breed).  Each slice records its
 * I/Os, the clock in ->submit (deltas over the cap counted in over and
 * left out) and its wall clock, from its first submit to the next slice's
 * first: the submits and all of fio's work between them, so ios / wall is
 * the breed's IOPS in that slice.  Only slices that start after the ramp
 * are recorded; at the job's end they go to the slice_log file.
 */
struct nb_slice {
	uint64_t round, engine, wall;
	uint32_t breed, ios, over;
};

struct nb_slices {
	struct nb_slice cur; /* under way; cur.wall holds its start */
	uint64_t slot;
	bool timed; /* the slice under way started after the ramp */
	struct nb_slice *log;
	size_t n, cap;
};

static inline void nb_slice_add(struct nb_slices *s, uint64_t t0, uint64_t t1)
{
	uint64_t d = t1 - t0;

	if (!s->cur.ios++)
		s->cur.wall = t0;
	if (d > NB_CYCLES_CAP)
		s->cur.over++;
	else
		s->cur.engine += d;
}

/* The slice under way ends at @now; the next one's breed, of @nr. */
static inline unsigned int nb_slice_next(struct nb_slices *s, uint64_t now,
					 bool timed, unsigned int nr)
{
	if (s->timed && s->cur.ios) {
		if (s->n == s->cap) {
			size_t cap = s->cap ? 2 * s->cap : 4096;
			struct nb_slice *log =
				realloc(s->log, cap * sizeof(*log));

			if (log) {
				s->log = log;
				s->cap = cap;
			}
		}
		if (s->n < s->cap) {
			s->log[s->n] = s->cur;
			s->log[s->n].round = s->slot / nr;
			s->log[s->n++].wall = now - s->cur.wall;
		}
	}
	s->slot++;
	memset(&s->cur, 0, sizeof(s->cur));
	s->cur.breed = (unsigned int)((s->slot % nr + s->slot / nr) % nr);
	s->timed = timed;
	return s->cur.breed;
}

#endif /* NULLBLK_CYCLES_H */

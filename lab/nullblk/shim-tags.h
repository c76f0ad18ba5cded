/* SPDX-License-Identifier: MIT */
/*
 * shim-tags.h: a hardware queue's tags, the sbitmap idea in userspace: one
 * 64-bit word per cache line, a per-submitter hint of the word to try
 * first, fetch_or to claim a bit, and a submitter that finds no free tag
 * yields until one frees up (blk_mq_get_tag sleeps).  Breed-free: no
 * refcount_t in here.
 */
#ifndef NULLBLK_SHIM_TAGS_H
#define NULLBLK_SHIM_TAGS_H

#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "instrument.h"
#include "shim-wait.h"

/* One bitmap word per cache line, as sbitmap spreads its words. */
struct sbitmap_word {
	_Atomic uint64_t word;
} ____cacheline_aligned;

struct sbitmap {
	unsigned int depth, nr_words;
	struct sbitmap_word *map;
};

static int sbitmap_init(struct sbitmap *sb, unsigned int depth)
{
	sb->depth = depth;
	sb->nr_words = (depth + 63) / 64;
	sb->map = aligned_alloc(64, sb->nr_words * sizeof(*sb->map));
	if (!sb->map)
		return -ENOMEM;
	memset(sb->map, 0, sb->nr_words * sizeof(*sb->map));
	return 0;
}

static void sbitmap_free(struct sbitmap *sb)
{
	free(sb->map);
}

static inline int get_tag(struct sbitmap *sb, unsigned int *hint)
{
	unsigned int w = *hint, bits = 64;

	for (unsigned int i = 0; i < sb->nr_words; i++, w++) {
		if (w >= sb->nr_words)
			w = 0;
		if (w == sb->nr_words - 1 && sb->depth % 64)
			bits = sb->depth % 64;
		else
			bits = 64;
		uint64_t full = bits == 64 ? ~0ull : (1ull << bits) - 1;
		_Atomic uint64_t *word = &sb->map[w].word;
		uint64_t v = atomic_load_explicit(word, memory_order_relaxed);

		while ((v & full) != full) {
			unsigned int bit = (unsigned int)__builtin_ctzll(~v);
			uint64_t mask = 1ull << bit;

			v = atomic_fetch_or_explicit(word, mask,
						     memory_order_acquire);
			if (!(v & mask)) {
				*hint = w;
				return (int)(w * 64 + bit);
			}
		}
	}
	return -1;
}

/* blk_mq_get_tag: sleep (here: yield) until a tag frees up */
static inline unsigned int get_tag_wait(struct sbitmap *sb, unsigned int *hint)
{
	int tag;

	while ((tag = get_tag(sb, hint)) < 0)
		sched_yield();
	return (unsigned int)tag;
}

static inline void put_tag(struct sbitmap *sb, unsigned int tag)
{
	uint64_t mask = 1ull << (tag % 64);
	uint64_t old = atomic_fetch_and_explicit(&sb->map[tag / 64].word, ~mask,
						 memory_order_release);

#ifdef NULLBLK_DEBUG
	if (!(old & mask))
		nb_bug("tag freed twice", sb);
#else
	(void)old;
#endif
}

#endif /* NULLBLK_SHIM_TAGS_H */

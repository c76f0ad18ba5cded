// SPDX-License-Identifier: MIT
/*
 * stackdepot.c - deduplicated stacks behind 32-bit handles
 *
 * As lib/stackdepot.c: a stack is saved once, and every tracker that was
 * taken or dropped from the same place holds the same 4-byte handle.  The
 * depot is a fixed table of REFCOUNT_STACK_DEPOT_MAX stack slots and an
 * open-addressed hash of twice as many handles, both static (untouched
 * pages cost nothing).  Memory is bounded: once every slot is used, a new
 * stack is not saved, its handle is 0, and the drop is counted.
 *
 * A save of a stack already present takes no lock: the hash is probed with
 * acquire loads, and a slot is written before its handle is published with
 * a release store.  Inserting takes one mutex.  Nothing is ever removed.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <refcount/impl/stackdepot.h>

#define TABLE_SIZE (2 * REFCOUNT_STACK_DEPOT_MAX)
#define TABLE_MASK (TABLE_SIZE - 1)
_Static_assert((TABLE_SIZE & TABLE_MASK) == 0, "table size: a power of 2");

struct depot_stack {
	uint32_t hash;
	uint32_t nr;
	uintptr_t entries[REF_TRACKER_STACK_ENTRIES];
};

static struct depot_stack stacks[REFCOUNT_STACK_DEPOT_MAX];
static _Atomic depot_stack_handle_t table[TABLE_SIZE];
static atomic_ulong nr_stacks, nr_dropped;
static pthread_mutex_t depot_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * The hash is __refcount_stack_hash() (<refcount/impl/stackdepot.h>): the
 * frame-pointer walk computes it as it goes.  Its last step is a multiply,
 * so the high half is the well-mixed one.
 */
static uint32_t fold(uint64_t h)
{
	return (uint32_t)(h >> 32) ^ (uint32_t)(h >> 13);
}

static bool same(const struct depot_stack *s, uint32_t hash, const uintptr_t *e,
		 unsigned int nr)
{
	return s->hash == hash && s->nr == nr &&
	       !memcmp(s->entries, e, nr * sizeof(*e));
}

/*
 * Find @e, or the empty bucket where it would go (*slot).  Return: its
 * handle, or 0.
 */
static depot_stack_handle_t find(uint32_t hash, const uintptr_t *e,
				 unsigned int nr, unsigned int *slot)
{
	for (unsigned int i = hash & TABLE_MASK;; i = (i + 1) & TABLE_MASK) {
		depot_stack_handle_t h =
			atomic_load_explicit(&table[i], memory_order_acquire);

		if (!h) {
			*slot = i;
			return 0;
		}
		if (same(&stacks[h - 1], hash, e, nr))
			return h;
	}
}

depot_stack_handle_t __refcount_stack_depot_save(const uintptr_t *entries,
						 unsigned int nr)
{
	if (nr > REF_TRACKER_STACK_ENTRIES)
		nr = REF_TRACKER_STACK_ENTRIES;
	return __refcount_stack_depot_save_hashed(
		entries, nr, __refcount_stack_hash(entries, nr));
}

depot_stack_handle_t
__refcount_stack_depot_save_hashed(const uintptr_t *entries, unsigned int nr,
				   uint64_t hash64)
{
	uint32_t hash = fold(hash64);
	unsigned int slot;
	unsigned long n;
	depot_stack_handle_t h;

	if (!nr || nr > REF_TRACKER_STACK_ENTRIES)
		return 0;
	h = find(hash, entries, nr, &slot);
	if (h)
		return h;

	pthread_mutex_lock(&depot_lock);
	/* Someone may have inserted it, or something else, meanwhile. */
	h = find(hash, entries, nr, &slot);
	if (!h) {
		n = atomic_load_explicit(&nr_stacks, memory_order_relaxed);
		if (n == REFCOUNT_STACK_DEPOT_MAX) {
			atomic_fetch_add_explicit(&nr_dropped, 1,
						  memory_order_relaxed);
		} else {
			stacks[n].hash = hash;
			stacks[n].nr = nr;
			memcpy(stacks[n].entries, entries,
			       nr * sizeof(*entries));
			h = (depot_stack_handle_t)(n + 1);
			atomic_store_explicit(&nr_stacks, n + 1,
					      memory_order_release);
			atomic_store_explicit(&table[slot], h,
					      memory_order_release);
		}
	}
	pthread_mutex_unlock(&depot_lock);
	return h;
}

unsigned int __refcount_stack_depot_fetch(depot_stack_handle_t handle,
					  const uintptr_t **entries)
{
	*entries = NULL;
	/* A handle was published after its slot was written (see save). */
	if (!handle ||
	    handle > atomic_load_explicit(&nr_stacks, memory_order_acquire))
		return 0;
	*entries = stacks[handle - 1].entries;
	return stacks[handle - 1].nr;
}

unsigned long __refcount_stack_depot_count(void)
{
	return atomic_load_explicit(&nr_stacks, memory_order_relaxed);
}

unsigned long __refcount_stack_dropped(void)
{
	return atomic_load_explicit(&nr_dropped, memory_order_relaxed);
}

size_t __refcount_stack_depot_bytes(void)
{
	return sizeof(stacks) + sizeof(table);
}

/* Append to buf[*len...size), keeping count of the full length. */
static void append(char *buf, size_t size, size_t *len, const char *s)
{
	size_t n = strlen(s);

	if (*len < size) {
		size_t room = size - *len - 1;

		memcpy(buf + *len, s, n < room ? n : room);
		buf[*len + (n < room ? n : room)] = '\0';
	}
	*len += n;
}

int __refcount_stack_depot_snprint(depot_stack_handle_t handle, char *buf,
				   size_t size, int spaces)
{
	const uintptr_t *e;
	unsigned int nr = __refcount_stack_depot_fetch(handle, &e);
	char line[512];
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	if (!nr) {
		snprintf(line, sizeof(line), "%*c(no stack saved)\n",
			 1 + spaces, ' ');
		append(buf, size, &len, line);
		return (int)len;
	}
	for (unsigned int i = 0; i < nr; i++) {
		/* As stack_trace_snprint(): 1 + @spaces blanks. */
		int n = snprintf(line, sizeof(line), "%*c", 1 + spaces, ' ');

		__refcount_symbolize(e[i], line + n, sizeof(line) - (size_t)n);
		append(buf, size, &len, line);
		append(buf, size, &len, "\n");
	}
	return (int)len;
}

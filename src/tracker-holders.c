// SPDX-License-Identifier: MIT
/*
 * tracker-holders.c - which tracker dir a counter belongs to
 *
 * "Saturation reports name their holders": when a breed reports misuse of a
 * counter, the default report handler (src/report.c) asks here whether a
 * tracked wrapper ever registered that counter, and prints its dir's live
 * trackers.  The untracked operations never come here.  The tracked
 * wrappers register the counter on each tracked get and put; a dir
 * remembers the last counter it registered, so the usual case (one counter
 * per dir) costs one relaxed load.  The table is open-addressed, with
 * MAP_SIZE slots under one mutex; a counter is removed when its last
 * reference is dropped through a tracked put, and a dir's counters when
 * the dir exits.  When the table is full, the counter is not registered
 * (counted), and its reports print no holders.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#define REFCOUNT_TRACKER 1
#include <refcount/impl/tracker-internal.h>
#include <refcount/ref_tracker.h>

#define MAP_SIZE 4096
#define TOMBSTONE ((const void *)1)

static struct holder {
	const void *counter;
	struct ref_tracker_dir *dir;
} map[MAP_SIZE];
static pthread_mutex_t map_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_ulong unregistered;

static unsigned int slot_of(const void *counter)
{
	uint64_t h = (uint64_t)(uintptr_t)counter * 0x9e3779b97f4a7c15ull;

	return (unsigned int)(h >> 40) & (MAP_SIZE - 1);
}

/* The slot holding @counter, or -1; *free is where it could go (or -1). */
static int find(const void *counter, int *free)
{
	unsigned int i = slot_of(counter);

	*free = -1;
	for (unsigned int n = 0; n < MAP_SIZE; n++, i = (i + 1) % MAP_SIZE) {
		if (map[i].counter == counter)
			return (int)i;
		if (map[i].counter == TOMBSTONE && *free < 0)
			*free = (int)i;
		if (!map[i].counter) {
			if (*free < 0)
				*free = (int)i;
			break;
		}
	}
	return -1;
}

void __ref_tracker_bind(struct ref_tracker_dir *dir, const void *counter)
{
	int i, free;

	if (atomic_load_explicit(&dir->counter, memory_order_relaxed) ==
	    counter)
		return;
	pthread_mutex_lock(&map_lock);
	i = find(counter, &free);
	if (i < 0 && free >= 0) {
		i = free;
		map[i].counter = counter;
	}
	if (i >= 0)
		map[i].dir = dir;
	else
		atomic_fetch_add(&unregistered, 1);
	atomic_store_explicit(&dir->counter, counter, memory_order_relaxed);
	pthread_mutex_unlock(&map_lock);
}

void __ref_tracker_forget_counter(const void *counter)
{
	int i, free;

	pthread_mutex_lock(&map_lock);
	i = find(counter, &free);
	if (i >= 0) {
		const void *expected = counter;

		/* A new object at this address must register again. */
		atomic_compare_exchange_strong(&map[i].dir->counter, &expected,
					       NULL);
		map[i].counter = TOMBSTONE;
		map[i].dir = NULL;
	}
	pthread_mutex_unlock(&map_lock);
}

void __ref_tracker_unbind_dir(struct ref_tracker_dir *dir)
{
	pthread_mutex_lock(&map_lock);
	for (unsigned int i = 0; i < MAP_SIZE; i++)
		if (map[i].dir == dir) {
			map[i].counter = TOMBSTONE;
			map[i].dir = NULL;
		}
	atomic_store(&dir->counter, NULL);
	pthread_mutex_unlock(&map_lock);
}

_Bool __ref_tracker_print_holders(const void *counter)
{
	struct ref_tracker_dir *dir = NULL;
	int i, free;

	pthread_mutex_lock(&map_lock);
	i = find(counter, &free);
	if (i >= 0)
		dir = map[i].dir;
	if (dir) {
		fprintf(__ref_tracker_stream(),
			"refcount_t %p is tracked by %s@%p:\n", counter,
			dir->name, (void *)dir);
		ref_tracker_dir_print(dir, 16);
	}
	pthread_mutex_unlock(&map_lock);
	return dir != NULL;
}

unsigned long __ref_tracker_unregistered(void)
{
	return atomic_load(&unregistered);
}

// SPDX-License-Identifier: MIT
/*
 * tests/mixed-unit.c - one breed's unit of the mixed-breed link test
 *
 * Compiled four times, with -DREFCOUNT_BREED=REFCOUNT_BREED_X and
 * -DBREED_SUFFIX=x; each copy defines mixed_*_x() (tests/mixed.h).
 */
#include <errno.h>
#include <stddef.h>

#include <refcount/kref.h>

#include "helpers.h"
#include "lkdtm-scenarios.h"
#include "mixed.h"

#ifndef BREED_SUFFIX
#error "build with -DBREED_SUFFIX=<breed>"
#endif
#define FN(name) MIXED_PASTE(name, BREED_SUFFIX)

void FN(mixed_lkdtm_)(enum lkdtm_id id, refcount_t *r, struct lkdtm_result *res)
{
	lkdtm_scenario(id, r, res);
}

const char *FN(mixed_breed_name_)(void)
{
	return REFCOUNT_BREED_NAME;
}

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_spinlock_t spin;
static int releases, held_in_release;

static void release_mutex(struct kref *k)
{
	(void)k;
	releases++;
	held_in_release += trylock_from_other_thread(&mutex) == EBUSY;
	pthread_mutex_unlock(&mutex);
}

static void release_spin(struct kref *k)
{
	(void)k;
	releases++;
	held_in_release += spin_trylock_from_other_thread(&spin) == EBUSY;
	pthread_spin_unlock(&spin);
}

/* 2 if both puts released once each with the lock held; else less. */
int FN(mixed_kref_)(void)
{
	struct kref a = KREF_INIT(2), b = KREF_INIT(1);

	pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
	releases = held_in_release = 0;
	if (kref_put_mutex(&a, release_mutex, &mutex) ||
	    !kref_put_mutex(&a, release_mutex, &mutex) ||
	    !kref_put_lock(&b, release_spin, &spin))
		return -1;
	return releases == 2 && held_in_release == 2 ? 2 : -1;
}

// SPDX-License-Identifier: MIT
/*
 * tests/helpers.c - see helpers.h
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"

#define BREED_NAME(name, NAME, ...) [B_##NAME] = #name,
const char *const breed_names[NR_BREEDS] = { REFCOUNT_FOR_EACH_BREED(
	BREED_NAME) };

void report_counts_snap(struct report_counts *c)
{
	for (int t = 0; t < REFCOUNT_NR_SATURATION_TYPES; t++)
		c->n[t] = refcount_report_count(t);
}

bool report_counts_delta_ok(const struct report_counts *before, int type,
			    unsigned long nr, const char **why)
{
	static _Thread_local char buf[160];

	for (int t = 0; t < REFCOUNT_NR_SATURATION_TYPES; t++) {
		unsigned long want = t == type ? nr : 0;
		unsigned long got = refcount_report_count(t) - before->n[t];

		if (got != want) {
			snprintf(
				buf, sizeof(buf),
				"report type %d: %lu new reports, expected %lu",
				t, got, want);
			*why = buf;
			return false;
		}
	}
	*why = "";
	return true;
}

static atomic_ulong quiet_counts[REFCOUNT_NR_SATURATION_TYPES];
static _Atomic(void *) quiet_last;

static void quiet_handler(const struct refcount_report *rep)
{
	if ((unsigned int)rep->type < REFCOUNT_NR_SATURATION_TYPES)
		atomic_fetch_add(&quiet_counts[rep->type], 1);
	atomic_store(&quiet_last, (void *)rep->counter);
}

void quiet_install(void)
{
	for (int t = 0; t < REFCOUNT_NR_SATURATION_TYPES; t++)
		atomic_store(&quiet_counts[t], 0);
	atomic_store(&quiet_last, NULL);
	refcount_set_report_handler(quiet_handler);
}

unsigned long quiet_calls(enum refcount_saturation_type t)
{
	return atomic_load(&quiet_counts[t]);
}

void *quiet_last_counter(void)
{
	return atomic_load(&quiet_last);
}

int run_captured(void (*fn)(void *), void *arg, const char *abort_env,
		 char *out, size_t len)
{
	size_t used = 0;
	int pipefd[2], status;
	pid_t pid;

	fflush(NULL);
	if (pipe(pipefd))
		abort();
	pid = fork();
	if (pid < 0)
		abort();
	if (!pid) {
		close(pipefd[0]);
		dup2(pipefd[1], STDERR_FILENO);
		close(pipefd[1]);
		if (abort_env)
			setenv("REFCOUNT_ABORT", abort_env, 1);
		else
			unsetenv("REFCOUNT_ABORT");
		refcount_set_report_handler(NULL);
		fn(arg);
		fflush(stderr);
		_exit(0);
	}
	close(pipefd[1]);
	for (;;) {
		ssize_t n = read(pipefd[0], out + used, len - 1 - used);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		used += (size_t)n;
		if (used == len - 1)
			break;
	}
	out[used] = '\0';
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			abort();
	return status;
}

unsigned int count_lines(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

struct try_arg {
	pthread_mutex_t *m;
	pthread_spinlock_t *l;
	int ret;
};

static void *try_thread(void *p)
{
	struct try_arg *a = p;

	if (a->m) {
		a->ret = pthread_mutex_trylock(a->m);
		if (!a->ret)
			pthread_mutex_unlock(a->m);
	} else {
		a->ret = pthread_spin_trylock(a->l);
		if (!a->ret)
			pthread_spin_unlock(a->l);
	}
	return NULL;
}

static int try_other(struct try_arg *a)
{
	pthread_t t;

	if (pthread_create(&t, NULL, try_thread, a) || pthread_join(t, NULL))
		abort();
	return a->ret;
}

int trylock_from_other_thread(pthread_mutex_t *m)
{
	struct try_arg a = { .m = m };

	return try_other(&a);
}

int spin_trylock_from_other_thread(pthread_spinlock_t *l)
{
	struct try_arg a = { .l = l };

	return try_other(&a);
}

void errorcheck_mutex_init(pthread_mutex_t *m)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(m, &a);
	pthread_mutexattr_destroy(&a);
}

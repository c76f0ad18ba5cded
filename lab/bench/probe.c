/* SPDX-License-Identifier: MIT */
/*
 * lab/bench/probe.c - the protections column: probed, not typed
 *
 * probe_all() runs each misuse of enum bench_violation once per row on a
 * scratch counter, through the row's ->probe: in this process, or in a
 * forked child for a row marked ->forked, which may abort (atomic_t and the
 * peers).  judge() turns what a probe saw into a verdict.
 */
#include "driver.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

enum verdict verdicts[NR_IMPLS][BENCH_NR_VIOLATIONS];
const char *const violation_names[BENCH_NR_VIOLATIONS] = {
	"overflow", "dec-to-zero", "inc-from-zero", "underflow"
};

/* Run one probe in a child: a library may abort on misuse. */
static void probe_forked(const struct bench_impl *impl, enum bench_violation v,
			 struct bench_probe *out)
{
	int fd[2], status;
	pid_t pid;

	if (pipe(fd))
		bench_fail("pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		bench_fail("fork: %s", strerror(errno));
	if (pid == 0) {
		struct rlimit nocore = { 0, 0 };
		struct bench_probe o = { 0 };

		setrlimit(RLIMIT_CORE, &nocore);
		if (!freopen("/dev/null", "w", stderr))
			_exit(2);
		close(fd[0]);
		impl->probe(v, &o);
		if (write(fd[1], &o, sizeof(o)) != sizeof(o))
			_exit(2);
		_exit(0);
	}
	close(fd[1]);
	if (read(fd[0], out, sizeof(*out)) != sizeof(*out))
		memset(out, 0, sizeof(*out));
	close(fd[0]);
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT) {
		out->applies = true;
		out->aborted = true;
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		bench_fail("%s: the %s probe died (status %#x)", impl->name,
			   violation_names[v], status);
	}
}

static enum verdict judge(enum bench_violation v, const struct bench_probe *o)
{
	if (!o->applies)
		return V_NA;
	if (o->aborted)
		return V_ABORT;
	if (o->reported)
		return o->safe || v == BENCH_DEC_TO_ZERO ? V_PROTECTED : V_WARN;
	return o->safe ? V_QUIET : V_NONE;
}

void probe_all(void)
{
	for (unsigned int i = 0; i < NR_IMPLS; i++) {
		for (int v = 0; v < BENCH_NR_VIOLATIONS; v++) {
			struct bench_probe o = { 0 };

			if (impls[i]->forked)
				probe_forked(impls[i], v, &o);
			else
				impls[i]->probe(v, &o);
			verdicts[i][v] = judge(v, &o);
		}
	}
}

bool is_protected(enum verdict d)
{
	return d == V_PROTECTED || d == V_ABORT || d == V_QUIET;
}

const char *protections(unsigned int i)
{
	static char buf[NR_IMPLS][160];
	char *s = buf[i];
	size_t len = 0;

	s[0] = 0;
	for (int v = 0; v < BENCH_NR_VIOLATIONS; v++) {
		enum verdict d = verdicts[i][v];

		if (d == V_NA || d == V_NONE)
			continue;
		len += (size_t)snprintf(s + len, sizeof(buf[i]) - len, "%s%s%s",
					len ? ", " : "", violation_names[v],
					d == V_ABORT ? " (abort)" :
					d == V_WARN  ? " (warn only)" :
					d == V_QUIET ? " (silent)" :
						       "");
	}
	return len ? s : "none";
}

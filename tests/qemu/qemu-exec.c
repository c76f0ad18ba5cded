// SPDX-License-Identifier: MIT
/*
 * qemu-exec.c - let Criterion re-execute itself under qemu-user
 *
 * Criterion (BoxFort) runs each test in a child made by fork() and
 * execve("/proc/self/exe").  Under qemu-user that execve goes to the host
 * kernel, which cannot run the foreign binary unless binfmt_misc has qemu
 * registered (it is not, in containers and on many CI hosts).  Preloaded
 * into the foreign test program (QEMU_SET_ENV=LD_PRELOAD=...), this turns
 * that one execve (of /proc/self/exe, or of the path it names) into an execve of the host's qemu with the program as its
 * argument; everything else is untouched.  The qemu to use is
 * $RELIABILITY_QEMU; QEMU_LD_PREFIX, QEMU_CPU and QEMU_SET_ENV pass through
 * the environment.  LD_PRELOAD is dropped from the host qemu's environment
 * (QEMU_SET_ENV puts it back for the guest).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int execve(const char *path, char *const argv[], char *const envp[])
{
	int (*real)(const char *, char *const[], char *const[]) =
		(int (*)(const char *, char *const[], char *const[]))dlsym(
			RTLD_NEXT, "execve");
	const char *qemu = getenv("RELIABILITY_QEMU");
	char self[PATH_MAX], **nargv, **nenvp;
	ssize_t len;
	int argc = 0, envc = 0, k = 0;

	if (!qemu)
		return real(path, argv, envp);
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len < 0)
		return real(path, argv, envp);
	self[len] = '\0';
	if (strcmp(path, "/proc/self/exe") && strcmp(path, self))
		return real(path, argv, envp);
	while (argv[argc])
		argc++;
	while (envp[envc])
		envc++;
	nargv = calloc((size_t)argc + 4, sizeof(*nargv));
	nenvp = calloc((size_t)envc + 1, sizeof(*nenvp));
	if (!nargv || !nenvp) {
		errno = ENOMEM;
		return -1;
	}
	nargv[0] = (char *)qemu;
	nargv[1] = "-0";
	nargv[2] = argc ? argv[0] : self;
	nargv[3] = self;
	for (int a = 1; a < argc; a++)
		nargv[3 + a] = argv[a];
	for (int e = 0; e < envc; e++)
		if (strncmp(envp[e], "LD_PRELOAD=", 11))
			nenvp[k++] = envp[e];
	return real(qemu, nargv, nenvp);
}

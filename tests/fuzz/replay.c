// SPDX-License-Identifier: MIT
/*
 * replay.c - run a libFuzzer target over files, without libFuzzer
 *
 * `make check` links tests/fuzz/fuzz.c with this main and runs it over the
 * committed corpus (tests/fuzz/corpus/<breed>/) and the kept crash inputs
 * (tests/regress/fuzz/<breed>/): deterministic, any compiler, any sanitizer.
 * Usage: replay [--sweep] FILE|DIR...   --sweep first runs fuzz.c's
 * fuzz_sweep() (every operation on every table value).  Exit status 0 when every input passed (a
 * divergence aborts).  An empty argument list is an error, so that a missing
 * corpus cannot pass unnoticed.
 */
#define _GNU_SOURCE
/* 32-bit guests: readdir() fails with EOVERFLOW on 64-bit inode numbers */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
unsigned long fuzz_sweep(void);

static unsigned long nr_inputs;

static void replay_file(const char *path)
{
	static uint8_t buf[1 << 20];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		perror(path);
		exit(2);
	}
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	nr_inputs++;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void replay(const char *path)
{
	struct dirent *de;
	struct stat st;
	char **names = NULL;
	size_t nr = 0;
	DIR *d;

	if (stat(path, &st)) {
		perror(path);
		exit(2);
	}
	if (!S_ISDIR(st.st_mode)) {
		replay_file(path);
		return;
	}
	d = opendir(path);
	if (!d) {
		perror(path);
		exit(2);
	}
	errno = 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		names = realloc(names, (nr + 1) * sizeof(*names));
		if (!names ||
		    asprintf(&names[nr], "%s/%s", path, de->d_name) < 0)
			exit(2);
		nr++;
		errno = 0;
	}
	if (errno) {
		perror(path);
		exit(2);
	}
	closedir(d);
	qsort(names, nr, sizeof(*names), by_name);
	for (size_t k = 0; k < nr; k++) {
		replay_file(names[k]);
		free(names[k]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	for (int k = 1; k < argc; k++) {
		if (!strcmp(argv[k], "--sweep"))
			nr_inputs += fuzz_sweep();
		else
			replay(argv[k]);
	}
	if (!nr_inputs) {
		fprintf(stderr, "%s: no inputs\n", argv[0]);
		return 1;
	}
	printf("%s: %lu inputs, no divergence\n", argv[0], nr_inputs);
	return 0;
}

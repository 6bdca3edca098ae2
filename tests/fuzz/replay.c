// SPDX-License-Identifier: MIT
/*
 * Replays a fuzz corpus through one target without libFuzzer, so that
 * `make test` (and `make test SAN=1`, under the sanitizers) runs every seed
 * and every input that once crashed. Linked with one fuzz_*.c.
 *
 *   replay_TARGET [FILE|DIR]...   default: FUZZ_CORPUS, set by the Makefile
 *
 * Each file is read into a buffer of exactly its size, so a read past the
 * end of the input is caught by AddressSanitizer. Exit 0 when every input
 * ran, 1 when something could not be read or a directory was empty. A
 * finding aborts (the target's checks, the sanitizers).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

#ifndef FUZZ_CORPUS
#define FUZZ_CORPUS "tests/fuzz/corpus"
#endif

static int replay_file(const char *path)
{
	struct stat st;
	uint8_t *buf;
	size_t n;
	FILE *f;

	f = fopen(path, "rb");
	if (!f || fstat(fileno(f), &st)) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	/* malloc(0) may give NULL; keep one byte so a NULL means no memory. */
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	n = buf ? fread(buf, 1, (size_t)st.st_size, f) : 0;
	fclose(f);
	if (!buf || n != (size_t)st.st_size) {
		fprintf(stderr, "replay: %s: cannot read\n", path);
		free(buf);
		return -1;
	}
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

static int hidden(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* Returns the number of inputs run, or -1. */
static int replay_path(const char *path)
{
	struct dirent **ents;
	struct stat st;
	char sub[4096];
	int n, i, ran = 0, bad = 0;

	if (stat(path, &st)) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return replay_file(path) ? -1 : 1;
	n = scandir(path, &ents, hidden, alphasort);
	if (n < 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++) {
		snprintf(sub, sizeof(sub), "%s/%s", path, ents[i]->d_name);
		if (replay_file(sub))
			bad = 1;
		else
			ran++;
		free(ents[i]);
	}
	free(ents);
	if (!ran && !bad)
		fprintf(stderr, "replay: %s: no inputs\n", path);
	return bad || !ran ? -1 : ran;
}

int main(int argc, char **argv)
{
	static char *defaults[] = { NULL, FUZZ_CORPUS, NULL };
	int i, n, ret = 0;

	if (argc < 2) {
		defaults[0] = argv[0];
		argv = defaults;
		argc = 2;
	}
	for (i = 1; i < argc; i++) {
		n = replay_path(argv[i]);
		if (n < 0)
			ret = 1;
		else
			printf("replayed %d inputs from %s\n", n, argv[i]);
	}
	return ret;
}

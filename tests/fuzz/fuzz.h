/* SPDX-License-Identifier: MIT */
#ifndef IORIG_FUZZ_H
#define IORIG_FUZZ_H

/*
 * Helpers shared by the libFuzzer targets (fuzz_*.c). Each target defines
 * LLVMFuzzerTestOneInput; it is linked either with libFuzzer (make fuzz) or
 * with replay.c, which feeds it the seed corpus (make test).
 *
 * Contract of every target: parsing and planning only (nothing opened,
 * created or run), everything allocated is freed before returning, and no
 * state survives from one input to the next.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a C string, cut at its first NUL byte; NULL if no memory. */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		return NULL;
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* Fail loudly: a broken contract is a finding, like a crash. */
#define FUZZ_CHECK(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: check failed: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

/* A stream into memory, so the printers run without touching files. */
struct fuzz_sink {
	FILE *f;
	char *buf;
	size_t len;
};

static inline int fuzz_sink_open(struct fuzz_sink *s)
{
	s->buf = NULL;
	s->len = 0;
	s->f = open_memstream(&s->buf, &s->len);
	return s->f ? 0 : -1;
}

static inline void fuzz_sink_close(struct fuzz_sink *s)
{
	if (s->f)
		fclose(s->f);
	free(s->buf);
	s->f = NULL;
	s->buf = NULL;
}

#endif

/* SPDX-License-Identifier: MIT */
#ifndef IORIG_LOGZ_H
#define IORIG_LOGZ_H

#include <stdio.h>

/*
 * log_store_compressed=1: a stdio stream whose bytes are deflated (zlib
 * format, one stream, default level) into another stream, as fio's .fz
 * log files hold them. The caller's buffering decides the chunks: zlib
 * runs once per buffer's worth, never per write.
 *
 * logz_open returns the stream (NULL: out of memory, errno set); under
 * stays the caller's. fclose of the stream ends the zlib stream (its
 * trailer) and flushes it into under; it returns EOF when deflate or a
 * write into under failed (errno set), and closes nothing else.
 */
FILE *logz_open(FILE *under);

/*
 * The other way (fio --inflate-log): a stdio stream whose bytes are those
 * that the zlib streams read from under inflate to, one after another (a
 * shared .fz file holds one per job). NULL: out of memory, errno set. A
 * read fails (ferror, errno EINVAL) on bytes that are no zlib stream or
 * on a stream cut short; under stays the caller's.
 */
FILE *logz_open_read(FILE *under);

#endif

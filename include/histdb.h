/* SPDX-License-Identifier: MIT */
#ifndef IORIG_HISTDB_H
#define IORIG_HISTDB_H

/*
 * What src/result/history.c (recording, the checks' figures) and
 * src/face/histcmd.c (`iorig history`) share.
 */
#include <sqlite3.h>

#include "job.h"
#include "metric.h"

/* The figures recorded for a unit: per direction 6 + 3 x 16, and 5. */
#define HISTDB_FIGS_MAX		(2 * (6 + 3 * 16) + 5)

/*
 * The job's effective options that differ from the defaults ("name=value"
 * lines; *text freed by the caller) and their SHA-256 in hex: what makes
 * runs "the same job". 0 or -errno.
 */
int histdb_options(const struct job *j, char **text, char hash[65]);
/* The names of the figures recorded for a unit doing dirs (1 << DDIR_*):
 * how many, in names. */
unsigned histdb_fig_names(unsigned dirs, char (*names)[METRIC_NAME_MAX]);
struct history;
/* The open database, or NULL when it has no schema yet (read only). */
sqlite3 *histdb_handle(struct history *h);

#endif

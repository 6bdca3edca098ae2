/* SPDX-License-Identifier: MIT */
#ifndef IORIG_OPENDIR_H
#define IORIG_OPENDIR_H

#include "err.h"
#include "job.h"

/*
 * opendir=DIR (fio's meaning): every regular file below DIR, recursively
 * (lstat: symbolic links are not followed), joins the job's files after
 * those of filename=, in name order. Rewrites j->target.filename as the
 * ':'-separated list (a ':' in a name as \:). 0, or -errno with e filled
 * (a directory that cannot be read, no file in it, more than 4096).
 */
int opendir_expand(struct job *j, struct err_rec *e);

#endif

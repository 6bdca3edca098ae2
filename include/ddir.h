/* SPDX-License-Identifier: MIT */
#ifndef IORIG_DDIR_H
#define IORIG_DDIR_H

/* The direction of an I/O: what jobs, engines and statistics share. */
enum ddir { DDIR_READ = 0, DDIR_WRITE = 1, DDIR_NR = 2 };

#endif

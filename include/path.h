/* SPDX-License-Identifier: MIT */
#ifndef IORIG_PATH_H
#define IORIG_PATH_H

#include <stdbool.h>

/*
 * File names, compared and placed: what the targets, the verify checks
 * and the output files ask of a path before anything is created. Each
 * returned string is the caller's to free; NULL is out of memory (or, for
 * path_resolved, a directory that does not resolve).
 */

/* The directory a new file of path goes in: "dir", "/" or ".". */
char *path_dir(const char *path);
/* "/abs/dir/base": the directory resolved (symlinks too), the last part
 * as given, so a file that does not exist yet has one name. */
char *path_resolved(const char *path);
/* The same file: the same inode when both exist, else the same
 * resolved name. */
bool path_same(const char *a, const char *b);
/*
 * dir is /dev or below it on the same file system (devtmpfs; not one
 * mounted below it, such as /dev/shm): a regular file made there is a
 * block device name that was mistyped or is missing.
 */
bool path_in_dev(const char *dir);

/* Length of the filename_format word ($jobname, $jobnum, $filenum,
 * $clientuid; any case) that s starts with, else 0. */
size_t path_fmt_word(const char *s);

#endif

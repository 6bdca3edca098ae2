/* SPDX-License-Identifier: MIT */
#ifndef IORIG_REPORT_ESC_H
#define IORIG_REPORT_ESC_H

#include <stdio.h>

/*
 * Text of a result (job names, paths, messages, a device's model) in
 * formats with rules of their own (src/report/esc.c). Job names and paths
 * are any bytes the user gave; these formats want UTF-8, so a byte that
 * starts no valid UTF-8 sequence is written as U+FFFD, never passed on.
 */

/* The length (1..4) of the valid UTF-8 sequence at s, or 0 when s[0]
 * starts none (a stray byte, an overlong form, a surrogate, a cut one). */
unsigned esc_utf8_len(const unsigned char *s);
/* s as XML 1.0 text, for element content and quoted attributes alike:
 * & < > " ' as references; C0 controls but tab, LF and CR, which XML 1.0
 * cannot carry at all, as U+FFFD. */
void esc_xml(FILE *f, const char *s);
/* s as a label value of the Prometheus and OpenMetrics text formats
 * (between double quotes): backslash, double quote and line feed escaped
 * with a backslash. */
void esc_prom(FILE *f, const char *s);

#endif

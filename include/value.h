/* SPDX-License-Identifier: MIT */
#ifndef IORIG_VALUE_H
#define IORIG_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Value parsers. Pure functions: no globals, no printing, no allocation.
 * Each returns 0 on success or -EINVAL / -ERANGE, and on failure writes into
 * why[0..whylen) a phrase saying what was expected, e.g.
 * "expected a size such as 4096, 4k, 1.5m or 2GiB".
 * Leading and trailing blanks are ignored; an empty string is an error.
 *
 * Numbers may be arithmetic expressions: + - * / and parentheses over
 * numbers that each may carry the option's unit suffix, e.g. "24000/2*1m",
 * "(2*3)k", "2*4k". The result must be a whole, non-negative number of the
 * base unit (bytes, nanoseconds); "1.5m" is fine, "1.3" bytes is not.
 * Overflow of 64 bits is -ERANGE.
 */

/* Sizes in bytes. Suffixes, case-insensitive: none or b = bytes;
 * k m g t p and kb mb gb tb pb = kb_base powers (kb_base is 1024 or 1000);
 * kib mib gib tib pib = always 1024 powers. "0x" hex integers are accepted. */
int value_size(const char *s, unsigned kb_base, uint64_t *out,
	       char *why, size_t whylen);

/* Times in ns. Suffixes: ns us ms s m h d (case-insensitive, "usec", "msec",
 * "sec", "min" also accepted). A bare number is in default_unit_ns. */
int value_time(const char *s, uint64_t default_unit_ns, uint64_t *ns,
	       char *why, size_t whylen);

/* Unsigned integer (no units; arithmetic allowed) within [min, max]. */
int value_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out,
	       char *why, size_t whylen);

/* 0/1 yes/no true/false on/off (case-insensitive). */
int value_bool(const char *s, bool *out, char *why, size_t whylen);

/* Percentage 0..100: "50", "50%", "12.5%". Stored as a double. */
int value_pct(const char *s, double *out, char *why, size_t whylen);

/* Size range "4k-64k" or "4k:64k"; a single size gives lo == hi.
 * Both > 0; ends in either order (fio's meaning: 64k-4k is 4k-64k).
 * ':' is tried first; '-' splits outside parentheses. */
int value_size_range(const char *s, unsigned kb_base, uint64_t *lo,
		     uint64_t *hi, char *why, size_t whylen);

/* s has the split point of a range (value_size_range's rule). */
bool value_is_range(const char *s);

/*
 * Split a per-direction list "a,b,c" (read,write,trim). A direction not
 * given takes the last item given (fio: "8k,32k" trims 32k). Empty items
 * are errors. With dash, a list with no comma splits where a range would
 * (':' or '-'), as fio reads bs: "4k-64k" is "4k,64k". Writes
 * NUL-terminated copies into parts[0..2]. Returns the number of items
 * (1 to 3) or -EINVAL with why.
 */
int value_split_rw(const char *s, bool dash, char parts[3][128], char *why,
		   size_t whylen);

/* Double in [min, max] (no units), e.g. a percentile 99.99. */
int value_double(const char *s, double min, double max, double *out,
		 char *why, size_t whylen);

/*
 * A count or a rate (I/Os, I/Os per second): a non-negative number,
 * fractions allowed, with an optional decimal suffix k (10^3), m (10^6),
 * g (10^9) or t (10^12), case-insensitive: "50000", "40k", "1.5m", "0.5".
 */
int value_count(const char *s, double *out, char *why, size_t whylen);

/* Format bytes for humans: "4096" -> "4KiB", "1536" -> "1.50KiB". */
void value_fmt_bytes(uint64_t bytes, char *buf, size_t len);
/* Format ns for humans: "1.23ms", "850ns". */
void value_fmt_ns(double ns, char *buf, size_t len);
/*
 * v with three significant figures in the largest of unit[0..4] (each
 * base times the one before) that keeps it at least 1, sep between number
 * and unit: "999", "1.20k", "12.3k", "120k", "469 MiB/s". 0 is "0"; with
 * whole, so is every value in unit[0] ("5", not "5.40").
 */
void value_fmt_sig3(double v, double base, const char *const unit[5],
		    const char *sep, bool whole, char *buf, size_t len);
/* The same with sig significant figures (1..15): "1.2k", "1.2346k";
 * integer digits beyond sig are rounded away ("750" for 747, sig 2). */
void value_fmt_sig(double v, double base, const char *const unit[5],
		   const char *sep, bool whole, unsigned sig, char *buf,
		   size_t len);
/*
 * The shortest text with at least 6 significant digits that reads back
 * (strtod) as v: "99.9", "33.3333333333", "1e-05". Percentile keys of
 * the JSON report and metric names are written this way.
 */
void value_fmt_shortest(double v, char *buf, size_t len);

/* The value of one hexadecimal digit, or -1 (patterns of buffers and
 * of verification read hex the same way). */
static inline int value_hexdigit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#endif

// SPDX-License-Identifier: MIT
/*
 * Escaping a result's text for the XML of --output-format=junit and the
 * label values of --output-format=openmetrics/prometheus (esc.h).
 */
#include <stdio.h>

#include "esc.h"

#define REPLACEMENT "\xef\xbf\xbd"	/* U+FFFD in UTF-8 */

static int cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

unsigned esc_utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return cont(s[1]) ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		if (!cont(s[1]) || !cont(s[2]))
			return 0;
		if ((c == 0xe0 && s[1] < 0xa0) ||	/* overlong */
		    (c == 0xed && s[1] >= 0xa0))	/* surrogate */
			return 0;
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if (!cont(s[1]) || !cont(s[2]) || !cont(s[3]))
			return 0;
		if ((c == 0xf0 && s[1] < 0x90) ||	/* overlong */
		    (c == 0xf4 && s[1] >= 0x90))	/* beyond U+10FFFF */
			return 0;
		return 4;
	}
	return 0;
}

/*
 * Write s to f as valid UTF-8: a sequence that is not becomes U+FFFD,
 * others are written as they are, and each ASCII byte goes to one (the
 * format's escaping).
 */
static void esc_walk(FILE *f, const char *s,
		     void (*one)(FILE *, unsigned char))
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned n;

	while (p && *p) {
		n = esc_utf8_len(p);
		if (!n) {
			fputs(REPLACEMENT, f);
			p++;
		} else if (n > 1) {
			fwrite(p, 1, n, f);
			p += n;
		} else {
			one(f, *p++);
		}
	}
}

static void xml_one(FILE *f, unsigned char c)
{
	switch (c) {
	case '&': fputs("&amp;", f); break;
	case '<': fputs("&lt;", f); break;
	case '>': fputs("&gt;", f); break;
	case '"': fputs("&quot;", f); break;
	case '\'': fputs("&apos;", f); break;
	case '\t': case '\n': case '\r': fputc(c, f); break;
	default:
		if (c < 0x20 || c == 0x7f)
			fputs(c < 0x20 ? REPLACEMENT : "&#127;", f);
		else
			fputc(c, f);
	}
}

void esc_xml(FILE *f, const char *s)
{
	esc_walk(f, s, xml_one);
}

static void prom_one(FILE *f, unsigned char c)
{
	if (c == '\\' || c == '"')
		fputc('\\', f);
	if (c == '\n')
		fputs("\\n", f);
	else
		fputc(c, f);
}

void esc_prom(FILE *f, const char *s)
{
	esc_walk(f, s, prom_one);
}

// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the HTML report of any JSON document (iorig report
 * --html reads saved results, which may be old, edited or not iorig's).
 * An object gives a whole page (it ends with </html>), and nothing of the
 * document becomes markup: no "<script", and the only '<' are the page's
 * own tags. Without the charts: they run gnuplot.
 */
#include <ctype.h>
#include <stdint.h>

#include <jansson.h>

#include "fuzz.h"
#include "html.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char end[] = "</html>\n";
	struct fuzz_sink s;
	json_error_t je;
	json_t *doc = json_loadb((const char *)data, size, 0, &je);
	size_t i;

	if (!doc)
		return 0;
	if (!fuzz_sink_open(&s)) {
		FUZZ_CHECK(html_write(s.f, doc, false) == 0);
		FUZZ_CHECK(fflush(s.f) == 0);
		FUZZ_CHECK(s.len >= sizeof(end) - 1 &&
			   !strcmp(s.buf + s.len - (sizeof(end) - 1), end));
		FUZZ_CHECK(!strstr(s.buf, "<script"));
		for (i = 0; i < s.len; i++)
			if (s.buf[i] == '<')
				FUZZ_CHECK(s.buf[i + 1] == '/' ||
					   s.buf[i + 1] == '!' ||
					   islower((unsigned char)s.buf[i + 1]));
		fuzz_sink_close(&s);
	}
	json_decref(doc);
	return 0;
}

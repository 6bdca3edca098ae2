// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the JSON reader and the HTML report of any document
 * (iorig report reads saved results, which may be old, edited or not
 * iorig's). The reader never crashes; what it reads gives a whole page
 * (it ends with </html>), and nothing of the document becomes markup: no
 * "<script", and the only '<' are the page's own tags. Without the
 * charts: they run gnuplot.
 */
#include <ctype.h>
#include <stdint.h>

#include "err.h"
#include "fuzz.h"
#include "html.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char end[] = "</html>\n";
	struct fuzz_sink s;
	struct result_doc doc;
	static struct err_rec e;
	size_t i;

	if (result_read(&doc, (const char *)data, size, "fuzz", 0, &e))
		return 0;
	if (!fuzz_sink_open(&s)) {
		FUZZ_CHECK(html_write(s.f, &doc.r, false) == 0);
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
	result_doc_free(&doc);
	return 0;
}

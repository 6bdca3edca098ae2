// SPDX-License-Identifier: MIT
/*
 * plot.c in process (the HTML report's call): plot_result_charts on a
 * small result (read back into the model) gives the latency chart of
 * each direction with I/O and the three charts over time, as whole SVG
 * documents, and leaves no file behind in $TMPDIR; a document of another
 * kind is refused by the reader, and a missing gnuplot gives -1 with a
 * message.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "err.h"
#include "plot.h"
#include "result.h"

static const char result[] =
	"{\"iorig_version\": \"0.1.0\", \"time\": \"T\","
	" \"host\": {\"hostname\": \"h\"}, \"jobs\": [{"
	"  \"name\": \"j\", \"sweep_point\": null, \"clone\": 0,"
	"  \"njobs\": 1, \"ran\": true,"
	"  \"options\": {\"ioengine\": \"sync\", \"interval\": \"1s\"},"
	"  \"targets\": [{\"path\": \"/x\", \"device\": {\"name\": \"vda\"}}],"
	"  \"read\": {\"ios\": 6, \"iops\": 3, \"bw_bytes\": 12288,"
	"   \"lat_ns\": {\"count\": 6, \"percentiles\": {\"50\": 1023},"
	"    \"buckets\": [[1000, 1023, 4], [90000, 90111, 2]]}},"
	"  \"write\": {\"ios\": 0}, \"trim\": {\"ios\": 0},"
	"  \"intervals\": ["
	"   {\"start_ns\": 0, \"end_ns\": 1000000000, \"read\": {\"ios\": 2,"
	"    \"iops\": 2, \"bw_bytes\": 8192, \"lat_p99_ns\": 90111}},"
	"   {\"start_ns\": 1000000000, \"end_ns\": 2000000000, \"read\":"
	"    {\"ios\": 4, \"iops\": 4, \"bw_bytes\": 16384,"
	"     \"lat_p99_ns\": 1023}}]}]}";

static char tmpdir[64];

static struct result_doc *doc(const char *text)
{
	struct result_doc *d = calloc(1, sizeof(*d));
	struct err_rec *e = calloc(1, sizeof(*e));

	assert_non_null(d);
	assert_non_null(e);
	if (result_read(d, text, strlen(text), "result", 0, e))
		fail_msg("%s", e->msg);
	free(e);
	return d;
}

static void doc_free(struct result_doc *d)
{
	result_doc_free(d);
	free(d);
}

static size_t entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

static int setup(void **state)
{
	strcpy(tmpdir, "/tmp/test_plot.XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	setenv("TMPDIR", tmpdir, 1);
	return 0;
}

static int teardown(void **state)
{
	rmdir(tmpdir);
	return 0;
}

static void test_charts(void **state)
{
	static const char *const names[] = { "j-read-lat", "j-iops", "j-bw",
					     "j-p99" };
	struct result_doc *r;
	struct plot_chart *c;
	struct err_rec e = { 0 };
	int n, i;

	if (system("command -v gnuplot >/dev/null 2>&1"))
		skip();
	r = doc(result);
	n = plot_result_charts(&r->r, &c, &e);
	assert_int_equal(n, 4);
	for (i = 0; i < n; i++) {
		assert_string_equal(c[i].name, names[i]);
		assert_non_null(strstr(c[i].title, "j: "));
		assert_non_null(strstr(c[i].svg, "<svg"));
		assert_non_null(strstr(c[i].svg, "</svg>"));
		assert_non_null(strstr(c[i].svg, "host h"));
	}
	assert_non_null(strstr(c[0].svg, "p50 1.0"));
	assert_int_equal(entries(tmpdir), 0);
	plot_charts_free(c, n);
	doc_free(r);
}

static void test_refused(void **state)
{
	static const char other[] = "{\"jobs\": {}}";
	struct result_doc d;
	struct err_rec e = { 0 };

	assert_int_equal(result_read(&d, other, strlen(other), "x", 0, &e),
			 -EINVAL);
	assert_non_null(strstr(e.msg, "not an iorig JSON result"));
}

static void test_no_gnuplot(void **state)
{
	struct result_doc *r = doc(result);
	char *path = strdup(getenv("PATH") ? getenv("PATH") : "");
	struct plot_chart *c;
	struct err_rec e = { 0 };

	setenv("PATH", "/nonexistent", 1);
	assert_int_equal(plot_result_charts(&r->r, &c, &e), -1);
	setenv("PATH", path, 1);
	assert_non_null(strstr(e.msg, "gnuplot-nox"));
	assert_int_equal(entries(tmpdir), 0);
	free(path);
	doc_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_charts),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_no_gnuplot),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

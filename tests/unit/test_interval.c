// SPDX-License-Identifier: MIT
/*
 * interval.c: the recorder's samples add up to the totals, series grow
 * across chunks while read, and merging clones' series by index is exact.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "interval.h"

#define MS	1000000ull

static struct ival_rec *rec_new_s(uint64_t interval_ns, bool streamed)
{
	struct ival_series *s = ival_series_new(interval_ns, streamed);
	struct ival_rec *r;

	assert_non_null(s);
	r = ival_rec_new(s);
	assert_non_null(r);
	return r;
}

static struct ival_rec *rec_new(uint64_t interval_ns)
{
	return rec_new_s(interval_ns, false);
}

static void rec_free(struct ival_rec *r)
{
	ival_series_put(r->series);
	ival_rec_free(r);
}

/*
 * A made-up job: n completions, the k-th at time k * step ns, read when
 * k % 3 else write, 4096 bytes and latency 1000 + k ns. Closes intervals
 * the way the worker does (before counting a completion past the
 * boundary) and the last one at the last completion.
 */
static void run_job(struct ival_rec *r, unsigned n, uint64_t step,
		    uint64_t ios[DDIR_NR], uint64_t bytes[DDIR_NR])
{
	struct hist *h = test_malloc(DDIR_NR * sizeof(*h));
	const struct hist *const lat[DDIR_NR] = { &h[0], &h[1], &h[2] };
	uint64_t now = 0;
	unsigned k;
	int d;

	memset(ios, 0, DDIR_NR * sizeof(*ios));
	memset(bytes, 0, DDIR_NR * sizeof(*bytes));
	for (d = 0; d < DDIR_NR; d++)
		hist_init(&h[d]);
	for (k = 1; k <= n; k++) {
		now = k * step;
		while (now >= ival_rec_boundary(r))
			assert_int_equal(ival_rec_close(r, ival_rec_boundary(r),
							ios, bytes, lat), 0);
		d = k % 3 ? DDIR_READ : DDIR_WRITE;
		ios[d]++;
		bytes[d] += 4096;
		hist_add(&h[d], 1000 + k);	/* the job's histogram */
		ival_rec_add(r, d, 1000 + k);
	}
	assert_int_equal(ival_rec_close(r, now, ios, bytes, lat), 0);
	test_free(h);
}

static void test_sums(void **state)
{
	struct ival_rec *r = rec_new(10 * MS);
	struct ival_iter it = IVAL_ITER_INIT;
	const struct ival_sample *s;
	uint64_t ios[DDIR_NR], bytes[DDIR_NR], sum_ios[DDIR_NR] = { 0 };
	uint64_t sum_bytes[DDIR_NR] = { 0 }, lat[DDIR_NR] = { 0 }, prev = 0;
	size_t n = 0;
	int d;

	/* 1 ms apart for 1.234 s: 123 whole intervals and a partial one */
	run_job(r, 1234, MS, ios, bytes);
	assert_int_equal(ival_series_count(r->series), 124);
	while ((s = ival_iter_next(&it, r->series))) {
		assert_int_equal(s->start_ns, n * 10 * MS);
		assert_int_equal(s->start_ns, prev);
		assert_true(s->end_ns > s->start_ns);
		prev = s->end_ns;
		for (d = 0; d < DDIR_NR; d++) {
			sum_ios[d] += s->dir[d].ios;
			sum_bytes[d] += s->dir[d].bytes;
			lat[d] += s->dir[d].lat.count;
			assert_int_equal(s->dir[d].lat.count, s->dir[d].ios);
		}
		n++;
	}
	assert_int_equal(n, 124);
	assert_int_equal(prev, 1234 * MS);
	for (d = 0; d < DDIR_NR; d++) {
		assert_int_equal(sum_ios[d], ios[d]);
		assert_int_equal(sum_bytes[d], bytes[d]);
		assert_int_equal(lat[d], ios[d]);
	}
	/* The boundary belongs to the next interval: k = 10 is in #1. */
	it = (struct ival_iter)IVAL_ITER_INIT;
	s = ival_iter_next(&it, r->series);
	assert_int_equal(s->dir[DDIR_READ].ios + s->dir[DDIR_WRITE].ios, 9);
	assert_int_equal(s->dir[DDIR_READ].lat.max, 1008);
	assert_true(ival_iops(s, DDIR_READ) == 6 * 1e9 / (10 * MS));
	rec_free(r);
}

/* No completion for a while: the intervals in between are there, empty. */
static void test_gap(void **state)
{
	struct ival_rec *r = rec_new(10 * MS);
	struct ival_iter it = IVAL_ITER_INIT;
	const struct ival_sample *s;
	uint64_t ios[DDIR_NR], bytes[DDIR_NR];
	size_t n = 0;

	run_job(r, 3, 45 * MS, ios, bytes);	/* at 45, 90, 135 ms */
	assert_int_equal(ival_series_count(r->series), 14);
	while ((s = ival_iter_next(&it, r->series))) {
		uint64_t all = s->dir[0].ios + s->dir[1].ios;

		assert_int_equal(all, n == 4 || n == 9 || n == 13 ? 1 : 0);
		if (!all)
			assert_int_equal(hist_sparse_percentile(&s->dir[0].lat,
								99), 0);
		n++;
	}
	rec_free(r);
}

/*
 * The stream's reader sees every sample, and only published ones, across
 * chunk boundaries; the chunks it has left behind are freed as the
 * series grows.
 */
static void test_publish(void **state)
{
	struct ival_series *s = ival_series_new(MS, true);
	struct ival_iter it = IVAL_ITER_INIT;
	struct ival_sample w;
	const struct ival_sample *got;
	size_t i, read = 0, n = 20 * IVAL_CHUNK + 5;

	memset(&w, 0, sizeof(w));
	hist_sparse_init(&w.dir[0].lat);
	hist_sparse_init(&w.dir[1].lat);
	for (i = 0; i < n; i++) {
		w.start_ns = i * MS;
		w.end_ns = (i + 1) * MS;
		if (i % 7 == 0)
			while ((got = ival_stream_next(&it, s)))
				assert_int_equal(got->start_ns, MS * read++);
		assert_true(read <= i);
		assert_int_equal(ival_series_add(s, &w), 0);
		/* What the reader is done with is freed: two chunks stay */
		assert_true(s->n - s->head_index <= 3 * IVAL_CHUNK);
	}
	while ((got = ival_stream_next(&it, s)))
		assert_int_equal(got->start_ns, MS * read++);
	assert_int_equal(read, n);
	assert_null(ival_stream_next(&it, s));
	ival_series_put(s);
}

/*
 * A long run: the report keeps at most IVAL_KEEP samples, each of 2^fold
 * intervals, back to back, and they still add up to the totals.
 */
static void test_fold(void **state)
{
	struct ival_rec *r = rec_new(MS), *b = rec_new(MS);
	struct ival_iter it = IVAL_ITER_INIT;
	const struct ival_sample *x;
	struct ival_series *m, *ap;
	uint64_t ios[DDIR_NR], bytes[DDIR_NR], tot[DDIR_NR], sum, prev = 0;
	unsigned n = 0;
	int d;

	/* 0.1 ms apart for 0.9995 s: 1000 intervals of 1 ms (the last
	 * one partial), folded twice */
	run_job(r, 9995, MS / 10, ios, bytes);
	assert_int_equal(r->series->fold, 2);
	assert_true(ival_series_count(r->series) <= IVAL_KEEP);
	assert_int_equal(ival_series_count(r->series), 250);
	for (d = 0; d < DDIR_NR; d++)
		tot[d] = ios[d];
	while ((x = ival_iter_next(&it, r->series))) {
		assert_int_equal(x->start_ns, prev);
		assert_int_equal(x->end_ns - x->start_ns,
				 n == 249 ? 3 * MS + MS / 2 : 4 * MS);
		assert_int_equal(x->dir[0].lat.count, x->dir[0].ios);
		prev = x->end_ns;
		for (d = 0; d < DDIR_NR; d++)
			tot[d] -= x->dir[d].ios;
		n++;
	}
	assert_int_equal(prev, 999 * MS + MS / 2);
	for (d = 0; d < DDIR_NR; d++)
		assert_int_equal(tot[d], 0);
	/* A clone that did not fold merges with it at its fold. */
	run_job(b, 100, MS, ios, bytes);
	assert_int_equal(b->series->fold, 0);
	m = ival_series_merge(b->series, r->series);
	assert_non_null(m);
	assert_int_equal(m->fold, 2);
	assert_int_equal(ival_series_count(m), 250);
	it = (struct ival_iter)IVAL_ITER_INIT;
	sum = 0;
	while ((x = ival_iter_next(&it, m)))
		sum += x->dir[0].ios + x->dir[1].ios;
	assert_int_equal(sum, 9995 + 100);
	/* Two runs one after the other fold again when too many. */
	ap = ival_series_append(m, r->series, 999 * MS + MS / 2);
	assert_non_null(ap);
	assert_true(ival_series_count(ap) <= IVAL_KEEP);
	it = (struct ival_iter)IVAL_ITER_INIT;
	sum = 0;
	prev = 0;
	while ((x = ival_iter_next(&it, ap))) {
		assert_int_equal(x->start_ns, prev);
		prev = x->end_ns;
		sum += x->dir[0].ios + x->dir[1].ios;
	}
	assert_int_equal(prev, 1999 * MS);
	assert_int_equal(sum, 2 * 9995 + 100);
	ival_series_put(ap);
	ival_series_put(m);
	rec_free(r);
	rec_free(b);
}

/* Two clones side by side, one longer: merged by index, exactly. */
static void test_merge(void **state)
{
	struct ival_rec *a = rec_new(10 * MS), *b = rec_new(10 * MS);
	struct ival_iter ia = IVAL_ITER_INIT, ib = IVAL_ITER_INIT;
	struct ival_iter im = IVAL_ITER_INIT;
	const struct ival_sample *sa, *sb, *sm;
	struct ival_series *m, *m2;
	uint64_t ios[DDIR_NR], bytes[DDIR_NR], tot[DDIR_NR] = { 0 };
	struct hist *h = malloc(sizeof(*h));
	int d;

	run_job(a, 500, MS, ios, bytes);		/* 0.5 s */
	for (d = 0; d < DDIR_NR; d++)
		tot[d] += ios[d];
	run_job(b, 900, 777777, ios, bytes);		/* 0.7 s */
	for (d = 0; d < DDIR_NR; d++)
		tot[d] += ios[d];
	m = ival_series_merge(a->series, b->series);
	assert_non_null(m);
	assert_int_equal(ival_series_count(m),
			 ival_series_count(b->series));
	assert_non_null(h);
	while ((sm = ival_iter_next(&im, m))) {
		sa = ival_iter_next(&ia, a->series);
		sb = ival_iter_next(&ib, b->series);
		assert_non_null(sb);
		hist_init(h);
		for (d = 0; d < DDIR_NR; d++) {
			assert_int_equal(sm->dir[d].ios, sb->dir[d].ios +
					 (sa ? sa->dir[d].ios : 0));
			tot[d] -= sm->dir[d].ios;
		}
		/* The percentiles of the merge are those of all samples. */
		hist_sparse_add_to(h, &sb->dir[0].lat);
		if (sa)
			hist_sparse_add_to(h, &sa->dir[0].lat);
		assert_int_equal(hist_sparse_percentile(&sm->dir[0].lat, 99),
				 hist_percentile(h, 99));
		assert_int_equal(hist_sparse_percentile(&sm->dir[0].lat, 50),
				 hist_percentile(h, 50));
		assert_int_equal(sm->start_ns, sb->start_ns);
		assert_int_equal(sm->end_ns, sa && sa->end_ns > sb->end_ns ?
				 sa->end_ns : sb->end_ns);
	}
	for (d = 0; d < DDIR_NR; d++)
		assert_int_equal(tot[d], 0);
	/* References: a merged series outlives its inputs. */
	m2 = ival_series_get(m);
	ival_series_put(m);
	rec_free(a);
	rec_free(b);
	assert_int_equal(ival_series_count(m2), 70);
	ival_series_put(m2);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sums),
		cmocka_unit_test(test_gap),
		cmocka_unit_test(test_publish),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

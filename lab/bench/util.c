/* SPDX-License-Identifier: MIT */
/*
 * lab/bench/util.c - what the rows call: bench_fail() and the progress bar
 *
 * Both are declared for the rows in lab/bench/bench.h.  The driver sets the
 * bar's label and weight per measurement (struct bench_bar in
 * lab/bench/driver.h) and clears it before the report; every stage may use
 * median().
 */
#include "driver.h"

#include <stdarg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void bench_fail(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	bar_clear(); /* the message starts the line the bar was on */
	fputs("refcount-bench: FAILED: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* The progress bar, on stderr. */
struct bench_bar bar;

void bench_progress_draw(struct bench_progress *p)
{
	double frac = p->total ? (double)p->done / (double)p->total : 0;
	double all = bar.total ? (bar.done + frac * bar.weight) / bar.total : 1;
	char line[41];
	int w = (int)(all * 40);

	memset(line, '#', (size_t)w);
	memset(line + w, '.', (size_t)(40 - w));
	line[40] = 0;
	fprintf(stderr, "\r\033[K[%s] %3d%% %s", line, (int)(all * 100),
		bar.label);
	if (p->total)
		fprintf(stderr, " %3d%%", (int)(frac * 100));
	fflush(stderr);
	bar.drawn = true;
	p->next = bench_now() + bar.interval;
}

void bar_clear(void)
{
	if (bar.drawn)
		fputs("\r\033[K", stderr);
	bar.drawn = false;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double median(const double *v, unsigned int n, double *lo, double *hi)
{
	double s[MAX_ROUNDS];

	memcpy(s, v, n * sizeof(*v));
	qsort(s, n, sizeof(*s), cmp_double);
	if (lo)
		*lo = s[0];
	if (hi)
		*hi = s[n - 1];
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

double median_of(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Student's t quantile for 0.975 and @df degrees of freedom (Cornish-Fisher
 * expansion around the normal's 1.959964; within 0.3% from df = 4 on, the
 * exact values below that). */
static double t975(unsigned int df)
{
	static const double exact[] = { 0, 12.706, 4.303, 3.182, 2.776 };
	const double z = 1.959964, z2 = z * z;
	double d = df;

	if (df < sizeof(exact) / sizeof(exact[0]))
		return exact[df];
	return z + (z2 * z + z) / (4 * d) +
	       (5 * z2 * z2 * z + 16 * z2 * z + 3 * z) / (96 * d * d) +
	       (3 * z2 * z2 * z2 * z + 19 * z2 * z2 * z + 17 * z2 * z -
		15 * z) /
		       (384 * d * d * d);
}

void ratio_ci(const double *ratio, unsigned int n, double *lo, double *hi)
{
	double mean = 0, var = 0, h;

	if (n < 2) {
		*lo = *hi = n ? ratio[0] : 0;
		return;
	}
	for (unsigned int r = 0; r < n; r++)
		mean += log(ratio[r]);
	mean /= n;
	for (unsigned int r = 0; r < n; r++)
		var += (log(ratio[r]) - mean) * (log(ratio[r]) - mean);
	var /= n - 1;
	h = t975(n - 1) * sqrt(var / n);
	*lo = exp(mean - h);
	*hi = exp(mean + h);
}

double ci_half(double lo, double hi)
{
	return (hi - lo) / (hi + lo);
}

const char *ci_verdict(double lo, double hi, double goal)
{
	return hi <= goal ? "met" : lo > goal ? "missed" : "unresolved";
}

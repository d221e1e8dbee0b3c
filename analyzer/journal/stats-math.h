/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Statistics for repeated-boot failure counts (knowledge/sru-and-stats.md §3, §5): binomial intervals, Fisher's
 * exact test and the number of clean boots needed to bound a rate. Pure functions on counts; no state. */

#include "basic/util.h"

/* ln C(n, k); -INFINITY when k > n. */
double stats_log_choose(unsigned n, unsigned k);

/* P(X <= x) for X ~ Binomial(n, p). */
double stats_binom_cdf(unsigned x, unsigned n, double p);

/* Clopper–Pearson (exact) two-sided interval at confidence 1 - alpha for x failures in n boots. n = 0 gives
 * [0, 1]. Returns 0, or -EINVAL when x > n or alpha is not in (0, 1). */
int stats_clopper_pearson(unsigned x, unsigned n, double alpha, double *ret_low, double *ret_high);

/* One-sided exact upper bound: the p with P(X <= x | n, p) = alpha (1 for x = n, and for n = 0). */
double stats_cp_upper_one_sided(unsigned x, unsigned n, double alpha);

/* Wilson score interval at confidence 1 - alpha, clamped to [0, 1]. n = 0 gives [0, 1]. */
int stats_wilson(unsigned x, unsigned n, double alpha, double *ret_low, double *ret_high);

/* Fisher's exact test on the table (a failed, b ok) vs (c failed, d ok). ret_two_sided: sum of the probabilities
 * of all tables no more likely than the observed one (tolerance 1e-7); ret_less: P(first row has <= a failures),
 * ret_greater: P(>= a). Any ret_* may be NULL. Returns 0 or -ERANGE when the table is too large (N > 10^7). */
int stats_fisher_exact(unsigned a, unsigned b, unsigned c, unsigned d,
                       double *ret_two_sided, double *ret_less, double *ret_greater);

/* Boots needed so that x failures among them bound the failure rate below p with one-sided confidence 1 - alpha:
 * the smallest N >= x + 1 with P(X <= x | N, p) <= alpha. For x = 0 this is ceil(ln alpha / ln(1 - p)).
 * Returns N, or -ERANGE when N would exceed 10^8, -EINVAL for p or alpha outside (0, 1). */
long long stats_boots_needed(unsigned x, double p, double alpha);

/* Holm's step-down adjustment of n p-values (in place, order kept). Returns 0 or -ENOMEM. */
int stats_holm(double *p, size_t n);

#define STATS_Z95 1.959963984540054

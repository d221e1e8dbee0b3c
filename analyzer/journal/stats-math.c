/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <math.h>

#include "journal/stats-math.h"

double stats_log_choose(unsigned n, unsigned k) {
        if (k > n)
                return -INFINITY;
        return lgamma((double) n + 1) - lgamma((double) k + 1) - lgamma((double) (n - k) + 1);
}

double stats_binom_cdf(unsigned x, unsigned n, double p) {
        double s = 0, lp, lq;

        if (x >= n)
                return 1;
        if (p <= 0)
                return 1;
        if (p >= 1)
                return 0;
        lp = log(p);
        lq = log1p(-p);
        for (unsigned i = 0; i <= x; i++)
                s += exp(stats_log_choose(n, i) + i * lp + (double) (n - i) * lq);
        return MIN(s, 1.0);
}

/* Bisection for a monotone function of p on [0, 1]: returns the p where f crosses target. f must be decreasing
 * when decreasing is set, increasing otherwise. 100 halvings reach double precision. */
static double bisect(double (*f)(unsigned, unsigned, double), unsigned a, unsigned b, double target,
                     bool decreasing) {
        double lo = 0, hi = 1;

        for (int i = 0; i < 100; i++) {
                double mid = (lo + hi) / 2, v = f(a, b, mid);
                if ((v > target) == decreasing)
                        lo = mid;
                else
                        hi = mid;
        }
        return (lo + hi) / 2;
}

static double binom_sf(unsigned x, unsigned n, double p) {
        /* P(X >= x) */
        return x == 0 ? 1 : 1 - stats_binom_cdf(x - 1, n, p);
}

double stats_cp_upper_one_sided(unsigned x, unsigned n, double alpha) {
        if (n == 0 || x >= n)
                return 1;
        if (x == 0)
                return 1 - pow(alpha, 1.0 / n);
        return bisect(stats_binom_cdf, x, n, alpha, true);
}

static double cp_lower_one_sided(unsigned x, unsigned n, double alpha) {
        if (n == 0 || x == 0)
                return 0;
        if (x >= n)
                return pow(alpha, 1.0 / n);
        return bisect(binom_sf, x, n, alpha, false);
}

int stats_clopper_pearson(unsigned x, unsigned n, double alpha, double *ret_low, double *ret_high) {
        if (x > n || !(alpha > 0 && alpha < 1))
                return -EINVAL;
        *ret_low = cp_lower_one_sided(x, n, alpha / 2);
        *ret_high = stats_cp_upper_one_sided(x, n, alpha / 2);
        return 0;
}

/* The normal quantile for the usual levels; others by bisection on erfc. */
static double z_for_alpha(double alpha) {
        double lo = 0, hi = 10;

        if (fabs(alpha - 0.05) < 1e-12)
                return STATS_Z95;
        for (int i = 0; i < 100; i++) {
                double mid = (lo + hi) / 2;
                if (erfc(mid / M_SQRT2) > alpha)
                        lo = mid;
                else
                        hi = mid;
        }
        return (lo + hi) / 2;
}

int stats_wilson(unsigned x, unsigned n, double alpha, double *ret_low, double *ret_high) {
        double z, z2, p, denom, centre, half;

        if (x > n || !(alpha > 0 && alpha < 1))
                return -EINVAL;
        if (n == 0) {
                *ret_low = 0;
                *ret_high = 1;
                return 0;
        }
        z = z_for_alpha(alpha);
        z2 = z * z;
        p = (double) x / n;
        denom = 1 + z2 / n;
        centre = (p + z2 / (2.0 * n)) / denom;
        half = z * sqrt(p * (1 - p) / n + z2 / (4.0 * n * n)) / denom;
        *ret_low = x == 0 ? 0 : MAX(0.0, centre - half);
        *ret_high = x == n ? 1 : MIN(1.0, centre + half);
        return 0;
}

int stats_fisher_exact(unsigned a, unsigned b, unsigned c, unsigned d,
                       double *ret_two_sided, double *ret_less, double *ret_greater) {
        unsigned long long N = (unsigned long long) a + b + c + d;
        unsigned n1 = a + b, n2 = c + d, k = a + c, lo, hi;
        double lden, pobs, two = 0, less = 0, greater = 0;

        if (N > 10000000ULL)
                return -ERANGE;
        lden = stats_log_choose((unsigned) N, k);
        lo = k > n2 ? k - n2 : 0;
        hi = MIN(k, n1);
        pobs = exp(stats_log_choose(n1, a) + stats_log_choose(n2, k - a) - lden);
        for (unsigned i = lo; i <= hi; i++) {
                double p = exp(stats_log_choose(n1, i) + stats_log_choose(n2, k - i) - lden);
                if (p <= pobs * (1 + 1e-7))
                        two += p;
                if (i <= a)
                        less += p;
                if (i >= a)
                        greater += p;
        }
        if (ret_two_sided)
                *ret_two_sided = MIN(two, 1.0);
        if (ret_less)
                *ret_less = MIN(less, 1.0);
        if (ret_greater)
                *ret_greater = MIN(greater, 1.0);
        return 0;
}

#define BOOTS_NEEDED_MAX 100000000LL

long long stats_boots_needed(unsigned x, double p, double alpha) {
        long long lo, hi;

        if (!(p > 0 && p < 1) || !(alpha > 0 && alpha < 1))
                return -EINVAL;
        if (x == 0) {
                double n = ceil(log(alpha) / log1p(-p) - 1e-9);
                return n > BOOTS_NEEDED_MAX ? -ERANGE : MAX((long long) n, 1LL);
        }
        /* P(X <= x | N, p) decreases in N: find a bracket by doubling, then bisect. */
        lo = x; /* cdf(x, x) = 1 > alpha */
        hi = MAX((long long) x * 2, 16LL);
        while (stats_binom_cdf(x, (unsigned) hi, p) > alpha) {
                lo = hi;
                hi *= 2;
                if (hi > BOOTS_NEEDED_MAX)
                        return -ERANGE;
        }
        while (hi - lo > 1) {
                long long mid = lo + (hi - lo) / 2;
                if (stats_binom_cdf(x, (unsigned) mid, p) > alpha)
                        lo = mid;
                else
                        hi = mid;
        }
        return hi;
}

typedef struct IndexedP {
        double p;
        size_t i;
} IndexedP;

static int indexed_cmp(const void *a, const void *b) {
        const IndexedP *x = a, *y = b;
        return x->p < y->p ? -1 : x->p > y->p ? 1 : (x->i > y->i) - (x->i < y->i);
}

int stats_holm(double *p, size_t n) {
        _cleanup_(freep) IndexedP *v = NULL;
        double running = 0;

        if (n < 2)
                return 0;
        v = calloc(n, sizeof(IndexedP));
        if (!v)
                return -ENOMEM;
        for (size_t i = 0; i < n; i++)
                v[i] = (IndexedP) { .p = p[i], .i = i };
        qsort_safe(v, n, sizeof(IndexedP), indexed_cmp);
        for (size_t k = 0; k < n; k++) {
                double adj = MIN(1.0, (double) (n - k) * v[k].p);
                running = MAX(running, adj);
                p[v[k].i] = running;
        }
        return 0;
}

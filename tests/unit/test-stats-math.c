/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The statistics against the worked example and tables of knowledge/sru-and-stats.md §3–§4 (LP #1750780). */

#include <math.h>

#include "journal/stats-math.h"
#include "tap.h"

static void near(double got, double want, double tol, const char *name) {
        bool ok = fabs(got - want) <= tol;
        tap_ok(ok, "%s", name);
        if (!ok)
                tap_diag("got %.6g, want %.6g (±%g)", got, want, tol);
}

static void test_intervals(void) {
        double lo, hi;

        tap_ok(stats_clopper_pearson(19, 33, 0.05, &lo, &hi) == 0, "CP 19/33 computes");
        near(lo, 0.392, 0.0005, "CP 19/33 lower 39.2%");
        near(hi, 0.745, 0.0005, "CP 19/33 upper 74.5%");
        stats_clopper_pearson(0, 5, 0.05, &lo, &hi);
        near(lo, 0, 0, "CP 0/5 lower 0");
        near(hi, 0.522, 0.0005, "CP 0/5 upper 52.2%");
        stats_clopper_pearson(0, 37, 0.05, &lo, &hi);
        near(hi, 0.095, 0.0005, "CP 0/37 upper 9.5%");
        stats_clopper_pearson(5, 5, 0.05, &lo, &hi);
        near(lo, 1 - 0.522, 0.0005, "CP 5/5 lower is the mirror of 0/5");
        near(hi, 1, 0, "CP 5/5 upper 1");
        stats_clopper_pearson(0, 0, 0.05, &lo, &hi);
        tap_ok(lo == 0 && hi == 1, "CP 0/0 is [0, 1]");
        tap_ok(stats_clopper_pearson(6, 5, 0.05, &lo, &hi) == -EINVAL, "CP x > n is -EINVAL");

        /* the CP bounds are where the binomial tails equal alpha/2 */
        stats_clopper_pearson(19, 33, 0.05, &lo, &hi);
        near(stats_binom_cdf(19, 33, hi), 0.025, 1e-9, "P(X<=19 | 33, upper) = 0.025");
        near(1 - stats_binom_cdf(18, 33, lo), 0.025, 1e-9, "P(X>=19 | 33, lower) = 0.025");

        stats_wilson(19, 33, 0.05, &lo, &hi);
        near(lo, 0.408, 0.0005, "Wilson 19/33 lower 40.8%");
        near(hi, 0.728, 0.0005, "Wilson 19/33 upper 72.8%");
        stats_wilson(0, 37, 0.05, &lo, &hi);
        near(lo, 0, 0, "Wilson 0/37 lower 0");
        near(hi, 0.094, 0.0005, "Wilson 0/37 upper 9.4%");
        stats_wilson(0, 5, 0.05, &lo, &hi);
        near(hi, 0.434, 0.0005, "Wilson 0/5 upper 43.4%");

        near(stats_cp_upper_one_sided(19, 33, 0.05), 0.722, 0.0005, "one-sided 95% upper 19/33 = 72.2%");
        near(stats_cp_upper_one_sided(0, 37, 0.05), 0.078, 0.0005, "one-sided 95% upper 0/37 = 7.8%");
        near(stats_cp_upper_one_sided(0, 5, 0.05), 0.451, 0.0005, "one-sided 95% upper 0/5 = 45.1%");
}

static void test_fisher(void) {
        double two, less, greater;

        tap_ok(stats_fisher_exact(19, 14, 0, 5, &two, &less, &greater) == 0, "Fisher 19/33 vs 0/5 computes");
        near(two, 0.04633, 0.000005, "Fisher 19/33 vs 0/5 two-sided p = 0.04633");
        near(greater, 0.023, 0.0005, "Fisher 19/33 vs 0/5 one-sided p = 0.023");
        stats_fisher_exact(19, 14, 0, 4, &two, NULL, NULL);
        near(two, 0.046, 0.0005, "Fisher 19/33 vs 0/4 two-sided p = 0.046 as well");
        stats_fisher_exact(19, 14, 0, 37, &two, NULL, &greater);
        near(two / 1e-8, 1.3, 0.05, "Fisher 19/33 vs 0/37 two-sided p = 1.3e-8");
        near(greater / 1e-8, 1.3, 0.05, "Fisher 19/33 vs 0/37 one-sided p = 1.3e-8");
        stats_fisher_exact(0, 37, 0, 5, &two, NULL, &greater);
        near(two, 1, 1e-12, "Fisher 0/37 vs 0/5 p = 1");
        near(greater, 1, 1e-12, "Fisher 0/37 vs 0/5 one-sided p = 1");
        stats_fisher_exact(0, 0, 0, 0, &two, NULL, NULL);
        near(two, 1, 1e-12, "Fisher on an empty table is 1");
}

static void test_boots_needed(void) {
        static const struct {
                double p;
                long long n05, n025;
        } table[] = {
                { 0.50, 5, 6 }, { 0.20, 14, 17 }, { 0.10, 29, 36 }, { 0.05, 59, 72 }, { 0.01, 299, 368 },
        };

        for (size_t i = 0; i < ELEMENTSOF(table); i++) {
                char name[80];
                snprintf(name, sizeof name, "clean boots for < %g%% at alpha 0.05", table[i].p * 100);
                TAP_INTEQ(stats_boots_needed(0, table[i].p, 0.05), table[i].n05, name);
                snprintf(name, sizeof name, "clean boots for < %g%% at alpha 0.025", table[i].p * 100);
                TAP_INTEQ(stats_boots_needed(0, table[i].p, 0.025), table[i].n025, name);
        }
        /* with failures the bound needs more boots; the answer is the first N where the tail drops to alpha */
        long long n = stats_boots_needed(1, 0.05, 0.05);
        tap_ok(n > 59 && stats_binom_cdf(1, (unsigned) n, 0.05) <= 0.05 &&
               stats_binom_cdf(1, (unsigned) n - 1, 0.05) > 0.05, "1 failure: smallest N with P(X<=1)<=alpha (%lld)", n);
        TAP_INTEQ(stats_boots_needed(0, 0, 0.05), -EINVAL, "p = 0 is -EINVAL");
        TAP_INTEQ(stats_boots_needed(0, 1e-12, 0.05), -ERANGE, "an absurdly small p is -ERANGE");
}

static void test_holm(void) {
        double p[] = { 0.01, 0.04, 0.03, 0.5 };

        tap_ok(stats_holm(p, 4) == 0, "Holm adjusts");
        near(p[0], 0.04, 1e-12, "Holm: smallest p times 4");
        near(p[2], 0.09, 1e-12, "Holm: second smallest times 3");
        near(p[1], 0.09, 1e-12, "Holm: monotone (0.04*2 raised to 0.09)");
        near(p[3], 0.5, 1e-12, "Holm: largest times 1");
}

int main(void) {
        test_intervals();
        test_fisher();
        test_boots_needed();
        test_holm();
        return tap_done();
}

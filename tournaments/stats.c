/* tournaments/stats.c */
#include "stats.h"

#include <math.h>

double elo_from_score(double s) {
    if (s <= 0)
        return -INFINITY;
    if (s >= 1)
        return INFINITY;
    return -400.0 * log10(1.0 / s - 1.0);
}

double score_from_elo(double e) { return 1.0 / (1.0 + pow(10.0, -e / 400.0)); }

EloEstimate elo_estimate(int w, int l, int d) {
    EloEstimate r = {0, INFINITY, 0.5, 0.5};
    int n = w + l + d;
    if (n == 0)
        return r;
    double s = (w + 0.5 * d) / n;
    r.score = s;
    double var = (w * (1 - s) * (1 - s) + d * (0.5 - s) * (0.5 - s) + l * s * s) / n;
    double se = sqrt(var / n);
    r.elo = elo_from_score(s);
    if (w + l > 0 && se > 0 && s > 0 && s < 1)
        r.margin = (elo_from_score(s + 1.959964 * se) - elo_from_score(s - 1.959964 * se)) / 2;
    r.los = w + l > 0 ? 0.5 * (1 + erf((double)(w - l) / sqrt(2.0 * (w + l)))) : 0.5;
    return r;
}

double sprt_llr(int w, int l, int d, const SprtParams *p) {
    if (w + l == 0)
        return 0;
    double fw = w, fl = l, fd = d;
    if ((w > 0) + (l > 0) + (d > 0) == 1) /* one kind of result only: no variance yet */
        fw += 0.5, fl += 0.5, fd += 0.5;
    double n = fw + fl + fd, s = (fw + 0.5 * fd) / n;
    double var = (fw * (1 - s) * (1 - s) + fd * (0.5 - s) * (0.5 - s) + fl * s * s) / n;
    if (var <= 0)
        return 0;
    double s0 = score_from_elo(p->elo0), s1 = score_from_elo(p->elo1);
    return n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var);
}

void sprt_bounds(const SprtParams *p, double *lower, double *upper) {
    *lower = log(p->beta / (1 - p->alpha));
    *upper = log((1 - p->beta) / p->alpha);
}

SprtResult sprt_test(int w, int l, int d, const SprtParams *p, double *llr) {
    double lo, hi, v = sprt_llr(w, l, d, p);
    sprt_bounds(p, &lo, &hi);
    if (llr)
        *llr = v;
    return v >= hi ? SPRT_ACCEPT_H1 : v <= lo ? SPRT_ACCEPT_H0 : SPRT_CONTINUE;
}

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

/* Mean and variance of the pair scores (i / 4 of a point per game). With
 * pseudo counts added when only one kind of pair has been seen. */
static double penta_moments(const int penta[5], double *var, double *n) {
    double c[5];
    int kinds = 0;
    for (int i = 0; i < 5; i++)
        kinds += penta[i] > 0;
    for (int i = 0; i < 5; i++)
        c[i] = penta[i] + (kinds == 1 ? 0.2 : 0.0);
    double sum = 0, mu = 0;
    for (int i = 0; i < 5; i++)
        sum += c[i], mu += c[i] * i / 4.0;
    if (sum <= 0) {
        *var = 0, *n = 0;
        return 0.5;
    }
    mu /= sum;
    double v = 0;
    for (int i = 0; i < 5; i++)
        v += c[i] * (i / 4.0 - mu) * (i / 4.0 - mu);
    *var = v / sum;
    *n = sum;
    return mu;
}

EloEstimate elo_estimate_penta(const int penta[5]) {
    EloEstimate r = {0, INFINITY, 0.5, 0.5};
    int pairs = 0;
    for (int i = 0; i < 5; i++)
        pairs += penta[i];
    if (!pairs)
        return r;
    double s = 0;
    for (int i = 0; i < 5; i++)
        s += penta[i] * i / 4.0;
    s /= pairs;
    r.score = s;
    r.elo = elo_from_score(s);
    double var = 0;
    for (int i = 0; i < 5; i++)
        var += penta[i] * (i / 4.0 - s) * (i / 4.0 - s);
    var /= pairs;
    double se = sqrt(var / pairs);
    if (se > 0 && s > 0 && s < 1) {
        r.margin = (elo_from_score(s + 1.959964 * se) - elo_from_score(s - 1.959964 * se)) / 2;
        r.los = 0.5 * (1 + erf((s - 0.5) / (se * sqrt(2.0))));
    }
    return r;
}

double sprt_llr_penta(const int penta[5], const SprtParams *p) {
    double var, n, s = penta_moments(penta, &var, &n);
    if (var <= 0 || n <= 0)
        return 0;
    double s0 = score_from_elo(p->elo0), s1 = score_from_elo(p->elo1);
    return n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var);
}

void sprt_bounds(const SprtParams *p, double *lower, double *upper) {
    *lower = log(p->beta / (1 - p->alpha));
    *upper = log((1 - p->beta) / p->alpha);
}

SprtResult sprt_decision(double llr, const SprtParams *p) {
    double lo, hi;
    sprt_bounds(p, &lo, &hi);
    return llr >= hi ? SPRT_ACCEPT_H1 : llr <= lo ? SPRT_ACCEPT_H0 : SPRT_CONTINUE;
}

SprtResult sprt_test(int w, int l, int d, const SprtParams *p, double *llr) {
    double v = sprt_llr(w, l, d, p);
    if (llr)
        *llr = v;
    return sprt_decision(v, p);
}

double elo_shown(double elo, int decimals) {
    double half = decimals ? 0.05 : 0.5;
    return fabs(elo) < half ? 0.0 : elo;
}

void pair_stats_game(PairStats *p, bool first_black, double points) {
    if (points >= 1)
        p->w++, p->bw += first_black;
    else if (points <= 0)
        p->l++, p->bl += first_black;
    else
        p->d++, p->bd += first_black;
}

static void print_margin(FILE *o, const EloEstimate *e) {
    if (isinf(e->margin))
        fprintf(o, " (interval unbounded)");
    else
        fprintf(o, " +/- %.1f", e->margin);
}

void pair_stats_print(FILE *o, const char *first, const char *second, const PairStats *p) {
    EloEstimate e = elo_estimate(p->w, p->l, p->d);
    fprintf(o, "%s vs %s: %d-%d-%d (W-L-D)  score %.1f%%  Elo %+.1f", first, second, p->w, p->l, p->d,
            100 * e.score, elo_shown(e.elo, 1));
    print_margin(o, &e);
    fprintf(o, "  LOS %.1f%%\n", 100 * e.los);
    /* colour matters in this game: each side's share as black and as white */
    int ww = p->w - p->bw, wl = p->l - p->bl, wd = p->d - p->bd;
    if (p->bw + p->bl + p->bd && ww + wl + wd)
        fprintf(o, "  %s as black %d-%d-%d (%.1f%%), as white %d-%d-%d (%.1f%%)\n", first, p->bw, p->bl,
                p->bd, 100 * elo_estimate(p->bw, p->bl, p->bd).score, ww, wl, wd,
                100 * elo_estimate(ww, wl, wd).score);
    int pairs = p->penta[0] + p->penta[1] + p->penta[2] + p->penta[3] + p->penta[4];
    if (!pairs)
        return;
    e = elo_estimate_penta(p->penta);
    fprintf(o, "  %d pair%s (LL %d, LD %d, WL+DD %d, WD %d, WW %d): Elo %+.1f", pairs, pairs == 1 ? "" : "s",
            p->penta[0], p->penta[1], p->penta[2], p->penta[3], p->penta[4], elo_shown(e.elo, 1));
    print_margin(o, &e);
    fprintf(o, "  LOS %.1f%% (pentanomial)\n", 100 * e.los);
}

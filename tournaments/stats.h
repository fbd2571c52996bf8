/* tournaments/stats.h — Elo from match scores, its 95% interval, the
 * likelihood of superiority, and the sequential probability ratio test. */
#ifndef QUINTO_TOURNAMENTS_STATS_H
#define QUINTO_TOURNAMENTS_STATS_H

typedef struct {
    double elo, margin; /* difference and half-width of the 95% interval */
    double los;         /* probability the first is stronger, 0..1 */
    double score;       /* points per game */
} EloEstimate;

/* From wins, losses, draws of the first player. With no decisive game
 * margin is infinite (elo 0). */
EloEstimate elo_estimate(int wins, int losses, int draws);

double elo_from_score(double score);
double score_from_elo(double elo);

/* Pentanomial counts of game pairs (one opening, both colours): penta[i] is
 * the number of pairs in which the first player scored i/2 points of 2
 * (0 LL, 1 LD, 2 WL or DD, 3 WD, 4 WW). Pairs are the samples: the variance
 * of their mean absorbs the openings' bias, and the interval narrows. */
EloEstimate elo_estimate_penta(const int penta[5]);

typedef struct {
    double elo0, elo1, alpha, beta;
} SprtParams;

typedef enum { SPRT_CONTINUE, SPRT_ACCEPT_H0, SPRT_ACCEPT_H1 } SprtResult;

/* Log-likelihood ratio of H1 (elo1) against H0 (elo0) from W/L/D, by the
 * generalised SPRT's normal approximation on the game scores; 0 until
 * both decisive results and variance exist. */
double sprt_llr(int wins, int losses, int draws, const SprtParams *p);
/* The same over pentanomial pair counts. */
double sprt_llr_penta(const int penta[5], const SprtParams *p);
void sprt_bounds(const SprtParams *p, double *lower, double *upper);
SprtResult sprt_test(int wins, int losses, int draws, const SprtParams *p, double *llr);
/* The decision an LLR stands for. */
SprtResult sprt_decision(double llr, const SprtParams *p);

#endif

/* tournaments/stats.h — Elo from match scores, its 95% interval, the
 * likelihood of superiority, and the sequential probability ratio test. */
#ifndef QUINTO_TOURNAMENTS_STATS_H
#define QUINTO_TOURNAMENTS_STATS_H

#include <stdbool.h>
#include <stdio.h>

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

/* What two engines scored against each other, from the first one's view. */
typedef struct {
    int w, l, d;    /* every game */
    int bw, bl, bd; /* the games it played as black */
    int penta[5];   /* finished pairs by its points in them, in half points (0..4) */
} PairStats;

/* One game: `points` 1, 0.5 or 0 for the first engine, which played black
 * or not. */
void pair_stats_game(PairStats *p, bool first_black, double points);

/* The match summary of a pair, as quinto-manager prints it after a match:
 * W-L-D, score, Elo with its interval and LOS, the split by colour, and the
 * pentanomial line over the pairs when there are any. */
void pair_stats_print(FILE *o, const char *first, const char *second, const PairStats *p);

/* An Elo difference to `decimals` places, without a "-0". */
double elo_shown(double elo, int decimals);

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

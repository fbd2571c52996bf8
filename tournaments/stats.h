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

typedef struct {
    double elo0, elo1, alpha, beta;
} SprtParams;

typedef enum { SPRT_CONTINUE, SPRT_ACCEPT_H0, SPRT_ACCEPT_H1 } SprtResult;

/* Log-likelihood ratio of H1 (elo1) against H0 (elo0) from W/L/D, by the
 * generalised SPRT's normal approximation on the game scores; 0 until
 * both decisive results and variance exist. */
double sprt_llr(int wins, int losses, int draws, const SprtParams *p);
void sprt_bounds(const SprtParams *p, double *lower, double *upper);
SprtResult sprt_test(int wins, int losses, int draws, const SprtParams *p, double *llr);

#endif

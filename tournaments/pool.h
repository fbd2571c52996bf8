/* tournaments/pool.h — the results of several runs taken together: the
 * `-results` files of matches, gauntlets or round robins read back, every
 * pair of engines scored over all of them (W-L-D, Elo with its interval, the
 * split by colour, and pentanomial pairs: the two games of one opening with
 * the colours swapped, within one file), and how the games ended. */
#ifndef QUINTO_TOURNAMENTS_POOL_H
#define QUINTO_TOURNAMENTS_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "game.h"
#include "stats.h"

enum { POOL_NAME_MAX = 64, POOL_REASONS = END_START + 1 };

typedef struct {
    int first, second;          /* engine indices, first < second */
    PairStats s;                /* from the first engine's view */
    int reasons[POOL_REASONS];  /* games by how they ended (EndReason) */
} PoolPair;

typedef struct {
    int source, opening, pair;  /* a game waiting for its colour-swapped twin */
    bool first_black;
    double points;              /* the pair's first engine's */
} PoolPending;

typedef struct {
    char (*names)[POOL_NAME_MAX];
    long *name_order;           /* 2 x the first game number an engine played in, +1 as white */
    int name_count, name_cap;
    PoolPair *pairs;
    int pair_count, pair_cap;
    PoolPending *pending;
    int pending_count, pending_cap;
    int games;                  /* results lines counted */
    int skipped;                /* lines of games that were not played (a brain failed to start) */
} ResultsPool;

void pool_init(ResultsPool *rp);
void pool_free(ResultsPool *rp);

/* One line of a -results file; `source` tells the files apart (openings pair
 * only within one). The header and blank lines are accepted and ignored.
 * False, with a message and nothing changed, for a line that is not a
 * results line. Pure: no I/O. */
bool pool_add_line(ResultsPool *rp, int source, const char *line, char *err, size_t errcap);

/* Every pair's summary (pair_stats_print) and how its games ended, from the
 * view of the engine that played the lowest-numbered game as black (the
 * first -engine of a match). */
void pool_print(const ResultsPool *rp, FILE *o);

#endif

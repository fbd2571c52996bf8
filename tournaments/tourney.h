/* tournaments/tourney.h — matches, gauntlets, round robins and puzzle runs. */
#ifndef QUINTO_TOURNAMENTS_TOURNEY_H
#define QUINTO_TOURNAMENTS_TOURNEY_H

#include <stdio.h>

#include "game.h"
#include "openings.h"
#include "stats.h"

enum { MAX_ENGINES = 32 };

typedef enum { MODE_ROUNDROBIN, MODE_GAUNTLET } PairMode;

typedef struct {
    EngineSpec engines[MAX_ENGINES];
    int engine_count;
    GameConfig game;
    Openings openings;
    bool have_openings;
    bool random_order;
    uint64_t seed;
    int games;          /* per pair per round; 0: two per opening */
    int rounds;
    int concurrency;
    PairMode mode;
    bool sprt_on;
    SprtParams sprt;
    const char *psq_dir, *sgf_dir, *results_path;
    bool reuse;
    FILE *out;          /* report and progress */
    bool live;          /* one updating progress line (a terminal) */
} TourneyConfig;

/* Run the games; prints progress and the final report to cfg->out. Returns
 * 0, or 1 if nothing could be played. */
int tourney_run(TourneyConfig *cfg);

typedef struct {
    EngineSpec solver, defender;
    const char *file;
    int first, limit;   /* puzzles [first, first + limit) of the file; limit 0: all */
    int move_cap;       /* solver moves */
    int64_t solver_turn_ms, defender_turn_ms;
    int64_t tolerance_ms;
    int concurrency;
    const char *results_path;
    FILE *out;
    bool live;
} PuzzleConfig;

/* Solve rate of the solver against the defender over a testdata file. */
int puzzles_run(PuzzleConfig *cfg);

#endif

/* tournaments/analysis.h — asking a brain about positions rather than playing
 * games: the review of a finished game (the evaluation before and after every
 * move, each side's first decisive mistake, a plot in the terminal) and
 * balanced openings (YXBALANCETWO, checked by a fixed-depth search). */
#ifndef QUINTO_TOURNAMENTS_ANALYSIS_H
#define QUINTO_TOURNAMENTS_ANALYSIS_H

#include <stdio.h>

#include "../brain/record.h"
#include "game.h"

/* Read a game from text in any of the forms quinto-manager and Piskvork
 * write: a .psq ("Piskvorky WxH, ..." then 1-based "x,y,ms" lines), an SGF
 * (GM[4]; SZ, RU, ;B[..] ;W[..]), a -results file (game `number`, 0 = the
 * first; its board is width x height) or a testdata line ("RULE SIZE x,y
 * ..."). rule applies where the text does not name one. Pure: no I/O.
 * False with a message. */
bool review_parse_game(const char *text, int number, int width, int height, Rule rule, Record *out,
                       char *err, size_t errcap);

/* A score as a brain prints it after "ev" ("-215", "+M7", "-M12", "M5");
 * mate distances become VALUE-like scores of +-(30000 - plies). False if it
 * is not one. */
bool review_parse_score(const char *s, int *score);

typedef struct {
    EngineSpec judge;     /* the brain that evaluates */
    int64_t turn_ms;      /* its time for each position */
    int threshold;        /* a move losing this much (the mover's view) is a mistake */
    FILE *out;
    bool ascii;           /* plot with ASCII only */
} ReviewConfig;

/* Review the game: returns 0, or 1 if the brain failed (message on stderr). */
int review_run(const ReviewConfig *cfg, const Record *game);

typedef struct {
    EngineSpec brain;     /* answers YXBALANCETWO and scores (Quinto, Rapfi) */
    Rule rule;
    int width, height;
    int count;            /* openings wanted */
    int64_t turn_ms;      /* for each YXBALANCETWO */
    int depth;            /* the check: a search of this depth scores the opening */
    int max_ev;           /* kept when |score| <= this */
    uint64_t seed;        /* where the first stone goes */
    FILE *out;            /* the openings file (testdata lines) */
    FILE *log;            /* progress and the summary */
} BalanceConfig;

/* Make cfg->count three-stone openings: a black stone near the centre, then
 * the brain's YXBALANCETWO 0 (a white and a black stone), kept when a
 * depth-limited search scores the result within max_ev. Returns 0 when all
 * were made, 1 otherwise. */
int balance_openings_run(const BalanceConfig *cfg);

#endif

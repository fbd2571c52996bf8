/* tournaments/review.h — game review: a brain's evaluation before and after
 * every move of a finished game, the first decisive mistake of each side and
 * a plot of the evaluation in the terminal. */
#ifndef QUINTO_TOURNAMENTS_REVIEW_H
#define QUINTO_TOURNAMENTS_REVIEW_H

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

#endif

/* tournaments/records.h — game records: Piskvork's .psq (Piskvork replays
 * it), SGF (GM[4]), and one results line a game for scripts. */
#ifndef QUINTO_TOURNAMENTS_RECORDS_H
#define QUINTO_TOURNAMENTS_RECORDS_H

#include <stdio.h>

#include "game.h"

/* "Piskvorky WxH, 11:11, 0", then "x,y,ms" a move with 1-based
 * coordinates, then the two players' names and "-1". */
bool record_write_psq(const char *path, const GameConfig *cfg, const char *black,
                      const char *white, const GameResult *r);
bool record_write_sgf(const char *path, const GameConfig *cfg, const char *black,
                      const char *white, const GameResult *r);

/* Tab-separated: game, opening, black, white, result (1-0, 0-1, 1/2-1/2),
 * reason, detail, moves (x,y;...), black ms, white ms. */
void record_results_header(FILE *f);
void record_results_line(FILE *f, int game, int opening, const char *black, const char *white,
                         const GameResult *r);

/* "1-0", "0-1" or "1/2-1/2" */
const char *record_result_text(const GameResult *r);

/* Reading a results line back: field k (from 0) copied to out (cut to
 * cap - 1 characters); false if the line has no such field. */
bool record_results_field(const char *line, int k, char *out, size_t cap);
/* A result text's points for black (1, 0.5, 0); false if it is none of the three. */
bool record_result_parse(const char *text, double *black_points);

#endif

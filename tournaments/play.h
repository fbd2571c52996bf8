/* tournaments/play.h — play or watch in the terminal. */
#ifndef QUINTO_TOURNAMENTS_PLAY_H
#define QUINTO_TOURNAMENTS_PLAY_H

#include "game.h"

typedef struct {
    Rule rule;
    int width, height;
    bool human[3];           /* per colour (BLACK, WHITE): a person plays it */
    EngineSpec engine[3];    /* per colour when a brain plays it */
    EngineSpec hint;         /* the brain that gives hints (and plays) */
    int64_t turn_ms, match_ms;
    int delay_ms;            /* between moves when two brains play */
    const char *save_dir;    /* where finished games go (.psq) */
    bool ascii;              /* no UTF-8 box drawing */
    bool swap2;              /* the swap2 opening on an empty board */
    int strength;            /* INFO strength of the brains that play (100: full) */
    int64_t review_ms;       /* the judge's time a position in a review (r) */
} PlayConfig;

int play_run(const PlayConfig *cfg);

/* Parse "h8" (column letter, row counted from the bottom) or "7,8" (the
 * protocol's x,y) on a w x h board. */
bool play_parse_coord(const char *s, int w, int h, int *x, int *y);

/* The name of a cell in the letter-number notation ("h8"). */
void play_coord_name(int x, int y, int w, int h, char *buf, int cap);

#endif

/* brain/record.h — one position in the plain text format of tests/data:
 *   RULE SIZE x,y x,y ... | EXPECTED # SOURCE
 * Moves in play order, black first, '-' a pass. Pure string parsing, no I/O. */
#ifndef QUINTO_BRAIN_RECORD_H
#define QUINTO_BRAIN_RECORD_H

#include <stddef.h>

#include "rules.h"

enum { RECORD_MAX_MOVES = 1024, RECORD_TEXT = 512 };

typedef struct Record {
    Rule rule;
    int width, height;
    int count;                       /* moves, passes included */
    short x[RECORD_MAX_MOVES], y[RECORD_MAX_MOVES]; /* a pass is x = y = -1 */
    char expect[RECORD_TEXT];        /* the claims after '|', trimmed */
    char source[RECORD_TEXT];        /* the comment after '#', trimmed */
} Record;

/* Parse one line. Returns false with a message in err on malformed input or
 * a blank/comment line (err empty then). */
bool record_parse(const char *line, Record *r, char *err, size_t errlen);

/* Set up the record's position on b (cleared and sized to the record).
 * Returns false if a move is off the board or on a stone. */
bool record_setup(const Record *r, Board *b);

/* Parse "x,y" tokens of a claim such as "forbidden 3,7 2,9" starting after the
 * claim word. Returns the number of points read into xs/ys (at most max), or
 * -1 on a malformed token. */
int record_points(const char *text, int *xs, int *ys, int max);

/* Find claim `name` in r->expect ("forbidden", "win", ...): returns a pointer
 * to the text following the name within that claim, or NULL. */
const char *record_claim(const Record *r, const char *name);

#endif

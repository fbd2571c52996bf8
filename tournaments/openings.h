/* tournaments/openings.h — opening files: testdata lines ("RULE SIZE
 * x,y ... | opening"), Gomocup's offset lines ("dx,dy, dx,dy, ..." from the
 * centre) and plain move lists ("x,y x,y ..."). */
#ifndef QUINTO_TOURNAMENTS_OPENINGS_H
#define QUINTO_TOURNAMENTS_OPENINGS_H

#include "../brain/record.h"

typedef struct {
    Record *list;
    int count;
} Openings;

/* Load a file; width/height/rule apply to formats that do not carry them.
 * Returns false with a message (file:line: why). */
bool openings_load(Openings *o, const char *path, int width, int height, Rule rule, char *err,
                   size_t errcap);

/* Parse one line in any of the three formats into r (blank/comment: false,
 * err empty). */
bool opening_parse_line(const char *line, int width, int height, Rule rule, Record *r, char *err,
                        size_t errcap);

void openings_free(Openings *o);

/* Resolve an -openings argument: an existing file as it is, else a shipped
 * set by name ("piskvork-f20", with or without ".txt") looked for in
 * $QUINTO_OPENINGS, in tournaments/openings/ beside the binary (a checkout)
 * and in ../share/quinto/openings/ beside it (make install). Returns false
 * with a message naming what was tried and the shipped sets found. */
bool openings_find(const char *name, char *out, size_t cap, char *err, size_t errcap);

/* Shuffle with a seed (Fisher-Yates over a splitmix sequence). */
void openings_shuffle(Openings *o, uint64_t seed);

#endif

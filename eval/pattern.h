/* eval/pattern.h — line patterns and threat classes from precomputed tables.
 *
 * A line key describes the 5 cells on each side of a cell along one direction,
 * 2 bits a cell (EMPTY 0, BLACK 1, WHITE 2, WALL 3): the cell k steps towards
 * the negative direction at bits 2(k-1), k steps towards the positive one at
 * bits 10 + 2(k-1). The pattern of an empty cell for a colour is the shape
 * that colour gets on that line by playing there; it is read from a table
 * built at start-up by the "add one stone and reclassify" recursion, separately
 * for every rule and colour (renju black sees overlines and two fours on one
 * line as forbidden, caro sees fives blocked at both ends as dead).
 *
 * The four directions' patterns of a cell combine into a pattern code (an
 * order-free multiset, 2380 values) and a threat class (Pattern4): five, open
 * four, four-three, ... the combinations that decide games.
 */
#ifndef QUINTO_EVAL_PATTERN_H
#define QUINTO_EVAL_PATTERN_H

#include <stdint.h>

#include "../brain/rules.h"

/* Line pattern for one colour in one direction, weakest to strongest.
 * B = blocked (one way to grow), F = flex/open (two ways). */
typedef enum {
    PAT_DEAD,  /* no five can ever be made here through this cell */
    PAT_OL,    /* would make an overline that does not win (or renju black's
                  two fours on one line): useless or forbidden */
    PAT_B1, PAT_F1,
    PAT_B2, PAT_F2, PAT_F2A, PAT_F2B, /* F2A/F2B: twos with 3/4 ways to a flex three */
    PAT_B3,    /* three: one more stone makes a four */
    PAT_F3,    /* open three: one more stone makes an open four */
    PAT_F3S,   /* open three with two open-four points (__XXX__) */
    PAT_B4,    /* four: one way to five */
    PAT_F4,    /* open four: two ways to five */
    PAT_F5,    /* five: playing here wins */
    PAT_COUNT
} Pattern;

/* Combined threat class of a cell for one colour, weakest to strongest. */
typedef enum {
    P4_NONE,
    P4_FORBID,        /* renju black: a forbidden shape (a candidate: confirm with rules) */
    P4_FLEX2,         /* L: an open two */
    P4_BLOCK3,        /* K: a three */
    P4_FLEX2_2X,      /* J: two open twos */
    P4_BLOCK3_PLUS,   /* I: two threes, or a three and an open two */
    P4_FLEX3,         /* H: an open three */
    P4_FLEX3_PLUS,    /* G: an open three and a three or open two */
    P4_FLEX3_2X,      /* F: double open three (three-three) */
    P4_BLOCK4,        /* E: a four */
    P4_BLOCK4_PLUS,   /* D: a four and a three or open two */
    P4_BLOCK4_FLEX3,  /* C: four-three */
    P4_FLEX4,         /* B: an open four, or two fours (four-four) */
    P4_FIVE,          /* A: five */
    P4_COUNT
} Pattern4;

enum { PCODE_COUNT = 2380, LINE_KEY_BITS = 20 };

/* Build the tables a rule needs (and the shared ones). Idempotent and
 * thread-safe; the first call for a rule takes about a millisecond. */
void pattern_init(Rule rule);

/* Table index of a rule and colour. */
static inline int pattern_table(Rule rule, int colour) { return (int)rule * 2 + (colour - 1); }

/* Pattern of an empty cell with line key `key` for `colour` under `rule`. */
Pattern pattern_of(Rule rule, int colour, uint32_t key);

/* Same, fast path: the caller passes the table index. */
extern uint8_t pattern_half[2][1 << 10];           /* colour-1, 10-bit half -> side id */
extern uint8_t pattern_lut[RULE_COUNT * 2][96][96];/* table, left id, right id -> Pattern */
static inline Pattern pattern_fast(int table, int colour, uint32_t key) {
    return (Pattern)pattern_lut[table][pattern_half[colour - 1][key & 1023]]
                               [pattern_half[colour - 1][key >> 10]];
}

/* Pattern code of four direction patterns (order-free). */
extern uint16_t pattern_code_lut[PAT_COUNT][PAT_COUNT][PAT_COUNT][PAT_COUNT];
static inline int pattern_code(Pattern a, Pattern b, Pattern c, Pattern d) {
    return pattern_code_lut[a][b][c][d];
}

/* Threat class of a pattern code for a rule and colour. */
extern uint8_t pattern4_lut[RULE_COUNT * 2][PCODE_COUNT];
static inline Pattern4 pattern4_of(int table, int pcode) {
    return (Pattern4)pattern4_lut[table][pcode];
}

/* The four patterns of a pattern code, sorted. */
void pattern_code_decode(int pcode, Pattern out[4]);

/* Threat class from four direction patterns, by the definitions (no table). */
Pattern4 pattern4_classify(Rule rule, int colour, const Pattern p[4]);

const char *pattern_name(Pattern p);
const char *pattern4_name(Pattern4 p);

#endif

/* eval/evaluate.h — what a position and a move are worth. */
#ifndef QUINTO_EVAL_EVALUATE_H
#define QUINTO_EVAL_EVALUATE_H

#include "position.h"

/* Static evaluation from the side to move's point of view: the 5-window sum
 * plus the pattern values of the empty cells, adjusted for the threats each
 * side holds. Does not detect wins (the search does that first). */
int32_t eval_static(const Pos *p);

/* The threat mask of p for the side to move (TM_* of weights.h). */
static inline int eval_threat_mask(const Pos *p);

/* eval_static as a linear model, for fitting the weights to game results:
 * eval_static(p) equals the dot product of eval_features(p) with
 * eval_weights() up to the rounding of the window term. The groups: one
 * feature per line pattern (direction counts over empty cells, own minus
 * the opponent's), per threat class (cells), per window size 1..4 (windows /
 * WINDOW_DIV), three threat indicators, the tempo constant, and the colour
 * (+1 black to move, -1 white). Each rule has its own weights (weights.h);
 * renju black's forbidden cells count nothing. */
enum {
    FEAT_PATTERN = 0,
    FEAT_P4 = FEAT_PATTERN + PAT_COUNT,
    FEAT_WINDOW = FEAT_P4 + P4_COUNT,
    FEAT_THREAT = FEAT_WINDOW + 4,
    FEAT_TEMPO = FEAT_THREAT + 3,
    FEAT_BLACK = FEAT_TEMPO + 1,
    EVAL_FEATURES
};
void eval_features(const Pos *p, float *f);
void eval_weights(Rule rule, double *w);

/* Ordering score of an empty cell for the side `side` about to play there:
 * its attack value (own pattern code, twice) plus its defence value (the
 * opponent's pattern code at the same cell). */
static inline int eval_move_score(const Pos *p, Move m, int side);

/* Why a cell is worth what it is: per colour the direction patterns, the
 * threat class, and the attack/defence parts of the move score. */
typedef struct {
    int x, y;
    bool empty;
    bool forbidden;         /* renju: forbidden for black (confirmed by rules) */
    int score;              /* eval_move_score for the side to move */
    int attack, defence;    /* its parts */
    Pattern pattern[2][DIR_COUNT];
    Pattern4 p4[2];
} CellInfo;

void eval_explain(Pos *p, Move m, CellInfo *out);

/* Human-readable summary of a cell's threats ("black: four-three (B4 F3), white: flex2"). */
void eval_describe(const CellInfo *ci, char *buf, int cap);

/* ---- inline ---- */
#include "weights.h"
static inline int eval_threat_mask(const Pos *p) {
    const int *a = p->p4count[p->b.side - 1], *o = p->p4count[2 - p->b.side];
    return (a[P4_FLEX4] ? TM_SELF_FLEX4 : 0) | (a[P4_BLOCK4_FLEX3] ? TM_SELF_B4F3 : 0) |
           (a[P4_BLOCK4_PLUS] ? TM_SELF_B4PLUS : 0) | (a[P4_BLOCK4] ? TM_SELF_B4 : 0) |
           (a[P4_FLEX3_2X] ? TM_SELF_F3X2 : 0) | (a[P4_FLEX3_PLUS] ? TM_SELF_F3PLUS : 0) |
           (a[P4_FLEX3] ? TM_SELF_F3 : 0) | (o[P4_FLEX4] >= 2 ? TM_OPP_FLEX4_2 : 0) |
           (o[P4_FLEX4] ? TM_OPP_FLEX4 : 0) | (o[P4_BLOCK4_FLEX3] ? TM_OPP_B4F3 : 0) |
           (o[P4_BLOCK4_PLUS] ? TM_OPP_B4PLUS : 0) | (o[P4_BLOCK4] ? TM_OPP_B4 : 0) |
           (o[P4_FLEX3_2X] || o[P4_FLEX3_PLUS] ? TM_OPP_F3X : 0) | (o[P4_FLEX3] ? TM_OPP_F3 : 0);
}

static inline int eval_move_score(const Pos *p, Move m, int side) {
    int own = side - 1, opp = 2 - side;
    return pcode_order[0][p->table[own]][p->c[m].pcode[own]] + pcode_order[1][p->table[opp]][p->c[m].pcode[opp]];
}

#endif

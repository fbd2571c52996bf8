/* eval/position.h — a board with everything eval knows kept incrementally.
 *
 * pos_play / pos_undo wrap board_play / board_undo and update, for the 40
 * cells on the four lines through the move, the line keys, the per-direction
 * patterns, the pattern codes and threat classes of both colours, the
 * per-colour counts of cells in every threat class, the pattern-value sum, and
 * the 20 five-cell windows through the move. Nothing here scans the board.
 */
#ifndef QUINTO_EVAL_POSITION_H
#define QUINTO_EVAL_POSITION_H

#include "../brain/board.h"
#include "../brain/rules.h"
#include "pattern.h"

/* Everything eval keeps for one cell, in one 32-byte block: an update of a
 * cell touches one cache line. */
typedef struct {
    uint32_t key[DIR_COUNT];  /* line keys (see pattern.h) */
    uint8_t pat[DIR_COUNT];   /* empty cells: black pattern | white << 4 */
    uint16_t pcode[2];        /* empty cells: pattern code per colour */
    uint8_t p4[2];            /* empty cells: threat class per colour */
    uint8_t window[DIR_COUNT];/* stones in the window starting here: black | white << 4 */
    uint8_t spare[2];
} CellEval;

/* What a move changed, for its undo: the empty cells whose patterns changed
 * (each lies on one line through the move, at most 2 * 5 a direction) with
 * their old fields, and the old counts and sums. Kept for the last
 * POS_UNDO_PLIES moves; an older move is undone by recomputing its lines. */
enum { POS_UNDO_PLIES = 256, POS_UNDO_CELLS = 2 * 5 * DIR_COUNT };
typedef struct {
    uint16_t m;
    uint8_t pat[DIR_COUNT];
    uint16_t pcode[2];
    uint8_t p4[2];
} CellSave;
typedef struct {
    int ply;                               /* the move's ply, -1: nothing saved */
    int n;                                 /* cells saved */
    int32_t pvalue, wsum;
    int p4count[2][P4_COUNT];
    CellSave cell[POS_UNDO_CELLS];
} UndoFrame;

typedef struct Pos {
    Board b;
    Rule rule;
    int table[2];                          /* pattern table per colour (index colour-1) */
    int reach;                             /* cells each side a pattern depends on */
    int p4count[2][P4_COUNT];              /* empty cells in each class, per colour */
    int32_t pvalue;                        /* sum over empty cells of black's minus white's pattern value */
    int32_t wsum;                          /* 5-window sum, black's point of view */
    CellEval c[BOARD_MAX_CELLS] __attribute__((aligned(64)));
    UndoFrame undo[POS_UNDO_PLIES];        /* by ply modulo POS_UNDO_PLIES */
} Pos;

/* Set up an empty board of the given size and rule. False for a bad size. */
bool pos_init(Pos *p, int width, int height, Rule rule);

/* Change the rule of the current position (recomputes everything). */
void pos_set_rule(Pos *p, Rule rule);

void pos_play(Pos *p, Move m);
void pos_pass(Pos *p);
void pos_undo(Pos *p);

/* Recompute everything from the board and compare (tests and debug builds). */
bool pos_is_consistent(const Pos *p);

/* The incremental part of the evaluation, black's point of view: the
 * 5-window sum (scaled down) plus the pattern values of the empty cells. */
enum { WINDOW_DIV = 8 };
static inline int32_t pos_base_value(const Pos *p) { return p->wsum / WINDOW_DIV + p->pvalue; }

/* Threat class of an empty cell for a colour. */
static inline Pattern4 pos_p4(const Pos *p, Move m, int colour) {
    return (Pattern4)p->c[m].p4[colour - 1];
}
static inline Pattern pos_pattern(const Pos *p, Move m, int dir, int colour) {
    return (Pattern)((p->c[m].pat[dir] >> (colour == BLACK ? 0 : 4)) & 15);
}
static inline int pos_count(const Pos *p, int colour, Pattern4 cls) {
    return p->p4count[colour - 1][cls];
}

#endif

/* search/movepick.h — the move picker every search loop uses.
 *
 * A picker hands out a node's moves one at a time, best first, in stages:
 *   STAGE_FORCED    the opponent has a five: its block, alone;
 *   STAGE_DEFENCES  the opponent has an open-four point (an open three): only
 *                   the moves that leave it none, and our own fours; or a
 *                   four-three point: its defences (gen_four_three_defences);
 *   STAGE_TT        the transposition-table move, first of what follows;
 *   STAGE_QUIET     every other candidate, by move score, history and
 *                   killers, at most `cap` of them;
 *   STAGE_QFOURS    the quiescence: our fours only.
 * Selection is lazy (pick_best), so a cutoff after a few moves sorts little.
 * The list lives in the caller's frame; generation may use the workspace of
 * OrderCtx, which must not be used again until picker_init returns. */
#ifndef QUINTO_SEARCH_MOVEPICK_H
#define QUINTO_SEARCH_MOVEPICK_H

#include "history.h"
#include "movegen.h"

typedef enum { STAGE_FORCED, STAGE_DEFENCES, STAGE_TT, STAGE_QUIET, STAGE_QFOURS } PickStage;

/* What ordering reads besides the position. */
typedef struct {
    const History *hist;
    const Move *killers;   /* this ply's two killers (NULL: none) */
    uint32_t off;          /* FEAT_* bits switched off */
    Marks *marks;          /* for gen_defences */
    ScoredMove *scratch;   /* BOARD_MAX_CELLS entries of workspace */
} OrderCtx;

typedef struct {
    ScoredMove *list;
    int n, next, cap;
    Move tt_move;
    PickStage mode;        /* STAGE_FORCED, _DEFENCES, _QUIET or _QFOURS */
    PickStage stage;       /* stage of the move last handed out */
    bool pending;          /* quiet moves not generated yet (the TT move goes first) */
    Pos *pos;
    const OrderCtx *oc;
} MovePicker;

/* Every move of the side to move, unordered, at most cap (the best by score),
 * the TT move scored above all. Returns -1 when the side to move has no
 * defence against the opponent's open-four point (it is lost). *mode tells
 * which moves these are: STAGE_FORCED (the single block of a five),
 * STAGE_DEFENCES or STAGE_QUIET. */
int movepick_generate(Pos *p, const OrderCtx *oc, ScoredMove *out, int cap, Move tt_move,
                      PickStage *mode);

/* A main-search picker over buf[cap]; returns the number of moves (or 1 when
 * a legal TT move goes first and the others are generated only if it does
 * not cut off), or -1 as movepick_generate. oc must live as long as mp. */
int picker_init(MovePicker *mp, ScoredMove *buf, int cap, Pos *p, const OrderCtx *oc,
                Move tt_move);

/* A quiescence picker: the side to move's fours (at most cap), only those
 * within reach of `near` (MOVE_NONE: anywhere), and unless any_four only the
 * fours that also make a three or two. Returns the count. */
int picker_init_fours(MovePicker *mp, ScoredMove *buf, int cap, Pos *p, Move near, bool any_four);

/* The next move, or MOVE_NONE when there are no more. */
Move picker_next(MovePicker *mp);

/* The moves handed out so far, in order: mp->list[0 .. picker_count(mp)). */
static inline int picker_count(const MovePicker *mp) { return mp->next; }

#endif

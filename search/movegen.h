/* search/movegen.h — threat tests and move generators that need only a
 * position: no search state, no clock, no table. The solvers (threat.c),
 * the move picker (movepick.c) and the search read the position through
 * these alone, so every rule about fives, fours, threes and their defences
 * is written once.
 *
 * Renju: black's FORBID-class cells are candidates only; a cell is legal for
 * black unless brain/rules confirms it forbidden (move_legal). */
#ifndef QUINTO_SEARCH_MOVEGEN_H
#define QUINTO_SEARCH_MOVEGEN_H

#include <stdbool.h>

#include "../eval/evaluate.h"
#include "value.h"

typedef struct {
    Move m;
    int score;
} ScoredMove;

/* Generation-stamped marks over the cells: a set cleared in O(1). */
typedef struct {
    uint16_t gen;
    uint16_t mark[BOARD_MAX_CELLS];
} Marks;

void marks_next(Marks *mk);

/* Is colour's move to empty m legal (renju: black's forbidden points)? */
static inline bool move_legal(Pos *p, Move m, int colour) {
    if (p->rule != RULE_RENJU || colour != BLACK || p->c[m].p4[0] != P4_FORBID)
        return true;
    return !rule_is_forbidden(&p->b, m, RULE_RENJU);
}

/* Does colour's move to m make a four (a five threat)? Renju black: a
 * FORBID-class cell that holds a four and is not truly forbidden counts. */
bool makes_four(Pos *p, Move m, int colour);

/* Does colour's move to m make an open three (a new open-four point)?
 * Renju black's legal FORBID-class cells holding a three count. */
bool makes_three(Pos *p, Move m, int colour);

/* Cells where colour makes five (at most max). */
int find_fives(const Pos *p, int colour, Move *out, int max);

/* Points where colour makes an open four now (at most max): FLEX4 cells, and
 * for renju black also FORBID-class cells holding a straight four that are not
 * truly forbidden (a four-three whose second three is false). */
int find_flex4(Pos *p, int colour, Move *out, int max);

/* Has colour such a point? (The counters answer, without a scan, except for
 * renju black's FORBID-class cells.) */
bool has_flex4(Pos *p, int colour);

/* What colour's five points mean for its opponent: FIVE_NONE, FIVE_BLOCKABLE
 * (one point, legal for the opponent: *block holds it) or FIVE_UNSTOPPABLE
 * (two points, or the only block is forbidden to the opponent; *block holds
 * a five point). */
enum { FIVE_NONE, FIVE_BLOCKABLE, FIVE_UNSTOPPABLE };
int five_threat(Pos *p, int colour, Move *block);

/* Cells of colour in the classes that can hold a four (an upper bound of its
 * fours: FORBID cells may hold none). */
static inline int four_cells(const Pos *p, int colour) {
    return pos_count(p, colour, P4_BLOCK4) + pos_count(p, colour, P4_BLOCK4_PLUS) +
           pos_count(p, colour, P4_BLOCK4_FLEX3) + pos_count(p, colour, P4_FORBID);
}

/* colour's fours (and with `threes`, its open threes too), in candidate
 * order, at most cap, scored class * THREAT_CLASS_MUL + move score. */
int gen_threats(Pos *p, int colour, bool threes, ScoredMove *out, int cap);

/* The defences of the side to move against the opponent's open-four points
 * (its open threes): every move after which the opponent has none left,
 * plus all our fours (scored first). Sound and complete: a defence must
 * change a line through one of those points. At most cap; *complete is
 * false when there were more (a solver cannot then prove a win). */
int gen_defences(Pos *p, Marks *mk, ScoredMove *out, int cap, bool *complete);

/* The defences of the side to move against the opponent's four-three point
 * (a four and an open three at once: a win in five), Rapfi's rule: for the
 * first real such point, the point itself, the cells within four of it and of
 * its four's five point after which it is no four-three or our forced block
 * would make a four of ours, and all our fours. 0 when the opponent has no
 * real four-three point or our block of its four is already a four (no direct
 * defence is needed); at most cap. A heuristic set, not a proof: the search
 * uses it to prune, never to claim a loss. */
int gen_four_three_defences(Pos *p, Marks *mk, ScoredMove *out, int cap);

/* What the threat counters prove at once for the side to move at ply: a
 * mate value, or VALUE_NONE (search on). With win5, a four-three or three-
 * three that the opponent cannot meet with a four of its own counts as a win
 * in five, and so does a four-three whose forced block is no four of the
 * opponent's (each four-three point played and undone). */
int32_t quick_result(Pos *p, int ply, bool win5);

/* A move's rank as one number: score first, then the lower cell. */
static inline int64_t order_key(const ScoredMove *x) { return (int64_t)x->score * 65536 + (65535 - x->m); }

/* Move the best-scored of list[i..n) to list[i] (ties: lower cell first). */
static inline void pick_best(ScoredMove *list, int i, int n) {
    int b = i;
    int64_t bk = order_key(&list[i]);
    for (int j = i + 1; j < n; j++) {
        int64_t k = order_key(&list[j]);
        if (k > bk)
            bk = k, b = j;
    }
    ScoredMove x = list[i];
    list[i] = list[b];
    list[b] = x;
}

/* Sort by score, best first (ties: lower cell first). */
void sort_moves(ScoredMove *list, int n);

/* Keep the best `keep` of list[0..n) in list[0..keep), in no order. */
void select_top(ScoredMove *list, int n, int keep);

#endif

/* search/history.h — the quiet-move history (per colour and cell) and the
 * killer moves (per ply): what earlier cutoffs teach the move order. */
#ifndef QUINTO_SEARCH_HISTORY_H
#define QUINTO_SEARCH_HISTORY_H

#include "../brain/board.h"
#include "params.h"

typedef struct {
    int32_t v[2][BOARD_MAX_CELLS]; /* within +-HISTORY_MAX */
} History;

void history_clear(History *h);

/* The bonus of a cutoff at a depth: depth^2 * HISTORY_BONUS_MUL, at most
 * HISTORY_MAX (for any depth, so the update below cannot overflow). */
int history_bonus(int depth);

/* Move the value towards +-HISTORY_MAX by bonus (|bonus| <= HISTORY_MAX),
 * less the nearer it already is ("gravity"): it stays within the bounds. */
void history_update(History *h, int colour, Move m, int bonus);

static inline int history_get(const History *h, int colour, Move m) { return h->v[colour - 1][m]; }

/* Killers of a ply: the last two quiet moves that caused a cutoff there. */
static inline void killers_store(Move killer[2], Move m) {
    if (killer[0] != m) {
        killer[1] = killer[0];
        killer[0] = m;
    }
}

#endif

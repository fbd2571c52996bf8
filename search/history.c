/* search/history.c */
#include "history.h"

#include <string.h>

void history_clear(History *h) { memset(h, 0, sizeof *h); }

int history_bonus(int depth) {
    if (depth <= 0)
        return 0;
    /* depth^2 * MUL passes HISTORY_MAX from depth 32 on: no multiplication there */
    if (depth >= 32 || depth * depth * HISTORY_BONUS_MUL > HISTORY_MAX)
        return HISTORY_MAX;
    return depth * depth * HISTORY_BONUS_MUL;
}

void history_update(History *h, int colour, Move m, int bonus) {
    if (bonus > HISTORY_MAX)
        bonus = HISTORY_MAX;
    if (bonus < -HISTORY_MAX)
        bonus = -HISTORY_MAX;
    int32_t *v = &h->v[colour - 1][m];
    int ab = bonus < 0 ? -bonus : bonus;
    *v += bonus - *v * ab / HISTORY_MAX;
}

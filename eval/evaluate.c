/* eval/evaluate.c — static evaluation and explanations. */
#include "evaluate.h"

#include <stdio.h>

/* Scale of the 5-window term against the pattern term (window values are
 * seed 003's raw numbers). */
enum { WINDOW_DIV = 8, TEMPO = 1193 };

int32_t eval_static(const Pos *p) {
    int side = p->b.side;
    int32_t v = p->wsum / WINDOW_DIV + p->pvalue;
    if (side == WHITE)
        v = -v;
    /* threats: the side to move converts its own first */
    int own = side - 1, opp = 2 - side;
    const int *mine = p->p4count[own], *theirs = p->p4count[opp];
    if (mine[P4_FLEX4] || mine[P4_BLOCK4_FLEX3])
        v += 2487;
    else if (mine[P4_FLEX3_2X] && !theirs[P4_BLOCK4] && !theirs[P4_BLOCK4_PLUS])
        v += 2077;
    if (theirs[P4_FLEX4] >= 2)
        v -= 400;
    return v + TEMPO;
}

void eval_explain(Pos *p, Move m, CellInfo *ci) {
    Board *b = &p->b;
    ci->x = board_x(b, m);
    ci->y = board_y(b, m);
    ci->empty = b->cell[m] == EMPTY;
    ci->forbidden = ci->empty && rule_is_forbidden(b, m, p->rule);
    int side = b->side, own = side - 1, opp = 2 - side;
    for (int c = 0; c < 2; c++) {
        for (int d = 0; d < DIR_COUNT; d++)
            ci->pattern[c][d] = ci->empty ? pos_pattern(p, m, d, c + 1) : PAT_DEAD;
        ci->p4[c] = ci->empty ? pos_p4(p, m, c + 1) : P4_NONE;
    }
    if (ci->empty) {
        ci->attack = 2 * pcode_score[p->table[own]][p->c[m].pcode[own]];
        ci->defence = pcode_score[p->table[opp]][p->c[m].pcode[opp]];
    } else {
        ci->attack = ci->defence = 0;
    }
    ci->score = ci->attack + ci->defence;
}

void eval_describe(const CellInfo *ci, char *buf, int cap) {
    int n = 0;
    static const char *const names[2] = {"black", "white"};
    if (!ci->empty) {
        snprintf(buf, (size_t)cap, "occupied");
        return;
    }
    for (int c = 0; c < 2 && n < cap; c++) {
        n += snprintf(buf + n, (size_t)(cap - n), "%s%s: %s (", c ? ", " : "", names[c],
                      c == 0 && ci->forbidden ? "FORBIDDEN" : pattern4_name(ci->p4[c]));
        for (int d = 0; d < DIR_COUNT && n < cap; d++)
            n += snprintf(buf + n, (size_t)(cap - n), "%s%s", d ? " " : "",
                          pattern_name(ci->pattern[c][d]));
        if (n < cap)
            n += snprintf(buf + n, (size_t)(cap - n), ")");
    }
    if (n < cap)
        snprintf(buf + n, (size_t)(cap - n), "; score %d = attack %d + defence %d", ci->score,
                 ci->attack, ci->defence);
}

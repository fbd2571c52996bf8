/* eval/evaluate.c — static evaluation and explanations. */
#include "evaluate.h"

#include <stdio.h>

int32_t eval_static(const Pos *p) {
    const EvalWeights *wt = &EVAL_WEIGHTS[p->rule];
    int32_t v = pos_base_value(p) + wt->black;
    if (p->b.side == WHITE)
        v = -v;
    /* threats: the side to move converts its own first */
    return v + threat_value[p->rule][eval_threat_mask(p)] + wt->tempo;
}

void eval_features(const Pos *p, float *f) {
    for (int i = 0; i < EVAL_FEATURES; i++)
        f[i] = 0;
    const Board *b = &p->b;
    int side = b->side;
    float sg = side == BLACK ? 1.0f : -1.0f;
    for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++) {
            int m = board_move_at(b, x, y);
            if (b->cell[m] != EMPTY)
                continue;
            for (int c = 0; c < 2; c++) {
                int cls = p->c[m].p4[c];
                if (cls == P4_FORBID) /* worth nothing (weights.c) */
                    continue;
                float s = c == 0 ? sg : -sg;
                f[FEAT_P4 + cls] += s;
                for (int d = 0; d < DIR_COUNT; d++)
                    f[FEAT_PATTERN + pos_pattern(p, m, d, c + 1)] += s;
            }
        }
    for (int m = 0; m < b->cell_count; m++)
        for (int d = 0; d < DIR_COUNT; d++) {
            unsigned w = p->c[m].window[d], nb = w & 15, nw = w >> 4;
            if (nb && !nw && nb <= 4)
                f[FEAT_WINDOW + nb - 1] += sg / WINDOW_DIV;
            if (nw && !nb && nw <= 4)
                f[FEAT_WINDOW + nw - 1] -= sg / WINDOW_DIV;
        }
    bool on[3];
    threat_terms_of_mask(eval_threat_mask(p), on);
    for (int i = 0; i < 3; i++)
        f[FEAT_THREAT + i] = on[i];
    f[FEAT_TEMPO] = 1;
    f[FEAT_BLACK] = sg;
}

void eval_weights(Rule rule, double *w) {
    const EvalWeights *wt = &EVAL_WEIGHTS[rule];
    for (int i = 0; i < PAT_COUNT; i++)
        w[FEAT_PATTERN + i] = wt->pattern[i];
    for (int i = 0; i < P4_COUNT; i++)
        w[FEAT_P4 + i] = wt->p4[i];
    for (int i = 0; i < 4; i++)
        w[FEAT_WINDOW + i] = wt->window[i + 1];
    for (int i = 0; i < 3; i++)
        w[FEAT_THREAT + i] = wt->threat[i];
    w[FEAT_TEMPO] = wt->tempo;
    w[FEAT_BLACK] = wt->black;
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
        ci->attack = pcode_order[0][p->table[own]][p->c[m].pcode[own]];
        ci->defence = pcode_order[1][p->table[opp]][p->c[m].pcode[opp]];
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

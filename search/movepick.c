/* search/movepick.c */
#include "movepick.h"

#include <limits.h>
#include <string.h>

#include "params.h"
#include "search.h"

int movepick_generate(Pos *p, const OrderCtx *oc, ScoredMove *out, int cap, Move tt_move,
                      PickStage *mode) {
    Board *b = &p->b;
    int s = b->side, o = opponent(s), n = 0;
    ScoredMove *all = oc->scratch;
    *mode = STAGE_QUIET;
    if (pos_count(p, o, P4_FIVE)) {
        find_fives(p, o, &out[0].m, 1);
        out[0].score = 0;
        *mode = STAGE_FORCED;
        return 1;
    }
    if (!(oc->off & FEAT_DEFENCES) && has_flex4(p, o)) {
        bool complete;
        *mode = STAGE_DEFENCES;
        n = gen_defences(p, oc->marks, all, BOARD_MAX_CELLS, &complete);
        if (n == 0)
            return -1;
    } else if (!(oc->off & FEAT_DEFEND43) && pos_count(p, o, P4_BLOCK4_FLEX3) &&
               (n = gen_four_three_defences(p, oc->marks, all, BOARD_MAX_CELLS)) > 0) {
        *mode = STAGE_DEFENCES;
    } else {
        bool hist = oc->hist && !(oc->off & FEAT_HISTORY);
        const Move *k = oc->off & FEAT_KILLERS ? NULL : oc->killers;
        int nc;
        const Move *cand = board_candidates(b, &nc);
        for (int i = 0; i < nc; i++) {
            Move c = cand[i];
            if (!move_legal(p, c, s))
                continue;
            int sc = eval_move_score(p, c, s) * ORDER_SCORE_MUL;
            if (hist)
                sc += history_get(oc->hist, s, c) / ORDER_HISTORY_DIV;
            if (k)
                sc += c == k[0] ? ORDER_KILLER1 : c == k[1] ? ORDER_KILLER2 : 0;
            all[n].m = c;
            all[n++].score = sc;
        }
    }
    if (tt_move != MOVE_NONE)
        for (int i = 0; i < n; i++)
            if (all[i].m == tt_move) {
                all[i].score = INT_MAX;
                break;
            }
    if (n > cap) {
        select_top(all, n, cap);
        n = cap;
    }
    memcpy(out, all, sizeof *out * (size_t)n);
    return n;
}

int picker_init(MovePicker *mp, ScoredMove *buf, int cap, Pos *p, const OrderCtx *oc,
                Move tt_move) {
    int o = opponent(p->b.side);
    mp->list = buf;
    mp->next = 0;
    mp->cap = cap;
    mp->tt_move = tt_move;
    mp->pos = p;
    mp->oc = oc;
    mp->pending = false;
    bool quiet = !pos_count(p, o, P4_FIVE) && ((oc->off & FEAT_DEFENCES) || !has_flex4(p, o));
    if (quiet && cap > 1 && tt_move != MOVE_NONE && p->b.cell[tt_move] == EMPTY &&
        board_is_candidate(&p->b, tt_move) && move_legal(p, tt_move, p->b.side)) {
        /* the TT move alone; the rest when it has not cut off */
        buf[0] = (ScoredMove){tt_move, INT_MAX};
        mp->mode = mp->stage = STAGE_QUIET;
        mp->pending = true;
        return mp->n = 1;
    }
    mp->n = movepick_generate(p, oc, buf, cap, tt_move, &mp->mode);
    mp->stage = mp->mode;
    return mp->n;
}

/* The quiet moves after the TT move: generated behind it in the list. */
static void generate_rest(MovePicker *mp) {
    PickStage mode;
    int n = movepick_generate(mp->pos, mp->oc, mp->list + 1, mp->cap - 1, MOVE_NONE, &mode);
    for (int i = 0; i < n; i++)
        if (mp->list[1 + i].m == mp->tt_move) {
            mp->list[1 + i] = mp->list[n];
            n--;
            break;
        }
    mp->n = 1 + (n > 0 ? n : 0);
    mp->mode = mode; /* the rest may be the defences of a four-three */
    mp->pending = false;
}

int picker_init_fours(MovePicker *mp, ScoredMove *buf, int cap, Pos *p, Move near, bool any_four) {
    const Board *b = &p->b;
    int s = b->side, n = 0, k = 0;
    if (near > MOVE_PASS) {
        /* only the neighbourhood of the stone: no scan of every candidate */
        for (int i = 0; i < b->neigh_count && n < cap; i++) {
            Move c = (Move)(near + b->neigh[i]);
            if (b->cell[c] == EMPTY && makes_four(p, c, s))
                buf[n++].m = c;
        }
    } else {
        n = gen_threats(p, s, false, buf, cap);
    }
    for (int i = 0; i < n; i++) {
        Move c = buf[i].m;
        Pattern4 cls = pos_p4(p, c, s);
        if (!any_four && cls != P4_BLOCK4_PLUS && cls != P4_BLOCK4_FLEX3)
            continue;
        buf[k].m = c;
        buf[k++].score = eval_move_score(p, c, s);
    }
    mp->list = buf;
    mp->n = k;
    mp->next = 0;
    mp->tt_move = MOVE_NONE;
    mp->pending = false;
    mp->mode = mp->stage = STAGE_QFOURS;
    return k;
}

Move picker_next(MovePicker *mp) {
    if (mp->pending && mp->next == 1)
        generate_rest(mp);
    if (mp->next >= mp->n)
        return MOVE_NONE;
    pick_best(mp->list, mp->next, mp->n);
    Move m = mp->list[mp->next++].m;
    mp->stage = m == mp->tt_move && mp->mode != STAGE_FORCED ? STAGE_TT : mp->mode;
    return m;
}

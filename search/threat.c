/* search/threat.c — threat-space search: VCF (victory by continuous fours)
 * and VCT (by threes and fours), as yes/no solvers for the side to move.
 *
 * VCF: the attacker plays only fours; each four has one forced reply (the
 * five point); a defender whose block makes a four of its own forces the
 * attacker to answer it with a four, or the line fails. VCT: the attacker may
 * also play open threes; the defender then has every move that leaves the
 * attacker no open-four point, and every four of its own, and also wins the
 * argument if it has a VCF of its own. Renju: black never plays a forbidden
 * point, and white wins where black's only block is forbidden. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static bool over_budget(SearchThread *t) {
    if (t->threat_nodes >= t->threat_budget || t->aborted)
        return true;
    if ((t->threat_nodes & 255) == 0) {
        if (t->id == 0)
            search_check_time(t);
        if (atomic_load_explicit(&t->eng->stop, memory_order_relaxed) ||
            now_ns() >= t->threat_deadline_ns)
            t->aborted = true;
    }
    return t->aborted;
}

/* ---- failure cache: positions (key, side) proven to have no VCF at a depth ---- */

static bool vcf_known_fail(const SearchThread *t, uint64_t key, int depth) {
    uint64_t e = t->vcf_fail[key & (VCF_CACHE - 1)];
    return (e >> 8) == (key >> 8) && (int)(e & 0xFF) >= depth;
}

static void vcf_note_fail(SearchThread *t, uint64_t key, int depth) {
    t->vcf_fail[key & (VCF_CACHE - 1)] = (key & ~0xFFull) | (uint64_t)(depth > 255 ? 255 : depth);
}

static bool vcf_rec(SearchThread *t, int depth, Move *first);

/* What the fives decide for the attacker (side to move): 1 it has one (a
 * win, *first set), -1 the defender has two or more (no line goes on), 0 go
 * on; of[0] is then the defender's five point if *nof is 1. */
static int fives_first(Pos *p, Move *first, Move of[2], int *nof) {
    int s = p->b.side;
    Move m;
    if (find_fives(p, s, &m, 1)) {
        if (first)
            *first = m;
        return 1;
    }
    *nof = find_fives(p, opponent(s), of, 2);
    return *nof >= 2 ? -1 : 0;
}

/* The attacker (side to move) plays four f; the defender must block. */
static bool vcf_four(SearchThread *t, Move f, int depth) {
    Pos *p = &t->pos;
    int s = p->b.side, o = opponent(s);
    pos_play(p, f);
    t->threat_nodes++;
    Move five[2];
    int nf = find_fives(p, s, five, 2);
    bool win;
    if (nf >= 2)
        win = true; /* two five points: no single block */
    else if (nf == 0)
        win = false;
    else if (!move_legal(p, five[0], o))
        win = true; /* renju: black's only block is forbidden */
    else {
        pos_play(p, five[0]);
        win = vcf_rec(t, depth - 1, NULL);
        pos_undo(p);
    }
    pos_undo(p);
    return win;
}

static bool vcf_rec(SearchThread *t, int depth, Move *first) {
    Pos *p = &t->pos;
    Board *b = &p->b;
    int s = b->side, nof;
    Move m, of[2];
    int f = fives_first(p, first, of, &nof);
    if (f)
        return f > 0;
    if (nof) {
        /* we must block; the line goes on only if the block is a four */
        if (!move_legal(p, of[0], s) || !makes_four(p, of[0], s) || depth <= 0)
            return false;
        if (vcf_four(t, of[0], depth)) {
            if (first)
                *first = of[0];
            return true;
        }
        return false;
    }
    if (find_flex4(p, s, &m, 1)) {
        if (first)
            *first = m;
        return true;
    }
    if (depth <= 0 || over_budget(t))
        return false;
    int fours = pos_count(p, s, P4_BLOCK4) + pos_count(p, s, P4_BLOCK4_PLUS) +
                pos_count(p, s, P4_BLOCK4_FLEX3) + pos_count(p, s, P4_FORBID);
    if (!fours)
        return false;
    if (vcf_known_fail(t, b->key, depth))
        return false;
    ScoredMove list[64];
    int n = 0;
    for (int i = 0; i < b->cand_count && n < 64; i++) {
        Move c = b->cand[i];
        Pattern4 cls = pos_p4(p, c, s);
        if ((cls < P4_BLOCK4 && cls != P4_FORBID) || !makes_four(p, c, s))
            continue;
        list[n].m = c;
        list[n++].score = (int)cls * 1000 + eval_move_score(p, c, s);
    }
    for (int i = 0; i < n; i++) {
        pick_best(list, i, n);
        if (vcf_four(t, list[i].m, depth)) {
            if (first)
                *first = list[i].m;
            return true;
        }
        if (over_budget(t))
            return false; /* unknown: do not cache */
    }
    vcf_note_fail(t, b->key, depth);
    return false;
}

bool vcf_solve(SearchThread *t, int depth, Move *first) {
    Move m = MOVE_NONE;
    bool ok = vcf_rec(t, depth, &m);
    if (ok && first)
        *first = m;
    return ok && m != MOVE_NONE;
}

/* ---- VCT ---- */

enum { VCT_VCF_DEPTH = 12 };

static bool vct_rec(SearchThread *t, int depth, Move *first);

/* The attacker (side to move) plays a; true if every defence loses. */
static bool vct_attack(SearchThread *t, Move a, int depth) {
    Pos *p = &t->pos;
    int s = p->b.side, o = opponent(s);
    pos_play(p, a);
    t->threat_nodes++;
    bool win;
    Move five[2];
    int nf = find_fives(p, s, five, 2);
    if (nf >= 2) {
        win = true;
    } else if (nf == 1) {
        if (!move_legal(p, five[0], o))
            win = true;
        else {
            pos_play(p, five[0]);
            win = vct_rec(t, depth - 1, NULL);
            pos_undo(p);
        }
    } else if (!find_flex4(p, s, five, 1)) {
        win = false; /* no threat at all */
    } else if (vcf_rec(t, VCT_VCF_DEPTH, NULL)) {
        win = false; /* the defender wins first with fours */
    } else {
        int n = gen_defences(t);
        ScoredMove list[MAX_GEN];
        if (n > MAX_GEN)
            n = MAX_GEN;
        memcpy(list, t->scratch, sizeof *list * (size_t)n);
        win = true;
        for (int i = 0; i < n && win; i++) {
            pick_best(list, i, n);
            pos_play(p, list[i].m);
            win = vct_rec(t, depth - 1, NULL);
            pos_undo(p);
            if (over_budget(t))
                win = false;
        }
    }
    pos_undo(p);
    return win && !t->aborted; /* an interrupted search proves nothing */
}

static bool vct_rec(SearchThread *t, int depth, Move *first) {
    Pos *p = &t->pos;
    Board *b = &p->b;
    int s = b->side, nof;
    Move m, of[2];
    int f = fives_first(p, first, of, &nof);
    if (f)
        return f > 0;
    if (nof) {
        /* forced to block: the attack goes on only if the block keeps a threat */
        if (!move_legal(p, of[0], s) || depth <= 0)
            return false;
        if (vct_attack(t, of[0], depth)) {
            if (first)
                *first = of[0];
            return true;
        }
        return false;
    }
    if (find_flex4(p, s, &m, 1)) {
        if (first)
            *first = m;
        return true;
    }
    if (vcf_rec(t, VCT_VCF_DEPTH, first))
        return true;
    if (depth <= 1 || over_budget(t))
        return false;
    /* threes are tried even against an open three of the opponent: one that
     * also blocks it is a real threat, and vct_attack refutes the others
     * (the defender's open four or VCF comes first) */
    ScoredMove list[MAX_GEN];
    int n = 0;
    for (int i = 0; i < b->cand_count && n < MAX_GEN; i++) {
        Move c = b->cand[i];
        Pattern4 cls = pos_p4(p, c, s);
        bool four = makes_four(p, c, s);
        if (!four && !makes_three(p, c, s))
            continue;
        list[n].m = c;
        list[n++].score = (int)cls * 1000 + eval_move_score(p, c, s);
    }
    for (int i = 0; i < n; i++) {
        pick_best(list, i, n);
        if (vct_attack(t, list[i].m, depth)) {
            if (first)
                *first = list[i].m;
            return true;
        }
        if (over_budget(t))
            return false;
    }
    return false;
}

bool vct_solve(SearchThread *t, int depth, Move *first) {
    Move m = MOVE_NONE;
    bool ok = vct_rec(t, depth, &m);
    if (ok && first)
        *first = m;
    return ok && m != MOVE_NONE;
}

bool search_vcf_first_moves(const Pos *p, Move m, uint64_t budget, bool *wins, Move *first_win) {
    SearchThread *t = calloc(1, sizeof *t);
    Engine *e = engine_new();
    if (!t || !e) {
        free(t);
        engine_free(e);
        return false;
    }
    t->eng = e;
    t->threat_deadline_ns = INT64_MAX;
    memcpy(&t->pos, p, sizeof *p);
    Pos *q = &t->pos;
    int s = q->b.side;
    t->threat_budget = budget;
    Move f = MOVE_NONE;
    if (first_win)
        *first_win = vcf_solve(t, 120, &f) ? f : MOVE_NONE;
    *wins = false;
    if (q->b.cell[m] == EMPTY && move_legal(q, m, s)) {
        Move tmp;
        t->threat_nodes = 0;
        t->aborted = false;
        if (find_fives(q, s, &tmp, 1) && tmp == m)
            *wins = true;
        else if (makes_four(q, m, s))
            *wins = vcf_four(t, m, 120);
    }
    bool complete = !t->aborted;
    free(t);
    engine_free(e);
    return complete;
}

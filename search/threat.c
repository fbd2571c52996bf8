/* search/threat.c — VCF and VCT solvers.
 *
 * VCF: the attacker plays only fours; each four has one forced reply (the
 * five point); a defender whose block makes a four of its own forces the
 * attacker to answer it with a four, or the line fails. VCT: the attacker may
 * also play open threes; the defender then has every move that leaves the
 * attacker no open-four point, and every four of its own, and also wins the
 * argument if it has a VCF of its own. Renju: black never plays a forbidden
 * point, and white wins where black's only block is forbidden. */
#include "threat.h"

#include <stdlib.h>
#include <string.h>

#include "../brain/util.h"
#include "params.h"

void threat_ctx_init(ThreatCtx *c, Pos *p, Marks *marks, uint64_t *fail_cache) {
    memset(c, 0, sizeof *c);
    c->pos = p;
    c->budget = UINT64_MAX;
    c->deadline_ns = INT64_MAX;
    c->marks = marks;
    c->fail_cache = fail_cache;
}

static bool over_budget(ThreatCtx *c) {
    if (c->nodes >= c->budget || c->aborted)
        return true;
    if ((c->nodes & 255) == 0 &&
        ((c->stop && atomic_load_explicit(c->stop, memory_order_relaxed)) ||
         now_ns() >= c->deadline_ns))
        c->aborted = true;
    return c->aborted;
}

/* ---- failure cache: positions (key, side) proven to have no VCF at a depth ---- */

static bool vcf_known_fail(const ThreatCtx *c, uint64_t key, int depth) {
    uint64_t e = c->fail_cache[key & (VCF_FAIL_CACHE - 1)];
    return (e >> 8) == (key >> 8) && (int)(e & 0xFF) >= depth;
}

static void vcf_note_fail(ThreatCtx *c, uint64_t key, int depth) {
    c->fail_cache[key & (VCF_FAIL_CACHE - 1)] = (key & ~0xFFull) | (uint64_t)(depth > 255 ? 255 : depth);
}

static bool vcf_rec(ThreatCtx *c, int depth, Move *first);
static bool vct_rec(ThreatCtx *c, int depth, Move *first);

static void set_first(Move *first, Move m) {
    if (first)
        *first = m;
}

/* The attacker (side to move) plays threat a; the defender answers. VCF:
 * the threat is a four, and the defender's only reply its block. VCT: an
 * open three leaves the defender every defence (and its own VCF first). */
static bool attack(ThreatCtx *c, Move a, int depth, bool vct) {
    Pos *p = c->pos;
    int s = p->b.side;
    pos_play(p, a);
    c->nodes++;
    Move blk;
    bool win;
    int ft = five_threat(p, s, &blk);
    if (ft == FIVE_UNSTOPPABLE) {
        win = true;
    } else if (ft == FIVE_BLOCKABLE) {
        pos_play(p, blk);
        win = vct ? vct_rec(c, depth - 1, NULL) : vcf_rec(c, depth - 1, NULL);
        pos_undo(p);
    } else if (!vct || !has_flex4(p, s)) {
        win = false; /* no threat at all */
    } else if (vcf_rec(c, VCT_VCF_DEPTH, NULL)) {
        win = false; /* the defender wins first with fours */
    } else {
        ScoredMove list[MAX_GEN];
        bool complete;
        int n = gen_defences(p, c->marks, list, MAX_GEN, &complete);
        win = complete; /* a defence left untried proves nothing */
        for (int i = 0; i < n && win; i++) {
            pick_best(list, i, n);
            pos_play(p, list[i].m);
            win = vct_rec(c, depth - 1, NULL);
            pos_undo(p);
            if (over_budget(c))
                win = false;
        }
    }
    pos_undo(p);
    /* a VCT interrupted among the defences proves nothing; a VCF line's win
     * is a proven five */
    return win && !(vct && c->aborted);
}

/* What the fives decide at an attacker's node: 1 a win (*first set), -1 a
 * loss of the line, 0 go on; *block is then the forced block or MOVE_NONE. */
static int fives_first(ThreatCtx *c, Move *first, Move *block) {
    Pos *p = c->pos;
    int s = p->b.side;
    Move m;
    *block = MOVE_NONE;
    if (find_fives(p, s, &m, 1)) {
        set_first(first, m);
        return 1;
    }
    int ft = five_threat(p, opponent(s), &m);
    if (ft == FIVE_UNSTOPPABLE)
        return -1;
    if (ft == FIVE_BLOCKABLE)
        *block = m;
    return 0;
}

static bool vcf_rec(ThreatCtx *c, int depth, Move *first) {
    Pos *p = c->pos;
    Board *b = &p->b;
    int s = b->side;
    Move m, blk;
    int f = fives_first(c, first, &blk);
    if (f)
        return f > 0;
    if (blk != MOVE_NONE) {
        /* we must block; the line goes on only if the block is a four */
        if (!makes_four(p, blk, s) || depth <= 0 || !attack(c, blk, depth, false))
            return false;
        set_first(first, blk);
        return true;
    }
    if (find_flex4(p, s, &m, 1)) {
        set_first(first, m);
        return true;
    }
    if (depth <= 0 || over_budget(c) || !four_cells(p, s) || vcf_known_fail(c, b->key, depth))
        return false;
    ScoredMove list[GEN_FOURS_MAX];
    int n = gen_threats(p, s, false, list, GEN_FOURS_MAX);
    for (int i = 0; i < n; i++) {
        pick_best(list, i, n);
        if (attack(c, list[i].m, depth, false)) {
            set_first(first, list[i].m);
            return true;
        }
        if (over_budget(c))
            return false; /* unknown: do not cache */
    }
    vcf_note_fail(c, b->key, depth);
    return false;
}

bool vcf_solve(ThreatCtx *c, int depth, Move *first) {
    Move m = MOVE_NONE;
    bool ok = vcf_rec(c, depth, &m);
    if (ok && first)
        *first = m;
    return ok && m != MOVE_NONE;
}

static bool vct_rec(ThreatCtx *c, int depth, Move *first) {
    Pos *p = c->pos;
    int s = p->b.side;
    Move m, blk;
    int f = fives_first(c, first, &blk);
    if (f)
        return f > 0;
    if (blk != MOVE_NONE) {
        /* forced to block: the attack goes on only if the block keeps a threat */
        if (depth <= 0 || !attack(c, blk, depth, true))
            return false;
        set_first(first, blk);
        return true;
    }
    if (find_flex4(p, s, &m, 1)) {
        set_first(first, m);
        return true;
    }
    if (vcf_rec(c, VCT_VCF_DEPTH, first))
        return true;
    if (depth <= 1 || over_budget(c))
        return false;
    /* threes are tried even against an open three of the opponent: one that
     * also blocks it is a real threat, and attack() refutes the others (the
     * defender's open four or VCF comes first) */
    ScoredMove list[MAX_GEN];
    int n = gen_threats(p, s, true, list, MAX_GEN);
    for (int i = 0; i < n; i++) {
        pick_best(list, i, n);
        if (attack(c, list[i].m, depth, true)) {
            set_first(first, list[i].m);
            return true;
        }
        if (over_budget(c))
            return false;
    }
    return false;
}

bool vct_solve(ThreatCtx *c, int depth, Move *first) {
    Move m = MOVE_NONE;
    bool ok = vct_rec(c, depth, &m);
    if (ok && first)
        *first = m;
    return ok && m != MOVE_NONE;
}

int vct_solve_deepening(ThreatCtx *c, int max_depth, uint64_t step_budget, Move *first) {
    int side = c->pos->b.side;
    for (int d = 2; d <= max_depth && now_ns() < c->deadline_ns; d++) {
        c->budget = c->nodes + step_budget;
        Move m = MOVE_NONE;
        if (vct_solve(c, d, &m) && move_legal(c->pos, m, side)) {
            *first = m;
            return d;
        }
        if (c->stop && atomic_load(c->stop))
            break;
        if (c->nodes >= c->budget)
            break; /* the next depth would cost more still */
    }
    return 0;
}

bool threat_vcf_first_moves(const Pos *p, Move m, uint64_t budget, bool *wins, Move *first_win) {
    Pos *q = malloc(sizeof *q);
    Marks *mk = calloc(1, sizeof *mk);
    uint64_t *cache = calloc(VCF_FAIL_CACHE, sizeof *cache);
    bool complete = false;
    *wins = false;
    if (q && mk && cache) {
        memcpy(q, p, sizeof *p);
        ThreatCtx c;
        threat_ctx_init(&c, q, mk, cache);
        c.budget = budget;
        int s = q->b.side;
        Move f = MOVE_NONE;
        if (first_win)
            *first_win = vcf_solve(&c, VCF_ROOT_DEPTH, &f) ? f : MOVE_NONE;
        if (q->b.cell[m] == EMPTY && move_legal(q, m, s)) {
            Move tmp;
            c.nodes = 0;
            c.aborted = false;
            if (find_fives(q, s, &tmp, 1) && tmp == m)
                *wins = true;
            else if (makes_four(q, m, s))
                *wins = attack(&c, m, VCF_ROOT_DEPTH, false);
        }
        complete = !c.aborted;
    }
    free(cache);
    free(mk);
    free(q);
    return complete;
}

/* search/movegen.c */
#include "movegen.h"

#include <stdlib.h>
#include <string.h>

#include "params.h"

void marks_next(Marks *mk) {
    if (++mk->gen == 0) {
        memset(mk->mark, 0, sizeof mk->mark);
        mk->gen = 1;
    }
}

/* Renju black: does the FORBID-class cell m hold pattern a or b on some line
 * while not truly forbidden (a false three-three or the like)? */
static bool legal_forbid_holding(Pos *p, Move m, int colour, Pattern a, Pattern b) {
    for (int d = 0; d < DIR_COUNT; d++) {
        Pattern pt = pos_pattern(p, m, d, colour);
        if (pt == a || pt == b)
            return move_legal(p, m, colour);
    }
    return false;
}

bool makes_four(Pos *p, Move m, int colour) {
    Pattern4 cls = pos_p4(p, m, colour);
    if (cls >= P4_BLOCK4 && cls <= P4_FLEX4)
        return true;
    return cls == P4_FORBID && legal_forbid_holding(p, m, colour, PAT_B4, PAT_F4);
}

bool makes_three(Pos *p, Move m, int colour) {
    Pattern4 cls = pos_p4(p, m, colour);
    if (cls == P4_FLEX3 || cls == P4_FLEX3_PLUS || cls == P4_FLEX3_2X)
        return true;
    return cls == P4_FORBID && legal_forbid_holding(p, m, colour, PAT_F3, PAT_F3S);
}

int find_fives(const Pos *p, int colour, Move *out, int max) {
    int n = 0, have = pos_count(p, colour, P4_FIVE);
    if (have < max)
        max = have; /* the counter knows how many there are: no scan for none */
    const Board *b = &p->b;
    int nc;
    const Move *cand = board_candidates(b, &nc);
    for (int i = 0; i < nc && n < max; i++)
        if (p->c[cand[i]].p4[colour - 1] == P4_FIVE)
            out[n++] = cand[i];
    return n;
}

int find_flex4(Pos *p, int colour, Move *out, int max) {
    const Board *b = &p->b;
    int n = 0;
    bool hidden = p->rule == RULE_RENJU && colour == BLACK && pos_count(p, BLACK, P4_FORBID);
    if (!pos_count(p, colour, P4_FLEX4) && !hidden)
        return 0;
    int nc;
    const Move *cand = board_candidates(b, &nc);
    for (int i = 0; i < nc && n < max; i++) {
        Move c = cand[i];
        Pattern4 cls = pos_p4(p, c, colour);
        if (cls == P4_FLEX4)
            out[n++] = c;
        else if (hidden && cls == P4_FORBID && legal_forbid_holding(p, c, colour, PAT_F4, PAT_F4))
            out[n++] = c;
    }
    return n;
}

bool has_flex4(Pos *p, int colour) {
    if (pos_count(p, colour, P4_FLEX4))
        return true; /* FLEX4 cells are candidates: find_flex4 finds one */
    Move m;
    return p->rule == RULE_RENJU && colour == BLACK && find_flex4(p, colour, &m, 1);
}

int five_threat(Pos *p, int colour, Move *block) {
    int have = pos_count(p, colour, P4_FIVE);
    if (have == 0)
        return FIVE_NONE;
    if (have == 1) {
        /* one five point, most often on a line through colour's last stone */
        const Board *b = &p->b;
        Move last = b->ply > 0 ? b->history[b->ply - 1] : MOVE_NONE;
        bool found = false;
        if (last > MOVE_PASS && b->cell[last] == colour)
            for (int d = 0; d < DIR_COUNT && !found; d++)
                for (int k = -4; k <= 4 && !found; k++) {
                    Move c = (Move)(last + k * b->dir[d]);
                    if (k != 0 && b->cell[c] == EMPTY && pos_p4(p, c, colour) == P4_FIVE)
                        *block = c, found = true;
                }
        if (!found)
            find_fives(p, colour, block, 1);
        return move_legal(p, *block, opponent(colour)) ? FIVE_BLOCKABLE : FIVE_UNSTOPPABLE;
    }
    find_fives(p, colour, block, 1);
    return FIVE_UNSTOPPABLE;
}

int gen_threats(Pos *p, int colour, bool threes, ScoredMove *out, int cap) {
    const Board *b = &p->b;
    int n = 0;
    int nc;
    const Move *cand = board_candidates(b, &nc);
    for (int i = 0; i < nc && n < cap; i++) {
        Move c = cand[i];
        Pattern4 cls = pos_p4(p, c, colour);
        if (threes) {
            if (!makes_four(p, c, colour) && !makes_three(p, c, colour))
                continue;
        } else if ((cls < P4_BLOCK4 && cls != P4_FORBID) || !makes_four(p, c, colour))
            continue;
        out[n].m = c;
        out[n++].score = (int)cls * THREAT_CLASS_MUL + eval_move_score(p, c, colour);
    }
    return n;
}

/* A defence list's first part: the side to move's fours, marked (new marks),
 * scored first; at most cap, *complete false when there were more. */
static int own_fours_first(Pos *p, Marks *mk, ScoredMove *out, int cap, bool *complete) {
    const Board *b = &p->b;
    int s = b->side, n = 0;
    *complete = true;
    marks_next(mk);
    if (!four_cells(p, s) && !pos_count(p, s, P4_FLEX4))
        return 0; /* the counters hold no four */
    int nc;
    const Move *cand = board_candidates(b, &nc);
    for (int i = 0; i < nc; i++) {
        Move c = cand[i];
        if (makes_four(p, c, s)) {
            mk->mark[c] = mk->gen;
            if (n == cap) {
                *complete = false;
                continue;
            }
            out[n].m = c;
            out[n++].score = DEFENCE_OWN_FOUR + eval_move_score(p, c, s);
        }
    }
    return n;
}

/* The threat class empty cell m would have for colour after a stone of
 * colour by on empty cell c (c != m), read from m's line key with c filled in
 * instead of playing c: only the line through both can change. Not for renju
 * black, whose classes need the forbidden-point rules. */
static Pattern4 p4_after(const Pos *p, Move m, int colour, Move c, int by) {
    const Board *b = &p->b;
    int dx = board_x(b, c) - board_x(b, m), dy = board_y(b, c) - board_y(b, m), d, k;
    if (dy == 0)
        d = 0, k = dx;
    else if (dx == 0)
        d = 1, k = dy;
    else if (dx == dy)
        d = 2, k = dy;
    else if (dx == -dy)
        d = 3, k = dy;
    else
        return pos_p4(p, m, colour);
    if (k < -5 || k > 5)
        return pos_p4(p, m, colour);
    int t = p->table[colour - 1];
    uint32_t key = p->c[m].key[d] | (uint32_t)by << (k < 0 ? 2 * (-k - 1) : 10 + 2 * (k - 1));
    Pattern q[DIR_COUNT];
    for (int e = 0; e < DIR_COUNT; e++)
        q[e] = e == d ? pattern_fast(t, colour, key) : pos_pattern(p, m, e, colour);
    return pattern4_of(t, pattern_code(q[0], q[1], q[2], q[3]));
}

/* Does a stone of s on empty cell c leave none of the opponent o's open-four
 * points f[0..n) one? A stone only takes away from the opponent, so the
 * open-four points afterwards are among these; except that a white one can
 * make a forbidden point of renju black's legal: there a false answer is
 * exact (a point of the list is still an open four) and a true one must be
 * confirmed by playing. */
static bool blocks_flex4s(const Pos *p, Move c, int s, int o, const Move *f, int n) {
    for (int i = 0; i < n; i++)
        if (f[i] != c && p4_after(p, f[i], o, c, s) == P4_FLEX4)
            return false;
    return true;
}

int gen_defences(Pos *p, Marks *mk, ScoredMove *out, int cap, bool *complete) {
    Board *b = &p->b;
    int s = b->side, o = opponent(s);
    int n = own_fours_first(p, mk, out, cap, complete);
    /* the threat points first: playing and undoing below reorders b->cand */
    Move threat[64];
    int threats = find_flex4(p, o, threat, 64);
    bool fast = threats < 64 && !(p->rule == RULE_RENJU && o == BLACK);
    for (int i = 0; i < threats; i++) {
        Move f = threat[i];
        for (int d = 0; d < DIR_COUNT; d++) {
            Pattern pt = pos_pattern(p, f, d, o);
            if (pt != PAT_B4 && pt != PAT_F4)
                continue;
            int off = b->dir[d];
            for (int k = -5; k <= 5; k++) {
                int c = f + k * off;
                if (b->cell[c] != EMPTY || mk->mark[c] == mk->gen)
                    continue;
                mk->mark[c] = mk->gen;
                if (!move_legal(p, (Move)c, s))
                    continue;
                /* a threat point that stays an open four after c proves c
                 * no defence; where the list may be short (renju black's
                 * forbidden points turning legal, or a full list) a move
                 * that passes is played to see */
                bool ok = blocks_flex4s(p, (Move)c, s, o, threat, threats);
                if (ok && !fast) {
                    pos_play(p, (Move)c);
                    ok = !has_flex4(p, o);
                    pos_undo(p);
                }
                if (!ok)
                    continue;
                if (n == cap) {
                    *complete = false;
                    continue;
                }
                out[n].m = (Move)c;
                out[n++].score = DEFENCE_BLOCK + eval_move_score(p, (Move)c, s);
            }
        }
    }
    return n;
}

/* colour, to move, plays its four-three point c: true when its four leaves
 * one five point (*five), its three is real (renju black: the open four it
 * threatens is not forbidden), and, with block_free, the forced block makes
 * no four of the opponent's (or is forbidden to it): then it wins in five.
 * The block cannot touch the three: it lies on the four's line, which meets
 * the three's only at c. */
static bool four_three_probe(Pos *p, Move c, int colour, bool block_free, Move *five) {
    pos_play(p, c);
    Move f = MOVE_NONE;
    bool ok = find_fives(p, colour, &f, 1) == 1 &&
              (p->rule != RULE_RENJU || colour == WHITE || has_flex4(p, colour)) &&
              (!block_free || !makes_four(p, f, opponent(colour)));
    pos_undo(p);
    *five = f;
    return ok;
}

/* colour's four-three points, at most max (collected before any is played:
 * playing reorders the candidates). */
static int four_three_points(const Pos *p, int colour, Move *out, int max) {
    const Board *b = &p->b;
    int n = 0, have = pos_count(p, colour, P4_BLOCK4_FLEX3);
    if (have < max)
        max = have;
    int nc;
    const Move *cand = board_candidates(b, &nc);
    for (int i = 0; i < nc && n < max; i++)
        if (p->c[cand[i]].p4[colour - 1] == P4_BLOCK4_FLEX3)
            out[n++] = cand[i];
    return n;
}

int gen_four_three_defences(Pos *p, Marks *mk, ScoredMove *out, int cap) {
    Board *b = &p->b;
    int s = b->side, o = opponent(s);
    Move pts[8], x = MOVE_NONE, y = MOVE_NONE;
    int k = four_three_points(p, o, pts, 8);
    /* the first real one (a block that is a four of ours is met below, by
     * the counter-four cells) */
    pos_pass(p);
    for (int i = 0; i < k && x == MOVE_NONE; i++)
        if (four_three_probe(p, pts[i], o, false, &y))
            x = pts[i];
    pos_undo(p);
    /* none, or our forced block would itself be a four: no direct defence */
    if (x == MOVE_NONE || makes_four(p, y, s))
        return 0;
    bool complete;
    int n = own_fours_first(p, mk, out, cap, &complete);
    /* the cells within four of the point and of its four's five point, on
     * every line (the five point itself is on a line through the point): a
     * move there defends when afterwards the point is no four-three, or our
     * block of the four would make a four of ours */
    Move centre[2] = {x, y};
    for (int ci = 0; ci < 2; ci++)
        for (int d = 0; d < DIR_COUNT; d++)
            for (int j = -4; j <= 4; j++) {
                int c = centre[ci] + j * b->dir[d];
                if (b->cell[c] != EMPTY || mk->mark[c] == mk->gen)
                    continue;
                mk->mark[c] = mk->gen;
                if (!move_legal(p, (Move)c, s))
                    continue;
                bool ok = c == x;
                if (!ok) {
                    Pattern4 fy = c == y ? P4_NONE : p4_after(p, y, s, (Move)c, s);
                    ok = p4_after(p, x, o, (Move)c, s) < P4_BLOCK4_FLEX3 || (fy >= P4_BLOCK4 && fy <= P4_FLEX4);
                    /* renju black's forbidden-class point may still be a
                     * legal four: only playing tells */
                    if (!ok && fy == P4_FORBID) {
                        pos_play(p, (Move)c);
                        ok = makes_four(p, y, s);
                        pos_undo(p);
                    }
                }
                if (ok && n < cap) {
                    out[n].m = (Move)c;
                    out[n++].score = DEFENCE_BLOCK + eval_move_score(p, (Move)c, s);
                }
            }
    return n;
}

int32_t quick_result(Pos *p, int ply, bool win5) {
    int s = p->b.side, o = opponent(s);
    if (pos_count(p, s, P4_FIVE))
        return VALUE_MATE - ply - 1;
    Move blk;
    int of = five_threat(p, o, &blk);
    if (of == FIVE_UNSTOPPABLE)
        return -(VALUE_MATE - ply - 2);
    if (of == FIVE_BLOCKABLE)
        return VALUE_NONE;
    if (has_flex4(p, s))
        return VALUE_MATE - ply - 3;
    /* a four-three, or a double three, wins in 5 when the opponent has no
     * four to gain a tempo with (the forced block cannot touch the three's
     * line). Renju black's threes need a forbidden-point probe: not here. */
    if (win5 && (pos_count(p, s, P4_BLOCK4_FLEX3) || pos_count(p, s, P4_FLEX3_2X)) &&
        (p->rule != RULE_RENJU || s == WHITE) && !four_cells(p, o) && !pos_count(p, o, P4_FLEX4))
        return VALUE_MATE - ply - 5;
    /* a four-three whose block makes no four of the opponent's wins in five
     * too, whatever fours it has elsewhere: the block is forced, then the
     * open four comes first (Rapfi's probe) */
    if (win5 && pos_count(p, s, P4_BLOCK4_FLEX3)) {
        Move pts[8];
        int k = four_three_points(p, s, pts, 8);
        Move five;
        for (int i = 0; i < k; i++)
            if (four_three_probe(p, pts[i], s, true, &five))
                return VALUE_MATE - ply - 5;
    }
    return VALUE_NONE;
}

static int cmp_scored(const void *a, const void *b) {
    const ScoredMove *x = a, *y = b;
    if (x->score != y->score)
        return x->score < y->score ? 1 : -1;
    return (int)x->m - (int)y->m;
}

void sort_moves(ScoredMove *list, int n) { qsort(list, (size_t)n, sizeof *list, cmp_scored); }

void select_top(ScoredMove *list, int n, int keep) {
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        ScoredMove pivot = list[(lo + hi) / 2];
        int i = lo, j = hi;
        while (i <= j) {
            while (cmp_scored(&list[i], &pivot) < 0)
                i++;
            while (cmp_scored(&list[j], &pivot) > 0)
                j--;
            if (i <= j) {
                ScoredMove x = list[i];
                list[i++] = list[j];
                list[j--] = x;
            }
        }
        if (keep - 1 <= j)
            hi = j;
        else if (keep - 1 >= i)
            lo = i;
        else
            break;
    }
}

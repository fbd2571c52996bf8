/* search/search.c — iterative deepening over a negamax PVS alpha-beta (or
 * MTD(f) over the same zero-window search), threat-restricted move
 * generation, a quiescence of fours at the leaves, a shared transposition
 * table, and lazy SMP helper threads. */
#include "search.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

/* ---- tunables (search) ---- */
enum {
    QS_MAX_PLY = 20,          /* plies of fours in the quiescence */
    QS_FREE_PLY = 2,          /* quiescence plies before fours must be near the last own stone */
    QS_PLAIN_PLY = 6,         /* plies after which a four must also make a three or two */
    ASPIRATION_FROM = 5,      /* depth where aspiration windows start */
    ASPIRATION_DELTA = 40,
    LMR_MIN_DEPTH = 3,
    FUTILITY_MAX_DEPTH = 3,
    FUTILITY_MARGIN = 220,
    RANDOM_MARGIN = 12,       /* root moves within this of the best may be chosen */
    HISTORY_MAX = 16384,
    VCF_ROOT_DEPTH = 120,     /* own fours: problem VCFs run past 50 */
    VCT_ROOT_MAX_DEPTH = 12,  /* own threats */
};

int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void search_limits_default(SearchLimits *l) {
    memset(l, 0, sizeof *l);
    l->turn_ms = 5000;
    l->time_left_ms = INT64_MAX;
    l->threads = 1;
    l->driver = DRIVER_AUTO;
    l->use_vct = true;
}

/* ---- helpers shared with threat.c ---- */

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

int find_fives(const Pos *p, int colour, Move *out, int max) {
    int n = 0;
    const Board *b = &p->b;
    for (int i = 0; i < b->cand_count && n < max; i++)
        if (p->c[b->cand[i]].p4[colour - 1] == P4_FIVE)
            out[n++] = b->cand[i];
    return n;
}

int find_flex4(Pos *p, int colour, Move *out, int max) {
    const Board *b = &p->b;
    int n = 0;
    bool hidden = p->rule == RULE_RENJU && colour == BLACK && pos_count(p, BLACK, P4_FORBID);
    if (!pos_count(p, colour, P4_FLEX4) && !hidden)
        return 0;
    for (int i = 0; i < b->cand_count && n < max; i++) {
        Move c = b->cand[i];
        Pattern4 cls = pos_p4(p, c, colour);
        if (cls == P4_FLEX4)
            out[n++] = c;
        else if (hidden && cls == P4_FORBID && legal_forbid_holding(p, c, colour, PAT_F4, PAT_F4))
            out[n++] = c;
    }
    return n;
}

bool makes_three(Pos *p, Move m, int colour) {
    Pattern4 cls = pos_p4(p, m, colour);
    if (cls == P4_FLEX3 || cls == P4_FLEX3_PLUS || cls == P4_FLEX3_2X)
        return true;
    return cls == P4_FORBID && legal_forbid_holding(p, m, colour, PAT_F3, PAT_F3S);
}

static inline int32_t value_to_tt(int32_t v, int ply) {
    return v >= VALUE_MATE_MIN ? v + ply : v <= -VALUE_MATE_MIN ? v - ply : v;
}
static inline int32_t value_from_tt(int32_t v, int ply) {
    return v >= VALUE_MATE_MIN ? v - ply : v <= -VALUE_MATE_MIN ? v + ply : v;
}

/* ---- time ---- */

void search_check_time(SearchThread *t) {
    Engine *e = t->eng;
    if (e->hard_limit && now_ns() >= e->hard_ns)
        atomic_store(&e->stop, true);
    if (e->limits.max_nodes) {
        uint64_t n = 0;
        for (int i = 0; i < e->thread_count; i++)
            n += node_count(e->threads[i]);
        if (n >= e->limits.max_nodes)
            atomic_store(&e->stop, true);
    }
}

static inline bool should_abort(SearchThread *t) {
    if (t->done_depth == 0 && t->id == 0)
        return false; /* depth 1 always completes: there is always a searched move */
    if (t->id == 0 && (node_count(t) & 1023) == 0)
        search_check_time(t);
    if (atomic_load_explicit(&t->eng->stop, memory_order_relaxed))
        t->aborted = true;
    return t->aborted;
}

/* ---- quick results: what the threat counters prove at once ---- */

enum { VALUE_NONE = INT_MIN };

static int32_t quick_result(Pos *p, int ply, bool win5) {
    int s = p->b.side, o = opponent(s);
    if (pos_count(p, s, P4_FIVE))
        return VALUE_MATE - ply - 1;
    int of = pos_count(p, o, P4_FIVE);
    if (of >= 2)
        return -(VALUE_MATE - ply - 2);
    if (of == 1) {
        Move blk = MOVE_NONE;
        find_fives(p, o, &blk, 1);
        if (!move_legal(p, blk, s))
            return -(VALUE_MATE - ply - 2);
        return VALUE_NONE;
    }
    Move f;
    if (find_flex4(p, s, &f, 1))
        return VALUE_MATE - ply - 3;
    /* a four-three, or a double three, wins in 5 when the opponent has no
     * four to gain a tempo with (the forced block cannot touch the three's
     * line). Renju black's threes need a forbidden-point probe: not here. */
    if (win5 && (pos_count(p, s, P4_BLOCK4_FLEX3) || pos_count(p, s, P4_FLEX3_2X)) &&
        (p->rule != RULE_RENJU || s == WHITE) && !pos_count(p, o, P4_BLOCK4) &&
        !pos_count(p, o, P4_BLOCK4_PLUS) && !pos_count(p, o, P4_BLOCK4_FLEX3) &&
        !pos_count(p, o, P4_FLEX4) && !pos_count(p, o, P4_FORBID))
        return VALUE_MATE - ply - 5;
    return VALUE_NONE;
}

/* ---- move generation ---- */

static int cmp_scored(const void *a, const void *b) {
    const ScoredMove *x = a, *y = b;
    if (x->score != y->score)
        return x->score < y->score ? 1 : -1;
    return (int)x->m - (int)y->m;
}

static void sort_moves(ScoredMove *list, int n) { qsort(list, (size_t)n, sizeof *list, cmp_scored); }

/* Keep the best `keep` of list[0..n) in list[0..keep) (quickselect). */
static void select_top(ScoredMove *list, int n, int keep) {
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

static inline void mark_next(SearchThread *t) {
    if (++t->mark_gen == 0) {
        memset(t->mark, 0, sizeof t->mark);
        t->mark_gen = 1;
    }
}

/* Defences against the opponent's open-four points (their open threes): the
 * moves after which the opponent has none left, plus all our fours. Sound
 * and complete: a defence must change a line through one of those points. */
int gen_defences(SearchThread *t) {
    ScoredMove *list = t->scratch;
    Pos *p = &t->pos;
    Board *b = &p->b;
    int s = b->side, o = opponent(s), n = 0;
    mark_next(t);
    for (int i = 0; i < b->cand_count; i++) {
        Move c = b->cand[i];
        if (makes_four(p, c, s)) {
            t->mark[c] = t->mark_gen;
            list[n].m = c;
            list[n++].score = 100000 + eval_move_score(p, c, s);
        }
    }
    /* the threat points first: playing and undoing below reorders b->cand */
    Move threat[64];
    int threats = find_flex4(p, o, threat, 64);
    for (int i = 0; i < threats; i++) {
        Move f = threat[i];
        for (int d = 0; d < DIR_COUNT; d++) {
            Pattern pt = pos_pattern(p, f, d, o);
            if (pt != PAT_B4 && pt != PAT_F4)
                continue;
            int off = b->dir[d];
            for (int k = -5; k <= 5; k++) {
                int c = f + k * off;
                if (b->cell[c] != EMPTY || t->mark[c] == t->mark_gen)
                    continue;
                t->mark[c] = t->mark_gen;
                if (!move_legal(p, (Move)c, s))
                    continue;
                pos_play(p, (Move)c);
                Move left;
                bool ok = find_flex4(p, o, &left, 1) == 0;
                pos_undo(p);
                if (ok) {
                    list[n].m = (Move)c;
                    list[n++].score = 50000 + eval_move_score(p, (Move)c, s);
                }
            }
        }
    }
    return n;
}

/* The moves of the side to move, unordered (pick_best orders them lazily), at
 * most `cap` (the best by score). Returns -1 when the side to move has no
 * defence (it is lost). *forced is set for a single forced block. */
static int generate(SearchThread *t, ScoredMove *list, int cap, int ply, Move tt_move, bool *forced) {
    Pos *p = &t->pos;
    Board *b = &p->b;
    int s = b->side, o = opponent(s), n = 0;
    ScoredMove *all = t->scratch;
    *forced = false;
    if (pos_count(p, o, P4_FIVE)) {
        find_fives(p, o, &list[0].m, 1);
        list[0].score = 0;
        *forced = true;
        return 1;
    }
    Move of4;
    if (!(t->off & FEAT_DEFENCES) && find_flex4(p, o, &of4, 1)) {
        n = gen_defences(t);
        if (n == 0)
            return -1;
    } else {
        const Stack *st = &t->stack[ply];
        for (int i = 0; i < b->cand_count; i++) {
            Move c = b->cand[i];
            if (!move_legal(p, c, s))
                continue;
            int sc = eval_move_score(p, c, s) * 8;
            if (!(t->off & FEAT_HISTORY))
                sc += t->history[s - 1][c] / 256;
            if (!(t->off & FEAT_KILLERS))
                sc += c == st->killer[0] ? 90 : c == st->killer[1] ? 60 : 0;
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
    memcpy(list, all, sizeof *list * (size_t)n);
    return n;
}

static void history_update(SearchThread *t, int side, Move m, int bonus) {
    int32_t *h = &t->history[side - 1][m];
    int ab = bonus < 0 ? -bonus : bonus;
    *h += bonus - *h * ab / HISTORY_MAX;
}

/* ---- quiescence: fours only, stand pat otherwise ---- */

/* Is c in the neighbourhood of a: within two cells, or on a line through a
 * within four? */
static bool near_cell(const Board *b, Move a, Move c) {
    int dx = board_x(b, a) - board_x(b, c), dy = board_y(b, a) - board_y(b, c);
    if (dx < 0)
        dx = -dx;
    if (dy < 0)
        dy = -dy;
    int d = dx > dy ? dx : dy;
    return d <= 2 || (d <= 4 && (dx == 0 || dy == 0 || dx == dy));
}

/* Every node: count it, note its ply, stop when told to, and return what the
 * threat counters prove at once (VALUE_NONE: search on). */
static inline int32_t node_enter(SearchThread *t, int ply) {
    node_inc(t);
    if (ply > t->seldepth)
        t->seldepth = ply;
    if (should_abort(t))
        return 0;
    return quick_result(&t->pos, ply, !(t->off & FEAT_QUICKWIN5));
}

static int32_t qsearch(SearchThread *t, int32_t alpha, int32_t beta, int ply, int qply) {
    Pos *p = &t->pos;
    int32_t q = node_enter(t, ply);
    if (q != VALUE_NONE)
        return q;
    int s = p->b.side, o = opponent(s);
    if (p->b.stones == p->b.width * p->b.height)
        return 0;
    if (pos_count(p, o, P4_FIVE)) { /* forced block, no stand pat */
        Move blk = MOVE_NONE;
        find_fives(p, o, &blk, 1);
        pos_play(p, blk);
        t->stack[ply].move = blk;
        int32_t v = -qsearch(t, -beta, -alpha, ply + 1, qply + 1);
        pos_undo(p);
        return v;
    }
    int32_t best = eval_static(p);
    if (best >= beta || qply >= QS_MAX_PLY || ply >= MAX_PLY - 2)
        return best;
    int fours = pos_count(p, s, P4_BLOCK4) + pos_count(p, s, P4_BLOCK4_PLUS) +
                pos_count(p, s, P4_BLOCK4_FLEX3) + pos_count(p, s, P4_FORBID);
    if (!fours)
        return best;
    if (best > alpha)
        alpha = best;
    Move last_own = ply >= 2 ? t->stack[ply - 2].move : MOVE_NONE;
    const Board *b = &p->b;
    ScoredMove list[64];
    int n = 0;
    for (int i = 0; i < b->cand_count && n < 64; i++) {
        Move c = b->cand[i];
        Pattern4 cls = pos_p4(p, c, s);
        if (cls < P4_BLOCK4 && cls != P4_FORBID)
            continue;
        if (qply >= QS_FREE_PLY && last_own > MOVE_PASS && !near_cell(b, last_own, c))
            continue;
        if (qply >= QS_PLAIN_PLY && cls != P4_BLOCK4_PLUS && cls != P4_BLOCK4_FLEX3)
            continue;
        if (!makes_four(p, c, s))
            continue;
        list[n].m = c;
        list[n++].score = eval_move_score(p, c, s);
    }
    for (int i = 0; i < n; i++) {
        pick_best(list, i, n);
        pos_play(p, list[i].m);
        t->stack[ply].move = list[i].m;
        int32_t v = -qsearch(t, -beta, -alpha, ply + 1, qply + 1);
        pos_undo(p);
        if (t->aborted)
            return 0;
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                if (v >= beta)
                    break;
            }
        }
    }
    return best;
}

/* ---- main search ---- */

static int32_t search(SearchThread *t, int32_t alpha, int32_t beta, int depth, int ply, bool pv_node,
                      bool cut_node) {
    if (depth <= 0)
        return qsearch(t, alpha, beta, ply, (t->off & FEAT_QSEARCH) ? QS_MAX_PLY : 0);
    Pos *p = &t->pos;
    t->pv_len[ply] = ply;
    int32_t q = node_enter(t, ply);
    if (q != VALUE_NONE)
        return q;
    if (p->b.stones == p->b.width * p->b.height)
        return 0;
    if (ply >= MAX_PLY - 4)
        return eval_static(p);
    /* mate distance pruning */
    if (alpha < -(VALUE_MATE - ply))
        alpha = -(VALUE_MATE - ply);
    if (beta > VALUE_MATE - ply - 1)
        beta = VALUE_MATE - ply - 1;
    if (alpha >= beta)
        return alpha;

    Engine *e = t->eng;
    uint64_t key = p->b.key;
    TTHit hit;
    Move tt_move = MOVE_NONE;
    if (!(t->off & FEAT_TT) && tt_probe(&e->tt, key, &hit)) {
        tt_move = hit.move;
        if (tt_move != MOVE_NONE && p->b.cell[tt_move] != EMPTY)
            tt_move = MOVE_NONE; /* key collision */
        int32_t v = value_from_tt(hit.value, ply);
        if (!pv_node && hit.depth >= depth &&
            (hit.bound == BOUND_EXACT || (hit.bound == BOUND_LOWER && v >= beta) ||
             (hit.bound == BOUND_UPPER && v <= alpha)))
            return v;
    }
    int s = p->b.side, o = opponent(s);
    int32_t eval = eval_static(p);
    t->stack[ply].static_eval = eval;
    bool threatened = pos_count(p, o, P4_FIVE) || pos_count(p, o, P4_FLEX4);

    /* child futility: far above beta at shallow depth with nothing threatening */
    if (!pv_node && !threatened && depth <= FUTILITY_MAX_DEPTH && !value_is_mate(beta) &&
        !(t->off & FEAT_FUTILITY) &&
        eval - FUTILITY_MARGIN * depth >= beta)
        return eval;

    ScoredMove list[MAX_GEN];
    bool forced;
    int n = generate(t, list, MAX_GEN, ply, tt_move, &forced);
    if (n < 0)
        return -(VALUE_MATE - ply - 4);
    if (n == 0)
        return eval;
    /* the quiet tail is pruned, once a move that does not lose is known */
    int cap = !forced && !threatened && !pv_node && !(t->off & FEAT_MOVECAP) ? 10 + 5 * depth : n;

    int32_t best = -VALUE_INF, orig_alpha = alpha;
    Move best_move = MOVE_NONE;
    for (int i = 0; i < n; i++) {
        if (i >= cap && best > -VALUE_MATE_MIN)
            break;
        pick_best(list, i, n);
        Move m = list[i].m;
        /* threes, fours and the cells of the opponent's are never reduced */
        bool tactical = pos_p4(p, m, s) >= P4_FLEX3 || pos_p4(p, m, o) >= P4_FLEX3;
        int new_depth = depth - 1 + (forced && !(t->off & FEAT_EXTENSION) ? 1 : 0);
        tt_prefetch(&e->tt, p->b.key ^ zobrist_stone(s, m) ^ zobrist_side());
        pos_play(p, m);
        t->stack[ply].move = m;
        int32_t v;
        if (i == 0) {
            v = -search(t, -beta, -alpha, new_depth, ply + 1, pv_node, false);
        } else {
            int r = 0;
            if (depth >= LMR_MIN_DEPTH && i >= 2 && !forced && !tactical &&
                !(t->off & FEAT_LMR)) {
                r = 1 + (i >= 6) + (depth >= 6 && i >= 12);
                if (pv_node)
                    r--;
                if (cut_node)
                    r++;
                if (r > new_depth - 1)
                    r = new_depth - 1 > 0 ? new_depth - 1 : 0;
            }
            v = -search(t, -alpha - 1, -alpha, new_depth - r, ply + 1, false, !cut_node);
            if (v > alpha && r > 0)
                v = -search(t, -alpha - 1, -alpha, new_depth, ply + 1, false, !cut_node);
            if (v > alpha && v < beta && pv_node)
                v = -search(t, -beta, -alpha, new_depth, ply + 1, true, false);
        }
        pos_undo(p);
        if (t->aborted)
            return 0;
        if (v > best) {
            best = v;
            best_move = m;
            if (v > alpha) {
                alpha = v;
                if (pv_node) {
                    t->pv[ply][ply] = m;
                    for (int j = ply + 1; j < t->pv_len[ply + 1]; j++)
                        t->pv[ply][j] = t->pv[ply + 1][j];
                    t->pv_len[ply] = t->pv_len[ply + 1] > ply + 1 ? t->pv_len[ply + 1] : ply + 1;
                }
                if (v >= beta) {
                    if (!forced) {
                        Stack *st = &t->stack[ply];
                        if (st->killer[0] != m) {
                            st->killer[1] = st->killer[0];
                            st->killer[0] = m;
                        }
                        int bonus = depth * depth * 16;
                        history_update(t, s, m, bonus);
                        for (int j = 0; j < i; j++)
                            history_update(t, s, list[j].m, -bonus);
                    }
                    break;
                }
            }
        }
    }
    int bound = best >= beta ? BOUND_LOWER : best > orig_alpha ? BOUND_EXACT : BOUND_UPPER;
    tt_store(&e->tt, key, value_to_tt(best, ply), best_move, depth, bound);
    return best;
}

/* ---- root ---- */

static void root_sort(SearchThread *t) {
    /* stable: by score this iteration, then previous */
    for (int i = 1; i < t->root_count; i++) {
        RootMove x = t->root[i];
        int j = i;
        while (j > 0 && t->root[j - 1].score < x.score) {
            t->root[j] = t->root[j - 1];
            j--;
        }
        t->root[j] = x;
    }
}

/* Search every root move; returns the best value. On abort, root[0] holds the
 * best move proven in this iteration only if its search completed. */
static int32_t root_search(SearchThread *t, int32_t alpha, int32_t beta, int depth, bool randomize,
                           bool *first_done) {
    Pos *p = &t->pos;
    int32_t best = -VALUE_INF;
    *first_done = false;
    t->pv_len[0] = 0;
    for (int i = 0; i < t->root_count; i++) {
        t->root[i].prev_score = t->root[i].score, t->root[i].score = -VALUE_INF;
        t->root[i].near_best = false;
    }
    bool exact_ref = false; /* alpha holds the first move's exact score */
    for (int i = 0; i < t->root_count; i++) {
        RootMove *rm = &t->root[i];
        pos_play(p, rm->move);
        t->stack[0].move = rm->move;
        node_inc(t);
        int32_t v;
        if (i == 0) {
            v = -search(t, -beta, -alpha, depth - 1, 1, true, false);
        } else {
            int32_t lo = alpha;
            bool widen = randomize && exact_ref && !value_is_mate(alpha);
            if (widen)
                lo = alpha - RANDOM_MARGIN;
            v = -search(t, -lo - 1, -lo, depth - 1, 1, false, true);
            if (!t->aborted && v > lo) {
                rm->near_best = widen;
                if (lo != alpha)
                    v = -search(t, -alpha - 1, -alpha, depth - 1, 1, false, true);
                if (!t->aborted && v > alpha && v < beta)
                    v = -search(t, -beta, -alpha, depth - 1, 1, true, false);
            }
        }
        pos_undo(p);
        if (t->aborted)
            break;
        if (i == 0) {
            *first_done = true;
            exact_ref = v > alpha && v < beta;
        }
        rm->score = v;
        if (v > best)
            best = v;
        if (v > alpha) {
            alpha = v;
            t->pv[0][0] = rm->move;
            int len = t->pv_len[1] > 1 ? t->pv_len[1] : 1;
            for (int j = 1; j < len; j++)
                t->pv[0][j] = t->pv[1][j];
            t->pv_len[0] = len;
            /* move it to the front */
            RootMove x = *rm;
            memmove(&t->root[1], &t->root[0], sizeof(RootMove) * (size_t)i);
            t->root[0] = x;
            if (v >= beta)
                break;
        }
    }
    if (!t->aborted)
        root_sort(t);
    return best;
}

static int32_t mtdf(SearchThread *t, int depth, int32_t guess, bool *first_done) {
    int32_t g = guess, lower = -VALUE_INF, upper = VALUE_INF;
    Move best = t->root[0].move;
    bool any_done = false;
    while (lower < upper) {
        int32_t beta = g == lower ? g + 1 : g;
        bool fd;
        g = root_search(t, beta - 1, beta, depth, false, &fd);
        if (t->aborted)
            break;
        any_done = true;
        if (g < beta)
            upper = g;
        else {
            lower = g;
            best = t->root[0].move;
        }
    }
    /* the move of the last fail-high is the proven best; keep it first */
    for (int i = 0; i < t->root_count; i++)
        if (t->root[i].move == best) {
            RootMove x = t->root[i];
            memmove(&t->root[1], &t->root[0], sizeof(RootMove) * (size_t)i);
            t->root[0] = x;
            break;
        }
    *first_done = any_done && !t->aborted;
    return g;
}

static void copy_result(SearchThread *t, int depth, int32_t score) {
    t->done_depth = depth;
    t->done_score = score;
    t->done_move = t->root[0].move;
    int len = t->pv_len[0];
    if (len < 1 || t->pv[0][0] != t->done_move) {
        t->done_pv[0] = t->done_move;
        len = 1;
    } else {
        if (len > PV_MAX)
            len = PV_MAX;
        memcpy(t->done_pv, t->pv[0], sizeof(Move) * (size_t)len);
    }
    t->done_pv_len = len;
}

static uint64_t total_nodes(const Engine *e) {
    uint64_t n = 0;
    for (int i = 0; i < e->thread_count; i++)
        n += node_count(e->threads[i]) + e->threads[i]->threat_nodes;
    return n;
}

static void fill_info(Engine *e, SearchThread *t, SearchInfo *info, const char *source) {
    memset(info, 0, sizeof *info);
    info->depth = t->done_depth;
    info->seldepth = t->seldepth;
    info->score = t->done_score;
    info->nodes = total_nodes(e);
    int64_t el = now_ns() - e->start_ns;
    info->elapsed_ms = el / 1000000;
    info->nps = el > 0 ? (uint64_t)((double)info->nodes * 1e9 / (double)el) : 0;
    info->hashfull = tt_hashfull(&e->tt);
    info->best = t->done_move;
    info->pv_len = t->done_pv_len;
    memcpy(info->pv, t->done_pv, sizeof(Move) * (size_t)t->done_pv_len);
    info->source = source;
}

static void iterate(SearchThread *t) {
    Engine *e = t->eng;
    const SearchLimits *l = &e->limits;
    int max_depth = l->max_depth > 0 ? l->max_depth : MAX_PLY - 10;
    bool use_mtdf = l->driver == DRIVER_MTDF ||
                    (l->driver == DRIVER_AUTO && l->randomize && (rng_next(&t->rng) & 1));
    int32_t score = 0;
    for (int depth = 1; depth <= max_depth; depth++) {
        /* helpers spread over depths */
        if (t->id > 0 && depth > 2 && ((depth + t->id) & 1) && depth < max_depth)
            continue;
        t->seldepth = 0;
        bool first_done = false;
        int32_t v;
        if (use_mtdf && depth > 1) {
            v = mtdf(t, depth, score, &first_done);
        } else if (depth >= ASPIRATION_FROM && !value_is_mate(score) && !(t->off & FEAT_ASPIRATION)) {
            int32_t delta = ASPIRATION_DELTA, a = score - delta, b = score + delta;
            for (;;) {
                v = root_search(t, a, b, depth, l->randomize, &first_done);
                if (t->aborted)
                    break;
                if (v <= a) {
                    b = (a + b) / 2;
                    a = v - delta > -VALUE_INF ? v - delta : -VALUE_INF;
                } else if (v >= b) {
                    b = v + delta < VALUE_INF ? v + delta : VALUE_INF;
                } else
                    break;
                delta += delta;
                if (delta > 1000)
                    a = -VALUE_INF, b = VALUE_INF;
            }
        } else {
            v = root_search(t, -VALUE_INF, VALUE_INF, depth, l->randomize, &first_done);
        }
        if (t->aborted) {
            /* an unfinished iteration counts only where it proved a better move:
             * the previous best was searched first and another beat it */
            if (first_done && t->root[0].move != t->done_move && t->root[0].score > t->done_score &&
                t->root[0].score > -VALUE_INF)
                copy_result(t, t->done_depth, t->root[0].score);
            break;
        }
        score = v;
        copy_result(t, depth, v);
        if (t->id == 0) {
            if (e->report) {
                SearchInfo info;
                fill_info(e, t, &info, "search");
                e->report(e->ctx, &info);
            }
            int64_t now = now_ns();
            if (e->hard_limit && now >= e->soft_ns)
                break;
            /* a proven result needs no deeper search */
            if (value_is_mate(v) && depth > VALUE_MATE - (v < 0 ? -v : v) + 2)
                break;
            if (t->root_count == 1 && depth >= 2)
                break;
        }
    }
    if (t->id == 0)
        atomic_store(&e->stop, true);
}

static void *helper_main(void *arg) {
    iterate((SearchThread *)arg);
    return NULL;
}

/* ---- engine ---- */

Engine *engine_new(void) {
    Engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    atomic_init(&e->stop, false);
    engine_set_memory(e, 0, 0);
    return e;
}

void engine_free(Engine *e) {
    if (!e)
        return;
    tt_free(&e->tt);
    for (int i = 0; i < MAX_THREADS; i++)
        if (e->threads[i]) {
            free(e->threads[i]->root);
            free(e->threads[i]);
        }
    free(e);
}

/* Memory kept outside the table: code, stacks, per-thread state, tables. */
static uint64_t reserve_bytes(int threads) {
    return (uint64_t)(14u << 20) + (uint64_t)threads * (sizeof(SearchThread) + (1u << 20));
}

void engine_set_memory(Engine *e, uint64_t max_memory, uint64_t hash_kib) {
    e->max_memory = max_memory;
    e->hash_kib = hash_kib;
    uint64_t bytes = 256ull << 20; /* default when no limit is given */
    if (max_memory) {
        uint64_t reserve = reserve_bytes(e->limits.threads > 0 ? e->limits.threads : 1);
        bytes = max_memory > reserve + (1u << 20) ? max_memory - reserve : (1u << 20);
        /* leave a tenth free for allocator slack */
        bytes -= bytes / 10;
    }
    if (hash_kib && hash_kib * 1024 < bytes)
        bytes = hash_kib * 1024;
    if (bytes != tt_bytes(&e->tt))
        tt_set_size(&e->tt, (size_t)bytes);
}

size_t engine_hash_bytes(const Engine *e) { return tt_bytes(&e->tt); }

void engine_clear_hash(Engine *e) { tt_clear(&e->tt); }

void engine_stop(Engine *e) { atomic_store(&e->stop, true); }

/* Deadlines from the limits: the hard one is never passed, the soft one
 * ends iterative deepening. */
static void plan_time(Engine *e, const Pos *p) {
    const SearchLimits *l = &e->limits;
    int64_t start = l->start_ns ? l->start_ns : now_ns();
    e->start_ns = start;
    e->hard_limit = false;
    int64_t hard_ms = INT64_MAX, soft_ms = INT64_MAX;
    if (l->turn_ms >= 0) {
        int64_t margin = 25 + (l->turn_ms / 20 < 500 ? l->turn_ms / 20 : 500);
        hard_ms = l->turn_ms - margin;
        soft_ms = hard_ms * 80 / 100;
        e->hard_limit = true;
    }
    if (l->match_ms > 0 && l->time_left_ms != INT64_MAX) {
        int64_t left = l->time_left_ms > 0 ? l->time_left_ms : 0;
        int empty = p->b.width * p->b.height - p->b.stones;
        int moves_left = 30 - p->b.stones / 6;
        if (moves_left < 12)
            moves_left = 12;
        if (moves_left > empty / 2 + 1)
            moves_left = empty / 2 + 1;
        int64_t reserve = 30 + left / 50;
        int64_t avail = left - reserve;
        if (avail < 0)
            avail = 0;
        int64_t opt = avail / moves_left;
        int64_t mx = avail / 4;
        if (mx < hard_ms)
            hard_ms = mx;
        if (opt < soft_ms)
            soft_ms = opt;
        e->hard_limit = true;
    }
    if (hard_ms < 0)
        hard_ms = 0;
    if (soft_ms > hard_ms)
        soft_ms = hard_ms;
    if (soft_ms < 0)
        soft_ms = 0;
    e->hard_ns = e->hard_limit ? start + hard_ms * 1000000 : INT64_MAX;
    e->soft_ns = e->hard_limit ? start + soft_ms * 1000000 : INT64_MAX;
}

static SearchThread *thread_get(Engine *e, int i) {
    if (!e->threads[i]) {
        e->threads[i] = calloc(1, sizeof(SearchThread));
        if (!e->threads[i])
            return NULL;
    }
    return e->threads[i];
}

static void thread_prepare(SearchThread *t, Engine *e, int id, const Pos *p) {
    memcpy(&t->pos, p, sizeof *p);
    t->eng = e;
    t->id = id;
    t->off = e->limits.features_off;
    atomic_store_explicit(&t->nodes, 0, memory_order_relaxed);
    t->threat_nodes = 0;
    t->threat_budget = 0;
    t->threat_deadline_ns = INT64_MAX;
    t->seldepth = 0;
    t->aborted = false;
    t->done_depth = 0;
    t->done_move = MOVE_NONE;
    t->done_pv_len = 0;
    memset(t->stack, 0, sizeof t->stack);
    memset(t->history, 0, sizeof(int32_t) * 2 * (size_t)BOARD_MAX_CELLS);
    memset(t->vcf_fail, 0, sizeof t->vcf_fail);
    t->rng = e->limits.seed * 0x9E3779B97F4A7C15ULL + (uint64_t)id + 1;
}

static int build_root(SearchThread *t) {
    Pos *p = &t->pos;
    Board *b = &p->b;
    free(t->root);
    t->root = malloc(sizeof(RootMove) * (size_t)(b->cand_count + 1));
    ScoredMove *list = malloc(sizeof(ScoredMove) * (size_t)(b->cand_count + 1));
    bool forced;
    int n = t->root && list ? generate(t, list, b->cand_count + 1, 0, MOVE_NONE, &forced) : 0;
    if (n > 0)
        sort_moves(list, n);
    if (n < 0) { /* lost anyway: consider every legal candidate */
        n = 0;
        for (int i = 0; i < b->cand_count; i++)
            if (move_legal(p, b->cand[i], b->side)) {
                list[n].m = b->cand[i];
                list[n++].score = eval_move_score(p, b->cand[i], b->side);
            }
        sort_moves(list, n);
    }
    for (int i = 0; i < n; i++) {
        t->root[i].move = list[i].m;
        t->root[i].score = t->root[i].prev_score = -VALUE_INF;
        t->root[i].near_best = false;
    }
    t->root_count = n;
    free(list);
    return n;
}

/* A move when the board has no stones near which to play: the centre, or the
 * first empty cell nearest to it. */
static Move opening_move(const Board *b) {
    int cx = b->width / 2, cy = b->height / 2;
    for (int r = 0; r < BOARD_MAX_SIZE; r++)
        for (int dy = -r; dy <= r; dy++)
            for (int dx = -r; dx <= r; dx++) {
                int x = cx + dx, y = cy + dy;
                if ((dx == -r || dx == r || dy == -r || dy == r) && board_on(b, x, y) &&
                    b->cell[board_move_at(b, x, y)] == EMPTY)
                    return board_move_at(b, x, y);
            }
    return MOVE_NONE;
}

/* The best-scored legal candidate (or any legal empty cell). */
static Move legal_fallback(Pos *p) {
    Board *b = &p->b;
    Move best = MOVE_NONE;
    int best_score = INT_MIN;
    for (int i = 0; i < b->cand_count; i++) {
        Move c = b->cand[i];
        int sc = eval_move_score(p, c, b->side);
        if (sc > best_score && move_legal(p, c, b->side))
            best = c, best_score = sc;
    }
    for (int m = 0; best == MOVE_NONE && m < b->cell_count; m++)
        if (b->cell[m] == EMPTY && move_legal(p, (Move)m, b->side))
            best = (Move)m;
    return best;
}

static Move finish(Engine *e, SearchThread *t, Move m, int32_t score, const char *source,
                   SearchInfo *result) {
    t->done_move = m;
    t->done_score = score;
    t->done_pv[0] = m;
    t->done_pv_len = 1;
    SearchInfo info;
    fill_info(e, t, &info, source);
    if (e->report && strcmp(source, "search") != 0)
        e->report(e->ctx, &info);
    if (result)
        *result = info;
    return m;
}

Move engine_think(Engine *e, const Pos *p, const SearchLimits *l, SearchReport report, void *ctx,
                  SearchInfo *result) {
    e->limits = *l;
    if (e->limits.threads < 1)
        e->limits.threads = 1;
    if (e->limits.threads > MAX_THREADS)
        e->limits.threads = MAX_THREADS;
    e->report = report;
    e->ctx = ctx;
    atomic_store(&e->stop, false);
    plan_time(e, p);
    e->thread_count = 1;
    SearchThread *main_t = thread_get(e, 0);
    if (!main_t)
        return opening_move(&p->b);
    thread_prepare(main_t, e, 0, p);
    Pos *mp = &main_t->pos;
    Board *b = &mp->b;
    int s = b->side, o = opponent(s);

    /* positions that need no search */
    if (b->stones == b->width * b->height)
        return finish(e, main_t, MOVE_NONE, 0, "forced", result);
    if (b->cand_count == 0)
        return finish(e, main_t, opening_move(b), 0, "book", result);
    Move m;
    if (find_fives(mp, s, &m, 1))
        return finish(e, main_t, m, VALUE_MATE - 1, "forced", result);
    Move of[2];
    int nof = find_fives(mp, o, of, 2);
    if (nof >= 1 && (nof >= 2 || !move_legal(mp, of[0], s))) {
        /* lost: block one five if that is legal, else any legal move (renju
         * black never plays a forbidden point, even when it is the only block) */
        Move m2 = move_legal(mp, of[0], s) ? of[0] : legal_fallback(mp);
        return finish(e, main_t, m2, -(VALUE_MATE - 2), "forced", result);
    }
    Move f4;
    if (nof == 0 && find_flex4(mp, s, &f4, 1))
        return finish(e, main_t, f4, VALUE_MATE - 3, "forced", result);
    if (l->one_ply) { /* the weight bot: attack x2 + defence, random among equals */
        Move best = MOVE_NONE, eq[64];
        int best_score = INT_MIN, k = 0;
        for (int i = 0; i < b->cand_count; i++) {
            Move c = b->cand[i];
            if (!move_legal(mp, c, s))
                continue;
            int sc = nof ? (c == of[0]) * 1000000 : eval_move_score(mp, c, s);
            if (sc > best_score)
                best_score = sc, best = c, k = 0;
            if (sc == best_score && k < 64)
                eq[k++] = c;
        }
        if (l->randomize && k > 1)
            best = eq[rng_next(&main_t->rng) % (uint64_t)k];
        if (best == MOVE_NONE)
            best = legal_fallback(mp);
        return finish(e, main_t, best, 0, "weights", result);
    }
    tt_ensure(&e->tt);
    tt_new_search(&e->tt);
    int n = build_root(main_t);
    if (n == 0)
        return finish(e, main_t, opening_move(b), 0, "book", result);
    if (n == 1 && l->turn_ms == 0)
        return finish(e, main_t, main_t->root[0].move, 0, "forced", result);

    /* a forced win by fours, or by threes and fours, ends the search */
    if (nof == 0 && l->turn_ms != 0 && !(l->features_off & FEAT_ROOT_THREATS)) {
        main_t->threat_budget = 2000000;
        main_t->threat_deadline_ns = INT64_MAX;
        if (e->hard_limit) /* an eighth of the soft time for the VCF */
            main_t->threat_deadline_ns = now_ns() + (e->soft_ns - now_ns()) / 8;
        if (vcf_solve(main_t, VCF_ROOT_DEPTH, &m) && move_legal(mp, m, s))
            return finish(e, main_t, m, VALUE_MATE - 40, "vcf", result);
        if (l->use_vct) {
            int64_t deadline = INT64_MAX;
            if (e->hard_limit) {
                int64_t budget_ns = (e->soft_ns - now_ns()) / 8;
                deadline = now_ns() + (budget_ns > 0 ? budget_ns : 0);
            }
            main_t->threat_deadline_ns = deadline;
            for (int d = 2; d <= VCT_ROOT_MAX_DEPTH && now_ns() < deadline; d++) {
                main_t->threat_budget = main_t->threat_nodes + 200000;
                if (vct_solve(main_t, d, &m) && move_legal(mp, m, s))
                    return finish(e, main_t, m, VALUE_MATE - 2 * d - 1, "vct", result);
                if (atomic_load(&e->stop))
                    break;
                if (main_t->threat_nodes >= main_t->threat_budget)
                    break; /* the next depth would cost more still */
            }
        }
    }

    main_t->aborted = false; /* the solvers' interruption does not end the search */

    /* helpers */
    pthread_t tids[MAX_THREADS];
    int started = 0;
    for (int i = 1; i < e->limits.threads; i++) {
        SearchThread *h = thread_get(e, i);
        if (!h)
            break;
        thread_prepare(h, e, i, p);
        h->root = NULL;
        build_root(h);
        e->thread_count = i + 1;
    }
    for (int i = 1; i < e->thread_count; i++)
        if (pthread_create(&tids[i], NULL, helper_main, e->threads[i]) == 0)
            started = i;
        else
            break;
    iterate(main_t);
    for (int i = 1; i <= started; i++)
        pthread_join(tids[i], NULL);

    /* randomisation: any root move proven within the margin of the best */
    Move chosen = main_t->done_move;
    if (l->randomize && main_t->done_depth > 0 && !value_is_mate(main_t->done_score)) {
        Move pool[64];
        int k = 0;
        pool[k++] = chosen;
        for (int i = 0; i < main_t->root_count && k < 64; i++)
            if (main_t->root[i].near_best && main_t->root[i].move != chosen)
                pool[k++] = main_t->root[i].move;
        chosen = pool[rng_next(&main_t->rng) % (uint64_t)k];
    }
    if (chosen == MOVE_NONE)
        chosen = main_t->root[0].move;
    main_t->done_move = chosen;
    if (result)
        fill_info(e, main_t, result, "search");
    return chosen;
}

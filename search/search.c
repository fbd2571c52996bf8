/* search/search.c — the search proper: iterative deepening over a negamax
 * PVS alpha-beta (or MTD(f) over the same zero-window search), a quiescence
 * of fours at the leaves, the shared transposition table, and the root with
 * its randomisation margin. Move order comes from movepick.c, threat facts
 * from movegen.c, the deadlines from the engine's time plan. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../brain/util.h"
#include "internal.h"

/* ---- stopping ---- */

/* Main thread: stop the engine when its hard deadline or node cap is reached. */
static void check_limits(SearchThread *t) {
    Engine *e = t->eng;
    if (e->time.limited && now_ns() >= e->time.hard_ns)
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
        check_limits(t);
    if (atomic_load_explicit(&t->eng->stop, memory_order_relaxed))
        t->aborted = true;
    return t->aborted;
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

static inline bool board_full(const Pos *p) { return p->b.stones == p->b.width * p->b.height; }

/* ---- quiescence: fours only, stand pat otherwise ---- */

/* The quiescence plies whose fours may be anywhere (later: near the side's
 * last stone); renju gets two more. */
static inline int qs_free_ply(const Pos *p) {
    return p->rule == RULE_RENJU ? QS_FREE_PLY_RENJU : QS_FREE_PLY;
}

/* The table key of a quiescence node: after the first plies the fours tried
 * depend on the path (near the last own stone, and later only those that
 * build), so those nodes mix that stone and the stage into the position's
 * key, and no other path meets their values. */
static inline uint64_t qs_key(uint64_t key, int side, Move last_own, int qply, int free_ply) {
    if (qply >= free_ply && last_own > MOVE_PASS) {
        uint64_t z = zobrist_stone(side, last_own) + (qply < QS_PLAIN_PLY ? 0x9e3779b97f4a7c15u : 0x6a09e667f3bcc909u);
        key ^= (z << 23 | z >> 41) * 0xff51afd7ed558ccdu;
    }
    return key;
}

/* Fetch the table bucket of the quiescence child after move m (the side to
 * move s plays it at ply): its probe then finds it in the cache. */
static inline void qs_prefetch(SearchThread *t, Move m, int s, int ply, int qply, int free_ply) {
    Move last_own = ply >= 1 ? t->stack[ply - 1].move : MOVE_NONE;
    uint64_t key = t->pos.b.key ^ zobrist_stone(s, m) ^ zobrist_side();
    tt_prefetch(&t->eng->tt, qs_key(key, opponent(s), last_own, qply + 1, free_ply));
}

static int32_t qsearch(SearchThread *t, int32_t alpha, int32_t beta, int ply, int qply) {
    Pos *p = &t->pos;
    /* Step 1. Node entry: a proven result ends it */
    int32_t q = node_enter(t, ply);
    if (q != VALUE_NONE)
        return q;
    int s = p->b.side, o = opponent(s);
    if (board_full(p))
        return 0;
    /* Step 1b. The transposition table: any bound that decides cuts, at every
     * node type (Rapfi's VCF does the same). Quiescence entries have depth
     * QS_TT_DEPTH, below every main-search depth, so they never cut a main
     * node; the main search's entries serve here. After the first plies the
     * nodes use a path key (qs_key: a shared key hid wins, tests/check_search.c) */
    bool tt_on = !(t->off & (FEAT_TT | FEAT_QTT)), use_tt = tt_on;
    Move last_own = ply >= 2 ? t->stack[ply - 2].move : MOVE_NONE;
    int free_ply = qs_free_ply(p);
    uint64_t key = qs_key(p->b.key, s, last_own, qply, free_ply);
    int32_t orig_alpha = alpha;
    TTHit hit;
    if (use_tt && tt_probe(&t->eng->tt, key, &hit)) {
        int32_t v = value_from_tt(hit.value, ply);
        if (hit.depth >= QS_TT_DEPTH &&
            (hit.bound == BOUND_EXACT || (hit.bound == BOUND_LOWER && v >= beta) ||
             (hit.bound == BOUND_UPPER && v <= alpha)))
            return v;
        if (hit.depth > QS_TT_DEPTH)
            use_tt = false; /* a main-search entry: not to be replaced by ours */
    }
    /* Step 2. The opponent's five: the block is forced, no stand pat */
    Move blk;
    if (five_threat(p, o, &blk) == FIVE_BLOCKABLE) {
        if (tt_on)
            qs_prefetch(t, blk, s, ply, qply, free_ply);
        pos_play(p, blk);
        t->stack[ply].move = blk;
        int32_t v = -qsearch(t, -beta, -alpha, ply + 1, qply + 1);
        pos_undo(p);
        return v;
    }
    /* Step 3. Stand pat */
    int32_t best = eval_static(p);
    if (best >= beta || qply >= QS_MAX_PLY || ply >= MAX_PLY - 2 || !four_cells(p, s))
        return best;
    if (best > alpha)
        alpha = best;
    /* Step 4. Our fours: near our last stone after the first plies, and
     * only fours that also build something after a few more */
    ScoredMove buf[GEN_FOURS_MAX];
    MovePicker mp;
    picker_init_fours(&mp, buf, GEN_FOURS_MAX, p, qply >= free_ply ? last_own : MOVE_NONE,
                      qply < QS_PLAIN_PLY);
    Move m;
    while ((m = picker_next(&mp)) != MOVE_NONE) {
        if (tt_on)
            qs_prefetch(t, m, s, ply, qply, free_ply);
        pos_play(p, m);
        t->stack[ply].move = m;
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
    /* Step 5. Store what the fours gave (a stand pat alone is cheaper to redo) */
    if (use_tt)
        tt_store(&t->eng->tt, key, value_to_tt(best, ply), MOVE_NONE, QS_TT_DEPTH,
                 best >= beta ? BOUND_LOWER : best > orig_alpha ? BOUND_EXACT : BOUND_UPPER);
    return best;
}

/* ---- main search ---- */

/* Does m make a three or better for the side to move s, or take such a cell
 * from the opponent? Such moves are never reduced (tree and root). */
static inline bool makes_or_stops_three(const Pos *p, Move m, int s) {
    return pos_p4(p, m, s) >= P4_FLEX3 || pos_p4(p, m, opponent(s)) >= P4_FLEX3;
}

/* Is m spared from late-move reductions at a node of the tree? Every move
 * that makes or stops a three, and in freestyle also the side's own two open
 * twos or three and two (Rapfi's "important" moves: the quiet build-up of an
 * attack). Against Rapfi at 1 s the freestyle rule scored 73-87 over 160
 * games on balanced-f20 (black 53 of 80), where the engine had 279-441 over
 * 720; in renju (26-54) and standard (25-54-1) it did no better (README,
 * session 53). */
bool search_move_spared(const Pos *p, Move m, int s) {
    if (makes_or_stops_three(p, m, s))
        return true;
    return p->rule == RULE_FREESTYLE && pos_p4(p, m, s) >= P4_FLEX2_2X;
}

static void update_pv(SearchThread *t, int ply, Move m) {
    t->pv[ply][ply] = m;
    for (int j = ply + 1; j < t->pv_len[ply + 1]; j++)
        t->pv[ply][j] = t->pv[ply + 1][j];
    t->pv_len[ply] = t->pv_len[ply + 1] > ply + 1 ? t->pv_len[ply + 1] : ply + 1;
}

/* Move-count pruning: the quiet moves a non-PV node searches before the rest
 * are dropped. Freestyle and standard use Rapfi's count, 3 + depth^1.32 (4,
 * 5, 7, 9, 11, 13 at depth 1-6): against Rapfi at 1 s it scored 156-244
 * over 400 games on balanced-f20 and 108-211-1 over 320 on balanced-s15,
 * where 10 + 5 x depth scored 117-203 over 320 and 76-162-2 over 240 (a
 * little better, within the interval; a ply deeper in 1 s). Renju keeps the
 * linear count (48-112 over 160 with Rapfi's, 77-163 over 240 without:
 * README, sessions 42-45). */
static const uint8_t movecap_table[MOVECAP_DEPTHS] = {
    3,  4,  5,  7,  9,  11, 13, 16, 18, 21, 23, 26, 29, 32, 35, 38,
    41, 45, 48, 51, 55, 58, 62, 65, 69, 73, 76, 80, 84, 88, 92, 96};

static inline int move_cap(int rule, int depth) {
    if (rule == RULE_FREESTYLE || rule == RULE_STANDARD)
        return movecap_table[depth < MOVECAP_DEPTHS ? depth : MOVECAP_DEPTHS - 1];
    return MOVECAP_BASE + MOVECAP_PER_DEPTH * depth;
}

/* Late-move reduction of the i-th move (from 0) of a node, before the
 * clamp to the depth left: from the third move one ply, from the seventh
 * two, from the thirteenth at depth 6 or more three; one less on the PV, one
 * more at a cut node. Renju starts a ply lighter, as Rapfi's reductions do
 * (its factor 0.75 against freestyle's 1): its third to sixth moves are not
 * reduced off cut nodes. Against Rapfi at 1 s renju scored 61-99 over 160
 * games so, black winning 14 of 80, where the engine had 133-267 over 400
 * and black 3 of 40 in every run; standard so scored 25-55 and keeps
 * freestyle's (README, session 51). */
int search_reduction(int rule, int depth, int i, bool pv_node, bool cut_node) {
    if (depth < LMR_MIN_DEPTH || i < 2)
        return 0;
    int r = (rule != RULE_RENJU) + (i >= 6) + (depth >= 6 && i >= 12);
    if (pv_node && r > 0)
        r--;
    return r + cut_node;
}

int search_futility_margin(int depth) {
    return depth >= 1 && depth <= FUTILITY_MAX_DEPTH ? FUTILITY_MARGIN * depth : 0;
}

/* Measuring child futility: is this node (static value `over` above beta)
 * one of the sampled ones? Its bucket if so, else -1. */
static int prune_sampled(SearchThread *t, int depth, int32_t over) {
    if (depth > PRUNE_STAT_DEPTHS || over < PRUNE_STAT_LOW ||
        over >= PRUNE_STAT_LOW + PRUNE_STAT_BUCKETS * PRUNE_STAT_STEP)
        return -1;
    if (++t->prune_seen % t->eng->limits.prune_sample)
        return -1;
    return (over - PRUNE_STAT_LOW) / PRUNE_STAT_STEP;
}

/* A leaf of the main search: the quiescence (at once at its last ply when it
 * is switched off). */
static inline int32_t leaf(SearchThread *t, int32_t alpha, int32_t beta, int ply) {
    return qsearch(t, alpha, beta, ply, (t->off & FEAT_QSEARCH) ? QS_MAX_PLY : 0);
}

/* What the transposition table holds for a node. */
typedef struct {
    TTHit hit;
    bool found;
    Move move;      /* its move, MOVE_NONE when none or not playable */
    int32_t value;  /* its value at this ply (when found) */
} NodeTT;

/* Steps 1-4 of both main-search nodes (search and search_renju): node entry,
 * full board, ply limit, mate distance pruning and the table. Returns the
 * node's value when these decide it, else VALUE_NONE with the window
 * narrowed and *nt filled. A singular test searches the node again without
 * its TT move: no cutoff from the table then. */
static int32_t node_open(SearchThread *t, int32_t *alpha, int32_t *beta, float depth, int ply, bool pv_node,
                         NodeTT *nt) {
    /* Step 1. Leaves go to the quiescence */
    if (depth <= 0)
        return leaf(t, *alpha, *beta, ply);
    Pos *p = &t->pos;
    t->pv_len[ply] = ply;
    /* Step 2. Node entry: stop, proven results, full board, ply limit */
    int32_t q = node_enter(t, ply);
    if (q != VALUE_NONE)
        return q;
    if (board_full(p))
        return 0;
    if (ply >= MAX_PLY - 4)
        return eval_static(p);
    /* Step 3. Mate distance pruning */
    if (*alpha < -(VALUE_MATE - ply))
        *alpha = -(VALUE_MATE - ply);
    if (*beta > VALUE_MATE - ply - 1)
        *beta = VALUE_MATE - ply - 1;
    if (*alpha >= *beta)
        return *alpha;
    /* Step 4. Transposition table: a cutoff off the PV, else its move */
    nt->found = false;
    nt->move = MOVE_NONE;
    nt->value = VALUE_NONE;
    if (!(t->off & FEAT_TT) && tt_probe(&t->eng->tt, p->b.key, &nt->hit)) {
        nt->found = true;
        nt->move = nt->hit.move;
        if (nt->move != MOVE_NONE && p->b.cell[nt->move] != EMPTY)
            nt->move = MOVE_NONE; /* key collision */
        int32_t v = nt->value = value_from_tt(nt->hit.value, ply);
        int bound = nt->hit.bound;
        if (!pv_node && t->stack[ply].excluded == MOVE_NONE && nt->hit.depth >= depth &&
            (bound == BOUND_EXACT || (bound == BOUND_LOWER && v >= *beta) || (bound == BOUND_UPPER && v <= *alpha)))
            return v;
    }
    return VALUE_NONE;
}

/* The moves of a node (forced block, defences, or every candidate) into mp,
 * which keeps buf and oc (the caller's, to live as long as mp); VALUE_NONE to
 * go on, else the node's value: a loss when an open three has no defence,
 * none_value when there is no move. */
static int32_t node_moves(SearchThread *t, int ply, MovePicker *mp, ScoredMove *buf, OrderCtx *oc, Move tt_move,
                          int32_t none_value) {
    *oc = (OrderCtx){&t->hist, t->stack[ply].killer, t->off, &t->marks, t->scratch};
    int n = picker_init(mp, buf, MAX_GEN, &t->pos, oc, tt_move);
    if (n < 0)
        return -(VALUE_MATE - ply - 4);
    return n == 0 ? none_value : VALUE_NONE;
}

/* The value v of the i-th move m of a node: the best so far, the PV, and at
 * a beta cutoff (not of the forced block of a five) the killers and history,
 * the moves tried before m losing what it gains. True at the cutoff. */
static bool node_update(SearchThread *t, int ply, bool pv_node, bool forced, Move m, int32_t v, int32_t beta,
                        int depth, const MovePicker *mp, int i, int32_t *best, Move *best_move, int32_t *alpha) {
    if (v <= *best)
        return false;
    *best = v;
    *best_move = m;
    if (v <= *alpha)
        return false;
    *alpha = v;
    if (pv_node)
        update_pv(t, ply, m);
    if (v < beta)
        return false;
    if (!forced) {
        int s = t->pos.b.side;
        killers_store(t->stack[ply].killer, m);
        int bonus = history_bonus(depth);
        history_update(&t->hist, s, m, bonus);
        for (int j = 0; j < i; j++)
            history_update(&t->hist, s, mp->list[j].m, -bonus);
    }
    return true;
}

/* The last step of both nodes: store the result (not a singular test's: the
 * TT move was left out). */
static int32_t node_close(SearchThread *t, int32_t best, int32_t alpha, int32_t orig_alpha, int32_t beta,
                          Move best_move, int depth, int ply) {
    if (t->stack[ply].excluded != MOVE_NONE)
        return best == -VALUE_INF ? alpha : best;
    int bound = best >= beta ? BOUND_LOWER : best > orig_alpha ? BOUND_EXACT : BOUND_UPPER;
    tt_store(&t->eng->tt, t->pos.b.key, value_to_tt(best, ply), best_move, depth, bound);
    return best;
}

static int32_t search(SearchThread *t, int32_t alpha, int32_t beta, int depth, int ply, bool pv_node,
                      bool cut_node) {
    /* Steps 1-4. Leaves, entry, mate distance, the table */
    NodeTT nt;
    int32_t q = node_open(t, &alpha, &beta, (float)depth, ply, pv_node, &nt);
    if (q != VALUE_NONE)
        return q;
    Pos *p = &t->pos;
    Engine *e = t->eng;
    Move excluded = t->stack[ply].excluded, tt_move = nt.move;
    bool tt_hit = nt.found;
    TTHit hit = nt.hit;

    /* Step 5. Static evaluation */
    int s = p->b.side, o = opponent(s);
    int32_t eval = eval_static(p);
    t->stack[ply].static_eval = eval;
    bool threatened = pos_count(p, o, P4_FIVE) || pos_count(p, o, P4_FLEX4);

    /* Step 6. Child futility: far above beta at shallow depth, nothing
     * threatening (unless the node is sampled to measure its cuts) */
    int sampled = -1;
    if (!pv_node && excluded == MOVE_NONE && !threatened && !value_is_mate(beta) && !(t->off & FEAT_FUTILITY)) {
        if (e->limits.prune_sample)
            sampled = prune_sampled(t, depth, eval - beta);
        if (sampled < 0 && depth <= FUTILITY_MAX_DEPTH && eval - search_futility_margin(depth) >= beta)
            return eval;
    }

    /* Step 7. Moves: forced block, defences, or every candidate */
    ScoredMove buf[MAX_GEN];
    MovePicker mp;
    OrderCtx oc;
    if ((q = node_moves(t, ply, &mp, buf, &oc, tt_move, eval)) != VALUE_NONE)
        return q;
    bool forced = mp.mode == STAGE_FORCED;
    /* the quiet tail is pruned once a move that does not lose is known */
    int cap = !forced && !threatened && !pv_node && !(t->off & FEAT_MOVECAP) ? move_cap(p->rule, depth)
                                                                               : INT_MAX;

    int32_t best = -VALUE_INF, orig_alpha = alpha;
    Move best_move = MOVE_NONE, m;
    while ((m = picker_next(&mp)) != MOVE_NONE) {
        int i = picker_count(&mp) - 1;
        if (m == excluded)
            continue;
        /* Step 8. Move-count pruning */
        if (i >= cap && best > -VALUE_MATE_MIN)
            break;
        /* threes, fours and the cells of the opponent's are never reduced,
         * nor in freestyle our own double twos */
        bool tactical = search_move_spared(p, m, s);
        /* Step 9. Extension: the forced block of a five, 1.3 plies: the
         * tenths beyond the whole ply are owed along the path, a ply more
         * when they make one */
        int new_depth = depth - 1, credit = t->stack[ply].ext_credit;
        if (forced && !(t->off & FEAT_EXTENSION)) {
            credit += FORCED_EXT_TENTHS;
            new_depth += credit / 10;
            credit %= 10;
        }
        /* Step 9b. Singular extension: the TT move, proven good, searched one
         * ply deeper when every other move stays well below its value at half
         * the depth, on the PV only (extended everywhere, the extensions fed
         * each other: a renju bench position's depth 12 took 5.1 M nodes
         * instead of 0.56 M); when another move also reaches beta there, the
         * node is cut, on the PV or off it */
        if (i == 0 && m == tt_move && !forced && excluded == MOVE_NONE && depth >= SINGULAR_MIN_DEPTH &&
            tt_hit && (hit.bound & BOUND_LOWER) && hit.depth >= depth - SINGULAR_TT_SLACK &&
            !value_is_mate(hit.value) && !(t->off & FEAT_SINGULAR)) {
            int32_t sbeta = value_from_tt(hit.value, ply) - SINGULAR_MARGIN * depth;
            t->stack[ply].excluded = m;
            int32_t sv = search(t, sbeta - 1, sbeta, depth / 2, ply, false, cut_node);
            t->stack[ply].excluded = MOVE_NONE;
            if (t->aborted)
                return 0;
            t->singular_tests++;
            if (sv < sbeta)
                new_depth += pv_node, t->singular_found++;
            else if (sbeta >= beta)
                return sbeta;
        }
        tt_prefetch(&e->tt, p->b.key ^ zobrist_stone(s, m) ^ zobrist_side());
        pos_play(p, m);
        t->stack[ply].move = m;
        t->stack[ply + 1].ext_credit = credit;
        int32_t v;
        if (i == 0) {
            v = -search(t, -beta, -alpha, new_depth, ply + 1, pv_node, false);
        } else {
            /* Step 10. Late-move reductions, then PVS re-searches */
            int r = 0;
            if (!forced && !tactical && !(t->off & FEAT_LMR)) { /* depth and move number: search_reduction */
                r = search_reduction(p->rule, depth, i, pv_node, cut_node);
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
        /* Step 11. Best move, PV, and at a cutoff the killers and history */
        if (node_update(t, ply, pv_node, forced, m, v, beta, depth, &mp, i, &best, &best_move, &alpha))
            break;
    }
    if (sampled >= 0) {
        t->prune.nodes[depth][sampled]++;
        t->prune.below[depth][sampled] += best < beta;
    }
    /* Step 12. Store the result */
    return node_close(t, best, alpha, orig_alpha, beta, best_move, depth, ply);
}

/* ---- the renju node ----
 *
 * Renju searches with a node of Rapfi's shape: fractional depths, razoring
 * into the quiescence, child futility with no depth limit and a margin that
 * knows whether the static value is improving, the move count halved when it
 * is not, moves of no pattern skipped near the leaves, Rapfi's logarithmic
 * reductions with their adjustments (cut nodes, useless defences, continuous
 * attacks, false forbidden points, history), a reduced move that fails high
 * searched deeper, internal iterative reductions on the PV, and the singular,
 * TT-move and likely-fail-high extensions. Its parts were tried one at a time
 * on our node in sessions 20-69 and none gained; together, in sessions
 * 70-71, renju against Rapfi at 1 s went from 306-654 over 960 games (31.9%,
 * our black winning 2-5 of every 40) to 141-259 over 400 (35.2%, black 34 of
 * 200). With Rapfi's standard and freestyle numbers the node did not gain
 * there (33.8% and 38.8% over 160 against search()'s 36.5% and 42.1%:
 * README, session 71), so freestyle, standard and caro keep search(). */

/* Chebyshev distance between two stones; -1 when either is not a stone. */
static inline int stone_distance(const Board *b, Move a, Move c) {
    if (a <= MOVE_PASS || c <= MOVE_PASS)
        return -1;
    int dx = abs(board_x(b, a) - board_x(b, c)), dy = abs(board_y(b, a) - board_y(b, c));
    return dx > dy ? dx : dy;
}

static inline int32_t rj_value(float rapfi_units) { return (int32_t)(rapfi_units * RJ_EVAL_SCALE); }

/* The moves a renju non-root node searches once one does not lose: 3 +
 * depth^1.32 (none past the first below one ply), halved when the static
 * value is not improving. */
static inline int rj_move_count(float depth, bool improving) {
    int d = (int)depth;
    if (d < 1)
        return 0;
    return movecap_table[d < MOVECAP_DEPTHS ? d : MOVECAP_DEPTHS - 1] / (2 - improving);
}

/* The reduction of a late move (from the second) of a renju node. */
static float rj_reduction(SearchThread *t, int s, float depth, int move_count, int ply, bool pv_node, bool cut_node,
                          int improvement, int32_t alpha, int32_t beta, Move m, int p4s, int p4o,
                          bool threatened, bool trivial, bool important, bool distract, bool black_forbid,
                          int dist_opp, int dist_self, float complexity) {
    float r = (RJ_LMR_FACTOR * logf((float)(int)depth)) * (RJ_LMR_FACTOR * logf((float)move_count));
    if (pv_node) {
        r -= (float)(beta - alpha) / (float)(t->root_delta > 0 ? t->root_delta : 1);
        if (r < 0)
            r = 0;
    } else {
        r += improvement <= 0 && r > 1.0f;
    }
    r += complexity * (trivial ? (distract ? RJ_CR_TRIVIAL_DISTRACT : RJ_CR_TRIVIAL)
                               : !important ? RJ_CR_PLAIN : RJ_CR_IMPORTANT);
    const Move *k = t->stack[ply].killer;
    bool killer = m == k[0] || m == k[1];
    if (cut_node && !(!threatened && killer && p4s < P4_FLEX3))
        r += RJ_NOKILLER_CUT;
    if (threatened && p4o < P4_BLOCK4) {
        r += dist_opp > RJ_USELESS_DIST ? RJ_USELESS_OPP : 0;
        r += dist_self > RJ_USELESS_DIST ? RJ_USELESS_SELF : 0;
    }
    if (!threatened && ply >= 2 && t->stack[ply - 2].p4self >= P4_FLEX3 &&
        (p4s >= P4_FLEX3 || (dist_self >= 0 && dist_self <= 4 && p4s >= P4_FLEX2_2X)))
        r -= RJ_CONTINUOUS;
    if (black_forbid)
        r -= RJ_FALSE_FORBID;
    r -= (float)history_get(&t->hist, s, m) / (RJ_HISTORY_DIV + RJ_HISTORY_DIV_DEEP * (depth > 5.4f));
    return r;
}

static int32_t search_renju(SearchThread *t, int32_t alpha, int32_t beta, float depth, int ply, bool pv_node,
                            bool cut_node) {
    /* Steps 1-4. Leaves, entry, mate distance, the table */
    NodeTT nt;
    int32_t q = node_open(t, &alpha, &beta, depth, ply, pv_node, &nt);
    if (q != VALUE_NONE)
        return q;
    Pos *p = &t->pos;
    Engine *e = t->eng;
    Move excluded = t->stack[ply].excluded, tt_move = nt.move;
    int32_t ttv = nt.value;

    /* Step 5. Static value; is it improving on two plies ago? (the table's
     * bound, when it says more, stands for it) */
    int s = p->b.side, o = opponent(s);
    bool threatened = pos_count(p, o, P4_FIVE) || pos_count(p, o, P4_FLEX4);
    int32_t stat = eval_static(p), eval = stat;
    t->stack[ply].static_eval = stat;
    int improvement = 0;
    if (!threatened) {
        if (nt.found && ttv != VALUE_NONE && (nt.hit.bound & (ttv > eval ? BOUND_LOWER : BOUND_UPPER)))
            eval = ttv;
        improvement = ply >= 2 ? stat - t->stack[ply - 2].static_eval : 1;
    }
    bool improving = improvement > 0;

    /* Step 6. Razoring into the quiescence, child futility */
    if (!pv_node && !threatened && excluded == MOVE_NONE && !(t->off & FEAT_FUTILITY)) {
        if ((alpha < VALUE_MATE_MIN || !nt.found) && depth < RJ_RAZOR_DEPTH &&
            eval + rj_value(RJ_RAZOR_A * depth * depth + RJ_RAZOR_B * depth + RJ_RAZOR_C) < alpha)
            return leaf(t, alpha, alpha + 1, ply);
        float fd = depth - 1 - improving;
        int32_t margin = fd > 0 ? rj_value((RJ_FUTILITY - RJ_FUTILITY_NOTT * (cut_node && !nt.found)) * fd) : 0;
        if (eval < VALUE_MATE_MIN && beta > -VALUE_MATE_MIN && eval - margin >= beta &&
            !(ply >= 4 && t->stack[ply - 2].p4self >= P4_BLOCK4 && t->stack[ply - 4].p4self >= P4_BLOCK4))
            return eval;
    }
    /* Step 7. Internal iterative reductions on the PV */
    if (pv_node && excluded == MOVE_NONE) {
        if (tt_move == MOVE_NONE)
            depth -= RJ_IIR_PV;
        else if (depth > 1 && nt.found) {
            float rr = (depth - nt.hit.depth) * RJ_IIR_TT;
            depth -= rr < 0 ? 0 : rr > RJ_IIR_TT_MAX ? RJ_IIR_TT_MAX : rr;
        }
        if (depth <= 0)
            return leaf(t, alpha, beta, ply);
    }

    /* Step 8. Moves */
    int complex_count = 1;
    for (int c = P4_FLEX2; c <= P4_BLOCK4_PLUS; c++)
        complex_count += pos_count(p, s, c) + pos_count(p, o, c);
    float complexity = logf((float)complex_count);
    bool likely_fail_high = !pv_node && cut_node && !pos_count(p, o, P4_FIVE) &&
                            eval >= beta + rj_value(RJ_FAIL_HIGH_BIAS + RJ_FAIL_HIGH_PER_PLY * (int)depth +
                                                    RJ_FAIL_HIGH_THREAT * threatened);
    ScoredMove buf[MAX_GEN];
    MovePicker mp;
    OrderCtx oc;
    if ((q = node_moves(t, ply, &mp, buf, &oc, tt_move, stat)) != VALUE_NONE)
        return q;
    bool forced = mp.mode == STAGE_FORCED;
    Move last_opp = ply >= 1 ? t->stack[ply - 1].move : MOVE_NONE;
    Move last_own = ply >= 2 ? t->stack[ply - 2].move : MOVE_NONE;
    float prev_extra = ply >= 1 ? t->stack[ply - 1].extra_ext : 0;

    int32_t best = -VALUE_INF, orig_alpha = alpha;
    Move best_move = MOVE_NONE, m;
    int move_count = 0;
    while ((m = picker_next(&mp)) != MOVE_NONE) {
        int i = picker_count(&mp) - 1;
        if (m == excluded)
            continue;
        move_count++;
        int p4s = pos_p4(p, m, s), p4o = pos_p4(p, m, o);
        bool black_forbid = pos_p4(p, m, BLACK) == P4_FORBID;
        bool important = p4s >= P4_FLEX2_2X || p4o >= P4_FLEX3 || black_forbid;
        bool trivial = p4s == P4_NONE && p4o == P4_NONE;
        int dist_opp = stone_distance(&p->b, m, last_opp), dist_self = stone_distance(&p->b, m, last_own);
        bool distract = dist_self > RJ_DISTRACT_SELF && dist_opp > RJ_DISTRACT_OPP;
        /* Step 9. Pruning near the leaves, once a move that does not lose is known */
        if (best > -VALUE_MATE_MIN && !(t->off & FEAT_MOVECAP)) {
            if (move_count >= rj_move_count(depth, improving))
                break;
            if (trivial && depth < RJ_TRIVIAL_DEPTH)
                continue;
            if (threatened && depth < RJ_TRIVIAL_DEPTH && p4o < P4_BLOCK4 && distract)
                continue;
        }
        /* Step 10. Extensions */
        float ext = 0;
        if (forced) {
            ext = (t->off & FEAT_EXTENSION) ? 0 : RJ_FORCED_EXT;
        } else if (depth >= RJ_SE_DEPTH && m == tt_move && excluded == MOVE_NONE && nt.found &&
                   !value_is_mate(ttv) && (nt.hit.bound & BOUND_LOWER) && nt.hit.depth >= depth - RJ_SE_TT_SLACK &&
                   !(t->off & FEAT_SINGULAR)) {
            int32_t sbeta = ttv - rj_value(RJ_SE_MARGIN * depth);
            if (sbeta < -VALUE_MATE)
                sbeta = -VALUE_MATE;
            t->stack[ply].excluded = m;
            int32_t sv = search_renju(t, sbeta - 1, sbeta, depth * RJ_SE_REDUCTION, ply, false, cut_node);
            t->stack[ply].excluded = MOVE_NONE;
            if (t->aborted)
                return 0;
            t->singular_tests++;
            if (sv < sbeta) {
                t->singular_found++;
                int dm = RJ_SE_DOUBLE - ((int)(depth * 0.6f) < 9 ? (int)(depth * 0.6f) : 9);
                ext = !pv_node && sv < sbeta - rj_value((float)dm) && t->stack[ply].extra_ext < RJ_SE_EXTRA_MAX
                          ? 2.0f
                          : 1.0f;
            } else if (sbeta >= beta) {
                return sbeta; /* multi-cut: another move reaches beta too */
            } else if (ttv >= beta) {
                ext = -RJ_SE_NEG;
            }
        } else if (m == tt_move) {
            ext = pv_node ? RJ_TTM_EXT_PV : RJ_TTM_EXT_NONPV;
            if (p4s >= P4_BLOCK4 && dist_self >= 0 && dist_self <= 6)
                ext += dist_self <= 4 ? RJ_NEAR4_EXT4 : RJ_NEAR4_EXT6;
        }
        if (likely_fail_high) {
            if (p4s < P4_BLOCK4)
                ext -= 1.0f;
            else if (ply >= 2 && t->stack[ply - 2].p4self >= P4_BLOCK4)
                ext += 1.0f; /* two fours in a row: deeper, not shallower */
        }
        float new_depth = depth - 1 + ext;
        t->stack[ply].extra_ext = prev_extra + (ext > 1 ? ext - 1 : 0);
        t->stack[ply].p4self = (uint8_t)p4s;

        tt_prefetch(&e->tt, p->b.key ^ zobrist_stone(s, m) ^ zobrist_side());
        pos_play(p, m);
        t->stack[ply].move = m;
        int32_t v = 0;
        if (depth >= 2 && move_count > 1 && !(t->off & FEAT_LMR)) {
            /* Step 11. Late-move reductions; a reduced move that fails high
             * is searched again, deeper when it fails high by much */
            float r = rj_reduction(t, s, depth, move_count, ply, pv_node, cut_node, improvement, alpha, beta, m, p4s,
                                   p4o, threatened, trivial, important, distract, black_forbid, dist_opp,
                                   dist_self, complexity);
            float d = new_depth - r;
            d = d > new_depth + 1 ? new_depth + 1 : d < 1 ? 1 : d;
            v = -search_renju(t, -alpha - 1, -alpha, d, ply + 1, false, true);
            if (v > alpha && d < new_depth) {
                int x = (v > alpha + rj_value(RJ_LMR_EXT1 + RJ_LMR_EXT1_PER * (new_depth - d))) +
                        (v > alpha + rj_value(RJ_LMR_EXT2 + RJ_LMR_EXT2_PER * (new_depth - d))) -
                        (v < best + rj_value((float)(int)new_depth));
                if (t->stack[ply].extra_ext >= RJ_LMR_EXTRA_MAX)
                    x = x < 1 ? x : 1;
                else
                    t->stack[ply].extra_ext += x > 1 ? x - 1 : 0;
                new_depth += (float)x;
                if (d < new_depth)
                    v = -search_renju(t, -alpha - 1, -alpha, new_depth, ply + 1, false, !cut_node);
            }
        } else if (!pv_node || move_count > 1) {
            v = -search_renju(t, -alpha - 1, -alpha, new_depth, ply + 1, false, !cut_node);
        }
        /* Step 12. PVS: the first move and any inside the window, on the PV */
        if (pv_node && (move_count == 1 || (v > alpha && v < beta)))
            v = -search_renju(t, -beta, -alpha, new_depth, ply + 1, true, false);
        pos_undo(p);
        if (t->aborted)
            return 0;
        /* Step 13. Best move, PV, and at a cutoff the killers and history */
        if (node_update(t, ply, pv_node, forced, m, v, beta, (int)depth, &mp, i, &best, &best_move, &alpha))
            break;
    }
    if (best == -VALUE_INF && excluded == MOVE_NONE)
        return stat;
    /* Step 14. Store the result */
    return node_close(t, best, alpha, orig_alpha, beta, best_move, (int)depth, ply);
}

/* A root child: renju's node or the others'. */
static int32_t search_child(SearchThread *t, int32_t alpha, int32_t beta, int depth, bool pv_node, bool cut_node) {
    if (t->pos.rule == RULE_RENJU)
        return search_renju(t, alpha, beta, (float)depth, 1, pv_node, cut_node);
    return search(t, alpha, beta, depth, 1, pv_node, cut_node);
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

static void root_to_front(SearchThread *t, int i) {
    RootMove x = t->root[i];
    memmove(&t->root[1], &t->root[0], sizeof(RootMove) * (size_t)i);
    t->root[0] = x;
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
    t->root_delta = beta - alpha > 0 && beta - alpha < VALUE_INF ? beta - alpha : 1000;
    t->stack[0].static_eval = eval_static(p);
    t->stack[0].extra_ext = 0;
    bool exact_ref = false; /* alpha holds the first move's exact score */
    for (int i = 0; i < t->root_count; i++) {
        RootMove *rm = &t->root[i];
        /* late root moves (in the last iteration's order) are searched a ply
         * or two shallower first, unless they make or stop a three or four */
        int r = 0;
        if (i >= ROOT_LMR_FROM && depth >= ROOT_LMR_MIN_DEPTH && !(t->off & FEAT_LMR) &&
            !makes_or_stops_three(p, rm->move, p->b.side))
            r = 1 + (i >= ROOT_LMR_FROM2);
        pos_play(p, rm->move);
        t->stack[0].move = rm->move;
        t->stack[1].ext_credit = 0;
        node_inc(t);
        int32_t v;
        if (i == 0) {
            v = -search_child(t, -beta, -alpha, depth - 1, true, false);
        } else {
            /* randomising: a zero window under alpha by the margin tells
             * which moves are near the best */
            int32_t lo = alpha;
            bool widen = randomize && exact_ref && !value_is_mate(alpha);
            if (widen)
                lo = alpha - (t->eng->limits.random_margin > 0 ? t->eng->limits.random_margin
                                                               : RANDOM_MARGIN);
            v = -search_child(t, -lo - 1, -lo, depth - 1 - r, false, true);
            if (!t->aborted && v > lo && r > 0)
                v = -search_child(t, -lo - 1, -lo, depth - 1, false, true);
            if (!t->aborted && v > lo) {
                rm->near_best = widen;
                if (lo != alpha)
                    v = -search_child(t, -alpha - 1, -alpha, depth - 1, false, true);
                if (!t->aborted && v > alpha && v < beta)
                    v = -search_child(t, -beta, -alpha, depth - 1, true, false);
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
            root_to_front(t, i);
            if (v >= beta)
                break;
        }
    }
    if (!t->aborted)
        root_sort(t);
    return best;
}

/* MTD(f): zero-window root searches that close in on the value. Until the
 * value is bracketed each test steps past the last bound by a step that
 * doubles; once bracketed, the tests bisect; the iteration ends when the
 * bracket is at most MTDF_GRAIN wide (a plain MTD(f) crawls a point or two a
 * pass on this evaluation: a hundred passes an iteration were seen). */
static int32_t mtdf(SearchThread *t, int depth, int32_t guess, bool *first_done) {
    int32_t g = guess, lower = -VALUE_INF, upper = VALUE_INF, step = MTDF_STEP;
    Move best = t->root[0].move;
    bool any_done = false;
    int last = 0; /* direction of the last test: 1 up, -1 down */
    while (lower < upper) {
        int32_t beta;
        if (lower > -VALUE_INF && upper < VALUE_INF)
            beta = lower + (upper - lower + 1) / 2;
        else
            beta = g;
        if (beta <= lower)
            beta = lower + 1;
        if (beta > upper)
            beta = upper;
        bool fd;
        g = root_search(t, beta - 1, beta, depth, false, &fd);
        if (t->aborted)
            break;
        any_done = true;
        t->mtdf_passes++;
        int dir = g < beta ? -1 : 1;
        step = dir == last ? step * 2 : MTDF_STEP;
        last = dir;
        if (dir < 0) {
            upper = g;
            g = g - step > -VALUE_INF ? g - step : -VALUE_INF + 1;
        } else {
            lower = g;
            best = t->root[0].move;
            g = g + step < VALUE_INF ? g + step : VALUE_INF;
        }
        if (lower > -VALUE_INF && upper - lower <= MTDF_GRAIN) {
            g = lower;
            break;
        }
    }
    /* the move of the last fail-high is the proven best; keep it first */
    for (int i = 0; i < t->root_count; i++)
        if (t->root[i].move == best) {
            root_to_front(t, i);
            break;
        }
    *first_done = any_done && !t->aborted;
    t->mtdf_iterations += *first_done;
    return g;
}

static int32_t aspiration(SearchThread *t, int depth, int32_t score, bool randomize,
                          bool *first_done) {
    int32_t delta = ASPIRATION_DELTA, a = score - delta, b = score + delta, v;
    for (;;) {
        v = root_search(t, a, b, depth, randomize, first_done);
        if (t->aborted)
            return v;
        if (v <= a) {
            b = (a + b) / 2;
            a = v - delta > -VALUE_INF ? v - delta : -VALUE_INF;
        } else if (v >= b) {
            b = v + delta < VALUE_INF ? v + delta : VALUE_INF;
        } else
            return v;
        delta += delta;
        if (delta > ASPIRATION_FULL)
            a = -VALUE_INF, b = VALUE_INF;
    }
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

void search_fill_info(Engine *e, SearchThread *t, SearchInfo *info, const char *source) {
    memset(info, 0, sizeof *info);
    info->depth = t->done_depth;
    info->seldepth = t->seldepth;
    info->score = t->done_score;
    info->nodes = total_nodes(e);
    int64_t el = now_ns() - e->time.start_ns;
    info->elapsed_ms = el / 1000000;
    info->nps = el > 0 ? (uint64_t)((double)info->nodes * 1e9 / (double)el) : 0;
    info->hashfull = tt_hashfull(&e->tt);
    info->best = t->done_move;
    info->pv_len = t->done_pv_len;
    memcpy(info->pv, t->done_pv, sizeof(Move) * (size_t)t->done_pv_len);
    info->source = source;
}

void search_iterate(SearchThread *t) {
    Engine *e = t->eng;
    const SearchLimits *l = &e->limits;
    int max_depth = l->max_depth > 0 ? l->max_depth : MAX_PLY - 10;
    /* renju's node (Rapfi's shape) keeps its PV: never MTD(f)'s null windows
     * unless asked for (README, changes tried: session 76) */
    bool use_mtdf = l->driver == DRIVER_MTDF ||
                    (l->driver == DRIVER_AUTO && l->randomize && t->pos.rule != RULE_RENJU &&
                     (splitmix64(&t->rng) & 1));
    int32_t score = 0;
    for (int depth = 1; depth <= max_depth; depth++) {
        /* helpers spread over depths */
        if (t->id > 0 && depth > 2 && ((depth + t->id) & 1) && depth < max_depth)
            continue;
        t->seldepth = 0;
        bool first_done = false;
        int32_t v;
        if (use_mtdf && depth > 1)
            v = mtdf(t, depth, score, &first_done);
        else if (depth >= ASPIRATION_FROM && !value_is_mate(score) && !(t->off & FEAT_ASPIRATION))
            v = aspiration(t, depth, score, l->randomize, &first_done);
        else
            v = root_search(t, -VALUE_INF, VALUE_INF, depth, l->randomize, &first_done);
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
                search_fill_info(e, t, &info, "search");
                e->report(e->ctx, &info);
                e->reported = t->done_move;
            }
            if (e->time.limited && now_ns() >= e->time.soft_ns)
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

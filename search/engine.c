/* search/engine.c — the engine's life cycle: the table and its memory plan,
 * the search threads (lazy SMP helpers), the positions that need no search,
 * the root threat solvers, and the randomised choice among the best moves. */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../brain/util.h"
#include "internal.h"
#include "threat.h"

void search_limits_default(SearchLimits *l) {
    memset(l, 0, sizeof *l);
    l->turn_ms = 5000;
    l->time_left_ms = INT64_MAX;
    l->threads = 1;
    l->driver = DRIVER_AUTO;
    l->use_vct = true;
}

Engine *engine_new(void) {
    Engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    atomic_init(&e->stop, false);
    atomic_init(&e->stop_request, false);
    atomic_init(&e->clear_pending, false);
    engine_set_memory(e, 0, 0);
    return e;
}

void engine_free(Engine *e) {
    if (!e)
        return;
    tt_free(&e->tt);
    for (int i = 0; i < MAX_THREADS; i++)
        free(e->threads[i]);
    free(e);
}

/* ---- memory ---- */

/* The table a search at this pace can use: TT_KIB_PER_MS for every
 * millisecond a move may take (the turn, or the match time's share of a move
 * when that is less), at least TT_PACE_MIN_MIB, rounded up to a power of two;
 * UINT64_MAX without a time limit. A table larger than the game fills costs
 * only its warm-up: every fresh page is a fault, and the first moves of a game
 * at 200 ms a move ran at a tenth of the speed while 300 MB of it came in.
 * A 1 s search fills about a sixteenth of 32 MiB; with 128 MiB (128 KiB a
 * millisecond) the first search of a game at 1 s, beside another game on a
 * 2-core machine, finished depth 10 at about 300 ms instead of 150 (huge
 * pages that the kernel must first compact). */
static uint64_t pace_bytes(const SearchLimits *l) {
    int64_t ms = l->turn_ms;
    if (l->match_ms > 0 && (ms < 0 || l->match_ms / TIME_MOVES_BASE < ms))
        ms = l->match_ms / TIME_MOVES_BASE;
    if (ms < 0 || ms > (int64_t)1 << 40)
        return UINT64_MAX;
    uint64_t want = (uint64_t)ms * TT_KIB_PER_MS * 1024, bytes = (uint64_t)TT_PACE_MIN_MIB << 20;
    while (bytes < want)
        bytes *= 2;
    return bytes;
}

/* The table's size for a search on `threads` threads: the memory limit less
 * what lies outside the table (code, stacks, per-thread state, pattern
 * tables) and a slack for the allocator, or the default, and no more than the
 * pace of the game can use; an explicit hash size caps it instead of the
 * pace. Whole buckets: the table keeps this size from one search to the
 * next (a size between two bucket counts made every search allocate a new,
 * empty table). */
static uint64_t table_bytes(uint64_t max_memory, uint64_t hash_kib, int threads, const SearchLimits *l) {
    uint64_t bytes = (uint64_t)HASH_DEFAULT_MIB << 20;
    if (max_memory) {
        uint64_t reserve = ((uint64_t)MEMORY_RESERVE_MIB << 20) +
                           (uint64_t)threads * (sizeof(SearchThread) + ((uint64_t)MEMORY_THREAD_EXTRA_MIB << 20));
        bytes = max_memory > reserve + (1u << 20) ? max_memory - reserve : (1u << 20);
        bytes -= bytes / MEMORY_SLACK_DIV;
    }
    if (hash_kib) {
        if (hash_kib < bytes / 1024)
            bytes = hash_kib * 1024;
    } else {
        uint64_t pace = pace_bytes(l);
        if (pace < bytes)
            bytes = pace;
    }
    return bytes - bytes % sizeof(TTBucket);
}

/* Resize the table for this search: only here, when no search thread runs. */
static void size_table(Engine *e, int threads) {
    uint64_t bytes = table_bytes(e->max_memory, e->hash_kib, threads, &e->limits);
    if (bytes > SIZE_MAX)
        bytes = SIZE_MAX;
    if (bytes != tt_bytes(&e->tt))
        tt_set_size(&e->tt, (size_t)bytes);
}

void engine_set_memory(Engine *e, uint64_t max_memory, uint64_t hash_kib) {
    e->max_memory = max_memory;
    e->hash_kib = hash_kib;
}

size_t engine_hash_bytes(const Engine *e) {
    uint64_t b = table_bytes(e->max_memory, e->hash_kib, e->limits.threads > 0 ? e->limits.threads : 1, &e->limits);
    return b > SIZE_MAX ? SIZE_MAX : (size_t)b;
}

void engine_clear_hash(Engine *e) { atomic_store(&e->clear_pending, true); }

/* ---- stopping ---- */

void engine_arm(Engine *e) { atomic_store(&e->stop_request, false); }

bool engine_stopped(const Engine *e) { return atomic_load(&((Engine *)e)->stop_request); }

void engine_stop(Engine *e) {
    atomic_store(&e->stop_request, true);
    atomic_store(&e->stop, true);
}

/* ---- measuring child futility ---- */

void engine_take_prune_stats(Engine *e, PruneStats *out) {
    for (int i = 0; i < MAX_THREADS; i++) {
        SearchThread *t = e->threads[i];
        if (!t)
            continue;
        for (int d = 0; d <= PRUNE_STAT_DEPTHS; d++)
            for (int b = 0; b < PRUNE_STAT_BUCKETS; b++) {
                out->nodes[d][b] += t->prune.nodes[d][b];
                out->below[d][b] += t->prune.below[d][b];
            }
        memset(&t->prune, 0, sizeof t->prune);
        t->prune_seen = 0;
    }
}

/* ---- threads ---- */

static SearchThread *thread_get(Engine *e, int i) {
    if (!e->threads[i])
        e->threads[i] = calloc(1, sizeof(SearchThread));
    return e->threads[i];
}

static void thread_prepare(SearchThread *t, Engine *e, int id, const Pos *p) {
    memcpy(&t->pos, p, sizeof *p);
    t->eng = e;
    t->id = id;
    t->off = e->limits.features_off;
    atomic_store_explicit(&t->nodes, 0, memory_order_relaxed);
    t->threat_nodes = 0;
    t->singular_tests = t->singular_found = 0;
    t->mtdf_iterations = t->mtdf_passes = 0;
    t->seldepth = 0;
    t->aborted = false;
    t->done_depth = 0;
    t->done_move = MOVE_NONE;
    t->done_pv_len = 0;
    t->root_count = 0;
    memset(t->stack, 0, sizeof t->stack);
    history_clear(&t->hist);
    memset(t->vcf_fail, 0, sizeof t->vcf_fail);
    t->rng = e->limits.seed * 0x9E3779B97F4A7C15ULL + (uint64_t)id + 1;
}

/* Is m one of the root moves the caller excluded (N-best)? */
static bool excluded(const SearchLimits *l, Move m) {
    for (int i = 0; i < l->exclude_count; i++)
        if (l->exclude[i] == m)
            return true;
    return false;
}

/* The root moves in order; every legal candidate when the side to move is
 * lost anyway (no defence leaves the opponent without an open four). */
static int build_root(SearchThread *t) {
    Pos *p = &t->pos;
    Board *b = &p->b;
    ScoredMove *list = malloc(sizeof(ScoredMove) * (size_t)(board_candidate_count(b) + 1));
    if (!list)
        return t->root_count = 0;
    /* every move at the root: the four-three defences are a heuristic set */
    OrderCtx oc = {&t->hist, t->stack[0].killer, t->off | FEAT_DEFEND43, &t->marks, t->scratch};
    PickStage mode;
    int n = movepick_generate(p, &oc, list, board_candidate_count(b) + 1, MOVE_NONE, &mode);
    if (n < 0) {
        n = 0;
        int nc;
        const Move *cand = board_candidates(b, &nc);
        for (int i = 0; i < nc; i++)
            if (move_legal(p, cand[i], b->side)) {
                list[n].m = cand[i];
                list[n++].score = eval_move_score(p, cand[i], b->side);
            }
    }
    sort_moves(list, n);
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (!excluded(&t->eng->limits, list[i].m))
            list[kept++] = list[i];
    n = kept;
    for (int i = 0; i < n; i++) {
        t->root[i].move = list[i].m;
        t->root[i].score = t->root[i].prev_score = -VALUE_INF;
        t->root[i].near_best = false;
    }
    free(list);
    return t->root_count = n;
}

static void *helper_main(void *arg) {
    search_iterate((SearchThread *)arg);
    return NULL;
}

/* Start threads 1.. of the engine (thread_count of them in all); returns
 * how many helpers run. */
static int start_helpers(Engine *e, const Pos *p, pthread_t *tids) {
    for (int i = 1; i < e->limits.threads; i++) {
        SearchThread *h = thread_get(e, i);
        if (!h)
            break;
        thread_prepare(h, e, i, p);
        build_root(h);
        e->thread_count = i + 1;
    }
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, (size_t)THREAD_STACK_MIB << 20);
    int started = 0;
    for (int i = 1; i < e->thread_count; i++) {
        if (pthread_create(&tids[i], &attr, helper_main, e->threads[i]) != 0)
            break;
        started = i;
    }
    pthread_attr_destroy(&attr);
    e->thread_count = started + 1; /* the node cap counts only threads that run */
    return started;
}

/* ---- moves without a search ---- */

/* The best-scored legal candidate, else the legal empty cell nearest the
 * centre (MOVE_NONE only when no empty cell is legal). */
static Move legal_fallback(Pos *p) {
    Board *b = &p->b;
    Move best = MOVE_NONE;
    int best_score = INT_MIN;
    int nc;
    const Move *cand = board_candidates(b, &nc);
    for (int i = 0; i < nc; i++) {
        Move c = cand[i];
        int sc = eval_move_score(p, c, b->side);
        if (sc > best_score && move_legal(p, c, b->side))
            best = c, best_score = sc;
    }
    int cx = b->width / 2, cy = b->height / 2;
    for (int r = 0; best == MOVE_NONE && r < BOARD_MAX_SIZE; r++)
        for (int dy = -r; dy <= r && best == MOVE_NONE; dy++)
            for (int dx = -r; dx <= r && best == MOVE_NONE; dx++) {
                int x = cx + dx, y = cy + dy;
                if ((dx == -r || dx == r || dy == -r || dy == r) && board_on(b, x, y)) {
                    Move m = board_move_at(b, x, y);
                    if (b->cell[m] == EMPTY && move_legal(p, m, b->side))
                        best = m;
                }
            }
    return best;
}

static Move finish(Engine *e, SearchThread *t, Move m, int32_t score, const char *source,
                   SearchInfo *result) {
    t->done_move = m;
    t->done_score = score;
    t->done_pv[0] = m;
    t->done_pv_len = 1;
    SearchInfo info;
    search_fill_info(e, t, &info, source);
    if (e->report && strcmp(source, "search") != 0)
        e->report(e->ctx, &info);
    if (result)
        *result = info;
    return m;
}

/* The seeds' one-ply weight bot: take a five, block one, else the best
 * attack x2 + defence cell, at random among equals. */
static Move one_ply_move(Engine *e, SearchThread *t) {
    Pos *p = &t->pos;
    Board *b = &p->b;
    int s = b->side;
    Move five, best = MOVE_NONE, eq[64];
    bool block = five_threat(p, opponent(s), &five) != FIVE_NONE;
    int best_score = INT_MIN, k = 0;
    int nc;
    const Move *cand = board_candidates(b, &nc);
    for (int i = 0; i < nc; i++) {
        Move c = cand[i];
        if (!move_legal(p, c, s))
            continue;
        int sc = block ? (c == five) * 1000000 : eval_move_score(p, c, s);
        if (sc > best_score)
            best_score = sc, best = c, k = 0;
        if (sc == best_score && k < 64)
            eq[k++] = c;
    }
    if (e->limits.randomize && k > 1)
        best = eq[splitmix64(&t->rng) % (uint64_t)k];
    return best != MOVE_NONE ? best : legal_fallback(p);
}

/* A forced win by fours, or by threes and fours, within a share of the
 * soft time: the move, or MOVE_NONE. */
static Move root_threats(Engine *e, SearchThread *t, int32_t *score, const char **source) {
    Pos *p = &t->pos;
    int s = p->b.side;
    ThreatCtx c;
    threat_ctx_init(&c, p, &t->marks, t->vcf_fail);
    c.stop = &e->stop;
    c.budget = VCF_ROOT_BUDGET;
    if (e->time.limited)
        c.deadline_ns = now_ns() + (e->time.soft_ns - now_ns()) / ROOT_THREAT_TIME_DIV;
    Move m = MOVE_NONE;
    bool won = vcf_solve(&c, VCF_ROOT_DEPTH, &m) && move_legal(p, m, s);
    *score = VALUE_MATE - 40;
    *source = "vcf";
    if (!won && e->limits.use_vct) {
        int64_t deadline = INT64_MAX;
        if (e->time.limited) {
            int64_t budget_ns = (e->time.soft_ns - now_ns()) / ROOT_THREAT_TIME_DIV;
            deadline = now_ns() + (budget_ns > 0 ? budget_ns : 0);
        }
        c.deadline_ns = deadline;
        *source = "vct";
        int d = vct_solve_deepening(&c, VCT_ROOT_MAX_DEPTH, VCT_ROOT_STEP_BUDGET, &m);
        if (d > 0) {
            won = true;
            *score = VALUE_MATE - 2 * d - 1;
        }
    }
    t->threat_nodes = c.nodes;
    return won ? m : MOVE_NONE;
}

/* ---- think ---- */

Move engine_think(Engine *e, const Pos *p, const SearchLimits *l, SearchReport report, void *ctx,
                  SearchInfo *result) {
    /* Step 1. Limits, the time plan, and a stop asked for before we began */
    e->limits = *l;
    if (e->limits.threads < 1)
        e->limits.threads = 1;
    if (e->limits.threads > MAX_THREADS)
        e->limits.threads = MAX_THREADS;
    e->report = report;
    e->ctx = ctx;
    e->reported = MOVE_NONE;
    atomic_store(&e->stop, atomic_load(&e->stop_request));
    e->time = time_plan(l, p->b.stones, p->b.width * p->b.height, l->start_ns ? l->start_ns : now_ns());
    e->thread_count = 1;
    SearchThread *main_t = thread_get(e, 0);
    if (!main_t)
        return legal_fallback((Pos *)p);
    thread_prepare(main_t, e, 0, p);
    Pos *mp = &main_t->pos;
    Board *b = &mp->b;
    int s = b->side, o = opponent(s);

    /* Step 2. Positions that need no search */
    if (b->stones == b->width * b->height)
        return finish(e, main_t, MOVE_NONE, 0, "forced", result);
    if (board_candidate_count(b) == 0)
        return finish(e, main_t, legal_fallback(mp), 0, "book", result);
    Move m;
    bool shortcuts = l->exclude_count == 0; /* N-best: the excluded moves may be these */
    if (shortcuts && find_fives(mp, s, &m, 1))
        return finish(e, main_t, m, VALUE_MATE - 1, "forced", result);
    Move of;
    int ft = five_threat(mp, o, &of);
    if (ft == FIVE_UNSTOPPABLE && shortcuts) {
        /* lost: block one five if that is legal, else any legal move (renju
         * black never plays a forbidden point, even when it is the only block) */
        Move m2 = move_legal(mp, of, s) ? of : legal_fallback(mp);
        return finish(e, main_t, m2, -(VALUE_MATE - 2), "forced", result);
    }
    if (shortcuts && ft == FIVE_NONE && find_flex4(mp, s, &m, 1))
        return finish(e, main_t, m, VALUE_MATE - 3, "forced", result);
    if (l->one_ply)
        return finish(e, main_t, one_ply_move(e, main_t), 0, "weights", result);

    /* Step 3. The table, sized for this search's threads; the root moves */
    size_table(e, e->limits.threads);
    if (atomic_exchange(&e->clear_pending, false))
        tt_clear(&e->tt);
    tt_ensure(&e->tt);
    tt_new_search(&e->tt);
    int n = build_root(main_t);
    if (n == 0)
        return finish(e, main_t, legal_fallback(mp), 0, "book", result);
    if (n == 1 && l->turn_ms == 0)
        return finish(e, main_t, main_t->root[0].move, 0, "forced", result);

    /* Step 4. A forced win by fours, or by threes and fours, ends it */
    if (ft == FIVE_NONE && l->turn_ms != 0 && !(l->features_off & FEAT_ROOT_THREATS)) {
        int32_t score;
        const char *source;
        m = root_threats(e, main_t, &score, &source);
        if (m != MOVE_NONE && !excluded(l, m))
            return finish(e, main_t, m, score, source, result);
    }

    /* Step 5. Iterative deepening, with helpers */
    pthread_t tids[MAX_THREADS];
    int started = start_helpers(e, p, tids);
    search_iterate(main_t);
    for (int i = 1; i <= started; i++)
        pthread_join(tids[i], NULL);

    /* Step 6. Randomisation: any root move proven within the margin of the best */
    Move chosen = main_t->done_move;
    const char *source = "search";
    if (l->randomize && main_t->done_depth > 0 && !value_is_mate(main_t->done_score)) {
        Move pool[64];
        int k = 0;
        pool[k++] = chosen;
        for (int i = 0; i < main_t->root_count && k < 64; i++)
            if (main_t->root[i].near_best && main_t->root[i].move != chosen)
                pool[k++] = main_t->root[i].move;
        chosen = pool[splitmix64(&main_t->rng) % (uint64_t)k];
        if (chosen != main_t->done_move)
            source = "random";
    }
    if (chosen == MOVE_NONE)
        chosen = main_t->root[0].move;
    if (chosen != main_t->done_move || main_t->done_pv_len < 1 || main_t->done_pv[0] != chosen) {
        main_t->done_pv[0] = chosen;
        main_t->done_pv_len = 1;
    }
    main_t->done_move = chosen;
    /* Step 7. The last report describes the move played (a move from an
     * unfinished iteration, or a random near-best one, had none) */
    SearchInfo info;
    search_fill_info(e, main_t, &info, source);
    if (e->report && e->reported != chosen)
        e->report(e->ctx, &info);
    if (result)
        *result = info;
    return chosen;
}

/* protocol/session.c — the brain session.
 *
 * The reader (this thread) answers at once everything that needs no search
 * and keeps reading while a search runs, so YXSTOP, STOP, INFO timeout_turn 0
 * and END work during a search. A command that changes the game while a
 * search runs waits for that search's reply first. The search thread plays
 * its move on the session's position and prints it; the reader touches the
 * position only when no search runs. Every line goes out whole and flushed
 * under one lock. */
#include "session.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../eval/evaluate.h"
#include "../brain/util.h"
#include "../search/search.h"
#include "codec.h"
#include "linereader.h"

#ifndef QUINTO_REV
#define QUINTO_REV "unknown"
#endif
#define QUINTO_VERSION "0.1.0"

const char *session_about(void) {
    return "name=\"Quinto\", version=\"" QUINTO_VERSION " (" QUINTO_REV ")\", "
           "author=\"The Quinto developers\", country=\"CZ\", www=\"none\", "
           "email=\"none\"";
}

typedef enum {
    THINK_MOVE,
    THINK_SWAP2_0,
    THINK_SWAP2_3,
    THINK_SWAP2_5,
    THINK_NBEST,    /* YXNBEST: the N best moves, then the best played */
    THINK_BALANCE1, /* YXBALANCEONE: the move leaving the position nearest the bias */
    THINK_BALANCE2, /* YXBALANCETWO: the same with two moves */
} ThinkKind;

/* Yixin-Board asks for analysis without a time limit with these two values
 * (Rapfi reads them the same way) */
enum { YIXIN_INFINITE_TURN = 2000000, YIXIN_INFINITE_MATCH = 100000000 };

/* swap2 chooser: a score within this of 0 (for white) is too close to call */
enum { SWAP2_CLOSE = 100 };

typedef struct {
    FILE *out;
    pthread_mutex_t out_lock;
    Pos *pos;
    bool started;
    Rule rule;
    bool continuous;
    /* settings from INFO */
    int64_t timeout_turn, timeout_match, time_left;
    uint64_t max_memory, hash_kib, max_nodes;
    int threads, max_depth;
    int randomize; /* INFO random: 0, 1, or -1 (not given: on outside renju) */
    bool one_ply;
    uint64_t seed, move_counter;
    uint32_t features_off; /* INFO features_off: search features switched off */
    int strength;          /* INFO strength 0..100 (100: full strength) */
    int nbest;             /* YXNBEST N */
    int32_t balance_bias;  /* YXBALANCEONE/TWO V */
    int report_tag;        /* > 0: reports belong to the N-best search of that rank */
    char folder[PROTO_MSG];
    char pending[PROTO_MSG]; /* a MESSAGE to print before the next reply */
    Engine *engine;
    /* the running search */
    pthread_t thread;
    bool searching;          /* a search thread exists (maybe finished, not joined) */
    atomic_bool search_done; /* set by the search thread as its last act */
    bool rule_dirty;         /* a rule change waits for the search to end */
    bool memory_dirty;       /* so does a memory or hash size change */
    ThinkKind think;
    int64_t cmd_ns;
    SearchLimits limits;     /* snapshot for the running search (made by the reader) */
} Session;

static void out_line(Session *s, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&s->out_lock);
    vfprintf(s->out, fmt, ap);
    fputc('\n', s->out);
    if (fflush(s->out) != 0 || ferror(s->out))
        _exit(0); /* the manager closed our output: no one is listening */
    pthread_mutex_unlock(&s->out_lock);
    va_end(ap);
}

static void flush_pending(Session *s) {
    if (s->pending[0]) {
        out_line(s, "MESSAGE %s", s->pending);
        s->pending[0] = 0;
    }
}

/* ---- search thread ---- */

/* A search's line as "x,y x,y ..." and its score as the value or "+M7" /
 * "-M7" (a five in 7 plies): the forms every MESSAGE uses. */
static void pv_text(Session *s, const SearchInfo *in, char *buf, size_t cap) {
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; i < in->pv_len && n + 10 < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%d,%d", i ? " " : "",
                              board_x(&s->pos->b, in->pv[i]), board_y(&s->pos->b, in->pv[i]));
}

static void score_text(int32_t v, char *buf, size_t cap) {
    if (value_is_mate(v))
        snprintf(buf, cap, "%s%d", v > 0 ? "+M" : "-M", VALUE_MATE - (v < 0 ? -v : v));
    else
        snprintf(buf, cap, "%d", v);
}

static void report(void *ctx, const SearchInfo *in) {
    Session *s = ctx;
    char pv[PV_MAX * 9 + 1], ev[32];
    pv_text(s, in, pv, sizeof pv);
    score_text(in->score, ev, sizeof ev);
    char tag[24] = "";
    if (s->report_tag > 0)
        snprintf(tag, sizeof tag, "nbest %d ", s->report_tag);
    out_line(s, "MESSAGE %sdepth %d-%d ev %s n %" PRIu64 " nps %" PRIu64 " tm %" PRId64
                " hash %d %s pv %s",
             tag, in->depth, in->seldepth, ev, in->nodes, in->nps, in->elapsed_ms, in->hashfull,
             in->source ? in->source : "search", pv);
}

static void make_limits(Session *s, SearchLimits *l) {
    search_limits_default(l);
    l->turn_ms = s->timeout_turn;
    l->match_ms = s->timeout_match;
    l->time_left_ms = s->time_left;
    l->start_ns = s->cmd_ns;
    l->max_depth = s->max_depth;
    l->max_nodes = s->max_nodes;
    l->threads = s->threads;
    /* by default renju is not randomised: its near-best choice cost play
     * against Rapfi (README, changes tried: session 77) */
    l->randomize = s->randomize >= 0 ? s->randomize != 0 : s->rule != RULE_RENJU;
    l->one_ply = s->one_ply;
    l->features_off = s->features_off;
    l->seed = s->seed + s->move_counter++;
    if (s->timeout_turn >= YIXIN_INFINITE_TURN && s->timeout_match >= YIXIN_INFINITE_MATCH) {
        /* analysis: until YXSTOP / STOP */
        l->turn_ms = -1;
        l->match_ms = 0;
        l->time_left_ms = INT64_MAX;
    }
    if (s->strength < 100) {
        /* weaker, honestly: a smaller search (a node budget from 400 at 0 to
         * about 1.3 M at 95) and a wider choice among the moves that search
         * finds near the best, never a move it finds bad */
        uint64_t cap = 400ull << (s->strength / 8);
        if (!l->max_nodes || l->max_nodes > cap)
            l->max_nodes = cap;
        l->randomize = true;
        l->random_margin = 12 + (100 - s->strength) * 5;
    }
}

/* The time a multi-search command (N-best, balance) may spend in all, in ms
 * (-1: no limit), measured from the command. */
static int64_t command_budget(const Session *s) {
    const SearchLimits *l = &s->limits;
    if (l->turn_ms < 0)
        return -1;
    int64_t budget = l->turn_ms - l->turn_ms / 20 - 30; /* the time plan's margin, roughly */
    if (l->match_ms > 0 && l->time_left_ms != INT64_MAX && l->time_left_ms / 8 < budget)
        budget = l->time_left_ms / 8;
    return budget > 1 ? budget : 1;
}

/* Limits for search k of n in a multi-search command: an equal share of
 * what is left, counted from now. */
static SearchLimits share_limits(const Session *s, int k, int n) {
    SearchLimits l = s->limits;
    int64_t budget = command_budget(s);
    l.start_ns = 0;
    l.match_ms = 0;
    l.time_left_ms = INT64_MAX;
    if (budget >= 0) {
        int64_t left = budget - (now_ns() - s->cmd_ns) / 1000000;
        l.turn_ms = left > 0 ? left / (n - k) : 0;
        if (l.turn_ms < 1)
            l.turn_ms = 1;
    }
    return l;
}

/* YXNBEST N: multi-PV, depth by depth. At each depth d, N searches to depth d
 * (the table shared), each without the moves ranked before it at that
 * depth; a depth counts when all N finished it, and its N lines are printed
 * (`MESSAGE nbest K depth …`). When the time (or YXSTOP) ends a depth, the
 * last complete one is the answer: one summary line per move, then the best
 * move, played. */
static void nbest(Session *s) {
    int n = s->nbest < 1 ? 1 : s->nbest > SEARCH_EXCLUDE_MAX ? SEARCH_EXCLUDE_MAX : s->nbest;
    Move moves[SEARCH_EXCLUDE_MAX], cur[SEARCH_EXCLUDE_MAX];
    SearchInfo infos[SEARCH_EXCLUDE_MAX], cur_info[SEARCH_EXCLUDE_MAX];
    int found = 0, cap = s->limits.max_depth > 0 ? s->limits.max_depth : 64;
    int64_t budget = command_budget(s);
    for (int d = 1; d <= cap; d++) {
        int k = 0;
        bool complete = true, deeper = false;
        for (; k < n; k++) {
            SearchLimits l = s->limits;
            l.start_ns = 0;
            l.match_ms = 0;
            l.time_left_ms = INT64_MAX;
            if (budget >= 0) {
                int64_t left = budget - (now_ns() - s->cmd_ns) / 1000000;
                if (left < 1) {
                    complete = false;
                    break;
                }
                l.turn_ms = left;
            }
            l.max_depth = d;
            l.randomize = false;
            l.exclude_count = k;
            memcpy(l.exclude, cur, sizeof(Move) * (size_t)k);
            SearchInfo info;
            Move m = engine_think(s->engine, s->pos, &l, NULL, NULL, &info);
            bool repeat = false;
            for (int i = 0; i < k; i++)
                repeat |= cur[i] == m;
            if (m == MOVE_NONE || repeat)
                break; /* no other move */
            /* a forced result (vcf, vct, forced) needs no depth; otherwise the
             * search must have finished depth d */
            bool forced = info.source && strcmp(info.source, "search") != 0;
            if ((!forced && info.depth < d) || engine_stopped(s->engine)) {
                complete = false;
                break;
            }
            deeper |= !forced;
            cur[k] = m;
            cur_info[k] = info;
        }
        if (!complete || k == 0)
            break;
        found = k;
        memcpy(moves, cur, sizeof(Move) * (size_t)k);
        memcpy(infos, cur_info, sizeof(SearchInfo) * (size_t)k);
        for (int a = 1; a < k; a++) /* best first: a later rank may score higher */
            for (int c = a; c > 0 && infos[c].score > infos[c - 1].score; c--) {
                SearchInfo ti = infos[c];
                infos[c] = infos[c - 1], infos[c - 1] = ti;
                Move tm = moves[c];
                moves[c] = moves[c - 1], moves[c - 1] = tm;
            }
        for (int r = 0; r < k; r++) {
            s->report_tag = r + 1;
            report(s, &infos[r]);
        }
        s->report_tag = 0;
        if (!deeper)
            break; /* every line is forced: deeper depths say nothing new */
    }
    if (!found) { /* not even depth 1 in the time: one plain search */
        SearchLimits l = share_limits(s, 0, 1);
        l.randomize = false;
        Move m = engine_think(s->engine, s->pos, &l, NULL, NULL, &infos[0]);
        if (m == MOVE_NONE) {
            out_line(s, "ERROR no move: the board is full");
            return;
        }
        moves[0] = m;
        found = 1;
    }
    for (int k = 0; k < found; k++) {
        char pv[PV_MAX * 9 + 1], ev[32];
        pv_text(s, &infos[k], pv, sizeof pv);
        score_text(infos[k].score, ev, sizeof ev);
        out_line(s, "MESSAGE nbest %d/%d %d,%d ev %s depth %d pv %s", k + 1, found,
                 board_x(&s->pos->b, moves[k]), board_y(&s->pos->b, moves[k]), ev, infos[k].depth,
                 pv);
    }
    Board *b = &s->pos->b;
    int x = board_x(b, moves[0]), y = board_y(b, moves[0]);
    pos_play(s->pos, moves[0]);
    out_line(s, "%d,%d", x, y);
}

/* The k best candidate cells for the side to move by the move score, legal
 * ones only (renju black: no forbidden point). */
static int top_cells(Session *s, Move *out, int k) {
    Pos *p = s->pos;
    Board *b = &p->b;
    int n = 0;
    int score[64];
    int nc;
    const Move *cand = board_candidates(b, &nc);
    for (int i = 0; i < nc; i++) {
        Move m = cand[i];
        if (b->side == BLACK && rule_is_forbidden(b, m, p->rule))
            continue;
        int v = eval_move_score(p, m, b->side);
        if (n == k && v <= score[k - 1])
            continue;
        int j = n < k ? n++ : k - 1;
        while (j > 0 && score[j - 1] < v) {
            score[j] = score[j - 1];
            out[j] = out[j - 1];
            j--;
        }
        score[j] = v;
        out[j] = m;
    }
    if (n == 0 && b->stones == 0) { /* an empty board: the centre */
        out[0] = board_move_at(b, b->width / 2, b->height / 2);
        n = 1;
    }
    return n;
}

/* Is m within two cells (both ways) of a stone? Balanced openings stay
 * natural: no stone thrown far away to spoil the shape. */
static bool near_stones(const Board *b, Move m) {
    int x = board_x(b, m), y = board_y(b, m);
    for (int i = 0; i < b->ply; i++) {
        Move h = b->history[i];
        if (h == MOVE_PASS)
            continue;
        int dx = board_x(b, h) - x, dy = board_y(b, h) - y;
        if (dx >= -2 && dx <= 2 && dy >= -2 && dy <= 2)
            return true;
    }
    return b->stones == 0;
}

/* YXBALANCEONE V / YXBALANCETWO V: the most natural moves (pairs: our move,
 * then the opponent's), near the stones, each get a short search; the one
 * whose score for the side that was to move at the command is nearest V is
 * played and printed. */
/* The most natural moves (pairs: our move, then the opponent's), near the
 * stones, each get a short search on a share of the command's time; the one
 * whose score for the side to move now is nearest bias is returned (the
 * position is left as it was). False when there is no move. */
static bool balance_find(Session *s, bool two, int32_t bias, Move *m1, Move *m2, int32_t *value) {
    enum { FIRST = 10, FIRST_TWO = 8, SECOND = 6 };
    Move first[FIRST], second[SECOND];
    Pos *p = s->pos;
    Board *b = &p->b;
    int nf = 0;
    Move all[FIRST * 3];
    int na = top_cells(s, all, two ? FIRST_TWO * 3 : FIRST * 3);
    for (int i = 0; i < na && nf < (two ? FIRST_TWO : FIRST); i++)
        if (near_stones(b, all[i]))
            first[nf++] = all[i];
    if (!nf)
        return false;
    int searches = two ? nf * SECOND : nf, done = 0;
    Move best1 = first[0], best2 = MOVE_NONE;
    int64_t best_gap = INT64_MAX;
    int32_t best_v = 0;
    for (int i = 0; i < nf; i++) {
        pos_play(p, first[i]);
        int ns = 1;
        if (two) {
            /* the reply from across the ranking, not only the best ones: a
             * strong first move is evened out by a modest second one */
            Move more[64], near[64];
            int nm = top_cells(s, more, 64), nn = 0;
            for (int j = 0; j < nm; j++)
                if (near_stones(b, more[j]))
                    near[nn++] = more[j];
            ns = nn < SECOND ? nn : SECOND;
            for (int j = 0; j < ns; j++)
                second[j] = near[ns > 1 ? j * (nn - 1) / (ns - 1) : 0];
        }
        for (int j = 0; j < ns; j++) {
            if (two)
                pos_play(p, second[j]);
            SearchLimits l = share_limits(s, done < searches ? done : searches - 1, searches);
            done++;
            l.randomize = false;
            SearchInfo info;
            engine_think(s->engine, p, &l, NULL, NULL, &info);
            int32_t v = two ? info.score : -info.score; /* for the side to move at the command */
            int64_t gap = value_is_mate(v) ? INT64_MAX / 2 : llabs((long long)v - bias);
            if (gap < best_gap)
                best_gap = gap, best_v = v, best1 = first[i], best2 = two ? second[j] : MOVE_NONE;
            if (two)
                pos_undo(p);
        }
        pos_undo(p);
        if (engine_stopped(s->engine))
            break;
    }
    if (two && best2 == MOVE_NONE)
        return false; /* no second move anywhere */
    *m1 = best1, *m2 = best2, *value = best_v;
    return true;
}

/* YXBALANCEONE V / YXBALANCETWO V: the move (pair) of balance_find, played
 * and printed. */
static void balance(Session *s, bool two) {
    Pos *p = s->pos;
    Board *b = &p->b;
    Move best1, best2;
    int32_t best_v;
    if (!balance_find(s, two, s->balance_bias, &best1, &best2, &best_v)) {
        out_line(s, "ERROR no move: the board is full");
        return;
    }
    char ev[32];
    score_text(best_v, ev, sizeof ev);
    pos_play(p, best1);
    if (two) {
        pos_play(p, best2);
        out_line(s, "MESSAGE balance %d,%d %d,%d ev %s (wanted %d)", board_x(b, best1),
                 board_y(b, best1), board_x(b, best2), board_y(b, best2), ev, (int)s->balance_bias);
        out_line(s, "%d,%d %d,%d", board_x(b, best1), board_y(b, best1), board_x(b, best2),
                 board_y(b, best2));
    } else {
        out_line(s, "MESSAGE balance %d,%d ev %s (wanted %d)", board_x(b, best1), board_y(b, best1),
                 ev, (int)s->balance_bias);
        out_line(s, "%d,%d", board_x(b, best1), board_y(b, best1));
    }
}

/* ---- swap2 ----
 * Proposer (0 stones): several three-stone shapes near the centre, picked by
 * the seed so that games differ, each searched on a share of the time; the
 * one whose score the search finds nearest 0 is proposed.
 * Chooser (3 stones): the position is searched for white to move (value v):
 * v clearly below 0 -> SWAP (take black), clearly above -> stay white with
 * the move found; when it is too close to call (|v| within SWAP2_CLOSE) two
 * more stones are added if the search finds a pair that leaves it at least as
 * close to even, so the colour choice passes to the opponent on a position of
 * our choosing. Chooser with 5 stones: SWAP or the move, by v. */

enum { SWAP2_TRIES = 10, SWAP2_POOL = 5 * 48 };

/* All shapes: black (0,0), white at one of five offsets (the others follow by
 * symmetry), black again within three cells of the centre. */
static int swap2_shapes(int shapes[][6]) {
    static const int white[5][2] = {{1, 0}, {1, 1}, {2, 0}, {2, 1}, {2, 2}};
    int n = 0;
    for (int w = 0; w < 5; w++)
        for (int dy = -3; dy <= 3; dy++)
            for (int dx = -3; dx <= 3; dx++) {
                if ((dx == 0 && dy == 0) || (dx == white[w][0] && dy == white[w][1]))
                    continue;
                int ex = dx - white[w][0], ey = dy - white[w][1];
                bool near_black = dx >= -2 && dx <= 2 && dy >= -2 && dy <= 2;
                bool near_white = ex >= -2 && ex <= 2 && ey >= -2 && ey <= 2;
                if (!near_black && !near_white)
                    continue; /* the second black stone stays near the others */
                if (n < SWAP2_POOL)
                    shapes[n][0] = 0, shapes[n][1] = 0, shapes[n][2] = white[w][0],
                    shapes[n][3] = white[w][1], shapes[n][4] = dx, shapes[n][5] = dy, n++;
            }
    return n;
}

/* Place the three stones of a shape under symmetry sym (0..7) at the centre;
 * false when a stone falls off the board. */
static bool swap2_place(Session *s, const int shape[6], int sym, int xy[6]) {
    Board *b = &s->pos->b;
    int cx = b->width / 2, cy = b->height / 2;
    for (int k = 0; k < 3; k++) {
        int x = shape[2 * k], y = shape[2 * k + 1], t;
        if (sym & 1)
            x = -x;
        if (sym & 2)
            y = -y;
        if (sym & 4)
            t = x, x = y, y = t;
        xy[2 * k] = cx + x, xy[2 * k + 1] = cy + y;
        if (!board_on(b, xy[2 * k], xy[2 * k + 1]))
            return false;
    }
    return true;
}

static void swap2_open(Session *s) {
    static int shapes[SWAP2_POOL][6];
    int pool = swap2_shapes(shapes);
    Board *b = &s->pos->b;
    Rule rule = s->pos->rule; /* not s->rule: the reader may change it */
    uint64_t rng = s->seed ^ (s->move_counter++ * 0x9E3779B97F4A7C15ULL);
    int best[6] = {0}, tried = 0;
    int64_t best_abs = INT64_MAX;
    int32_t best_v = 0;
    for (int attempt = 0; attempt < SWAP2_TRIES * 4 && tried < SWAP2_TRIES; attempt++) {
        int xy[6];
        const int *shape = shapes[splitmix64(&rng) % (uint64_t)pool];
        if (!swap2_place(s, shape, (int)(splitmix64(&rng) & 7), xy))
            continue; /* small boards: the shape reaches off the edge */
        board_clear(b);
        pos_set_rule(s->pos, rule);
        for (int k = 0; k < 3; k++)
            pos_play(s->pos, board_move_at(b, xy[2 * k], xy[2 * k + 1]));
        SearchLimits l = share_limits(s, tried, SWAP2_TRIES);
        l.randomize = false;
        SearchInfo info;
        engine_think(s->engine, s->pos, &l, NULL, NULL, &info);
        tried++;
        int64_t a = value_is_mate(info.score) ? INT64_MAX / 2 : llabs((long long)info.score);
        if (a < best_abs)
            best_abs = a, best_v = info.score, memcpy(best, xy, sizeof best);
        if (engine_stopped(s->engine))
            break;
    }
    if (!tried) { /* no shape fits (5x5): three cells of the middle row */
        int cx = b->width / 2, cy = b->height / 2;
        out_line(s, "%d,%d %d,%d %d,%d", cx - 1, cy, cx, cy, cx + 1, cy);
        return;
    }
    char ev[32];
    score_text(-best_v, ev, sizeof ev);
    out_line(s, "MESSAGE swap2 propose %d,%d %d,%d %d,%d ev %s for black (%d shapes searched)", best[0],
             best[1], best[2], best[3], best[4], best[5], ev, tried);
    out_line(s, "%d,%d %d,%d %d,%d", best[0], best[1], best[2], best[3], best[4], best[5]);
}

static void swap2_choose(Session *s, int stones) {
    Board *b = &s->pos->b;
    SearchLimits l = stones == 3 ? share_limits(s, 0, 2) : s->limits;
    SearchInfo info;
    Move m = engine_think(s->engine, s->pos, &l, NULL, NULL, &info);
    if (m == MOVE_NONE) {
        out_line(s, "ERROR no move: the board is full");
        return;
    }
    int32_t v = info.score; /* for white, to move */
    char ev[32];
    score_text(v, ev, sizeof ev);
    if (stones == 3 && v >= -SWAP2_CLOSE && v <= SWAP2_CLOSE && !engine_stopped(s->engine)) {
        Move a1, a2;
        int32_t bv;
        if (balance_find(s, true, 0, &a1, &a2, &bv) && llabs((long long)bv) <= llabs((long long)v)) {
            char bev[32];
            score_text(bv, bev, sizeof bev);
            out_line(s, "MESSAGE swap2 choose: white ev %s, too close to call; add two: %d,%d %d,%d ev %s",
                     ev, board_x(b, a1), board_y(b, a1), board_x(b, a2), board_y(b, a2), bev);
            out_line(s, "%d,%d %d,%d", board_x(b, a1), board_y(b, a1), board_x(b, a2), board_y(b, a2));
            return;
        }
    }
    if (v < 0) { /* black is better: take it */
        out_line(s, "MESSAGE swap2 choose: white ev %s: SWAP (take black)", ev);
        out_line(s, "SWAP");
        return;
    }
    out_line(s, "MESSAGE swap2 choose: white ev %s: stay white, %d,%d", ev, board_x(b, m), board_y(b, m));
    out_line(s, "%d,%d", board_x(b, m), board_y(b, m));
}

static void search_body(Session *s);

static void *search_main(void *arg) {
    Session *s = arg;
    search_body(s);
    atomic_store(&s->search_done, true);
    return NULL;
}

static void search_body(Session *s) {
    if (s->think == THINK_SWAP2_0) {
        swap2_open(s);
        return;
    }
    if (s->think == THINK_SWAP2_3 || s->think == THINK_SWAP2_5) {
        swap2_choose(s, s->think == THINK_SWAP2_3 ? 3 : 5);
        return;
    }
    if (s->think == THINK_NBEST) {
        nbest(s);
        return;
    }
    if (s->think == THINK_BALANCE1 || s->think == THINK_BALANCE2) {
        balance(s, s->think == THINK_BALANCE2);
        return;
    }
    SearchInfo info;
    Move m = engine_think(s->engine, s->pos, &s->limits, report, s, &info);
    Board *b = &s->pos->b;
    if (m == MOVE_NONE) {
        out_line(s, "ERROR no move: the board is full");
        return;
    }
    pos_play(s->pos, m);
    out_line(s, "%d,%d", board_x(b, m), board_y(b, m));
}

static void wait_search(Session *s) {
    if (s->searching) {
        pthread_join(s->thread, NULL);
        s->searching = false;
    }
    if (s->rule_dirty) {
        s->rule_dirty = false;
        if (s->started)
            pos_set_rule(s->pos, s->rule);
    }
    if (s->memory_dirty) {
        s->memory_dirty = false;
        engine_set_memory(s->engine, s->max_memory, s->hash_kib);
    }
}

/* Is a search still running? (joins one that has finished) */
static bool search_running(Session *s) {
    if (s->searching && atomic_load(&s->search_done))
        wait_search(s);
    return s->searching;
}

static void think(Session *s, ThinkKind kind) {
    flush_pending(s);
    make_limits(s, &s->limits); /* the search thread reads only this snapshot */
    s->think = kind;
    s->searching = true;
    atomic_store(&s->search_done, false);
    engine_arm(s->engine); /* here, not on the search thread: no stop is lost */
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 16u << 20);
    if (pthread_create(&s->thread, &attr, search_main, s) != 0) {
        s->searching = false;
        search_main(s); /* no thread to be had: think on this one */
    }
    pthread_attr_destroy(&attr);
}

/* ---- game state ---- */

static bool new_game(Session *s, int w, int h) {
    if (!pos_init(s->pos, w, h, s->rule))
        return false;
    s->started = true;
    return true;
}

typedef struct {
    int x, y, f;
} BoardStone;

/* Set the position from a BOARD block: f 1 own, 2 opponent (3: a stone of a
 * finished line in continuous games, taken as the opponent's). Colours: the
 * side to move is ours; black is the owner of the first stone under renju
 * (stones come in move order), else black unless the opponent has more
 * stones. */
static bool set_position(Session *s, const BoardStone *st, int n, char *err, size_t cap) {
    Board *b = &s->pos->b;
    int own = 0, opp = 0;
    for (int i = 0; i < n; i++) {
        if (!board_on(b, st[i].x, st[i].y)) {
            snprintf(err, cap, "stone %d,%d is off the %dx%d board", st[i].x, st[i].y, b->width,
                     b->height);
            return false;
        }
        for (int j = 0; j < i; j++)
            if (st[j].x == st[i].x && st[j].y == st[i].y) {
                snprintf(err, cap, "two stones on %d,%d", st[i].x, st[i].y);
                return false;
            }
        if (st[i].f == 1)
            own++;
        else
            opp++;
    }
    if (n >= b->width * b->height) {
        snprintf(err, cap, "the board is full");
        return false;
    }
    int us;
    if (s->rule == RULE_RENJU && n > 0)
        us = st[0].f == 1 ? BLACK : WHITE;
    else
        us = own < opp ? WHITE : BLACK;
    /* alternate black and white stones in the given order, passing where one
     * colour runs out */
    int bi = 0, wi = 0;
    const BoardStone *blk[BOARD_MAX_SIZE * BOARD_MAX_SIZE], *wht[BOARD_MAX_SIZE * BOARD_MAX_SIZE];
    int nb = 0, nw = 0;
    for (int i = 0; i < n; i++) {
        bool mine = st[i].f == 1;
        if ((us == BLACK) == mine)
            blk[nb++] = &st[i];
        else
            wht[nw++] = &st[i];
    }
    pos_init(s->pos, b->width, b->height, s->rule);
    while (bi < nb || wi < nw) {
        const BoardStone *x = b->side == BLACK ? (bi < nb ? blk[bi++] : NULL)
                                               : (wi < nw ? wht[wi++] : NULL);
        if (x)
            pos_play(s->pos, board_move_at(b, x->x, x->y));
        else
            pos_pass(s->pos);
    }
    if (b->side != us)
        pos_pass(s->pos);
    return true;
}

/* Rebuild the position without the stone on m (a TAKEBACK of an older move). */
static void remove_stone(Session *s, Move m) {
    Board *b = &s->pos->b;
    int ply = b->ply;
    Move hist[BOARD_MAX_MOVES];
    memcpy(hist, b->history, sizeof(Move) * (size_t)ply);
    pos_init(s->pos, b->width, b->height, s->rule);
    for (int i = 0; i < ply; i++) {
        if (hist[i] == m || hist[i] == MOVE_PASS)
            pos_pass(s->pos);
        else
            pos_play(s->pos, hist[i]);
    }
}

/* ---- INFO ---- */

static bool info_int(const char *v, long long *out) {
    char *end;
    if (!*v)
        return false;
    long long x = strtoll(v, &end, 10);
    if (*end)
        return false;
    *out = x;
    return true;
}

static void apply_info(Session *s, const Command *c) {
    long long v = 0;
    bool num = info_int(c->value, &v);
    const char *k = c->key;
    static const char *const numeric[] = {
        "timeout_turn", "timeout_match", "time_left", "max_memory", "hash_size", "rule",
        "thread_num",   "max_depth",     "max_node",  "random",     "oneply",    "features_off",
        "seed",         "game_type",     "strength"};
    for (size_t i = 0; i < sizeof numeric / sizeof numeric[0] && !num; i++)
        if (!strcmp(k, numeric[i])) {
            /* INFO has no reply: say it with the next one */
            snprintf(s->pending, sizeof s->pending, "INFO %s: '%.60s' is not a number, ignored", k,
                     c->value);
            return;
        }
    if (!strcmp(k, "timeout_turn") && num) {
        s->timeout_turn = v < 0 ? 0 : v;
        if (v == 0 && search_running(s))
            engine_stop(s->engine);
    } else if (!strcmp(k, "timeout_match") && num) {
        s->timeout_match = v < 0 ? 0 : v;
        if (s->time_left == INT64_MAX && v > 0)
            s->time_left = v;
    } else if (!strcmp(k, "time_left") && num) {
        s->time_left = v >= 2147483647LL ? INT64_MAX : v;
    } else if ((!strcmp(k, "max_memory") || !strcmp(k, "hash_size")) && num && v >= 0) {
        if (k[0] == 'm')
            s->max_memory = (uint64_t)v;
        else
            s->hash_kib = (uint64_t)v;
        /* the search threads use the table: the change waits for them */
        s->memory_dirty = true;
        if (!search_running(s))
            wait_search(s);
    } else if (!strcmp(k, "rule") && num) {
        Rule r;
        bool cont;
        if (v >= 0 && v <= 15 && rule_from_protocol((int)v, &r, &cont)) {
            if (r != s->rule) {
                s->rule = r;
                if (search_running(s))
                    s->rule_dirty = true; /* applied when the search ends */
                else if (s->started)
                    pos_set_rule(s->pos, r);
            }
            s->continuous = cont;
        } else {
            snprintf(s->pending, sizeof s->pending, "unsupported rule %.60s, still playing %s",
                     c->value, rule_name(s->rule));
        }
    } else if (!strcmp(k, "thread_num") && num) {
        s->threads = v < 1 ? 1 : v > 64 ? 64 : (int)v;
    } else if (!strcmp(k, "max_depth") && num) {
        s->max_depth = v < 0 ? 0 : v > 200 ? 200 : (int)v;
    } else if (!strcmp(k, "max_node") && num) {
        s->max_nodes = v < 0 ? 0 : (uint64_t)v;
    } else if (!strcmp(k, "folder")) {
        snprintf(s->folder, sizeof s->folder, "%s", c->value);
    } else if (!strcmp(k, "random") && num) {
        s->randomize = v != 0;
    } else if (!strcmp(k, "oneply") && num) {
        s->one_ply = v != 0;
    } else if (!strcmp(k, "strength") && num) {
        s->strength = v < 0 ? 0 : v > 100 ? 100 : (int)v;
    } else if (!strcmp(k, "features_off") && num) {
        s->features_off = v < 0 ? 0 : (uint32_t)v & FEAT_ALL;
    } else if (!strcmp(k, "seed") && num) {
        s->seed = (uint64_t)v;
        s->move_counter = 0;
    } else if (!strcmp(k, "evaluate")) {
        /* debug only: never on stdout */
        int x, y;
        if (s->started && !search_running(s) && codec_parse_xy(c->value, &x, &y) &&
            board_on(&s->pos->b, x, y)) {
            CellInfo ci;
            char buf[256];
            eval_explain(s->pos, board_move_at(&s->pos->b, x, y), &ci);
            eval_describe(&ci, buf, sizeof buf);
            fprintf(stderr, "evaluate %d,%d: %s\n", x, y, buf);
        }
    }
    /* game_type and every unknown key: nothing to do */
}

/* ---- the loop ---- */

static bool check_started(Session *s) {
    if (!s->started) {
        out_line(s, "ERROR no game: send START first");
        return false;
    }
    return true;
}

/* Read a BOARD-like block until DONE. Returns the number of stones, or -1 if
 * it was refused (err set); *interrupt receives a command line that broke
 * the block (then the block is refused too). */
static int read_block(LineReader *lr, bool field, BoardStone *st, int cap, char *err, size_t errcap,
                      bool *interrupted) {
    int n = 0;
    bool bad = false;
    char lerr[128];
    *interrupted = false;
    for (;;) {
        int r = lr_read(lr, -1, lerr, sizeof lerr);
        if (r == LR_EOF) {
            if (!bad)
                snprintf(err, errcap, "end of input inside the block");
            return -1;
        }
        if (r == LR_BAD) {
            if (!bad)
                snprintf(err, errcap, "%s", lerr);
            bad = true;
            continue;
        }
        const char *line = lr->line;
        while (*line == ' ' || *line == '\t')
            line++;
        if (!*line)
            continue;
        int x, y, f = 1;
        char msg[128];
        int k = codec_parse_board_line(line, field, &x, &y, &f, msg, sizeof msg);
        if (k == 0)
            return bad ? -1 : n;
        if (k < 0) {
            /* a command word inside the block ends it */
            Command c;
            codec_parse_command(line, &c);
            if (c.kind != CMD_UNKNOWN && c.kind != CMD_ERROR) {
                if (!bad)
                    snprintf(err, errcap, "block not closed by DONE");
                *interrupted = true;
                return -1;
            }
            if (!bad)
                snprintf(err, errcap, "%s", msg);
            bad = true;
            continue;
        }
        if (n >= cap) {
            if (!bad)
                snprintf(err, errcap, "too many stones");
            bad = true;
            continue;
        }
        st[n].x = x;
        st[n].y = y;
        st[n].f = f;
        n++;
    }
}

int session_run(int in_fd, FILE *out) {
    static Session S;
    Session *s = &S;
    memset(s, 0, sizeof *s);
    s->out = out;
    pthread_mutex_init(&s->out_lock, NULL);
    s->pos = calloc(1, sizeof(Pos));
    s->engine = engine_new();
    if (!s->pos || !s->engine) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    s->rule = RULE_FREESTYLE;
    s->timeout_turn = 5000;
    s->time_left = INT64_MAX;
    s->threads = 1;
    s->randomize = -1;
    s->strength = 100;
    s->seed = (uint64_t)now_ns();
    static LineReader lr;
    lr_init(&lr, in_fd);
    static BoardStone stones[BOARD_MAX_SIZE * BOARD_MAX_SIZE + 1];
    char err[256];
    char carried[PROTO_MAX_LINE];
    bool have_carried = false;
    for (;;) {
        const char *line;
        if (have_carried) {
            line = carried;
            have_carried = false;
        } else {
            int r = lr_read(&lr, -1, err, sizeof err);
            if (r == LR_EOF)
                break;
            if (r == LR_BAD) {
                out_line(s, "ERROR %s", err);
                continue;
            }
            line = lr.line;
        }
        s->cmd_ns = now_ns();
        search_running(s);
        Command c;
        codec_parse_command(line, &c);
        /* what a running search does not wait for */
        switch (c.kind) {
        case CMD_EMPTY:
            continue;
        case CMD_END:
            goto end; /* stop the search and return: main exits */
        case CMD_YXSTOP:
            if (search_running(s))
                engine_stop(s->engine);
            continue;
        case CMD_INFO:
            apply_info(s, &c);
            continue;
        default:
            break;
        }
        wait_search(s);
        Board *b = &s->pos->b;
        switch (c.kind) {
        case CMD_ERROR:
            out_line(s, "ERROR %s", c.message);
            break;
        case CMD_UNKNOWN:
            out_line(s, "UNKNOWN command %s", c.key);
            break;
        case CMD_ABOUT:
            out_line(s, "%s", session_about());
            break;
        case CMD_START:
        case CMD_RECTSTART: {
            long long w = c.a, h = c.kind == CMD_START ? c.a : c.b;
            if (w < BOARD_MIN_SIZE || h < BOARD_MIN_SIZE || w > BOARD_MAX_SIZE ||
                h > BOARD_MAX_SIZE)
                out_line(s, "ERROR unsupported board size %lldx%lld (%d to %d)", w, h,
                         BOARD_MIN_SIZE, BOARD_MAX_SIZE);
            else if (!new_game(s, (int)w, (int)h))
                out_line(s, "ERROR cannot set up the board");
            else
                out_line(s, "OK");
            break;
        }
        case CMD_RESTART:
            if (check_started(s)) {
                new_game(s, b->width, b->height);
                out_line(s, "OK");
            }
            break;
        case CMD_BEGIN:
            if (check_started(s)) {
                if (b->stones == b->width * b->height)
                    out_line(s, "ERROR the board is full");
                else
                    think(s, THINK_MOVE);
            }
            break;
        case CMD_TURN:
        case CMD_PLAY: {
            if (!check_started(s))
                break;
            if (c.a < 0 || c.b < 0 || c.a >= b->width || c.b >= b->height) {
                out_line(s, "ERROR %lld,%lld is off the %dx%d board", c.a, c.b, b->width,
                         b->height);
                break;
            }
            Move m = board_move_at(b, (int)c.a, (int)c.b);
            if (b->cell[m] != EMPTY) {
                out_line(s, "ERROR %lld,%lld is occupied", c.a, c.b);
                break;
            }
            pos_play(s->pos, m);
            if (c.kind == CMD_PLAY) { /* our own move, as suggested */
                out_line(s, "%lld,%lld", c.a, c.b);
                break;
            }
            if (b->stones == b->width * b->height)
                out_line(s, "ERROR the board is full");
            else
                think(s, THINK_MOVE);
            break;
        }
        case CMD_BOARD:
        case CMD_YXBOARD:
        case CMD_SWAP2BOARD: {
            bool field = c.kind != CMD_SWAP2BOARD, interrupted;
            err[0] = 0;
            int n = read_block(&lr, field, stones, BOARD_MAX_SIZE * BOARD_MAX_SIZE + 1, err,
                               sizeof err, &interrupted);
            if (interrupted) {
                memcpy(carried, lr.line, strlen(lr.line) + 1);
                have_carried = true;
            }
            const char *name = c.kind == CMD_BOARD     ? "BOARD"
                               : c.kind == CMD_YXBOARD ? "YXBOARD"
                                                       : "SWAP2BOARD";
            if (!s->started) {
                out_line(s, "ERROR no game: send START first");
                break;
            }
            if (n < 0) {
                out_line(s, "ERROR %s refused: %s", name, err);
                break;
            }
            if (c.kind == CMD_SWAP2BOARD) {
                if (n != 0 && n != 3 && n != 5) {
                    out_line(s, "ERROR SWAP2BOARD needs 0, 3 or 5 stones, got %d", n);
                    break;
                }
                /* stones in order black, white, black, ...; white moves next
                 * and that is us: white's stones are ours */
                for (int i = 0; i < n; i++)
                    stones[i].f = i % 2 == 0 ? 2 : 1;
            }
            if (!set_position(s, stones, n, err, sizeof err)) {
                /* the position is left as it was: set_position checks first */
                out_line(s, "ERROR %s refused: %s", name, err);
                break;
            }
            if (c.kind == CMD_BOARD)
                think(s, THINK_MOVE);
            else if (c.kind == CMD_SWAP2BOARD)
                think(s, n == 0 ? THINK_SWAP2_0 : n == 3 ? THINK_SWAP2_3 : THINK_SWAP2_5);
            break;
        }
        case CMD_DONE:
            out_line(s, "ERROR DONE without BOARD");
            break;
        case CMD_TAKEBACK: {
            if (!check_started(s))
                break;
            if (c.a < 0 || c.b < 0 || c.a >= b->width || c.b >= b->height) {
                out_line(s, "ERROR %lld,%lld is off the board", c.a, c.b);
                break;
            }
            Move m = board_move_at(b, (int)c.a, (int)c.b);
            if (b->cell[m] == EMPTY) {
                out_line(s, "ERROR no stone on %lld,%lld", c.a, c.b);
                break;
            }
            if (board_last_move(b) == m)
                pos_undo(s->pos);
            else
                remove_stone(s, m);
            out_line(s, "OK");
            break;
        }
        case CMD_YXSHOWFORBID: {
            if (!check_started(s))
                break;
            char buf[PROTO_MSG * 8];
            int k = snprintf(buf, sizeof buf, "FORBID ");
            Move *pts = malloc(sizeof(Move) * (size_t)(b->width * b->height));
            int np = pts ? rule_forbidden_points(b, s->rule, pts) : 0;
            for (int i = 0; i < np && k < (int)sizeof buf - 8; i++)
                k += snprintf(buf + k, sizeof buf - (size_t)k, "%02d%02d", board_x(b, pts[i]),
                              board_y(b, pts[i]));
            free(pts);
            out_line(s, "%s.", buf);
            break;
        }
        case CMD_YXHASHCLEAR:
            engine_clear_hash(s->engine);
            break;
        case CMD_YXSHOWINFO: /* a GUI is there: say what it may set */
            out_line(s, "MESSAGE INFO MAX_THREAD_NUM 64");
            out_line(s, "MESSAGE INFO MAX_HASH_SIZE 30");
            break;
        case CMD_YXNBEST:
        case CMD_YXBALANCEONE:
        case CMD_YXBALANCETWO:
            if (!check_started(s))
                break;
            if (b->stones >= b->width * b->height - (c.kind == CMD_YXBALANCETWO)) {
                out_line(s, "ERROR the board is full");
                break;
            }
            if (c.kind == CMD_YXNBEST) {
                if (c.a < 1) {
                    out_line(s, "ERROR YXNBEST needs a count of 1 or more");
                    break;
                }
                s->nbest = c.a > SEARCH_EXCLUDE_MAX ? SEARCH_EXCLUDE_MAX : (int)c.a;
                think(s, THINK_NBEST);
            } else {
                s->balance_bias = c.a < -20000 ? -20000 : c.a > 20000 ? 20000 : (int32_t)c.a;
                think(s, c.kind == CMD_YXBALANCEONE ? THINK_BALANCE1 : THINK_BALANCE2);
            }
            break;
        default:
            break;
        }
    }
    /* end of input: finish cleanly */
end:
    if (s->searching) {
        engine_stop(s->engine);
        wait_search(s);
    }
    engine_free(s->engine);
    free(s->pos);
    pthread_mutex_destroy(&s->out_lock);
    return 0;
}

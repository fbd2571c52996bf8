/* protocol/tools.c — bench, speed, eval and ordering from the command line (tune: tune.c). */
#include "tools.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../brain/record.h"
#include "codec.h"
#include "../eval/evaluate.h"
#include "../brain/util.h"
#include "../search/bench.h"
#include "../search/params.h"
#include "../search/threat.h"

static void bench_line(void *ctx, const BenchResult *r) {
    (void)ctx;
    char best[16] = "-";
    if (r->best != MOVE_NONE) {
        Board b;
        b.stride = r->width + BOARD_PAD;
        snprintf(best, sizeof best, "%d,%d", board_x(&b, r->best), board_y(&b, r->best));
    }
    double ms = (double)r->ns / 1e6;
    printf("position %2d  %-9s %3dx%-3d  best %-7s score %6d  nodes %10" PRIu64 "  %8.1f ms  %7.0f knps\n",
           r->index + 1, rule_name(r->rule), r->width, r->height, best, r->score, r->nodes, ms,
           ms > 0 ? (double)r->nodes / ms : 0.0);
    fflush(stdout);
}

int tool_bench(int argc, char **argv) {
    int depth = argc > 0 ? atoi(argv[0]) : BENCH_DEFAULT_DEPTH;
    int threads = argc > 1 ? atoi(argv[1]) : 1;
    int hash = argc > 2 ? atoi(argv[2]) : BENCH_DEFAULT_HASH_MB;
    if (depth < 1 || depth > 60 || threads < 1 || threads > 64 || hash < 1 || hash > 65536) {
        fprintf(stderr, "bench: depth 1..60, threads 1..64, hash 1..65536 MB\n");
        return 2;
    }
    int64_t t0 = now_ns();
    uint64_t nodes = bench_run(depth, threads, hash, bench_line, NULL);
    int64_t ns = now_ns() - t0;
    if (!nodes) {
        fprintf(stderr, "bench: a bench position failed to load\n");
        return 1;
    }
    printf("OVERALL: %" PRIu64 " nodes %" PRIu64 " nps\n", nodes,
           ns > 0 ? (uint64_t)((double)nodes * 1e9 / (double)ns) : 0);
    return 0;
}

/* Play/undo throughput: random games over the candidate area, played to
 * `len` stones and unwound, many times. */
static void speed_case(int size, bool with_eval, int len, int rounds) {
    static Pos p;
    static Board b;
    uint64_t s = 12345, moves = 0;
    Move seq[512];
    int64_t spent = 0;
    for (int r = 0; r < rounds; r++) {
        if (with_eval)
            pos_init(&p, size, size, RULE_FREESTYLE);
        else
            board_init(&b, size, size);
        Board *bb = with_eval ? &p.b : &b;
        Move first = board_move_at(bb, size / 2, size / 2);
        int n = 0;
        for (int i = 0; i < len; i++) {
            Move m = i == 0 ? first : MOVE_NONE;
            if (!m) {
                s = s * 6364136223846793005ULL + 1442695040888963407ULL;
                m = board_candidate(bb, (s >> 33) % (uint64_t)board_candidate_count(bb));
            }
            seq[n++] = m;
            if (with_eval)
                pos_play(&p, m);
            else
                board_play(&b, m);
        }
        /* the timed part: unwind and replay the game twice */
        int64_t t0 = now_ns();
        for (int k = 0; k < 2; k++) {
            for (int i = n - 1; i >= 0; i--)
                with_eval ? pos_undo(&p) : board_undo(&b);
            for (int i = 0; i < n; i++)
                with_eval ? pos_play(&p, seq[i]) : board_play(&b, seq[i]);
            moves += (uint64_t)n;
        }
        spent += now_ns() - t0;
    }
    double sec = (double)spent / 1e9;
    printf("%-22s %3dx%-3d  %8.0f ns per play+undo  %6.2f M play+undo/s\n",
           with_eval ? "board + eval updates" : "board only", size, size,
           sec * 1e9 / (double)moves, (double)moves / sec / 1e6);
}

int tool_speed(int argc, char **argv) {
    (void)argc, (void)argv;
    speed_case(15, false, 120, 20000);
    speed_case(128, false, 120, 20000);
    speed_case(15, true, 120, 5000);
    speed_case(128, true, 120, 500);
    return 0;
}

static void cell_text(const Board *b, Move m, char *buf, int cap) {
    char name[16];
    codec_cell_name(board_x(b, m), board_y(b, m), b->height, name, sizeof name);
    snprintf(buf, (size_t)cap, "%s (%d,%d)", name, board_x(b, m), board_y(b, m));
}

int tool_eval(int argc, char **argv) {
    static Pos p;
    Rule rule;
    int size = argc > 1 ? atoi(argv[1]) : 0;
    if (argc < 2 || !rule_parse(argv[0], &rule) || size < BOARD_MIN_SIZE || size > BOARD_MAX_SIZE) {
        fprintf(stderr, "usage: pbrain-quinto eval RULE SIZE MOVE...  (moves from black's first, as h8 "
                        "or 7,7; - passes)\n");
        return 2;
    }
    pos_init(&p, size, size, rule);
    for (int k = 2; k < argc; k++) {
        int x, y;
        if (!strcmp(argv[k], "-")) {
            pos_pass(&p);
            continue;
        }
        if (!codec_parse_cell(argv[k], size, size, &x, &y)) {
            fprintf(stderr, "eval: '%s' is not a cell of the %dx%d board (h8 or 7,7)\n", argv[k], size, size);
            return 2;
        }
        Move m = board_move_at(&p.b, x, y);
        if (p.b.cell[m] != EMPTY) {
            fprintf(stderr, "eval: %s is occupied\n", argv[k]);
            return 2;
        }
        pos_play(&p, m);
    }
    Board *b = &p.b;
    int32_t ev = eval_static(&p);
    printf("%s %dx%d, %s to move: static eval %+d for %s\n", rule_name(p.rule), b->width, b->height,
           b->side == BLACK ? "black" : "white", ev, b->side == BLACK ? "black" : "white");
    printf("  (the side to move's view: 0 is even, +1000 is about a 65%% expected score, a five "
           "is 30000;\n   searches print proven wins as +Mn, a five in n plies; this static value "
           "includes the\n   side to move's tempo bonus, %d in %s)\n",
           EVAL_WEIGHTS[p.rule].tempo, rule_name(p.rule));
    printf("    ");
    for (int x = 0; x < b->width; x++)
        printf("%4d", x);
    printf("\n");
    for (int y = 0; y < b->height; y++) {
        printf("%3d ", y);
        for (int x = 0; x < b->width; x++) {
            Move m = board_move_at(b, x, y);
            if (b->cell[m] == BLACK)
                printf("   X");
            else if (b->cell[m] == WHITE)
                printf("   O");
            else if (!board_is_candidate(b, m))
                printf("   .");
            else {
                CellInfo ci;
                eval_explain(&p, m, &ci);
                if (ci.forbidden)
                    printf("   F");
                else
                    printf("%4d", ci.score > 9999 ? 9999 : ci.score);
            }
        }
        printf("\n");
    }
    /* the ten best cells with their threats */
    if (board_candidate_count(b) == 0) {
        char c[32];
        cell_text(b, board_move_at(b, b->width / 2, b->height / 2), c, sizeof c);
        printf("empty board: no cell is scored; the brain opens at the centre, %s\n", c);
        return 0;
    }
    printf("cells scored by attack x2 + defence (own pattern code twice, the opponent's once);\n"
           "best cells for %s, with each colour's line patterns and threat class\n"
           "(F = open, B = blocked: F3 open three, B4 four, F4 open four; classes as four-three):\n",
           b->side == BLACK ? "black" : "white");
    Move best[10];
    int scores[10], n = 0;
    int nc;
    const Move *cand = board_candidates(b, &nc);
    for (int i = 0; i < nc; i++) {
        Move m = cand[i];
        int sc = eval_move_score(&p, m, b->side);
        int j = n < 10 ? n++ : 10;
        while (j > 0 && (scores[j - 1] < sc || (scores[j - 1] == sc && best[j - 1] > m))) {
            if (j < 10)
                best[j] = best[j - 1], scores[j] = scores[j - 1];
            j--;
        }
        if (j < 10)
            best[j] = m, scores[j] = sc;
    }
    for (int i = 0; i < n; i++) {
        CellInfo ci;
        char buf[256];
        eval_explain(&p, best[i], &ci);
        eval_describe(&ci, buf, sizeof buf);
        char c[32];
        cell_text(b, best[i], c, sizeof c);
        printf("  %-12s %s\n", c, buf);
    }
    return 0;
}

/* Move-ordering quality: for each VCF puzzle of a testdata file, rank the
 * legal candidates by eval_move_score and ask whether one of the top N wins
 * by continuous fours (the solver's own first move, or any move that wins);
 * for a position with no VCF but a VCT, where the VCT solver's first move
 * ranks. */
int tool_ordering(int argc, char **argv) {
    if (argc < 1) {
        fprintf(stderr, "usage: pbrain-quinto ordering FILE [N]\n");
        return 2;
    }
    int top = argc > 1 ? atoi(argv[1]) : 5;
    FILE *f = fopen(argv[0], "r");
    if (!f) {
        fprintf(stderr, "ordering: cannot open %s\n", argv[0]);
        return 2;
    }
    static char line[65536];
    static Record r;
    static Pos p;
    int total = 0, in_top = 0, unsolved = 0, first_rank_sum = 0, first_found = 0;
    int vct_total = 0, vct_first = 0, vct_in_top = 0, vct_rank_sum = 0;
    static Marks marks;
    static uint64_t fail_cache[VCF_FAIL_CACHE];
    while (fgets(line, sizeof line, f)) {
        char err[128];
        if (!record_parse(line, &r, err, sizeof err))
            continue;
        pos_init(&p, r.width, r.height, r.rule);
        for (int k = 0; k < r.count; k++)
            r.x[k] < 0 ? pos_pass(&p) : pos_play(&p, board_move_at(&p.b, r.x[k], r.y[k]));
        Board *b = &p.b;
        /* candidates by score, best first (ties: lower cell) */
        int n = 0;
        static Move mv[BOARD_MAX_CELLS];
        static int sc[BOARD_MAX_CELLS];
        int nc;
        const Move *cand = board_candidates(b, &nc);
        for (int i = 0; i < nc; i++) {
            Move m = cand[i];
            int v = eval_move_score(&p, m, b->side);
            int j = n++;
            while (j > 0 && (sc[j - 1] < v || (sc[j - 1] == v && mv[j - 1] > m))) {
                mv[j] = mv[j - 1], sc[j] = sc[j - 1];
                j--;
            }
            mv[j] = m, sc[j] = v;
        }
        bool wins = false, hit = false;
        Move solver_first = MOVE_NONE;
        threat_vcf_first_moves(&p, MOVE_NONE, 2000000, &wins, &solver_first);
        if (solver_first == MOVE_NONE) {
            /* no VCF: the VCT solver's first move, as the engine's root finds it */
            ThreatCtx c;
            memset(fail_cache, 0, sizeof fail_cache);
            threat_ctx_init(&c, &p, &marks, fail_cache);
            Move m = MOVE_NONE;
            if (!vct_solve_deepening(&c, VCT_ROOT_MAX_DEPTH, VCT_ROOT_STEP_BUDGET, &m)) {
                unsolved++;
                continue;
            }
            vct_total++;
            for (int i = 0; i < n; i++)
                if (mv[i] == m) {
                    vct_rank_sum += i + 1;
                    vct_in_top += i < top;
                    vct_first += i == 0;
                    break;
                }
            continue;
        }
        total++;
        for (int i = 0; i < n; i++)
            if (mv[i] == solver_first) {
                first_rank_sum += i + 1;
                first_found++;
                hit |= i < top;
                break;
            }
        for (int i = 0; i < n && i < top && !hit; i++) {
            threat_vcf_first_moves(&p, mv[i], 2000000, &wins, NULL);
            hit |= wins;
        }
        in_top += hit;
    }
    fclose(f);
    printf("%s: %d of %d VCF puzzles (%.1f%%) have a winning first move in the top %d by move "
           "score; the solver's first move ranks %.2f on average\n",
           argv[0], in_top, total, total ? 100.0 * in_top / total : 0.0, top,
           first_found ? (double)first_rank_sum / first_found : 0.0);
    printf("%s: %d puzzles without a VCF but with a VCT found: the VCT solver's first move ranks "
           "first in %d (%.1f%%), in the top %d in %d (%.1f%%), %.2f on average; %d with neither found\n",
           argv[0], vct_total, vct_first, vct_total ? 100.0 * vct_first / vct_total : 0.0, top,
           vct_in_top, vct_total ? 100.0 * vct_in_top / vct_total : 0.0,
           vct_total ? (double)vct_rank_sum / vct_total : 0.0, unsolved);
    return 0;
}

/* ---- child futility measured on the positions of games ---- */

/* The decided games of the -results files, kept whole with their lengths
 * (a game ends at its five: no position before its last move holds one). */
typedef struct {
    char **moves;
    int *stones;
    size_t n, cap;
} GameList;

static void keep_game(void *ctx, char *moves, float black_result) {
    (void)black_result;
    GameList *g = ctx;
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 256;
        char **m = realloc(g->moves, cap * sizeof *m);
        if (m)
            g->moves = m;
        int *st = realloc(g->stones, cap * sizeof *st);
        if (st)
            g->stones = st;
        if (!m || !st)
            return;
        g->cap = cap;
    }
    char *copy = strdup(moves);
    if (!copy)
        return;
    int stones = *moves ? 1 : 0;
    for (const char *c = moves; *c; c++)
        stones += *c == ';';
    g->moves[g->n] = copy;
    g->stones[g->n++] = stones;
}

/* The positions a game of `stones` stones offers: the 6th stone to two before the end. */
static size_t game_positions(int stones) { return stones >= 8 ? (size_t)(stones - 7) : 0; }

static void free_games(GameList *g) {
    for (size_t i = 0; i < g->n; i++)
        free(g->moves[i]);
    free(g->moves);
    free(g->stones);
}

/* Play the first `upto` moves of a game on p; false when one is off the
 * board or on a stone. */
static bool play_game_prefix(Pos *p, const char *moves, int upto) {
    static char buf[1 << 16];
    static Move seq[BOARD_MAX_MOVES];
    snprintf(buf, sizeof buf, "%s", moves);
    int n = results_parse_moves(&p->b, buf, seq);
    if (n < upto)
        return false;
    for (int k = 0; k < upto; k++) {
        if (p->b.cell[seq[k]] != EMPTY)
            return false;
        pos_play(p, seq[k]);
    }
    return true;
}

int tool_pruning(int argc, char **argv) {
    Rule rule;
    int size = argc > 1 ? atoi(argv[1]) : 0, ms = 1000, want = 100, sample = 32, a = 2;
    for (; a + 1 < argc && argv[a][0] == '-' && argv[a][1] == '-'; a += 2)
        if (!strcmp(argv[a], "--ms"))
            ms = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--positions"))
            want = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--sample"))
            sample = atoi(argv[a + 1]);
        else
            break;
    if (argc < 3 || !rule_parse(argv[0], &rule) || size < BOARD_MIN_SIZE || size > BOARD_MAX_SIZE || a >= argc ||
        ms < 1 || want < 1 || sample < 1) {
        fprintf(stderr, "usage: pbrain-quinto pruning RULE SIZE [--ms N] [--positions N] [--sample N] RESULTS.tsv...\n");
        return 2;
    }
    GameList games = {0};
    int repeats;
    if (results_read_games("pruning", argc - a, argv + a, false, &repeats, keep_game, &games) < 0) {
        free_games(&games);
        return 2;
    }
    size_t n = 0;
    for (size_t i = 0; i < games.n; i++)
        n += game_positions(games.stones[i]);
    if (!n) {
        fprintf(stderr, "pruning: no positions (decided games of at least 8 stones) in the files\n");
        free_games(&games);
        return 1;
    }
    /* evenly spread over them, each searched as in play */
    Engine *e = engine_new();
    static Pos p;
    static PruneStats st;
    memset(&st, 0, sizeof st);
    int used = 0;
    size_t step = n > (size_t)want ? n / (size_t)want : 1;
    size_t game = 0, first = 0; /* the game of position i, and the index of its first position */
    for (size_t i = 0; i < n && used < want; i += step) {
        while (i >= first + game_positions(games.stones[game]))
            first += game_positions(games.stones[game++]);
        int stones = 6 + (int)(i - first);
        if (!pos_init(&p, size, size, rule) || !play_game_prefix(&p, games.moves[game], stones))
            continue;
        SearchLimits l;
        search_limits_default(&l);
        l.turn_ms = ms;
        l.seed = (uint64_t)i;
        l.prune_sample = (uint32_t)sample;
        engine_arm(e);
        engine_think(e, &p, &l, NULL, NULL, NULL);
        used++;
    }
    engine_take_prune_stats(e, &st);
    engine_free(e);
    free_games(&games);
    if (!used) {
        fprintf(stderr, "pruning: no position could be set up (a move off the %dx%d board or on a stone)\n", size,
                size);
        return 1;
    }
    static const int T[] = {0, 100, 200, 300, 400, 600, 800, 1000, 1300, 1600, 2000, 2500, 3000};
    enum { NT = sizeof T / sizeof T[0] };
    printf("child futility on %d positions of the games (%s %dx%d), %d ms each; one in %d of the nodes it "
           "could cut searched instead:\n",
           used, rule_name(rule), size, size, ms, sample);
    printf("for nodes whose static value is at least T above beta, the share the search found below beta "
           "(a cut there would be wrong), and in brackets the share of the sampled nodes that are so far above\n");
    printf("depth  sampled  margin |");
    for (int k = 0; k < NT; k++)
        printf(" %12d", T[k]);
    printf("\n");
    for (int d = 1; d <= PRUNE_STAT_DEPTHS; d++) {
        uint64_t tot = 0;
        for (int b = 0; b < PRUNE_STAT_BUCKETS; b++)
            tot += st.nodes[d][b];
        int margin = search_futility_margin(d);
        char mtext[16] = "none";
        if (margin)
            snprintf(mtext, sizeof mtext, "%d", margin);
        printf("%5d %8" PRIu64 "  %6s |", d, tot, mtext);
        for (int k = 0; k < NT; k++) {
            uint64_t nn = 0, below = 0;
            for (int b = (T[k] - PRUNE_STAT_LOW) / PRUNE_STAT_STEP; b < PRUNE_STAT_BUCKETS; b++)
                nn += st.nodes[d][b], below += st.below[d][b];
            if (!nn)
                printf(" %12s", "-");
            else
                printf(" %5.1f%% (%3.0f%%)", 100.0 * (double)below / (double)nn, 100.0 * (double)nn / (double)tot);
        }
        printf("\n");
    }
    return 0;
}

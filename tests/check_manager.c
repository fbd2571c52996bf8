/* tests/check_manager.c — the manager: its judging of misbehaving brains,
 * clocks, records, statistics and opening files. */
#define _XOPEN_SOURCE 700 /* posix_openpt and friends for the terminal test */
#include <math.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <dirent.h>
#include <string.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <termios.h>

#include "../brain/util.h"
#include "../tournaments/game.h"
#include "../tournaments/process.h"
#include "../tournaments/openings.h"
#include "../tournaments/records.h"
#include "../tournaments/analysis.h"
#include "../tournaments/stats.h"
#include "../tournaments/pool.h"
#include "testutil.h"

static void fake(EngineSpec *e, const char *mode) {
    memset(e, 0, sizeof *e);
    const char *f = getenv("QUINTO_FAKE");
    snprintf(e->cmd, sizeof e->cmd, "%s %s", f ? f : "./fakebrain", mode);
    snprintf(e->name, sizeof e->name, "%.40s", mode);
    e->turn_ms = e->match_ms = -1;
}

static GameConfig config(Rule rule, int size, int turn_ms) {
    GameConfig g = {0};
    g.rule = rule;
    g.width = g.height = size;
    g.turn_ms = turn_ms;
    g.tolerance_ms = 200;
    g.start_timeout_ms = 2000;
    return g;
}

static Record no_opening;

/* Play black `b` against white `w` and return the result (moves freed). */
static GameResult play(const GameConfig *g, const char *b, const char *w, const Record *op) {
    EngineSpec eb, ew;
    fake(&eb, b);
    fake(&ew, w);
    GameResult r;
    game_play(g, &eb, &ew, op ? op : &no_opening, NULL, NULL, &r);
    return r;
}

START_TEST(test_good_game_to_five) {
    /* two first-empty-cell players on 5x5: black fills column 0 at stone 21 */
    GameConfig g = config(RULE_FREESTYLE, 5, 1000);
    GameResult r = play(&g, "good", "good", NULL);
    ck_assert_int_eq(r.winner, BLACK);
    ck_assert_int_eq(r.reason, END_FIVE);
    ck_assert_int_eq(r.moves->count, 21);
    ck_assert_str_eq(r.detail, "0,4");
    ck_assert_int_eq(r.replies[BLACK], 11);
    ck_assert_int_eq(r.replies[WHITE], 10);
    game_result_free(&r);
    /* under standard the same game has no five (the column is exact five
     * already); use 6x6: row-major fill gives black whole columns 0,2,4 */
    g = config(RULE_STANDARD, 6, 1000);
    r = play(&g, "good", "good", NULL);
    ck_assert_int_eq(r.reason, END_FIVE);
    game_result_free(&r);
}
END_TEST

START_TEST(test_each_failure_judged) {
    static const struct {
        const char *mode;
        EndReason reason;
    } cases[] = {
        /* flood: 64 MiB of MESSAGE lines, then a line that never ends (the
         * reader keeps no more than one line) */
        {"timeout", END_TIME},   {"crash", END_CRASH},      {"offboard", END_ILLEGAL},
        {"occupied", END_ILLEGAL}, {"garbage", END_BAD_REPLY}, {"error", END_ERROR},
        {"nostart", END_START},  {"flood", END_TIME}, {"binary", END_BAD_REPLY},
    };
    GameConfig g = config(RULE_FREESTYLE, 15, 300);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        /* the misbehaving brain plays white, so it has a last move to copy */
        GameResult r = play(&g, "good", cases[i].mode, NULL);
        ck_assert_msg(r.winner == BLACK && r.reason == cases[i].reason,
                      "%s: winner %d reason %s (%s)", cases[i].mode, r.winner,
                      end_reason_name(r.reason), r.detail);
        game_result_free(&r);
    }
}
END_TEST

START_TEST(test_clock_and_tolerance) {
    /* 600 ms late with a 300 ms turn: within 300 + 1000 tolerance */
    GameConfig g = config(RULE_FREESTYLE, 5, 300);
    g.tolerance_ms = 1000;
    g.move_cap = 6;
    GameResult r = play(&g, "slow", "good", NULL);
    ck_assert_int_eq(r.reason, END_MOVE_CAP);
    ck_assert_int_eq(r.winner, 0);
    ck_assert_int_ge(r.max_ms[BLACK], 550);
    game_result_free(&r);
    /* the same with 200 ms tolerance: lost on time */
    g.tolerance_ms = 200;
    r = play(&g, "slow", "good", NULL);
    ck_assert_int_eq(r.reason, END_TIME);
    ck_assert_int_eq(r.winner, WHITE);
    game_result_free(&r);
    /* match clock: 1000 ms for the game, 600 ms a move: the second move
     * has only 400 ms + tolerance 100 left */
    g = config(RULE_FREESTYLE, 15, 0);
    g.match_ms = 1000;
    g.tolerance_ms = 100;
    r = play(&g, "slow", "good", NULL);
    ck_assert_int_eq(r.reason, END_TIME);
    ck_assert_int_eq(r.winner, WHITE);
    ck_assert_int_eq(r.replies[BLACK], 1);
    game_result_free(&r);
    /* a match clock past INT_MAX milliseconds (2^32 + 200 ms of wait): waits
     * are not cast to int (that wrapped to a 200 ms wait and a loss on time) */
    g = config(RULE_FREESTYLE, 15, 0);
    g.match_ms = 4294967296LL;
    g.move_cap = 4;
    r = play(&g, "slow", "good", NULL);
    ck_assert_msg(r.reason == END_MOVE_CAP, "ended by %s: %s", end_reason_name(r.reason), r.detail);
    game_result_free(&r);
}
END_TEST

START_TEST(test_forbidden_and_memory) {
    /* renju: black to move with 8,6 forbidden (testdata double three) */
    Record op;
    char err[128];
    ck_assert(record_parse("renju 15 7,7 7,6 6,8 6,6 9,7 6,7 10,8 5,6 | x", &op, err, sizeof err));
    GameConfig g = config(RULE_RENJU, 15, 1000);
    GameResult r = play(&g, "fixed 8,6", "good", &op);
    ck_assert_int_eq(r.winner, WHITE);
    ck_assert_int_eq(r.reason, END_FORBIDDEN);
    ck_assert_str_eq(r.detail, "8,6");
    game_result_free(&r);
    /* the same move is fine under freestyle */
    g = config(RULE_FREESTYLE, 15, 1000);
    g.move_cap = 10;
    r = play(&g, "fixed 8,6", "good", &op);
    ck_assert_int_eq(r.reason, END_MOVE_CAP);
    game_result_free(&r);
    /* over the memory limit */
    g = config(RULE_FREESTYLE, 15, 2000);
    g.max_memory = 50u << 20;
    r = play(&g, "memory", "good", NULL);
    ck_assert_int_eq(r.winner, WHITE);
    ck_assert_int_eq(r.reason, END_MEMORY);
    ck_assert_int_gt(r.peak_kib[BLACK], 100 * 1024);
    ck_assert_int_gt(r.uss_kib[BLACK], 100 * 1024);
    game_result_free(&r);
    /* memory of a child process counts too (GomocupJudge sums the tree) */
    r = play(&g, "memchild", "good", NULL);
    ck_assert_int_eq(r.winner, WHITE);
    ck_assert_int_eq(r.reason, END_MEMORY);
    ck_assert_int_lt(r.peak_kib[BLACK], 50 * 1024); /* the brain itself stays small */
    ck_assert_int_gt(r.uss_kib[BLACK], 100 * 1024);
    game_result_free(&r);
}
END_TEST

START_TEST(test_suspend_and_reuse) {
    GameConfig g = config(RULE_FREESTYLE, 5, 1000);
    g.suspend = true;
    EngineSpec eb, ew;
    fake(&eb, "good");
    fake(&ew, "good");
    BrainSlot sb = {0}, sw = {0};
    for (int i = 0; i < 3; i++) {
        GameResult r;
        game_play(&g, &eb, &ew, &no_opening, &sb, &sw, &r);
        ck_assert_int_eq(r.reason, END_FIVE);
        ck_assert(sb.live && sw.live); /* kept for the next game */
        game_result_free(&r);
    }
    pid_t pid = sb.child.pid;
    brain_slot_close(&sb);
    brain_slot_close(&sw);
    ck_assert(!sb.live);
    ck_assert_int_ne(pid, 0);
}
END_TEST

START_TEST(test_records) {
    GameConfig g = config(RULE_FREESTYLE, 5, 1000);
    GameResult r = play(&g, "good", "good", NULL);
    char path[] = "/tmp/quinto-test-XXXXXX";
    ck_assert(mkdtemp(path));
    char psq[128], sgf[128];
    snprintf(psq, sizeof psq, "%s/g.psq", path);
    snprintf(sgf, sizeof sgf, "%s/g.sgf", path);
    ck_assert(record_write_psq(psq, &g, "alpha", "beta", &r));
    ck_assert(record_write_sgf(sgf, &g, "alpha", "beta", &r));
    FILE *f = fopen(psq, "r");
    char line[256];
    ck_assert(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "Piskvorky 5x5, 11:11, 0\n");
    ck_assert(fgets(line, sizeof line, f));
    ck_assert(!strncmp(line, "1,1,", 4)); /* 1-based: the first move was 0,0 */
    int lines = 2;
    while (fgets(line, sizeof line, f))
        lines++;
    fclose(f);
    ck_assert_int_eq(lines, 1 + 21 + 3); /* header, moves, two names, -1 */
    f = fopen(sgf, "r");
    ck_assert(fgets(line, sizeof line, f));
    fclose(f);
    ck_assert(strstr(line, "GM[4]") && strstr(line, "SZ[5]") && strstr(line, "RE[B+]"));
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", path);
    ck_assert_int_eq(system(cmd), 0);
    game_result_free(&r);
}
END_TEST

/* Values computed independently (Python's math module, same definitions). */
START_TEST(test_statistics) {
    EloEstimate e = elo_estimate(30, 20, 50);
    ck_assert_double_eq_tol(e.elo, 34.8601, 1e-3);
    ck_assert_double_eq_tol(e.margin, 48.4702, 1e-3);
    ck_assert_double_eq_tol(e.los, 0.921350, 1e-5);
    e = elo_estimate(12, 18, 10);
    ck_assert_double_eq_tol(e.elo, -52.5116, 1e-3);
    ck_assert_double_eq_tol(e.margin, 96.5251, 1e-3);
    ck_assert_double_eq_tol(e.los, 0.136661, 1e-5);
    e = elo_estimate(100, 80, 20);
    ck_assert_double_eq_tol(e.margin, 46.1625, 1e-3);
    ck_assert_double_eq_tol(e.los, 0.931981, 1e-5);
    e = elo_estimate(0, 0, 7);
    ck_assert_double_eq_tol(e.elo, 0, 1e-9);
    ck_assert(isinf(e.margin));
    SprtParams p = {0, 10, 0.05, 0.05};
    ck_assert_double_eq_tol(sprt_llr(30, 20, 50, &p), 0.502746, 1e-5);
    double lo, hi;
    sprt_bounds(&p, &lo, &hi);
    ck_assert_double_eq_tol(lo, -2.944439, 1e-5);
    ck_assert_double_eq_tol(hi, 2.944439, 1e-5);
    double llr;
    ck_assert_int_eq(sprt_test(30, 20, 50, &p, &llr), SPRT_CONTINUE);
    ck_assert_int_eq(sprt_test(100, 160, 40, &p, &llr), SPRT_CONTINUE);
    ck_assert_double_eq_tol(llr, -2.238698, 1e-5);
    /* pentanomial: pairs of games as samples */
    const int pa[5] = {5, 20, 50, 30, 10}, pb[5] = {10, 30, 40, 25, 5}, pc[5] = {2, 10, 60, 20, 8};
    e = elo_estimate_penta(pa);
    ck_assert_double_eq_tol(e.elo, 30.2883, 1e-3);
    ck_assert_double_eq_tol(e.margin, 30.8729, 1e-3);
    ck_assert_double_eq_tol(e.los, 0.973677, 1e-5);
    e = elo_estimate_penta(pb);
    ck_assert_double_eq_tol(e.elo, -23.7256, 1e-3);
    ck_assert_double_eq_tol(e.margin, 33.1519, 1e-3);
    ck_assert_double_eq_tol(e.los, 0.079068, 1e-5);
    ck_assert_double_eq_tol(sprt_llr_penta(pa, &p), 1.036994, 1e-5);
    ck_assert_double_eq_tol(sprt_llr_penta(pb, &p), -1.018039, 1e-5);
    ck_assert_double_eq_tol(sprt_llr_penta(pc, &p), 1.688888, 1e-5);
    const int one_kind[5] = {0, 0, 0, 0, 7};
    ck_assert_double_gt(sprt_llr_penta(one_kind, &p), 0);
    const int none[5] = {0};
    ck_assert(isinf(elo_estimate_penta(none).margin));
    SprtParams p5 = {0, 5, 0.05, 0.05};
    ck_assert_double_eq_tol(sprt_llr(600, 500, 900, &p5), 2.250118, 1e-5);
    /* a long one-sided run decides */
    ck_assert_int_eq(sprt_test(300, 150, 50, &p, &llr), SPRT_ACCEPT_H1);
    ck_assert_int_eq(sprt_test(150, 300, 50, &p, &llr), SPRT_ACCEPT_H0);
    /* one kind of result only has no variance: still decided */
    ck_assert_int_eq(sprt_test(40, 0, 0, &p, &llr), SPRT_ACCEPT_H1);
    ck_assert_int_eq(sprt_test(0, 40, 0, &p, &llr), SPRT_ACCEPT_H0);
    ck_assert_int_eq(sprt_test(2, 0, 0, &p, &llr), SPRT_CONTINUE);
}
END_TEST

/* quinto-manager stats: results lines of several files pooled, the two games
 * of an opening paired within one file only, unplayed games and bad lines
 * left out (a bad line changes nothing). */
START_TEST(test_results_pool) {
    ResultsPool rp;
    pool_init(&rp);
    char err[256];
    const char *one[] = {
        "game\topening\tblack\twhite\tresult\treason\tdetail\tmoves\tblack_ms\twhite_ms\n",
        "1\t1\tA\tB\t1-0\tfive\t9,9\t7,7;8,8\t10\t20\n",
        "3\t2\tA\tB\t1/2-1/2\tmove cap\t-\t7,7\t10\t20\n",
        "2\t1\tB\tA\t1-0\tfive\t9,9\t7,7\t10\t20\n",
        "4\t2\tB\tA\t0-1\ttime\t-\t7,7\t10\t20\n",
        "5\t3\tB\tA\t0-1\tstart failed\tno OK\t\t0\t0\n",
        "6\t3\tA\tC\t1-0\tfive\t-\t7,7\t10\t20\n",
        "\n"};
    for (size_t i = 0; i < sizeof one / sizeof one[0]; i++)
        ck_assert_msg(pool_add_line(&rp, 1, one[i], err, sizeof err), "line %zu: %s", i, err);
    /* the same opening number in another file is another opening */
    ck_assert(pool_add_line(&rp, 2, "1\t1\tB\tA\t0-1\tfive\t-\t7,7\t1\t2", err, sizeof err));
    const char *bad[] = {"x\t1\tA\tB\t1-0\tfive\t-", "7\t1\tA\tB\t2-0\tfive\t-",
                         "7\t1\tA\tA\t1-0\tfive\t-", "7\t1\tA\tB\t1-0\tboredom\t-",
                         "7\tone\tA\tB\t1-0\tfive\t-", "7\t1\tA\tB\t1-0"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        ck_assert_msg(!pool_add_line(&rp, 1, bad[i], err, sizeof err), "bad line %zu taken", i);
        ck_assert(err[0]);
    }
    ck_assert_int_eq(rp.games, 6);
    ck_assert_int_eq(rp.skipped, 1);
    ck_assert_int_eq(rp.pair_count, 2);
    const PoolPair *ab = &rp.pairs[0];
    ck_assert_str_eq(rp.names[ab->first], "A");
    ck_assert_int_eq(ab->s.w, 3);
    ck_assert_int_eq(ab->s.l, 1);
    ck_assert_int_eq(ab->s.d, 1);
    ck_assert_int_eq(ab->s.bw, 1);
    ck_assert_int_eq(ab->s.bl, 0);
    ck_assert_int_eq(ab->s.bd, 1);
    const int want[5] = {0, 0, 1, 1, 0}; /* opening 1: 1 of 2; opening 2: 1.5 */
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(ab->s.penta[i], want[i]);
    ck_assert_int_eq(rp.pending_count, 2); /* A-C's game and the second file's */
    char *text = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&text, &len);
    pool_print(&rp, o);
    fclose(o);
    ck_assert_msg(strstr(text, "A vs B: 3-1-1 (W-L-D)  score 70.0%"), "%s", text);
    ck_assert_msg(strstr(text, "A as black 1-0-1 (75.0%), as white 2-1-0 (66.7%)"), "%s", text);
    ck_assert_msg(strstr(text, "2 pairs (LL 0, LD 0, WL+DD 1, WD 1, WW 0)"), "%s", text);
    ck_assert_msg(strstr(text, "1 game without a colour-swapped twin\n  ended: five 3, move cap 1, time 1"),
                  "%s", text);
    ck_assert_msg(strstr(text, "A vs C: 1-0-0"), "%s", text);
    ck_assert_msg(strstr(text, "1 game not played"), "%s", text);
    free(text);
    pool_free(&rp);
    /* the view is the engine that was black in the lowest-numbered game,
     * whatever order the games finished in */
    pool_init(&rp);
    ck_assert(pool_add_line(&rp, 1, "2\t1\tA\tB\t1-0\tfive\t-\t-\t1\t1", err, sizeof err));
    ck_assert(pool_add_line(&rp, 1, "1\t1\tB\tA\t0-1\tfive\t-\t-\t1\t1", err, sizeof err));
    o = open_memstream(&text, &len);
    pool_print(&rp, o);
    fclose(o);
    ck_assert_msg(strstr(text, "B vs A: 0-2-0 (W-L-D)"), "%s", text);
    ck_assert_msg(strstr(text, "B as black 0-1-0 (0.0%), as white 0-1-0 (0.0%)"), "%s", text);
    ck_assert_msg(strstr(text, "1 pair (LL 1, LD 0, WL+DD 0, WD 0, WW 0)"), "%s", text);
    free(text);
    pool_free(&rp);
    /* a name longer than the pool keeps is still one engine */
    pool_init(&rp);
    char line[512], name[101];
    memset(name, 'n', 100);
    name[100] = '\0';
    for (int g = 1; g <= 2; g++) {
        snprintf(line, sizeof line, "%d\t1\t%s\tB\t1-0\tfive\t-\t-\t1\t1", g, name);
        ck_assert(pool_add_line(&rp, 1, line, err, sizeof err));
    }
    ck_assert_int_eq(rp.name_count, 2);
    ck_assert_int_eq(rp.pairs[0].s.w, 2);
    pool_free(&rp);
}
END_TEST

START_TEST(test_openings_files) {
    /* the shipped sets, found by name as quinto-manager finds them */
    const char *files[] = {"cgomokucli-offset-f20", "cgomokucli-pos-f20", "gomocupjudge-f20",
                           "piskvork-f15", "piskvork-f20.txt", "balanced-r15", "balanced-f20",
                           "balanced-s15"};
    int expect[] = {4, 4, 6, 40, 41, 40, 40, 40};
    for (int i = 0; i < 8; i++) {
        char path[512], err[256];
        Openings o;
        ck_assert_msg(openings_load(&o, openings_path(files[i], path, sizeof path), 15, 15,
                                    RULE_FREESTYLE, err, sizeof err),
                      "%s", err);
        ck_assert_int_eq(o.count, expect[i]);
        static Board b;
        for (int k = 0; k < o.count; k++)
            ck_assert_msg(record_setup(&o.list[k], &b), "%s opening %d", files[i], k + 1);
        openings_free(&o);
    }
    /* Gomocup offsets from the centre, and plain moves */
    Record r;
    char err[128];
    ck_assert(opening_parse_line("0,0, 1,0, -1,2", 15, 15, RULE_FREESTYLE, &r, err, sizeof err));
    ck_assert_int_eq(r.count, 3);
    ck_assert(r.x[0] == 7 && r.y[0] == 7 && r.x[1] == 8 && r.y[1] == 7 && r.x[2] == 6 && r.y[2] == 9);
    ck_assert(opening_parse_line("3,4 5,6", 20, 20, RULE_FREESTYLE, &r, err, sizeof err));
    ck_assert(r.count == 2 && r.x[1] == 5 && r.y[1] == 6);
    ck_assert(!opening_parse_line("3,4 3,4", 20, 20, RULE_FREESTYLE, &r, err, sizeof err));
    ck_assert(err[0]);
    ck_assert(!opening_parse_line("30,4", 20, 20, RULE_FREESTYLE, &r, err, sizeof err));
    ck_assert(!opening_parse_line("  # comment", 20, 20, RULE_FREESTYLE, &r, err, sizeof err));
    ck_assert(!err[0]);
    /* the seeded shuffle is a permutation and repeatable */
    Openings a, b2;
    char path[512];
    openings_path(files[3], path, sizeof path);
    ck_assert(openings_load(&a, path, 15, 15, RULE_FREESTYLE, err, sizeof err));
    ck_assert(openings_load(&b2, path, 15, 15, RULE_FREESTYLE, err, sizeof err));
    openings_shuffle(&a, 7);
    openings_shuffle(&b2, 7);
    int moved = 0;
    for (int k = 0; k < a.count; k++) {
        ck_assert(!strcmp(a.list[k].source, b2.list[k].source));
        moved += strstr(a.list[k].source, ":") && atoi(strchr(a.list[k].source, ':') + 1) != k + 1;
    }
    ck_assert_int_gt(moved, 20);
    openings_free(&a);
    openings_free(&b2);
    /* a name that is neither a file nor a set says which sets there are */
    char msg[1024];
    ck_assert(!openings_find("no-such-set", path, sizeof path, msg, sizeof msg));
    ck_assert_msg(strstr(msg, "no-such-set") && strstr(msg, "piskvork-f20"), "%s", msg);
    /* a path is taken as it is */
    openings_path(files[3], path, sizeof path);
    char again[1024];
    ck_assert(openings_find(path, again, sizeof again, msg, sizeof msg) && !strcmp(again, path));
}
END_TEST

/* A file of this test process's own under /tmp: two test runs at once
 * must not read each other's output. */
static const char *tmp(const char *name) {
    static char buf[8][160];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "/tmp/quinto-%ld-%s", (long)getpid(), name);
    return buf[k];
}

/* A brain started after another does not hold the first one's pipes: the
 * first sees the end of its input when the manager closes it (a brain that
 * quits at EOF quits) and the manager sees the first one's exit (with -j 2 an
 * inherited pipe once turned a crash into a time loss). */
START_TEST(test_spawn_pipes_private) {
    Child a, b;
    char err[256];
    ck_assert_msg(child_spawn(&a, "cat", NULL, NULL, err, sizeof err), "%s", err);
    ck_assert_msg(child_spawn(&b, "sleep 30", NULL, NULL, err, sizeof err), "%s", err);
    close(a.to_child); /* cat's input ends: it exits, its output ends */
    a.to_child = -1;
    int r = child_read(&a, wait_ms(10000), err, sizeof err);
    child_stop(&b, 0);
    child_stop(&a, 0);
    child_free(&a), child_free(&b);
    ck_assert_msg(r == LR_EOF, "cat's output did not end (%d): a later child holds its input pipe", r);
}
END_TEST

/* The manager binary end to end: a short match and its report. */
START_TEST(test_manager_binary) {
    const char *mgr = getenv("QUINTO_MANAGER"), *fk = getenv("QUINTO_FAKE");
    ck_assert(mgr && fk);
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "%s -engine cmd='%s good' name=first -engine cmd='%s crash' name=second -size 5 "
             "-tc 500 -games 4 -j 2 -quiet -results %s > %s 2>&1",
             mgr, fk, fk, tmp("mgr.tsv"), tmp("mgr.out"));
    ck_assert_int_eq(system(cmd), 0);
    char buf[8192];
    ck_assert(read_text_file(tmp("mgr.out"), buf, sizeof buf));
    ck_assert_msg(strstr(buf, "first vs second: 4-0-0"), "%s", buf);
    ck_assert_msg(strstr(buf, "4 games"), "%s", buf);
    /* the four games are two colour-swapped pairs, both won twice */
    ck_assert_msg(strstr(buf, "2 pairs (LL 0, LD 0, WL+DD 0, WD 0, WW 2)"), "%s", buf);
    /* and each colour's share: two games as black, two as white */
    ck_assert_msg(strstr(buf, "first as black 2-0-0 (100.0%), as white 2-0-0 (100.0%)"), "%s", buf);
    FILE *f = fopen(tmp("mgr.tsv"), "r");
    int lines = 0, crashes = 0;
    while (fgets(buf, sizeof buf, f)) {
        lines++;
        crashes += strstr(buf, "\tcrash\t") != NULL;
    }
    fclose(f);
    ck_assert_int_eq(lines, 5);
    ck_assert_int_eq(crashes, 4);
    /* `stats` reads the file back to the match's own summary; the same file
     * twice is two runs: twice the games and pairs */
    snprintf(cmd, sizeof cmd, "%s stats %s %s > %s 2>&1", mgr, tmp("mgr.tsv"), tmp("mgr.tsv"), tmp("stats.out"));
    ck_assert_int_eq(system(cmd), 0);
    ck_assert(read_text_file(tmp("stats.out"), buf, sizeof buf));
    ck_assert_msg(strstr(buf, "8 games from 2 files\nfirst vs second: 8-0-0"), "%s", buf);
    ck_assert_msg(strstr(buf, "first as black 4-0-0 (100.0%), as white 4-0-0 (100.0%)"), "%s", buf);
    ck_assert_msg(strstr(buf, "4 pairs (LL 0, LD 0, WL+DD 0, WD 0, WW 4)"), "%s", buf);
    ck_assert_msg(strstr(buf, "ended: crash 8"), "%s", buf);
    /* a file that is not there is named, and the exit status says so */
    snprintf(cmd, sizeof cmd, "%s stats %s %s > %s 2>&1", mgr, tmp("mgr.tsv"), tmp("none.tsv"), tmp("stats.out"));
    int sst = system(cmd);
    ck_assert(WIFEXITED(sst) && WEXITSTATUS(sst) == 1);
    ck_assert(read_text_file(tmp("stats.out"), buf, sizeof buf));
    ck_assert_msg(strstr(buf, "none.tsv: No such file") && strstr(buf, "first vs second: 4-0-0"), "%s", buf);
    /* an SPRT stops the match at its decision and reports it, even when
     * games still under way finish afterwards */
    snprintf(cmd, sizeof cmd,
             "%s -engine cmd='%s good' name=first -engine cmd='%s crash' name=second -size 5 "
             "-tc 500 -games 60 -j 2 -sprt elo0=0 elo1=15 -quiet > %s 2>&1",
             mgr, fk, fk, tmp("mgr.out"));
    ck_assert_int_eq(system(cmd), 0);
    ck_assert(read_text_file(tmp("mgr.out"), buf, sizeof buf));
    const char *verdict = strstr(buf, "H1 accepted after ");
    ck_assert_msg(verdict, "%s", buf);
    int after = atoi(verdict + strlen("H1 accepted after "));
    ck_assert_msg(after > 0 && after < 60, "decided after %d games", after);
    ck_assert_msg(!strstr(buf, "60 games in"), "the match did not stop: %s", buf);
    /* bad arguments: a clear message and exit status 2 */
    snprintf(cmd, sizeof cmd, "%s -engine cmd=x -size 3 > /dev/null 2>&1", mgr);
    int st = system(cmd);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 2);
}
END_TEST

/* Run the manager with arguments; its exit status, and what it printed in out. */


static int run_manager(char *out, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

START_TEST(test_review_parsing) {
    /* the same game in every form review reads */
    static Record r;
    char err[256];
    const char *psq = "Piskvorky 15x15, 11:11, 0\n8,8,100\n1,1,50\n9,8,10\nQuinto\nOther\n-1\n";
    ck_assert_msg(review_parse_game(psq, 0, 20, 20, RULE_FREESTYLE, &r, err, sizeof err), "%s", err);
    ck_assert(r.width == 15 && r.count == 3 && r.x[0] == 7 && r.y[0] == 7 && r.x[2] == 8);
    const char *sgf = "(;FF[4]GM[4]SZ[15]RU[renju]PB[a]PW[b];B[hh];W[aa];B[ih])\n";
    ck_assert_msg(review_parse_game(sgf, 0, 20, 20, RULE_FREESTYLE, &r, err, sizeof err), "%s", err);
    ck_assert(r.width == 15 && r.rule == RULE_RENJU && r.count == 3 && r.x[2] == 8 && r.y[2] == 7);
    const char *tsv = "game\topening\tblack\twhite\tresult\treason\tdetail\tmoves\tblack_ms\twhite_ms\n"
                      "1\t1\ta\tb\t1-0\tfive\t-\t7,7;0,0\t5\t5\n"
                      "2\t1\tb\ta\t1-0\tfive\t-\t7,7;0,0;8,7\t5\t5\n";
    ck_assert_msg(review_parse_game(tsv, 2, 15, 15, RULE_STANDARD, &r, err, sizeof err), "%s", err);
    ck_assert(r.count == 3 && r.rule == RULE_STANDARD && r.x[2] == 8);
    ck_assert(review_parse_game(tsv, 0, 15, 15, RULE_STANDARD, &r, err, sizeof err) && r.count == 2);
    ck_assert(!review_parse_game(tsv, 7, 15, 15, RULE_STANDARD, &r, err, sizeof err));
    ck_assert(review_parse_game("freestyle 15 7,7 0,0 8,7", 0, 20, 20, RULE_RENJU, &r, err, sizeof err));
    ck_assert(r.rule == RULE_FREESTYLE && r.count == 3);
    /* refused: a stone twice, off the board, colours out of turn, nothing */
    ck_assert(!review_parse_game("Piskvorky 15x15\n1,1,0\n1,1,0\n", 0, 15, 15, 0, &r, err, sizeof err));
    ck_assert(!review_parse_game("Piskvorky 15x15\n16,1,0\n", 0, 15, 15, 0, &r, err, sizeof err));
    ck_assert(!review_parse_game("(;SZ[15];B[aa];B[bb])", 0, 15, 15, 0, &r, err, sizeof err));
    ck_assert(!review_parse_game("", 0, 15, 15, 0, &r, err, sizeof err) && err[0]);
    int v;
    ck_assert(review_parse_score("-215", &v) && v == -215);
    ck_assert(review_parse_score("+M7", &v) && v == 30000 - 7);
    ck_assert(review_parse_score("-M12", &v) && v == -(30000 - 12));
    ck_assert(!review_parse_score("abc", &v));
}
END_TEST

START_TEST(test_review_game) {
    /* white's second move into the corner loses the game (black then makes
     * an open four): the review names it, and black made none */
    FILE *f = fopen(tmp("blunder.txt"), "w");
    ck_assert(f);
    fprintf(f, "freestyle 15 7,7 0,0 8,7 0,14 9,7 14,14 10,7 14,0 11,7\n");
    fclose(f);
    const char *brain = getenv("QUINTO_BRAIN");
    ck_assert(brain);
    static char out[32768];
    int st = run_manager(out, sizeof out, "review %s -engine cmd=%s -tc 500", tmp("blunder.txt"), brain);
    ck_assert_msg(st == 0, "%s", out);
    ck_assert_msg(strstr(out, "black: none"), "%s", out);
    ck_assert_msg(strstr(out, "white: move 2 a15"), "%s", out);
    ck_assert_msg(strstr(out, "Evaluation over the game"), "%s", out);
    /* a judge that loses what arrives just after its answer (as Rapfi
     * does): every position is still asked whole, none goes unanswered */
    const char *fk = getenv("QUINTO_FAKE");
    ck_assert(fk);
    st = run_manager(out, sizeof out, "review %s -engine cmd='%s racy' -tc 100", tmp("blunder.txt"), fk);
    ck_assert_msg(st == 0, "%s", out);
    ck_assert_msg(strstr(out, "First decisive mistake"), "%s", out);
    /* a file that is no game: a message, exit 2 */
    f = fopen(tmp("nogame.txt"), "w");
    fprintf(f, "hello\n");
    fclose(f);
    st = run_manager(out, sizeof out, "review %s -engine cmd=%s", tmp("nogame.txt"), brain);
    ck_assert_int_eq(st, 2);
    ck_assert_msg(strstr(out, "nogame.txt"), "%s", out);
}
END_TEST


START_TEST(test_balanced_openings) {
    /* quinto-manager openings -balance with Quinto: the file it writes is a
     * set of three-stone openings the manager loads, each with its score */
    const char *brain = getenv("QUINTO_BRAIN");
    ck_assert(brain);
    static char out[32768];
    int st = run_manager(out, sizeof out,
                         "openings -balance -engine cmd=%s -count 2 -depth 4 -max-ev 30000 -tc 600 "
                         "-seed 9 -out %s",
                         brain, tmp("bal.txt"));
    ck_assert_msg(st == 0, "%s", out);
    ck_assert_msg(strstr(out, "2 openings in 2 tries"), "%s", out);
    Openings o;
    char err[256];
    ck_assert_msg(openings_load(&o, tmp("bal.txt"), 15, 15, RULE_FREESTYLE, err, sizeof err), "%s", err);
    ck_assert_int_eq(o.count, 2);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(o.list[i].count, 3);
        ck_assert_msg(strstr(o.list[i].source, "depth 4 ev "), "%s", o.list[i].source);
    }
    openings_free(&o);
    st = run_manager(out, sizeof out, "openings -engine cmd=%s -count 2", brain);
    ck_assert_int_eq(st, 2); /* no method named */
}
END_TEST


START_TEST(test_swap2_games) {
    /* -opening-rule swap2 with Quinto on both sides: the proposer's three
     * stones and the chooser's answer are in each game's line, the games are
     * played out, the colours in the records are the chosen ones */
    const char *brain = getenv("QUINTO_BRAIN");
    ck_assert(brain);
    static char out[32768];
    int st = run_manager(out, sizeof out,
                         "match -engine cmd=%s name=A -engine cmd=%s name=B -tc 300 -games 2 "
                         "-opening-rule swap2 -quiet -results %s",
                         brain, brain, tmp("swap2.tsv"));
    ck_assert_msg(st == 0, "%s", out);
    ck_assert_msg(strstr(out, "game 1: ") && strstr(out, "[swap2: A proposes "), "%s", out);
    ck_assert_msg(strstr(out, "game 2: ") && strstr(out, "[swap2: B proposes "), "%s", out);
    FILE *f = fopen(tmp("swap2.tsv"), "r");
    ck_assert(f);
    char line[8192];
    int games = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "game\t", 5))
            continue;
        games++;
        ck_assert_msg(strstr(line, "\tfive\t") || strstr(line, "\tboard full\t"), "%s", line);
        /* at least the three proposed stones and a move of each side */
        int moves = 1;
        for (const char *p = strchr(line, ';'); p; p = strchr(p + 1, ';'))
            moves++;
        ck_assert_int_ge(moves, 5);
    }
    fclose(f);
    ck_assert_int_eq(games, 2);
    st = run_manager(out, sizeof out,
                     "match -engine cmd=%s -engine cmd=%s -opening-rule swap2 -openings piskvork-f15",
                     brain, brain);
    ck_assert_int_eq(st, 2);
}
END_TEST

/* Processes whose working folder is dir. */
/* ---- the terminal front end, driven through a pseudo-terminal ---- */

typedef struct {
    int fd;
    pid_t pid;
    char *out; /* everything the program drew */
    size_t len, cap;
} Pty;

/* Start quinto-manager play ... on a new pseudo-terminal (80x30). */
static void pty_start(Pty *t, const char *args) {
    const char *mgr = getenv("QUINTO_MANAGER");
    ck_assert(mgr);
    t->fd = posix_openpt(O_RDWR | O_NOCTTY);
    ck_assert(t->fd >= 0 && grantpt(t->fd) == 0 && unlockpt(t->fd) == 0);
    char slave[128];
    const char *name = ptsname(t->fd);
    ck_assert(name);
    snprintf(slave, sizeof slave, "%s", name);
    struct winsize ws = {30, 80, 0, 0};
    ioctl(t->fd, TIOCSWINSZ, &ws);
    t->len = 0;
    t->cap = 1 << 20;
    t->out = malloc(t->cap);
    ck_assert(t->out);
    t->out[0] = 0;
    t->pid = fork();
    ck_assert(t->pid >= 0);
    if (t->pid == 0) {
        setsid();
        int s = open(slave, O_RDWR);
        if (s < 0)
            _exit(127);
        ioctl(s, TIOCSCTTY, 0);
        dup2(s, 0), dup2(s, 1), dup2(s, 2);
        close(s);
        close(t->fd);
        char cmd[2048];
        snprintf(cmd, sizeof cmd, "exec %s %s", mgr, args);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
}

/* Read until `want` appears in what was drawn since `from` (true), or
 * timeout_ms passes (false). The buffer keeps its last half when full. */
static bool pty_wait(Pty *t, size_t *from, const char *want, int timeout_ms) {
    long long end = now_ms() + (timeout_ms > 0 ? wait_ms(timeout_ms) : 0);
    for (;;) {
        char *hit = strstr(t->out + *from, want);
        if (hit) {
            *from = (size_t)(hit - t->out) + strlen(want);
            return true;
        }
        long long left = end - now_ms();
        if (left <= 0)
            return false;
        struct pollfd p = {t->fd, POLLIN, 0};
        if (poll(&p, 1, (int)(left > 200 ? 200 : left)) <= 0)
            continue;
        if (t->len + 65536 + 1 > t->cap) { /* keep the last half */
            size_t keep = t->cap / 2, drop = t->len - keep;
            memmove(t->out, t->out + drop, keep + 1);
            t->len = keep;
            *from = *from > drop ? *from - drop : 0;
        }
        ssize_t n = read(t->fd, t->out + t->len, 65536);
        if (n <= 0)
            return strstr(t->out + *from, want) != NULL;
        t->len += (size_t)n;
        t->out[t->len] = 0;
    }
}

static void pty_keys(Pty *t, const char *keys) {
    ck_assert(write(t->fd, keys, strlen(keys)) == (ssize_t)strlen(keys));
}

/* q, then the exit status; what it printed after the terminal was restored
 * stays in t->out. */
static int pty_quit(Pty *t) {
    pty_keys(t, "q");
    size_t from = 0;
    pty_wait(t, &from, "\x01never\x01", 5000); /* reads until the program closes the terminal */
    int st = -1;
    for (int i = 0; i < 100 && waitpid(t->pid, &st, WNOHANG) == 0; i++)
        usleep(50000);
    if (!WIFEXITED(st)) {
        kill(t->pid, SIGKILL);
        waitpid(t->pid, &st, 0);
    }
    close(t->fd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char screen_buf[4096];
#define SCREEN(t) screen_text((t)->out, (t)->len, 3000, screen_buf, sizeof screen_buf)
#define PTY_EXPECT(t, from, text, ms)                                                              \
    ck_assert_msg(pty_wait((t), (from), (text), (ms)), "no '%s' on the screen; last: %s", (text), SCREEN(t))

/* make play's game: swap2 against the brain in the terminal, a level for
 * people, and the review of the game on the r key. */
START_TEST(test_play_terminal) {
    const char *brain = getenv("QUINTO_BRAIN");
    ck_assert(brain);
    char args[1024];
    size_t at = 0;
    Pty t;
    /* you propose: three stones, the brain chooses */
    mkdir(tmp("games"), 0755);
    snprintf(args, sizeof args,
             "play -engine cmd=%s name=Quinto -human black -opening-rule swap2 -tc 300 -level 40 "
             "-review-tc 50 -save %s",
             brain, tmp("games"));
    pty_start(&t, args);
    PTY_EXPECT(&t, &at, "swap2: place three stones (black, white, black): 3 to go", 30000);
    PTY_EXPECT(&t, &at, "level 40", 5000);
    pty_keys(&t, ":h8\r:j9\r:g10\r");
    PTY_EXPECT(&t, &at, "swap2: you propose h8 j9 g10; Quinto ", 60000);
    /* whatever it chose, the opening is over or handed back: review it.
     * Wait for either outcome as long as the brain may take (a fixed short
     * look for "adds" failed on a loaded machine). */
    const char *back = "b takes black | a cell takes white", *settled = "; black: ";
    int outcome = 0;
    for (long long until = now_ms() + wait_ms(60000); !outcome && now_ms() < until;) {
        size_t m1 = at, m2 = at;
        if (pty_wait(&t, &m1, back, 0))
            outcome = 1, at = m1;
        else if (pty_wait(&t, &m2, settled, 250))
            outcome = 2, at = m2;
    }
    ck_assert_msg(outcome, "the swap2 choice never came; last: %s", SCREEN(&t));
    if (outcome == 1) {
        pty_keys(&t, "b");
        PTY_EXPECT(&t, &at, settled, 10000);
    }
    usleep(1500 * 1000); /* let the brain answer if it is on move */
    pty_keys(&t, "r");
    PTY_EXPECT(&t, &at, "judge Quinto", 30000);
    PTY_EXPECT(&t, &at, "First decisive mistake", 60000);
    PTY_EXPECT(&t, &at, "Enter returns to the board", 10000);
    pty_keys(&t, "\r");
    PTY_EXPECT(&t, &at, "review done", 10000);
    ck_assert_int_eq(pty_quit(&t), 0);
    ck_assert_msg(strstr(t.out, "saved as"), "%s", SCREEN(&t));
    free(t.out);

    /* the brain proposes; you add two stones; the brain chooses its colour */
    at = 0;
    snprintf(args, sizeof args,
             "play -engine cmd=%s name=Quinto -human white -opening-rule swap2 -tc 300 -save %s", brain,
             tmp("games"));
    pty_start(&t, args);
    PTY_EXPECT(&t, &at, "swap2: Quinto proposes ", 60000);
    PTY_EXPECT(&t, &at, "b takes black | a cell plays move 4 as white | a adds two stones", 10000);
    pty_keys(&t, "u"); /* no undo in the opening */
    PTY_EXPECT(&t, &at, "no undo in the swap2 opening", 10000);
    pty_keys(&t, "a");
    PTY_EXPECT(&t, &at, "add a white and a black stone: 2 to go", 10000);
    pty_keys(&t, ":a1\r:o15\r");
    PTY_EXPECT(&t, &at, "; you add a1 o15; Quinto ", 60000);
    ck_assert_int_eq(pty_quit(&t), 0);
    free(t.out);
}
END_TEST

static int processes_in(const char *dir) {
    int n = 0;
    DIR *d = opendir("/proc");
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        char link[300], target[1024];
        snprintf(link, sizeof link, "/proc/%s/cwd", e->d_name);
        ssize_t k = readlink(link, target, sizeof target - 1);
        if (k > 0) {
            target[k] = 0;
            n += !strcmp(target, dir);
        }
    }
    if (d)
        closedir(d);
    return n;
}

START_TEST(test_manager_interrupt) {
    /* Ctrl-C in the middle of a match: the finished games' records are all
     * there, the report so far is printed, no brain is left running, exit
     * status 128 + SIGINT */
    const char *mgr = getenv("QUINTO_MANAGER"), *fk = getenv("QUINTO_FAKE");
    ck_assert(mgr && fk);
    char dir[512];
    snprintf(dir, sizeof dir, "%s", tmp("brains"));
    mkdir(dir, 0755);
    char real[1024];
    ck_assert(realpath(dir, real) != NULL);
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "%s -engine cmd='%s good' dir=%s name=first -engine cmd='%s slow' dir=%s name=second "
             "-size 5 -tc 1000 -games 40 -j 2 -results %s -psq %s",
             mgr, fk, real, fk, real, tmp("int.tsv"), tmp("int-psq"));
    Child c;
    char err[256];
    ck_assert_msg(child_spawn(&c, cmd, NULL, NULL, err, sizeof err), "%s", err);
    int finished = 0;
    char out[16384] = "";
    size_t used = 0;
    while (finished < 3) {
        int r = child_read(&c, 60000, err, sizeof err);
        ck_assert_msg(r == LR_LINE, "the match stopped early: %s", out);
        used += (size_t)snprintf(out + used, sizeof out - used, "%s\n", child_line(&c));
        finished += !strncmp(child_line(&c), "game ", 5);
    }
    ck_assert_int_gt(processes_in(real), 0); /* games under way */
    kill(c.pid, SIGINT);
    for (;;) {
        int r = child_read(&c, 30000, err, sizeof err);
        if (r != LR_LINE)
            break;
        if (used < sizeof out - 1)
            used += (size_t)snprintf(out + used, sizeof out - used, "%s\n", child_line(&c));
    }
    long long t0 = now_ms();
    while (!child_exited(&c) && now_ms() - t0 < wait_ms(10000))
        usleep(10000);
    ck_assert_msg(!c.alive && WIFEXITED(c.exit_status) && WEXITSTATUS(c.exit_status) == 128 + SIGINT,
                  "exit status %d: %s", c.exit_status, out);
    child_free(&c);
    const char *said = strstr(out, "interrupted (Ctrl-C): ");
    ck_assert_msg(said, "no report: %s", out);
    int kept = atoi(said + strlen("interrupted (Ctrl-C): "));
    ck_assert_msg(kept >= 3 && strstr(out, "first vs second: "), "%s", out);
    /* every kept game has its results line and its record */
    FILE *f = fopen(tmp("int.tsv"), "r");
    ck_assert(f);
    char line[4096];
    int lines = 0;
    while (fgets(line, sizeof line, f))
        lines += line[strlen(line) - 1] == '\n';
    fclose(f);
    ck_assert_int_eq(lines, kept + 1);
    int psq = 0;
    DIR *d = opendir(tmp("int-psq"));
    for (struct dirent *e; d && (e = readdir(d));)
        psq += strstr(e->d_name, ".psq") != NULL;
    if (d)
        closedir(d);
    ck_assert_int_eq(psq, kept);
    /* no brain left behind */
    usleep(200000);
    ck_assert_int_eq(processes_in(real), 0);
}
END_TEST



START_TEST(test_manager_many_games) {
    /* 1 000 games in one run (brains reused, two at once): the manager's
     * memory near the end is what it was after the first hundred (10 000
     * games: the soak run in the README's Reliability section) */
    const char *mgr = getenv("QUINTO_MANAGER"), *fk = getenv("QUINTO_FAKE");
    ck_assert(mgr && fk);
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "%s -engine cmd='%s good' name=first -engine cmd='%s good' name=second -size 5 "
             "-tc 2000 -games 1000 -j 2 -reuse -results %s",
             mgr, fk, fk, tmp("many.tsv"));
    Child c;
    char err[256];
    ck_assert_msg(child_spawn(&c, cmd, NULL, NULL, err, sizeof err), "%s", err);
    long at_100 = 0, at_990 = 0;
    int games = 0;
    for (;;) {
        int r = child_read(&c, 60000, err, sizeof err);
        if (r != LR_LINE)
            break;
        if (strncmp(child_line(&c), "game ", 5))
            continue;
        games++;
        if (games == 100)
            at_100 = proc_status_kib(c.pid, "VmRSS:");
        if (games == 990)
            at_990 = proc_status_kib(c.pid, "VmRSS:");
    }
    child_stop(&c, 10000);
    ck_assert_int_eq(games, 1000);
    ck_assert(WIFEXITED(c.exit_status) && WEXITSTATUS(c.exit_status) == 0);
    child_free(&c);
#ifndef UNDER_ASAN
    ck_assert_msg(at_100 > 0 && at_990 <= at_100 + 1024,
                  "manager memory grew from %ld KiB (game 100) to %ld KiB (game 990)", at_100,
                  at_990);
#else
    (void)at_100, (void)at_990; /* LeakSanitizer checked the manager's exit (status 0) */
#endif
}
END_TEST

static int run_manager(char *out, size_t cap, const char *fmt, ...) {
    const char *mgr = getenv("QUINTO_MANAGER");
    ck_assert(mgr);
    char args[2048], cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "%s %s > %s 2>&1", mgr, args, tmp("run.out"));
    int st = system(cmd);
    read_text_file(tmp("run.out"), out, cap);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#define EXPECT_RUN(status, text, ...)                                                              \
    do {                                                                                           \
        int st_ = run_manager(buf, sizeof buf, __VA_ARGS__);                                       \
        ck_assert_msg(st_ == (status) && strstr(buf, (text)), "exit %d, wanted %d and '%s': %s", st_, \
                      (status), (text), buf);                                                      \
    } while (0)

/* What a new user gets wrong gets a clear message and a non-zero exit before
 * any game (issue 17, items 1, 2 and 8). */
START_TEST(test_manager_refuses) {
    const char *fk = getenv("QUINTO_FAKE");
    char buf[8192], good[600], cmd[512];
    snprintf(good, sizeof good, "-engine cmd='%s good' name=good", fk);
    /* brains that cannot start stop the run at once */
    EXPECT_RUN(2, "cannot execute /path/pbrain-other: No such file or directory",
               "match %s -engine cmd=/path/pbrain-other -games 2", good);
    EXPECT_RUN(2, "cannot execute /etc/passwd: Permission denied", "match %s -engine cmd=/etc/passwd", good);
    EXPECT_RUN(2, "answered START with 'START 15'", "match %s -engine cmd=/bin/cat -tc 100", good);
    EXPECT_RUN(2, "no answer to START within 300 ms",
               "match %s -engine cmd='%s nostart' -start-timeout 300", good, fk);
    EXPECT_RUN(2, "cannot execute /nonexistent: No such file or directory",
               "puzzles -engine cmd=/nonexistent -file %s/puzzles/lfz084_has_vcf_6x6.txt",
               getenv("QUINTO_TESTDATA"));
    ck_assert(!strstr(buf, "solved"));
    /* output paths are checked before the first game; folders are made */
    EXPECT_RUN(2, "cannot write -results /etc/passwd/r.tsv: Not a directory",
               "match %s %s -results /etc/passwd/r.tsv", good, good);
    EXPECT_RUN(2, "cannot write games to -sgf /etc/passwd: Not a directory",
               "match %s %s -sgf /etc/passwd", good, good);
    char nest[256];
    snprintf(nest, sizeof nest, "%s/a/b", tmp("nest"));
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp("nest"));
    ck_assert_int_eq(system(cmd), 0);
    EXPECT_RUN(0, "2 games in", "match %s %s -size 5 -games 2 -quiet -psq %s", good, good, nest);
    snprintf(cmd, sizeof cmd, "%s/game0002.psq", nest);
    ck_assert(!access(cmd, F_OK));
    /* every number is checked, and the message names the option */
    EXPECT_RUN(2, "-games expects a whole number", "match %s %s -games abc", good, good);
    EXPECT_RUN(2, "bad time control '200/'", "match %s %s -tc 200/", good, good);
    EXPECT_RUN(2, "bad size '15x'", "match %s %s -size 15x", good, good);
    EXPECT_RUN(2, "-concurrency expects a whole number from 1 to 64, not '0'",
               "match %s %s -concurrency 0", good, good);
    EXPECT_RUN(2, "-sprt needs elo0 < elo1", "match %s %s -sprt elo0=5 elo1=0", good, good);
    EXPECT_RUN(2, "-sprt expects a number", "match %s %s -sprt elo0=x", good, good);
    EXPECT_RUN(2, "-tc needs a value", "match %s %s -tc -games 4", good, good);
    EXPECT_RUN(2, "did you mean cmd=./pbrain-quinto?", "match -engine ./pbrain-quinto %s", good);
    /* a brain that loses what arrives right after its move (as Rapfi does)
     * gets its next command only after a grace period: no game lost */
    snprintf(cmd, sizeof cmd, "-engine cmd='%s racy' name=racy", fk);
    EXPECT_RUN(0, "racy vs good: 1-1-0", "match %s %s -size 6 -games 2 -quiet", cmd, good);
    /* the game lines name cells as the board does (results files keep x,y) */
    EXPECT_RUN(0, "{five a1}", "match %s %s -size 5 -games 1 -quiet", good, good);
    EXPECT_RUN(0, "usage: quinto-manager", "help");
    EXPECT_RUN(0, "usage: quinto-manager", "-h");
    /* a brain that starts once and then never again: the later games are
     * not played, not scored, and the run says so (exit 1) */
    snprintf(cmd, sizeof cmd, "rm -f %s", tmp("once"));
    ck_assert_int_eq(system(cmd), 0);
    EXPECT_RUN(1, "not played: once failed to start",
               "match %s -engine cmd='%s once %s' name=once -size 5 -games 2 -quiet "
               "-start-timeout 500",
               good, fk, tmp("once"));
    ck_assert_msg(!strstr(buf, "good vs once:") && strstr(buf, "2 games not played"), "%s", buf);
}
END_TEST

/* A puzzle run says which puzzles failed and how, without -results, and
 * its times are not rounded to zero (issue 17, item 9). */
START_TEST(test_puzzle_report) {
    const char *fk = getenv("QUINTO_FAKE");
    char buf[8192];
    EXPECT_RUN(0, "5 of 9 solved", "puzzles -engine cmd='%s good' -file %s/puzzles/lfz084_has_vcf_6x6.txt -tc 200 -quiet",
               fk, getenv("QUINTO_TESTDATA"));
    ck_assert_msg(strstr(buf, "not solved (line in the file") && strstr(buf, "\n  3: board full; played 1,0 2,0") &&
                      strstr(buf, "\n  6: forbidden move 4,2; played"),
                  "%s", buf);
    ck_assert_msg(!strstr(buf, " 0 s in all") && strstr(buf, " s in all"), "%s", buf);
    /* -first and -limit pick a slice, numbered as in the file */
    EXPECT_RUN(0, "1 of 2 solved", "puzzles -engine cmd='%s good' -file %s/puzzles/lfz084_has_vcf_6x6.txt -tc 200 -quiet -first 2 -limit 2",
               fk, getenv("QUINTO_TESTDATA"));
    ck_assert_msg(strstr(buf, "\n  3: board full"), "%s", buf);
}
END_TEST

Suite *suite_manager(void) {
    Suite *s = suite_create("manager");
    TCase *tc = tcase_create("judge");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_good_game_to_five);
    tcase_add_test(tc, test_results_pool);
    tcase_add_test(tc, test_each_failure_judged);
    tcase_add_test(tc, test_clock_and_tolerance);
    tcase_add_test(tc, test_forbidden_and_memory);
    tcase_add_test(tc, test_suspend_and_reuse);
    tcase_add_test(tc, test_records);
    tcase_add_test(tc, test_statistics);
    tcase_add_test(tc, test_openings_files);
    tcase_add_test(tc, test_spawn_pipes_private);
    tcase_add_test(tc, test_manager_binary);
    tcase_add_test(tc, test_manager_interrupt);
    tcase_add_test(tc, test_review_parsing);
    tcase_add_test(tc, test_review_game);
    tcase_add_test(tc, test_balanced_openings);
    tcase_add_test(tc, test_swap2_games);
    tcase_add_test(tc, test_play_terminal);
    tcase_add_test(tc, test_manager_refuses);
    tcase_add_test(tc, test_puzzle_report);
    suite_add_tcase(s, tc);
    /* long runs: 1 000 games, slow under the sanitizers */
    TCase *tl = tcase_create("long");
    tcase_set_timeout(tl, 900);
    tcase_add_test(tl, test_manager_many_games);
    suite_add_tcase(s, tl);
    return s;
}

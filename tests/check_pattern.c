/* tests/check_pattern.c — the pattern tables against a brute-force classifier
 * built on brain/'s rules, the incremental position against recomputation,
 * and hand cases. */
#include <stdlib.h>
#include <string.h>

#include "../eval/evaluate.h"
#include "../eval/pattern.h"
#include "../eval/position.h"
#include "testutil.h"

/* ---- brute force: classify the centre of a board row by playing stones and
 * asking brain/rules what wins and what is forbidden ---- */

typedef struct {
    Board *b;
    int centre;
    Rule rule;
    int colour;
    uint8_t *memo;
} Brute;

static uint32_t row_key(const Board *b, int m) {
    uint32_t key = 0;
    for (int k = 1; k <= 5; k++) {
        key |= (uint32_t)b->cell[m - k] << (2 * (k - 1));
        key |= (uint32_t)b->cell[m + k] << (10 + 2 * (k - 1));
    }
    return key;
}

static int run_len(const Board *b, int m, int c) {
    int n = 1;
    for (int i = m - 1; b->cell[i] == c; i--)
        n++;
    for (int i = m + 1; b->cell[i] == c; i++)
        n++;
    return n;
}

static int brute(Brute *br) {
    Board *b = br->b;
    int m = br->centre, c = br->colour;
    uint32_t key = row_key(b, m);
    if (br->memo[key] != 0xFF)
        return br->memo[key];
    int result;
    bool renju_black = br->rule == RULE_RENJU && c == BLACK;
    /* the centre as played: a win, or a dead/overlong line, or forbidden */
    if (rule_wins_if_played(b, (Move)m, c, br->rule)) {
        result = PAT_F5;
    } else if (renju_black && rule_is_forbidden(b, (Move)m, RULE_RENJU)) {
        result = PAT_OL; /* overline or two fours on this one line */
    } else {
        b->cell[m] = (uint8_t)c;
        int run = run_len(b, m, c);
        if (run > 5) {
            result = PAT_OL;
        } else if (run == 5) {
            result = PAT_DEAD; /* caro: a five blocked at both ends */
        } else {
            int f4 = 0, b4 = 0, f3 = 0, b3 = 0, f2 = 0, b2 = 0, fives = 0;
            for (int k = -4; k <= 4; k++) {
                int i = m + k;
                if (k == 0 || b->cell[i] != EMPTY)
                    continue;
                fives += rule_wins_if_played(b, (Move)i, c, br->rule);
            }
            if (fives) {
                result = fives >= 2 ? PAT_F4 : PAT_B4;
            } else {
                for (int k = -4; k <= 4; k++) {
                    int i = m + k;
                    if (k == 0 || b->cell[i] != EMPTY)
                        continue;
                    b->cell[i] = (uint8_t)c;
                    b->cell[m] = EMPTY;
                    int p = brute(br);
                    b->cell[m] = (uint8_t)c;
                    b->cell[i] = EMPTY;
                    f4 += p == PAT_F4;
                    b4 += p == PAT_B4;
                    f3 += p == PAT_F3 || p == PAT_F3S;
                    b3 += p == PAT_B3;
                    f2 += p == PAT_F2 || p == PAT_F2A || p == PAT_F2B;
                    b2 += p == PAT_B2;
                }
                result = f4 >= 2  ? PAT_F3S
                         : f4     ? PAT_F3
                         : b4     ? PAT_B3
                         : f3 >= 4 ? PAT_F2B
                         : f3 == 3 ? PAT_F2A
                         : f3     ? PAT_F2
                         : b3     ? PAT_B2
                         : f2     ? PAT_F1
                         : b2     ? PAT_B1
                                  : PAT_DEAD;
            }
        }
        b->cell[m] = EMPTY;
    }
    br->memo[key] = (uint8_t)result;
    return result;
}

/* Every row with a wall (board edge) at distance jl on the left and jr on the
 * right (6 = none within 5) and every filling of the cells in between. */
static long compare_all(Rule rule, int colour, uint8_t *memo) {
    static Board b;
    long compared = 0;
    memset(memo, 0xFF, 1u << 20);
    for (int jl = 1; jl <= 6; jl++)
        for (int jr = 1; jr <= 6; jr++) {
            int nl = jl <= 5 ? jl - 1 : 8, nr = jr <= 5 ? jr - 1 : 8;
            int width = nl + 1 + nr;
            int wl = nl < 5 ? nl : 5, wr = nr < 5 ? nr : 5;
            int combos = 1;
            for (int i = 0; i < wl + wr; i++)
                combos *= 3;
            bool real = width >= BOARD_MIN_SIZE;
            if (real)
                ck_assert(board_init(&b, width, 5));
            for (int v = 0; v < combos; v++) {
                uint32_t key = 0;
                int t = v;
                if (real)
                    board_clear(&b);
                for (int k = 1; k <= 5; k++) {
                    int cl = k <= wl ? (t % 3) : (k == jl ? WALL : (k > jl ? WALL : EMPTY));
                    if (k <= wl)
                        t /= 3;
                    if (k > nl)
                        cl = WALL;
                    key |= (uint32_t)cl << (2 * (k - 1));
                    if (real && cl != WALL)
                        b.cell[board_move_at(&b, nl - k, 2)] = (uint8_t)cl;
                }
                for (int k = 1; k <= 5; k++) {
                    int cr = k <= wr ? (t % 3) : EMPTY;
                    if (k <= wr)
                        t /= 3;
                    if (k > nr)
                        cr = WALL;
                    key |= (uint32_t)cr << (10 + 2 * (k - 1));
                    if (real && cr != WALL)
                        b.cell[board_move_at(&b, nl + k, 2)] = (uint8_t)cr;
                }
                Pattern table = pattern_of(rule, colour, key);
                int expect = PAT_DEAD;
                if (real) {
                    Brute br = {&b, board_move_at(&b, nl, 2), rule, colour, memo};
                    ck_assert_uint_eq(row_key(&b, br.centre), key);
                    expect = brute(&br);
                }
                if ((int)table != expect) {
                    char line[12];
                    for (int k = 5; k >= 1; k--)
                        line[5 - k] = ".XOW"[(key >> (2 * (k - 1))) & 3];
                    line[5] = '*';
                    for (int k = 1; k <= 5; k++)
                        line[5 + k] = ".XOW"[(key >> (10 + 2 * (k - 1))) & 3];
                    line[11] = 0;
                    ck_abort_msg("%s colour %d line %s: table %s, brute force %s", rule_name(rule),
                                 colour, line, pattern_name(table), pattern_name((Pattern)expect));
                }
                compared++;
            }
        }
    return compared;
}

START_TEST(test_table_vs_brute_force) {
    uint8_t *memo = malloc(1u << 20);
    long total = 0;
    for (int r = 0; r < RULE_COUNT; r++)
        for (int c = BLACK; c <= WHITE; c++)
            total += compare_all((Rule)r, c, memo);
    free(memo);
    /* 364 x 364 line shapes (walls only beyond the board edge) x 10 tables */
    ck_assert_int_eq(total, 364L * 364 * 10);
}
END_TEST

/* ---- incremental position ---- */

static void random_pos_walk(int w, int h, Rule rule, int steps, unsigned long long seed) {
    static Pos p;
    ck_assert(pos_init(&p, w, h, rule));
    unsigned long long s = seed;
    for (int i = 0; i < steps; i++) {
        if (p.b.ply > 0 && (test_rand(&s) % 3 == 0 || p.b.stones == w * h)) {
            pos_undo(&p);
        } else if (test_rand(&s) % 20 == 0) {
            pos_pass(&p);
        } else {
            Move m;
            if (board_candidate_count(&p.b) && test_rand(&s) % 5)
                m = board_candidate(&p.b, test_rand(&s) % (unsigned)board_candidate_count(&p.b));
            else
                do
                    m = board_move_at(&p.b, (int)(test_rand(&s) % (unsigned)w),
                                      (int)(test_rand(&s) % (unsigned)h));
                while (p.b.cell[m] != EMPTY);
            pos_play(&p, m);
        }
        if (i % 7 == 0 || w * h < 400)
            ck_assert_msg(pos_is_consistent(&p), "%dx%d %s: inconsistent at step %d", w, h,
                          rule_name(rule), i);
    }
    while (p.b.ply)
        pos_undo(&p);
    ck_assert(pos_is_consistent(&p));
    ck_assert_int_eq(p.wsum, 0);
}

START_TEST(test_incremental_matches_recompute) {
    random_pos_walk(15, 15, RULE_FREESTYLE, 1500, 11);
    random_pos_walk(15, 15, RULE_RENJU, 1500, 12);
    random_pos_walk(20, 20, RULE_STANDARD, 800, 13);
    random_pos_walk(5, 5, RULE_CARO8, 1500, 14);
    random_pos_walk(7, 23, RULE_CARO9, 1000, 15);
    random_pos_walk(128, 128, RULE_FREESTYLE, 150, 16);
}
END_TEST

/* Undo puts back what the move saved for its last POS_UNDO_PLIES moves and
 * recomputes the lines of older ones, and of moves from before a rule
 * change: both ways end where recomputation does. */
START_TEST(test_undo_saved_and_recomputed) {
    static Pos p;
    ck_assert(pos_init(&p, 40, 40, RULE_FREESTYLE));
    unsigned long long s = 21;
    int moves = POS_UNDO_PLIES + 344;
    for (int i = 0; i < moves; i++) {
        Move m;
        do
            m = board_move_at(&p.b, (int)(test_rand(&s) % 40), (int)(test_rand(&s) % 40));
        while (p.b.cell[m] != EMPTY);
        pos_play(&p, m);
    }
    ck_assert(pos_is_consistent(&p));
    for (int i = 0; i < moves; i++) {
        pos_undo(&p);
        if (i % 37 == 0 || i == moves - POS_UNDO_PLIES || i == moves - POS_UNDO_PLIES - 1)
            ck_assert_msg(pos_is_consistent(&p), "inconsistent after %d undos", i + 1);
    }
    ck_assert(pos_is_consistent(&p));
    ck_assert_int_eq(p.wsum, 0);
    /* saved under freestyle, undone under renju */
    for (int i = 0; i < 30; i++)
        pos_play(&p, board_move_at(&p.b, 10 + i % 6, 10 + i / 6));
    pos_set_rule(&p, RULE_RENJU);
    for (int i = 0; i < 30; i++) {
        pos_undo(&p);
        ck_assert_msg(pos_is_consistent(&p), "inconsistent after the rule change, undo %d", i + 1);
    }
    ck_assert_int_eq(p.wsum, 0);
}
END_TEST

/* The linear model the tuner fits is eval_static: features times weights
 * give the static evaluation (to the window term's rounding) in every rule,
 * at every step of random games, and the features move when stones do. */
START_TEST(test_eval_linear_model) {
    static Pos p;
    unsigned long long s = 7;
    double w[EVAL_FEATURES];
    float f[EVAL_FEATURES];
    int checked = 0, moved = 0;
    for (int r = 0; r < RULE_COUNT; r++)
        for (int game = 0; game < 10; game++) {
            weights_init((Rule)r);
            if (eval_has_corrections((Rule)r))
                continue; /* a fitted table: no longer this linear model */
            eval_weights((Rule)r, w);
            ck_assert(pos_init(&p, r == RULE_CARO9 ? 20 : 15, 15, (Rule)r));
            for (int mv = 0; mv < 50; mv++) {
                Move m;
                do
                    m = board_move_at(&p.b, 3 + (int)(test_rand(&s) % 9), 3 + (int)(test_rand(&s) % 9));
                while (p.b.cell[m] != EMPTY);
                if (rule_wins_if_played(&p.b, m, p.b.side, (Rule)r))
                    break;
                float before = 0;
                eval_features(&p, f);
                before = f[FEAT_PATTERN + PAT_B1] + f[FEAT_WINDOW];
                pos_play(&p, m);
                eval_features(&p, f);
                double v = 0;
                for (int i = 0; i < EVAL_FEATURES; i++)
                    v += w[i] * f[i];
                ck_assert_msg(v - eval_static(&p) < 1.0 && eval_static(&p) - v < 1.0,
                              "rule %d: model %.2f, eval_static %d", r, v, eval_static(&p));
                ck_assert_float_eq(f[FEAT_TEMPO], 1);
                ck_assert_float_eq(f[FEAT_BLACK], p.b.side == BLACK ? 1 : -1);
                moved += before != f[FEAT_PATTERN + PAT_B1] + f[FEAT_WINDOW];
                checked++;
            }
        }
    ck_assert_int_gt(checked, 500);
    ck_assert_int_gt(moved, checked / 2);
}
END_TEST

/* Renju black's code values are played at 125% of the stored ones (the
 * build scales them by this percent; tune --refine stores black's fitted
 * changes divided by it); every other table at 100%. */
START_TEST(test_code_percent) {
    for (int r = 0; r < RULE_COUNT; r++) {
        weights_init((Rule)r);
        ck_assert_int_eq(eval_code_pct((Rule)r, WHITE), 100);
        ck_assert_int_eq(eval_code_pct((Rule)r, BLACK), r == RULE_RENJU && eval_has_corrections((Rule)r) ? 125 : 100);
    }
    ck_assert(eval_has_corrections(RULE_RENJU));
}
END_TEST

/* Threat classes agree with the rules: FIVE exactly where a stone wins, and
 * every truly forbidden point is classed FORBID (the class is a superset:
 * false threes are confirmed by rules). */
START_TEST(test_classes_agree_with_rules) {
    static Pos p;
    unsigned long long s = 99;
    int forbidden_seen = 0, fives_seen = 0;
    for (int r = 0; r < RULE_COUNT; r++)
        for (int game = 0; game < 30; game++) {
            ck_assert(pos_init(&p, 15, 15, (Rule)r));
            for (int mv = 0; mv < 60; mv++) {
                /* dense random play in a 9x9 middle to make threats */
                Move m;
                do
                    m = board_move_at(&p.b, 3 + (int)(test_rand(&s) % 9),
                                      3 + (int)(test_rand(&s) % 9));
                while (p.b.cell[m] != EMPTY);
                if (rule_wins_if_played(&p.b, m, p.b.side, (Rule)r))
                    break;
                pos_play(&p, m);
                for (int y = 0; y < 15; y++)
                    for (int x = 0; x < 15; x++) {
                        Move e = board_move_at(&p.b, x, y);
                        if (p.b.cell[e] != EMPTY)
                            continue;
                        for (int c = BLACK; c <= WHITE; c++) {
                            bool win = rule_wins_if_played(&p.b, e, c, (Rule)r);
                            ck_assert_int_eq(win, pos_p4(&p, e, c) == P4_FIVE);
                            fives_seen += win;
                        }
                        if (rule_is_forbidden(&p.b, e, (Rule)r)) {
                            ck_assert_int_eq(pos_p4(&p, e, BLACK), P4_FORBID);
                            forbidden_seen++;
                        }
                    }
            }
        }
    ck_assert_int_gt(fives_seen, 100);
    ck_assert_int_gt(forbidden_seen, 10);
}
END_TEST

/* ---- hand cases ---- */

static Pattern row_pattern(Rule rule, int colour, const char *row, int at) {
    static Board b;
    ck_assert(board_init(&b, 15, 15));
    for (int i = 0; row[i]; i++)
        if (row[i] != '.')
            b.cell[board_move_at(&b, i, 7)] = row[i] == 'X' ? BLACK : WHITE;
    return pattern_of(rule, colour, row_key(&b, board_move_at(&b, at, 7)));
}

/* pos_play updates freestyle patterns only 4 cells each side of a move: the
 * fifth cell must never matter there, and must matter for the other rules. */
START_TEST(test_freestyle_reach_four) {
    for (int r = 0; r < RULE_COUNT; r++) {
        pattern_init((Rule)r);
        long differ = 0;
        for (int colour = BLACK; colour <= WHITE; colour++)
            for (uint32_t key = 0; key < (1u << LINE_KEY_BITS); key++) {
                uint32_t near = key & ~((3u << 8) | (3u << 18));
                differ += pattern_of((Rule)r, colour, key) != pattern_of((Rule)r, colour, near);
            }
        if (r == RULE_FREESTYLE)
            ck_assert_int_eq(differ, 0);
        else
            ck_assert_int_gt(differ, 0);
    }
}
END_TEST

START_TEST(test_hand_patterns) {
    /* at column 6 of each picture */
    ck_assert_int_eq(row_pattern(RULE_FREESTYLE, BLACK, "..XXXX.......", 6), PAT_F5);
    ck_assert_int_eq(row_pattern(RULE_FREESTYLE, BLACK, "...XXX.......", 6), PAT_F4);
    ck_assert_int_eq(row_pattern(RULE_FREESTYLE, BLACK, "..OXXX.......", 6), PAT_B4);
    ck_assert_int_eq(row_pattern(RULE_FREESTYLE, BLACK, "....XX.......", 6), PAT_F3S);
    ck_assert_int_eq(row_pattern(RULE_FREESTYLE, BLACK, "...X.X.......", 6), PAT_F3);
    ck_assert_int_eq(row_pattern(RULE_FREESTYLE, BLACK, "...OXX.......", 6), PAT_B3);
    ck_assert_int_eq(row_pattern(RULE_FREESTYLE, BLACK, ".....X.......", 6), PAT_F2B);
    ck_assert_int_eq(row_pattern(RULE_FREESTYLE, BLACK, "....OX.......", 6), PAT_B2);
    ck_assert_int_eq(row_pattern(RULE_FREESTYLE, BLACK, "..............", 6), PAT_F1);
    ck_assert_int_eq(row_pattern(RULE_FREESTYLE, BLACK, ".....O.O.....", 6), PAT_DEAD);
    ck_assert_int_eq(row_pattern(RULE_FREESTYLE, WHITE, "...XXX.......", 6), PAT_B1);
    /* edges block like stones */
    ck_assert_int_eq(row_pattern(RULE_FREESTYLE, BLACK, "XXX..........", 3), PAT_B4);
    /* overlines per rule */
    ck_assert_int_eq(row_pattern(RULE_FREESTYLE, BLACK, "..XXXX.X.....", 6), PAT_F5);
    ck_assert_int_eq(row_pattern(RULE_STANDARD, BLACK, "..XXXX.X.....", 6), PAT_OL);
    ck_assert_int_eq(row_pattern(RULE_RENJU, BLACK, "..XXXX.X.....", 6), PAT_OL);
    ck_assert_int_eq(row_pattern(RULE_RENJU, WHITE, "..OOOO.O.....", 6), PAT_F5);
    /* standard: XXX.X with an own stone beyond: only one five point */
    ck_assert_int_eq(row_pattern(RULE_STANDARD, BLACK, "..X.XXX......", 3), PAT_F5);
    ck_assert_int_eq(row_pattern(RULE_STANDARD, BLACK, ".XX.XX.X.....", 3), PAT_F5);
    /* renju: two fours on one line are forbidden for black, fine for white */
    ck_assert_int_eq(row_pattern(RULE_RENJU, BLACK, "...X.X.X.X...", 6), PAT_OL);
    ck_assert_int_eq(row_pattern(RULE_RENJU, WHITE, "...O.O.O.O...", 6), PAT_F4);
    ck_assert_int_eq(row_pattern(RULE_FREESTYLE, BLACK, "...X.X.X.X...", 6), PAT_F4);
    /* caro: a five blocked at both ends is dead; at the edge it is not */
    ck_assert_int_eq(row_pattern(RULE_CARO8, BLACK, "...OXXXX.O...", 8), PAT_DEAD);
    ck_assert_int_eq(row_pattern(RULE_CARO8, BLACK, "XXXX.O.......", 4), PAT_F5);
    ck_assert_int_eq(row_pattern(RULE_CARO9, BLACK, "...OXXXX.O...", 8), PAT_DEAD);
    ck_assert_int_eq(row_pattern(RULE_CARO8, BLACK, "...OXXX..O...", 7), PAT_DEAD);
    ck_assert_int_eq(row_pattern(RULE_CARO8, BLACK, "...OXXX...O..", 7), PAT_B4);
    ck_assert_int_eq(row_pattern(RULE_FREESTYLE, BLACK, "...OXXX..O...", 7), PAT_B4);
}
END_TEST

/* Renju's false three: the class says FORBID, rules say not forbidden, and
 * the explanation reports the confirmed answer. Position from the testdata
 * (forbidden_exact lists the real ones). */
START_TEST(test_renju_false_three_explained) {
    static Pos p;
    ck_assert(pos_init(&p, 15, 15, RULE_RENJU));
    /* .XX.* : column 7,5 7,6 ; row 5,7 6,7 -> 7,7 is a 3x3 */
    int stones[][2] = {{7, 5}, {0, 0}, {7, 6}, {0, 2}, {5, 7}, {0, 4}, {6, 7}, {0, 6}};
    for (int i = 0; i < 8; i++)
        pos_play(&p, board_move_at(&p.b, stones[i][0], stones[i][1]));
    Move m = board_move_at(&p.b, 7, 7);
    ck_assert_int_eq(pos_p4(&p, m, BLACK), P4_FORBID);
    CellInfo ci;
    eval_explain(&p, m, &ci);
    ck_assert(ci.forbidden);
    /* make the row three false: its straight-four points 4,7 and 8,7; white
     * on 4,7 and 9,7 leaves .XX* -> blocked, the three is not real */
    pos_play(&p, board_move_at(&p.b, 14, 14)); /* black elsewhere */
    pos_play(&p, board_move_at(&p.b, 4, 7));
    pos_play(&p, board_move_at(&p.b, 14, 12));
    pos_play(&p, board_move_at(&p.b, 9, 7));
    ck_assert_int_ne(pos_p4(&p, m, BLACK), P4_FORBID);
    eval_explain(&p, m, &ci);
    ck_assert(!ci.forbidden);
    char buf[256];
    eval_describe(&ci, buf, sizeof buf);
    ck_assert_msg(strstr(buf, "black:") != NULL, "%s", buf);
}
END_TEST

Suite *suite_pattern(void) {
    Suite *s = suite_create("pattern");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_hand_patterns);
    tcase_add_test(tc, test_freestyle_reach_four);
    tcase_add_test(tc, test_eval_linear_model);
    tcase_add_test(tc, test_code_percent);
    tcase_add_test(tc, test_table_vs_brute_force);
    tcase_add_test(tc, test_incremental_matches_recompute);
    tcase_add_test(tc, test_undo_saved_and_recomputed);
    tcase_add_test(tc, test_classes_agree_with_rules);
    tcase_add_test(tc, test_renju_false_three_explained);
    suite_add_tcase(s, tc);
    return s;
}

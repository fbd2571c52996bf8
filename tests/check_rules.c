/* tests/check_rules.c — win rules per rule, renju forbidden points, protocol
 * rule values, and every claim of tests/data/renju. */
#include <stdlib.h>
#include <string.h>

#include "../brain/rules.h"
#include "testutil.h"

/* Put stones from a picture row: 'X' black, 'O' white, '.' empty, at row y
 * starting at column x0, without the play order mattering. */
static void put_row(Board *b, int x0, int y, const char *row) {
    for (int i = 0; row[i]; i++) {
        if (row[i] == '.')
            continue;
        b->cell[board_move_at(b, x0 + i, y)] = row[i] == 'X' ? BLACK : WHITE;
    }
}

/* Result of side `c` playing at x on the middle row, given as a picture (the stones of the
 * picture placed directly; only the rules are exercised). */
static bool wins_row(Rule rule, int size, int x0, const char *row, int c, int x) {
    static Board b;
    ck_assert(board_init(&b, size, size));
    put_row(&b, x0, size / 2, row);
    return rule_wins_if_played(&b, board_move_at(&b, x, size / 2), c, rule);
}

START_TEST(test_freestyle_and_standard) {
    /* XXXX. + X at 4: five */
    ck_assert(wins_row(RULE_FREESTYLE, 15, 0, "XXXX.", BLACK, 4));
    ck_assert(wins_row(RULE_STANDARD, 15, 0, "XXXX.", BLACK, 4));
    /* XXXX.X: overline */
    ck_assert(wins_row(RULE_FREESTYLE, 15, 0, "XXXX.X", BLACK, 4));
    ck_assert(!wins_row(RULE_STANDARD, 15, 0, "XXXX.X", BLACK, 4));
    ck_assert(!wins_row(RULE_STANDARD, 15, 0, "OOOO.O", WHITE, 4));
    /* four is not five */
    ck_assert(!wins_row(RULE_FREESTYLE, 15, 0, "XXX..", BLACK, 3));
    /* broken: XX.XX filled in the middle */
    ck_assert(wins_row(RULE_FREESTYLE, 15, 3, "XX.XX", BLACK, 5));
    /* colour matters */
    ck_assert(!wins_row(RULE_FREESTYLE, 15, 0, "XXXX.", WHITE, 4));
    /* exact five against the edge on a 5x5 board */
    ck_assert(wins_row(RULE_STANDARD, 5, 0, "XX.XX", BLACK, 2));
    /* diagonal */
    static Board b;
    setup_moves(&b, 15, "0,0 0,5 1,1 0,6 2,2 0,7 3,3 0,8");
    ck_assert(rule_wins_if_played(&b, board_move_at(&b, 4, 4), BLACK, RULE_STANDARD));
    board_play(&b, board_move_at(&b, 4, 4));
    ck_assert(rule_is_win(&b, board_move_at(&b, 4, 4), RULE_STANDARD));
    ck_assert(rule_is_win(&b, board_move_at(&b, 2, 2), RULE_STANDARD));
    ck_assert(!rule_is_win(&b, board_move_at(&b, 0, 5), RULE_STANDARD));
}
END_TEST

START_TEST(test_renju_wins) {
    /* white may overline, black may not */
    ck_assert(wins_row(RULE_RENJU, 15, 0, "OOOO.O", WHITE, 4));
    ck_assert(!wins_row(RULE_RENJU, 15, 0, "XXXX.X", BLACK, 4));
    ck_assert(wins_row(RULE_RENJU, 15, 0, "XXXX..", BLACK, 4));
    /* black's overline is forbidden, not a win */
    static Board b;
    ck_assert(board_init(&b, 15, 15));
    put_row(&b, 0, 7, "XXXX.X");
    ck_assert(rule_is_forbidden(&b, board_move_at(&b, 4, 7), RULE_RENJU));
    ck_assert(!rule_is_forbidden(&b, board_move_at(&b, 4, 7), RULE_FREESTYLE));
}
END_TEST

/* A five made together with a double four (or a three-three) is a win. */
START_TEST(test_renju_five_beats_forbidden) {
    static Board b;
    ck_assert(board_init(&b, 15, 15));
    /* row 7: XXXX. (five at 4,7); column 4: X X X . above (four at 4,7 too) */
    put_row(&b, 0, 7, "XXXX.");
    b.cell[board_move_at(&b, 4, 4)] = BLACK;
    b.cell[board_move_at(&b, 4, 5)] = BLACK;
    b.cell[board_move_at(&b, 4, 6)] = BLACK;
    /* diagonal: two more making a three */
    b.cell[board_move_at(&b, 5, 8)] = BLACK;
    b.cell[board_move_at(&b, 6, 9)] = BLACK;
    Move m = board_move_at(&b, 4, 7);
    ck_assert(!rule_is_forbidden(&b, m, RULE_RENJU));
    ck_assert(rule_wins_if_played(&b, m, BLACK, RULE_RENJU));
    b.side = BLACK;
    ck_assert_int_eq(rule_judge(&b, 4, 7, RULE_RENJU), OUTCOME_WIN);
    /* without the five it is a double four */
    b.cell[board_move_at(&b, 0, 7)] = EMPTY;
    b.cell[board_move_at(&b, 0, 7)] = EMPTY;
    ck_assert(rule_is_forbidden(&b, m, RULE_RENJU));
    ck_assert_int_eq(rule_judge(&b, 4, 7, RULE_RENJU), OUTCOME_FORBIDDEN);
}
END_TEST

START_TEST(test_renju_four_three_allowed) {
    static Board b;
    ck_assert(board_init(&b, 15, 15));
    /* row 7: .XXX. at 2..4 gives a four with 5,7; column 5: X X above -> three */
    put_row(&b, 2, 7, "XXX");
    b.cell[board_move_at(&b, 5, 5)] = BLACK;
    b.cell[board_move_at(&b, 5, 6)] = BLACK;
    ck_assert(!rule_is_forbidden(&b, board_move_at(&b, 5, 7), RULE_RENJU));
    /* now add a second three through 5,7: the diagonal 3,5 4,6 */
    b.cell[board_move_at(&b, 3, 5)] = BLACK;
    b.cell[board_move_at(&b, 4, 6)] = BLACK;
    /* four + three + three: not double four, but double three -> forbidden */
    ck_assert(rule_is_forbidden(&b, board_move_at(&b, 5, 7), RULE_RENJU));
}
END_TEST

START_TEST(test_renju_double_three_and_false_three) {
    static Board b;
    ck_assert(board_init(&b, 15, 15));
    /* simple 3x3 at 7,7: row .XX at 5,6 ; column at 7,5 7,6 */
    put_row(&b, 5, 7, "XX");
    b.cell[board_move_at(&b, 7, 5)] = BLACK;
    b.cell[board_move_at(&b, 7, 6)] = BLACK;
    Move m = board_move_at(&b, 7, 7);
    ck_assert(rule_is_forbidden(&b, m, RULE_RENJU));
    /* block one three at one end with white: O X X _ _ : still three? the row
     * 4..8 = O X X m . : XXX blocked on the left is not a three */
    b.cell[board_move_at(&b, 4, 7)] = WHITE;
    b.cell[board_move_at(&b, 9, 7)] = EMPTY;
    /* O X X X . . : can become XXXX. only blocked -> not straight four */
    ck_assert(!rule_is_forbidden(&b, m, RULE_RENJU));
    /* white never has forbidden points */
    b.side = WHITE;
    ck_assert_int_eq(rule_judge(&b, 7, 7, RULE_RENJU), OUTCOME_NORMAL);
}
END_TEST

START_TEST(test_renju_one_line_double_four) {
    static Board b;
    ck_assert(board_init(&b, 15, 15));
    /* X.XXX.X with the centre filled: X.X?X.X -> fours both sides */
    put_row(&b, 3, 7, "X.X.X.X");
    ck_assert(rule_is_forbidden(&b, board_move_at(&b, 6, 7), RULE_RENJU));
    /* the straight four .XXXX. is one four, allowed */
    ck_assert(board_init(&b, 15, 15));
    put_row(&b, 3, 7, ".XX.X.");
    ck_assert(!rule_is_forbidden(&b, board_move_at(&b, 6, 7), RULE_RENJU));
}
END_TEST

START_TEST(test_caro) {
    /* caro8: exactly five blocked at both ends by the opponent: no win */
    ck_assert(!wins_row(RULE_CARO8, 15, 2, "OXXXX.O", BLACK, 7));
    ck_assert(wins_row(RULE_CARO8, 15, 2, "OXXXX..", BLACK, 7));
    /* the board edge is not a block */
    ck_assert(wins_row(RULE_CARO8, 15, 0, "XXXX.O", BLACK, 4));
    ck_assert(wins_row(RULE_CARO9, 15, 0, "XXXX.O", BLACK, 4));
    /* overline: caro8 wins even blocked, caro9 never */
    ck_assert(wins_row(RULE_CARO8, 15, 2, "OXXXX.XO", BLACK, 7));
    ck_assert(!wins_row(RULE_CARO9, 15, 2, ".XXXX.X.", BLACK, 7));
    ck_assert(!wins_row(RULE_CARO9, 15, 2, "OXXXX.O", BLACK, 7));
    ck_assert(wins_row(RULE_CARO9, 15, 2, "OXXXX..", BLACK, 7));
    /* one end blocked by own colour's wall of the other colour: white works the same */
    ck_assert(!wins_row(RULE_CARO8, 15, 2, "XOOOO.X", WHITE, 7));
    /* the GomocupJudge test position: g8-j8 with f8 and l8 white -> k8 no win */
    static Board b;
    setup_moves(&b, 15, "6,7 5,7 7,7 11,7 8,7 5,5 9,7 5,6");
    ck_assert(!rule_wins_if_played(&b, board_move_at(&b, 10, 7), BLACK, RULE_CARO8));
    ck_assert(rule_wins_if_played(&b, board_move_at(&b, 10, 7), BLACK, RULE_FREESTYLE));
}
END_TEST

START_TEST(test_judge_illegal) {
    static Board b;
    setup_moves(&b, 15, "7,7");
    ck_assert_int_eq(rule_judge(&b, 7, 7, RULE_FREESTYLE), OUTCOME_ILLEGAL);
    ck_assert_int_eq(rule_judge(&b, -1, 7, RULE_FREESTYLE), OUTCOME_ILLEGAL);
    ck_assert_int_eq(rule_judge(&b, 15, 0, RULE_FREESTYLE), OUTCOME_ILLEGAL);
    ck_assert_int_eq(rule_judge(&b, 0, 15, RULE_FREESTYLE), OUTCOME_ILLEGAL);
    ck_assert_int_eq(rule_judge(&b, 14, 14, RULE_FREESTYLE), OUTCOME_NORMAL);
}
END_TEST

START_TEST(test_protocol_rule_values) {
    Rule r;
    bool cont;
    ck_assert(rule_from_protocol(0, &r, &cont) && r == RULE_FREESTYLE && !cont);
    ck_assert(rule_from_protocol(1, &r, &cont) && r == RULE_STANDARD && !cont);
    ck_assert(rule_from_protocol(2, &r, &cont) && r == RULE_RENJU && !cont);
    ck_assert(rule_from_protocol(4, &r, &cont) && r == RULE_RENJU && !cont);
    ck_assert(rule_from_protocol(8, &r, &cont) && r == RULE_CARO8 && !cont);
    ck_assert(rule_from_protocol(9, &r, &cont) && r == RULE_CARO9 && !cont);
    ck_assert(rule_from_protocol(3, &r, &cont) && r == RULE_STANDARD && cont);
    ck_assert(rule_from_protocol(6, &r, &cont) && r == RULE_RENJU && cont);
    ck_assert(!rule_from_protocol(16, &r, &cont));
    ck_assert(!rule_from_protocol(-1, &r, &cont));
    ck_assert(rule_parse("renju", &r) && r == RULE_RENJU);
    ck_assert(rule_parse("CARO", &r) && r == RULE_CARO8);
    ck_assert(rule_parse("9", &r) && r == RULE_CARO9);
    ck_assert(!rule_parse("gomoku", &r));
    for (int i = 0; i < RULE_COUNT; i++) {
        ck_assert(rule_from_protocol(rule_to_protocol((Rule)i), &r, &cont));
        ck_assert_int_eq(r, i);
    }
}
END_TEST

/* Every claim of tests/data/renju, loaded at test time. */
static int check_renju_file(const char *file) {
    Record *recs;
    int n = testdata_load(file, &recs), claims = 0;
    static Board b;
    for (int i = 0; i < n; i++) {
        Record *r = &recs[i];
        ck_assert_int_eq(r->rule, RULE_RENJU);
        ck_assert_msg(record_setup(r, &b), "%s: setup failed", r->source);
        int xs[256], ys[256], k;
        const char *c;
        if ((c = record_claim(r, "forbidden_exact"))) {
            k = record_points(c, xs, ys, 256);
            ck_assert(k >= 0);
            Move got[BOARD_MAX_SIZE * BOARD_MAX_SIZE];
            int g = rule_forbidden_points(&b, RULE_RENJU, got);
            ck_assert_msg(g == k, "%s: %d forbidden points, expected %d", r->source, g, k);
            for (int j = 0; j < k; j++) {
                Move m = board_move_at(&b, xs[j], ys[j]);
                bool found = false;
                for (int t = 0; t < g; t++)
                    found |= got[t] == m;
                ck_assert_msg(found, "%s: %d,%d not found forbidden", r->source, xs[j], ys[j]);
            }
            claims++;
        }
        if ((c = record_claim(r, "forbidden"))) {
            k = record_points(c, xs, ys, 256);
            for (int j = 0; j < k; j++)
                ck_assert_msg(rule_is_forbidden(&b, board_move_at(&b, xs[j], ys[j]), RULE_RENJU),
                              "%s: %d,%d should be forbidden", r->source, xs[j], ys[j]);
            claims++;
        }
        if ((c = record_claim(r, "not_forbidden"))) {
            k = record_points(c, xs, ys, 256);
            for (int j = 0; j < k; j++)
                ck_assert_msg(!rule_is_forbidden(&b, board_move_at(&b, xs[j], ys[j]), RULE_RENJU),
                              "%s: %d,%d should not be forbidden", r->source, xs[j], ys[j]);
            claims++;
        }
    }
    free(recs);
    return claims;
}

START_TEST(test_renju_testdata) {
    int claims = check_renju_file("renju/renju_realcore_BitBoardForbiddenTest.txt");
    claims += check_renju_file("renju/renju_realcore_BoardForbiddenTest.txt");
    ck_assert_int_eq(claims, 32);
}
END_TEST

Suite *suite_rules(void) {
    Suite *s = suite_create("rules");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_freestyle_and_standard);
    tcase_add_test(tc, test_renju_wins);
    tcase_add_test(tc, test_renju_five_beats_forbidden);
    tcase_add_test(tc, test_renju_four_three_allowed);
    tcase_add_test(tc, test_renju_double_three_and_false_three);
    tcase_add_test(tc, test_renju_one_line_double_four);
    tcase_add_test(tc, test_caro);
    tcase_add_test(tc, test_judge_illegal);
    tcase_add_test(tc, test_protocol_rule_values);
    tcase_add_test(tc, test_renju_testdata);
    suite_add_tcase(s, tc);
    return s;
}

/* tests/check_board.c — padded board, play/undo, Zobrist, candidate area. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../brain/board.h"
#include "../brain/rules.h"
#include "testutil.h"

START_TEST(test_init_sizes) {
    static Board b;
    ck_assert(!board_init(&b, 4, 15));
    ck_assert(!board_init(&b, 15, 129));
    ck_assert(board_init(&b, 5, 5));
    ck_assert(board_init(&b, 128, 128));
    ck_assert(board_init(&b, 7, 23));
    ck_assert_int_eq(b.width, 7);
    ck_assert_int_eq(b.height, 23);
    int empty = 0;
    for (int m = 0; m < b.cell_count; m++)
        empty += b.cell[m] == EMPTY;
    ck_assert_int_eq(empty, 7 * 23);
    /* coordinates round-trip and the border is wall all around */
    for (int y = -1; y <= 23; y++)
        for (int x = -1; x <= 7; x++) {
            Move m = board_move_at(&b, x, y);
            ck_assert_int_eq(b.cell[m] == WALL, !board_on(&b, x, y));
            if (board_on(&b, x, y)) {
                ck_assert_int_eq(board_x(&b, m), x);
                ck_assert_int_eq(board_y(&b, m), y);
            }
        }
    ck_assert(board_is_consistent(&b));
}
END_TEST

/* Scans of PAD cells in every direction from every board cell stay inside
 * the array and meet walls beyond the edges. */
START_TEST(test_padding_covers_scans) {
    static Board b;
    int sizes[][2] = {{5, 5}, {15, 15}, {7, 23}, {23, 7}, {128, 128}};
    for (int s = 0; s < 5; s++) {
        ck_assert(board_init(&b, sizes[s][0], sizes[s][1]));
        int dx[4] = {1, 0, 1, -1}, dy[4] = {0, 1, 1, 1};
        for (int y = 0; y < b.height; y++)
            for (int x = 0; x < b.width; x++)
                for (int d = 0; d < 4; d++)
                    for (int k = -BOARD_PAD; k <= BOARD_PAD; k++) {
                        int m = board_move_at(&b, x, y) + k * b.dir[d];
                        ck_assert(m >= 0 && m < b.cell_count);
                        bool on = board_on(&b, x + k * dx[d], y + k * dy[d]);
                        ck_assert_int_eq(b.cell[m] != WALL, on);
                    }
    }
}
END_TEST

static void random_walk(int w, int h, int steps, unsigned long long seed) {
    static Board b;
    ck_assert(board_init(&b, w, h));
    unsigned long long s = seed;
    for (int i = 0; i < steps; i++) {
        bool undo = b.ply > 0 && (test_rand(&s) % 3 == 0 || b.stones == w * h);
        if (undo) {
            board_undo(&b);
        } else if (test_rand(&s) % 16 == 0) {
            board_pass(&b);
        } else {
            /* mostly candidates, sometimes any empty cell */
            Move m;
            if (board_candidate_count(&b) && test_rand(&s) % 4)
                m = board_candidate(&b, test_rand(&s) % (unsigned)board_candidate_count(&b));
            else
                do
                    m = board_move_at(&b, (int)(test_rand(&s) % (unsigned)w),
                                      (int)(test_rand(&s) % (unsigned)h));
                while (b.cell[m] != EMPTY);
            board_play(&b, m);
        }
        ck_assert_msg(board_is_consistent(&b), "%dx%d inconsistent at step %d", w, h, i);
    }
    /* unwind completely: back to the empty board with key 0 */
    while (b.ply)
        board_undo(&b);
    ck_assert(board_is_consistent(&b));
    ck_assert_uint_eq(b.key, 0);
    ck_assert_int_eq(board_candidate_count(&b), 0);
}

START_TEST(test_random_play_undo) {
    random_walk(5, 5, 3000, 1);
    random_walk(15, 15, 3000, 2);
    random_walk(20, 20, 3000, 3);
    random_walk(7, 23, 3000, 4);
    random_walk(128, 128, 400, 5);
}
END_TEST

/* The candidate area is brought up to date only when read: long runs of
 * plays and undos nobody reads, then a read, must give exactly the empty
 * cells within a stone's neighbourhood (found here by scanning the board). */
static void check_candidates_by_scan(const Board *b) {
    int off[64], k = board_neighbourhood(b, off), n;
    const Move *cand = board_candidates(b, &n);
    static bool listed[BOARD_MAX_CELLS];
    memset(listed, 0, sizeof listed);
    for (int i = 0; i < n; i++) {
        ck_assert_msg(b->cell[cand[i]] == EMPTY, "occupied cell %d among the candidates", cand[i]);
        ck_assert_msg(!listed[cand[i]], "cell %d listed twice", cand[i]);
        listed[cand[i]] = true;
    }
    for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++) {
            Move m = board_move_at(b, x, y);
            int near = 0;
            for (int i = 0; i < k; i++) {
                int c = b->cell[m + off[i]];
                near += c == BLACK || c == WHITE;
            }
            ck_assert_int_eq(board_near(b, m), near);
            ck_assert_msg(listed[m] == (b->cell[m] == EMPTY && near > 0), "cell %d,%d: listed %d, near %d",
                          x, y, listed[m], near);
            ck_assert(board_is_candidate(b, m) == listed[m]);
        }
}

START_TEST(test_lazy_candidates) {
    static Board b;
    ck_assert(board_init(&b, 15, 15));
    unsigned long long s = 7;
    for (int i = 0; i < 4000; i++) {
        int op = (int)(test_rand(&s) % 8);
        if (b.ply > 0 && (op < 3 || b.stones > 150)) {
            board_undo(&b);
        } else if (op == 3) {
            board_pass(&b);
        } else {
            /* a random empty cell, found without reading the candidates */
            Move m;
            do
                m = board_move_at(&b, (int)(test_rand(&s) % 15u), (int)(test_rand(&s) % 15u));
            while (b.cell[m] != EMPTY);
            board_play(&b, m);
        }
        if (test_rand(&s) % 23 == 0)
            check_candidates_by_scan(&b);
    }
    while (b.ply)
        board_undo(&b);
    ck_assert_int_eq(board_candidate_count(&b), 0);
}
END_TEST

START_TEST(test_key_is_position_not_path) {
    static Board a, b;
    setup_moves(&a, 15, "7,7 8,8 7,8 8,7");
    setup_moves(&b, 15, "7,8 8,7 7,7 8,8");
    ck_assert_uint_eq(a.key, b.key);
    board_play(&a, board_move_at(&a, 1, 1));
    ck_assert(a.key != b.key);
    board_undo(&a);
    ck_assert_uint_eq(a.key, b.key);
    board_pass(&a); /* side to move is part of the key */
    ck_assert(a.key != b.key);
}
END_TEST

START_TEST(test_candidates_single_stone) {
    static Board b;
    setup_moves(&b, 15, "7,7");
    /* 5x5 square minus centre (24) + 2 cells further on each of 8 rays (16) */
    ck_assert_int_eq(board_candidate_count(&b), 40);
    ck_assert(board_is_candidate(&b, board_move_at(&b, 9, 9)));
    ck_assert(board_is_candidate(&b, board_move_at(&b, 11, 7)));
    ck_assert(board_is_candidate(&b, board_move_at(&b, 3, 11)));
    ck_assert(!board_is_candidate(&b, board_move_at(&b, 10, 8)));
    ck_assert(!board_is_candidate(&b, board_move_at(&b, 7, 7)));
    /* in a corner, only on-board cells */
    setup_moves(&b, 15, "0,0");
    ck_assert_int_eq(board_candidate_count(&b), 8 + 2 + 2 + 2); /* 3x3 square minus the stone, three rays of 2 */
}
END_TEST

/* perft over candidate moves, and a naive twin that finds candidates by
 * scanning the whole board at every node. */
static long perft(Board *b, int depth) {
    if (depth == 0)
        return 1;
    Move moves[BOARD_MAX_CELLS];
    int n;
    const Move *cand = board_candidates(b, &n);
    memcpy(moves, cand, sizeof(Move) * (size_t)n);
    long total = 0;
    for (int i = 0; i < n; i++) {
        board_play(b, moves[i]);
        total += rule_is_win(b, moves[i], RULE_FREESTYLE) ? 1 : perft(b, depth - 1);
        board_undo(b);
    }
    return total;
}

static long perft_naive(Board *b, int depth) {
    if (depth == 0)
        return 1;
    int off[64], n = board_neighbourhood(b, off);
    long total = 0;
    for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++) {
            Move m = board_move_at(b, x, y);
            if (b->cell[m] != EMPTY)
                continue;
            bool near = false;
            for (int i = 0; i < n && !near; i++) {
                int c = b->cell[m - off[i]];
                near = c == BLACK || c == WHITE;
            }
            if (!near)
                continue;
            board_play(b, m);
            total += rule_is_win(b, m, RULE_FREESTYLE) ? 1 : perft_naive(b, depth - 1);
            board_undo(b);
        }
    return total;
}

START_TEST(test_perft) {
    static Board b;
    static const struct {
        int size;
        const char *moves;
        int depth;
        long expected;
    } cases[] = {
        {15, "7,7", 1, 40},
        {15, "7,7", 2, 2464},
        {15, "7,7", 3, 192568},
        {15, "7,7 8,8", 3, 365005},
        {15, "0,0 14,14 0,14", 2, 2328},
        {5, "2,2 1,1", 4, 212520},
        {15, "7,7 8,7 7,8 8,8 7,9 8,9 7,10 8,10", 2, 10757},
        {20, "4,1 5,1 7,2 6,2 6,5 7,4 5,8", 2, 10521},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        setup_moves(&b, cases[i].size, cases[i].moves);
        long n = perft(&b, cases[i].depth);
        ck_assert_int_eq(n, perft_naive(&b, cases[i].depth));
        if (getenv("PERFT_PRINT"))
            printf("perft case %zu: %ld\n", i, n);
        ck_assert_msg(n == cases[i].expected, "case %zu: perft %ld, expected %ld", i, n,
                      cases[i].expected);
        ck_assert(board_is_consistent(&b));
    }
}
END_TEST

Suite *suite_board(void) {
    Suite *s = suite_create("board");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_init_sizes);
    tcase_add_test(tc, test_padding_covers_scans);
    tcase_add_test(tc, test_random_play_undo);
    tcase_add_test(tc, test_lazy_candidates);
    tcase_add_test(tc, test_key_is_position_not_path);
    tcase_add_test(tc, test_candidates_single_stone);
    tcase_add_test(tc, test_perft);
    suite_add_tcase(s, tc);
    return s;
}

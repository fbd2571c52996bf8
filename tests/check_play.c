/* tests/check_play.c — the terminal front end, driven in tmux: keys in,
 * the screen read back with capture-pane. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../tournaments/play.h"
#include "testutil.h"

static void tmux(const char *fmt, ...) {
    char args[2048], cmd[2300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "tmux -L quinto-test %s", args);
    ck_assert_msg(system(cmd) == 0, "failed: %s", cmd);
}

static void pause_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

static char screen[16384];

static const char *capture(void) {
    tmux("capture-pane -t s -p > /tmp/quinto-play-screen.txt");
    FILE *f = fopen("/tmp/quinto-play-screen.txt", "r");
    size_t n = f ? fread(screen, 1, sizeof screen - 1, f) : 0;
    screen[n] = 0;
    if (f)
        fclose(f);
    return screen;
}

/* Wait until the screen shows `text` (up to ms). */
static bool wait_for(const char *text, int ms) {
    for (int t = 0; t < ms; t += 100) {
        if (strstr(capture(), text))
            return true;
        pause_ms(100);
    }
    return false;
}

/* The board row with label `row` (as drawn: "  8  . . X"). */
static const char *board_row(int row) {
    static char line[512];
    char label[16];
    snprintf(label, sizeof label, "\n%3d ", row);
    const char *p = strstr(capture(), label);
    if (!p)
        return "";
    p++;
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n >= sizeof line)
        n = sizeof line - 1;
    memcpy(line, p, n);
    line[n] = 0;
    return line;
}

static int count_char(const char *s, char c) {
    int n = 0;
    for (; *s; s++)
        n += *s == c;
    return n;
}

static int stones_on_board(char c) {
    int n = 0;
    for (int r = 1; r <= 15; r++)
        n += count_char(board_row(r), c);
    return n;
}

static void start(const char *args) {
    const char *mgr = getenv("QUINTO_MANAGER");
    ck_assert(mgr != NULL);
    system("tmux -L quinto-test kill-server 2>/dev/null");
    system("rm -rf /tmp/quinto-play-games");
    tmux("new-session -d -s s -x 80 -y 24 \"%s play %s -save /tmp/quinto-play-games; "
         "echo EXITED; sleep 30\"",
         mgr, args);
    ck_assert_msg(wait_for("Quinto", 5000), "no board:\n%s", screen);
}

static void keys(const char *k) { tmux("send-keys -t s %s", k); }

static void stop(void) { system("tmux -L quinto-test kill-server 2>/dev/null"); }

START_TEST(test_coordinates) {
    int x, y;
    ck_assert(play_parse_coord("h8", 15, 15, &x, &y) && x == 7 && y == 7);
    ck_assert(play_parse_coord("a1", 15, 15, &x, &y) && x == 0 && y == 14);
    ck_assert(play_parse_coord("O15", 15, 15, &x, &y) && x == 14 && y == 0);
    ck_assert(play_parse_coord("7,8", 15, 15, &x, &y) && x == 7 && y == 8);
    ck_assert(!play_parse_coord("p1", 15, 15, &x, &y));
    ck_assert(!play_parse_coord("a16", 15, 15, &x, &y));
    ck_assert(!play_parse_coord("15,0", 15, 15, &x, &y));
    ck_assert(!play_parse_coord("h", 15, 15, &x, &y));
    ck_assert(play_parse_coord("ab3", 40, 40, &x, &y) && x == 27 && y == 37);
    char buf[16];
    play_coord_name(7, 7, 15, 15, buf, sizeof buf);
    ck_assert_str_eq(buf, "h8");
    play_coord_name(27, 37, 40, 40, buf, sizeof buf);
    ck_assert_str_eq(buf, "ab3");
}
END_TEST

START_TEST(test_play_against_brain) {
    start("-tc 300 -rule freestyle -size 15 -human black");
    const char *s = capture();
    ck_assert_msg(strstr(s, "a b c d e f g h i j k l m n o"), "%s", s);
    ck_assert(strstr(s, " 15 ") && strstr(s, "  1 "));
    ck_assert(strstr(s, "X black to move"));
    ck_assert(strstr(s, "d hint") && strstr(s, "q quit"));
    /* the cursor starts in the centre: Enter plays h8 */
    keys("Enter");
    ck_assert_msg(wait_for("O white", 3000) || wait_for("X black to move", 3000), "%s", screen);
    ck_assert_msg(wait_for("[O]", 5000), "no answer from the brain:\n%s", screen);
    ck_assert_int_eq(stones_on_board('X'), 1);
    ck_assert_int_eq(stones_on_board('O'), 1);
    ck_assert_msg(strstr(board_row(8), "X"), "h8 row: %s", board_row(8));
    ck_assert_msg(strstr(capture(), "Quinto: depth"), "no MESSAGE shown:\n%s", screen);
    /* typed coordinate: a1 */
    keys(": a 1 Enter");
    ck_assert_msg(wait_for("X black to move", 5000), "%s", screen);
    pause_ms(300);
    ck_assert_int_eq(stones_on_board('X'), 2);
    ck_assert_msg(board_row(1)[5] == 'X' || strstr(board_row(1), "X"), "a1: %s", board_row(1));
    /* hint */
    keys("d");
    ck_assert_msg(wait_for("hint:", 5000), "no hint:\n%s", screen);
    ck_assert(count_char(capture(), '?') >= 1);
    /* weight map: numbers on empty cells */
    keys("t");
    ck_assert_msg(wait_for("weight map on", 2000), "%s", screen);
    int digits = 0;
    for (int r = 1; r <= 15; r++)
        for (const char *p = board_row(r) + 4; *p; p++)
            digits += *p >= '0' && *p <= '9';
    ck_assert_msg(digits > 20, "no weights:\n%s", screen);
    keys("t");
    /* undo: back to the position before our last move */
    keys("u");
    ck_assert_msg(wait_for("took back 2 moves", 2000), "%s", screen);
    ck_assert_int_eq(stones_on_board('X'), 1);
    ck_assert_int_eq(stones_on_board('O'), 1);
    /* the brain keeps playing correctly after the takeback */
    keys(": a 1 Enter");
    pause_ms(200);
    ck_assert_msg(wait_for("X black to move", 5000), "%s", screen);
    ck_assert_int_eq(stones_on_board('O'), 2);
    keys("q");
    ck_assert_msg(wait_for("EXITED", 3000), "%s", screen);
    stop();
}
END_TEST

START_TEST(test_game_end_and_save) {
    start("-human both -rule freestyle -size 15");
    const char *moves[] = {"a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2", "e1"};
    for (int i = 0; i < 9; i++) {
        char k[64];
        snprintf(k, sizeof k, ": %c %c Enter", moves[i][0], moves[i][1]);
        keys(k);
        pause_ms(60);
    }
    ck_assert_msg(wait_for("black wins with five (e1)", 3000), "%s", screen);
    ck_assert_msg(strstr(capture(), "saved /tmp/quinto-play-games/"), "%s", screen);
    /* the winning line is marked: doubled letters */
    ck_assert_msg(strstr(board_row(1), "Xx"), "row 1: %s", board_row(1));
    keys("q");
    ck_assert_msg(wait_for("game saved as", 3000), "%s", screen);
    ck_assert(system("ls /tmp/quinto-play-games/*.psq > /dev/null") == 0);
    stop();
}
END_TEST

START_TEST(test_renju_forbidden_marked_and_interrupt) {
    start("-human both -rule renju -size 15");
    /* black h8, white a1, black j8, white a3, black h10, white a5, black h9?
     * no: set up a double three at i9 is simpler: black h8 j8 h10 j10 */
    const char *moves[] = {"h8", "a1", "j8", "a3", "h10", "a5", "j10", "a7"};
    for (int i = 0; i < 8; i++) {
        char k[64];
        snprintf(k, sizeof k, ": %s Enter", moves[i]);
        keys(k);
        pause_ms(60);
    }
    ck_assert_msg(wait_for("X black to move", 2000), "%s", screen);
    /* i9 makes two threes (h8-i9-j10 and j8-i9-h10): forbidden, marked f */
    ck_assert_msg(strstr(board_row(9), "f"), "row 9: %s\n%s", board_row(9), screen);
    keys(": i 9 Enter");
    ck_assert_msg(wait_for("forbidden for black", 2000), "%s", screen);
    /* Ctrl-C leaves cleanly: the program exits and the shell line follows */
    keys("C-c");
    ck_assert_msg(wait_for("EXITED", 3000), "%s", screen);
    ck_assert(!strstr(capture(), "a b c d e f")); /* back on the normal screen */
    stop();
}
END_TEST

Suite *suite_play(void) {
    Suite *s = suite_create("play");
    TCase *tc = tcase_create("tmux");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_coordinates);
    tcase_add_test(tc, test_play_against_brain);
    tcase_add_test(tc, test_game_end_and_save);
    tcase_add_test(tc, test_renju_forbidden_marked_and_interrupt);
    suite_add_tcase(s, tc);
    return s;
}

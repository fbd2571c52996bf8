/* tests/check_play.c — the terminal front end, driven in tmux: keys in,
 * the screen read back with capture-pane. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../brain/util.h"
#include "../protocol/codec.h"
#include "../tournaments/play.h"
#include "testutil.h"

/* This test process's own tmux server: two test runs at once on one machine
 * must not kill each other's sessions. */
static const char *socket_name(void) {
    static char name[64];
    if (!name[0])
        snprintf(name, sizeof name, "quinto-test-%ld", (long)getpid());
    return name;
}

static void tmux(const char *fmt, ...) {
    char args[2048], cmd[2300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "tmux -L %s %s", socket_name(), args);
    ck_assert_msg(system(cmd) == 0, "failed: %s", cmd);
}

/* This process's own files: the captured screen and the saved games. */
static const char *own_path(const char *what) {
    static char buf[4][128];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "/tmp/%s-%s", socket_name(), what);
    return buf[k];
}

static void kill_server(void) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "tmux -L %s kill-server 2>/dev/null", socket_name());
    if (system(cmd)) {
        /* no server: nothing to kill */
    }
}

static void pause_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

static char screen[16384];

static const char *capture(void) {
    tmux("capture-pane -t s -p > %s", own_path("screen.txt"));
    read_text_file(own_path("screen.txt"), screen, sizeof screen);
    return screen;
}

/* Wait until the screen shows `text`: up to ms, but never less than 10 s,
 * stretched by QUINTO_TEST_SLACK (the sanitizer builds). A wait ends as soon
 * as the text shows, so a generous limit costs nothing when all is well,
 * while a loaded machine can stall a starting process for seconds (CI once
 * saw a blank pane after 5 s of a sanitized manager's start). */
static bool wait_for(const char *text, int ms) {
    long long until = now_ms() + wait_ms(ms < 10000 ? 10000 : ms);
    for (;;) {
        if (strstr(capture(), text))
            return true;
        if (now_ms() >= until)
            return false;
        pause_ms(100);
    }
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
    kill_server();
    char rm[256];
    snprintf(rm, sizeof rm, "rm -rf %s", own_path("games"));
    ck_assert_int_eq(system(rm), 0);
    tmux("new-session -d -s s -x 80 -y 24 \"%s play %s -save %s; "
         "echo EXITED; sleep 30\"",
         mgr, args, own_path("games"));
    ck_assert_msg(wait_for("Quinto", 20000), "no board:\n%s", screen);
}

static void keys(const char *k) { tmux("send-keys -t s %s", k); }

static void stop(void) { kill_server(); }

/* Every board row of the screen has the same width: `width` columns, or one
 * more only for the closing ']' of a last move in the last column (capture-
 * pane drops trailing spaces). Returns the number of board rows seen. */
static int check_row_widths(const char *s, int width) {
    int rows = 0;
    for (const char *line = s; *line;) {
        const char *e = strchr(line, '\n');
        int n = e ? (int)(e - line) : (int)strlen(line);
        /* a board row: a row number in its first four columns, then cells */
        if (n > 5 && line[3] != '(' && line[2] >= '0' && line[2] <= '9' &&
            (line[4] == ' ' || line[4] == '[')) {
            while (n > 0 && line[n - 1] == ' ')
                n--;
            bool closing = line[n - 1] == ']';
            ck_assert_msg(n == width || (closing && n == width + 1), "row of %d columns, not %d:\n%.*s\n%s", n,
                          width, n, line, s);
            rows++;
        }
        line = e ? e + 1 : line + n;
    }
    return rows;
}

/* Large boards in 80x24: the view opens centred, shows where the board goes
 * on, keeps every row one width with the last move's brackets, and labels
 * every column readably (two rows of letters past z, three of digits past 99). */
START_TEST(test_large_boards) {
    start("-human both -size 40");
    const char *s = capture();
    ck_assert_msg(strstr(s, " 20 ") && strstr(s, "  <  ") && strstr(s, ">\n"), "%s", s);
    ck_assert_msg(strstr(s, "^ .") && strstr(s, "v ."), "no edge markers:\n%s", s);
    ck_assert_msg(strstr(s, "cursor u20"), "%s", s);
    keys("Enter");
    ck_assert_msg(wait_for("[X]", 3000), "%s", screen);
    /* 37 cells of 2 columns after a 4-column row label */
    ck_assert_int_eq(check_row_widths(capture(), 4 + 2 * 37), 16);
    /* the letters past z: a second label row holds the second letter */
    ck_assert_msg(strstr(screen, " a a a a"), "%s", screen);
    keys("Right");
    keys("Enter");
    ck_assert_msg(wait_for("[O]", 3000), "%s", screen);
    check_row_widths(capture(), 4 + 2 * 37);
    /* x,y mode: numbers one per column, over two rows from 10 on */
    keys("c");
    ck_assert_msg(wait_for("cursor (21,20)", 3000), "%s", screen);
    ck_assert_msg(!strstr(screen, "cursor v20"), "%s", screen);
    ck_assert_msg(strstr(screen, " 1 1 1 1") && strstr(screen, " 0 1 2 3"), "%s", screen);
    stop();
    start("-human both -size 128");
    ck_assert_msg(strstr(capture(), " 64 ") && strstr(screen, "cursor bm64"), "%s", screen);
    keys("Enter");
    ck_assert_msg(wait_for("[X]", 3000), "%s", screen);
    ck_assert_int_eq(check_row_widths(capture(), 4 + 2 * 37), 16);
    keys("c");
    ck_assert_msg(wait_for("cursor (64,64)", 3000), "%s", screen);
    check_row_widths(capture(), 4 + 2 * 37);
    stop();
}
END_TEST

/* The small things of issue 17 item 10: the key help fits the mode and the
 * board, 'd' while a brain thinks says why nothing happens, and a new game
 * clears the old brain line. */
START_TEST(test_help_and_hints) {
    start("-human black -size 5 -tc 3000");
    ck_assert_msg(strstr(capture(), ":c3 d hint"), "%s", screen);
    keys("Enter");
    ck_assert_msg(wait_for("thinking", 3000), "%s", screen);
    keys("d");
    ck_assert_msg(wait_for("ask for a hint when it is your move", 3000), "%s", screen);
    ck_assert_msg(wait_for("X black to move", 8000), "%s", screen);
    ck_assert_msg(wait_for("Quinto: depth", 3000), "no brain line:\n%s", screen);
    keys("n");
    ck_assert_msg(wait_for("new game", 3000), "%s", screen);
    ck_assert_msg(!strstr(capture(), "Quinto: depth"), "the old brain line stayed:\n%s", screen);
    stop();
    start("-human none -tc 100 -size 15");
    ck_assert_msg(strstr(capture(), "watching:") && !strstr(screen, ":h8"), "%s", screen);
    stop();
}
END_TEST

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
    /* both notations everywhere, a space after the comma, any case */
    ck_assert(play_parse_coord("7, 9", 15, 15, &x, &y) && x == 7 && y == 9);
    ck_assert(play_parse_coord("H8", 15, 15, &x, &y) && x == 7 && y == 7);
    ck_assert(!play_parse_coord("h0", 15, 15, &x, &y));
    char line[128];
    codec_pv_names("depth 6-14 ev 205 n 64132 tm 154 search pv 7,7 8,8 junk", 15, line, sizeof line);
    ck_assert_str_eq(line, "depth 6-14 ev 205 n 64132 tm 154 search pv h8 i7 junk");
    codec_pv_names("depth 1 ev 0 book 7,7", 15, line, sizeof line);
    ck_assert_str_eq(line, "depth 1 ev 0 book 7,7");
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
    char saved[160];
    snprintf(saved, sizeof saved, "game saved as %s/", own_path("games"));
    ck_assert_msg(strstr(capture(), saved), "%s", screen);
    /* the winning line is marked: doubled letters */
    ck_assert_msg(strstr(board_row(1), "Xx"), "row 1: %s", board_row(1));
    /* saved once: s says where it already is */
    keys("s");
    ck_assert_msg(wait_for("already saved as", 3000), "%s", screen);
    keys("q");
    ck_assert_msg(wait_for("game saved as", 3000), "%s", screen);
    /* one file, with the time of every move (the keys came 60 ms apart) */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "ls %s/*.psq | wc -l > %s", own_path("games"), own_path("count"));
    ck_assert(system(cmd) == 0);
    FILE *f = fopen(own_path("count"), "r");
    int files = 0;
    ck_assert(f && fscanf(f, "%d", &files) == 1);
    fclose(f);
    ck_assert_int_eq(files, 1);
    snprintf(cmd, sizeof cmd, "cat %s/*.psq > %s", own_path("games"), own_path("psq"));
    ck_assert(system(cmd) == 0);
    f = fopen(own_path("psq"), "r");
    char line[128];
    int recorded = 0, timed = 0, x, y, ms;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "%d,%d,%d", &x, &y, &ms) == 3)
            recorded++, timed += ms > 0;
    fclose(f);
    ck_assert_int_eq(recorded, 9);
    ck_assert_msg(timed >= 8, "%d of 9 moves have a time", timed);
    stop();
    /* quitting while the brain thinks keeps the unfinished game */
    start("-tc 20000 -human black");
    keys("Enter");
    ck_assert_msg(wait_for("thinking", 5000), "%s", screen);
    keys("q");
    ck_assert_msg(wait_for("unfinished game saved as", 5000), "%s", screen);
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
    tcase_add_test(tc, test_large_boards);
    tcase_add_test(tc, test_help_and_hints);
    tcase_add_test(tc, test_play_against_brain);
    tcase_add_test(tc, test_game_end_and_save);
    tcase_add_test(tc, test_renju_forbidden_marked_and_interrupt);
    suite_add_tcase(s, tc);
    return s;
}

/* tournaments/analysis.c */
#include "analysis.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../brain/util.h"
#include "../protocol/codec.h"
#include "process.h"
#include "records.h"

enum { MATE = 30000, PLOT_CLAMP = 2000, PLOT_ROWS = 17, PLOT_COLS = 100 };

/* ---- reading games ---- */

static bool add_move(Record *r, int x, int y, char *err, size_t cap) {
    if (x < 0 || y < 0 || x >= r->width || y >= r->height) {
        snprintf(err, cap, "move %d,%d is off the %dx%d board", x, y, r->width, r->height);
        return false;
    }
    for (int i = 0; i < r->count; i++)
        if (r->x[i] == x && r->y[i] == y) {
            snprintf(err, cap, "two stones on %d,%d (moves %d and %d)", x, y, i + 1, r->count + 1);
            return false;
        }
    if (r->count >= RECORD_MAX_MOVES) {
        snprintf(err, cap, "more than %d moves", RECORD_MAX_MOVES);
        return false;
    }
    r->x[r->count] = (short)x;
    r->y[r->count] = (short)y;
    r->count++;
    return true;
}

static bool size_ok(int w, int h) {
    return w >= BOARD_MIN_SIZE && h >= BOARD_MIN_SIZE && w <= BOARD_MAX_SIZE && h <= BOARD_MAX_SIZE;
}

static bool parse_psq(const char *p, Record *r, char *err, size_t cap) {
    int w, h;
    if (sscanf(p, "Piskvorky %dx%d", &w, &h) != 2 || !size_ok(w, h)) {
        snprintf(err, cap, "a .psq must start with \"Piskvorky WxH\"");
        return false;
    }
    r->width = w, r->height = h;
    for (const char *line = strchr(p, '\n'); line; line = strchr(line, '\n')) {
        line++;
        int x, y, ms, used = 0;
        if (sscanf(line, "%d,%d,%d%n", &x, &y, &ms, &used) != 3)
            break; /* the players' names follow the moves */
        if (!add_move(r, x - 1, y - 1, err, cap))
            return false;
    }
    return true;
}

static int sgf_value(char c) {
    return c >= 'a' && c <= 'z' ? c - 'a' : c >= 'A' && c <= 'Z' ? c - 'A' + 26 : -1;
}

static bool parse_sgf(const char *p, Record *r, char *err, size_t cap) {
    const char *sz = strstr(p, "SZ[");
    if (sz) {
        int w, h;
        int k = sscanf(sz + 3, "%d:%d", &w, &h);
        if (k == 1)
            h = w;
        if (k < 1 || !size_ok(w, h)) {
            snprintf(err, cap, "bad SZ in the SGF");
            return false;
        }
        r->width = w, r->height = h;
    }
    const char *ru = strstr(p, "RU[");
    if (ru) {
        char name[32];
        if (sscanf(ru + 3, "%31[^]]", name) == 1 && !rule_parse(name, &r->rule)) {
            snprintf(err, cap, "unknown rule '%s' in the SGF", name);
            return false;
        }
    }
    int expect = 'B';
    for (const char *q = p; (q = strchr(q, ';')); q++) {
        if ((q[1] != 'B' && q[1] != 'W') || q[2] != '[')
            continue;
        if (q[1] != expect) {
            snprintf(err, cap, "move %d is %c's, %c was to move", r->count + 1, q[1], expect);
            return false;
        }
        /* each character looked at only when the one before it is there */
        int x = sgf_value(q[3]), y = x < 0 ? -1 : sgf_value(q[4]);
        if (x < 0 || y < 0 || q[5] != ']') {
            snprintf(err, cap, "bad SGF move %.6s", q + 1);
            return false;
        }
        if (!add_move(r, x, y, err, cap))
            return false;
        expect = expect == 'B' ? 'W' : 'B';
    }
    return true;
}

static bool parse_results(const char *p, int number, Record *r, char *err, size_t cap) {
    for (const char *line = p; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        if (!isdigit((unsigned char)*line))
            continue; /* the header */
        if (number > 0 && atoi(line) != number)
            continue;
        static char moves[RECORD_MAX_MOVES * 9];
        if (!record_results_field(line, 7, moves, sizeof moves)) {
            snprintf(err, cap, "game %d: not a -results line (no moves field)", atoi(line));
            return false;
        }
        for (char *save = NULL, *m = strtok_r(moves, ";", &save); m; m = strtok_r(NULL, ";", &save)) {
            int x, y;
            if (!codec_parse_xy(m, &x, &y)) {
                snprintf(err, cap, "game %d: bad move '%.20s'", atoi(line), m);
                return false;
            }
            if (!add_move(r, x, y, err, cap))
                return false;
        }
        return true;
    }
    if (number > 0)
        snprintf(err, cap, "no game %d in the results", number);
    else
        snprintf(err, cap, "no game in the results");
    return false;
}

bool review_parse_game(const char *text, int number, int width, int height, Rule rule, Record *out,
                       char *err, size_t errcap) {
    memset(out, 0, sizeof *out);
    out->rule = rule;
    out->width = width;
    out->height = height;
    err[0] = 0;
    const char *p = text;
    while (isspace((unsigned char)*p))
        p++;
    bool ok;
    if (!strncmp(p, "Piskvorky", 9))
        ok = parse_psq(p, out, err, errcap);
    else if (p[0] == '(' && strchr(p, ';'))
        ok = parse_sgf(p, out, err, errcap);
    else if (!strncmp(p, "game\t", 5) || (isdigit((unsigned char)*p) && strchr(p, '\t')))
        ok = parse_results(p, number, out, err, errcap);
    else {
        char line[8192];
        size_t n = strcspn(p, "\n");
        if (n >= sizeof line)
            n = sizeof line - 1;
        memcpy(line, p, n);
        line[n] = 0;
        ok = record_parse(line, out, err, errcap);
        if (!ok && !err[0])
            snprintf(err, errcap, "no game found");
        for (int i = 0; ok && i < out->count; i++)
            if (out->x[i] < 0) {
                snprintf(err, errcap, "a game with passes cannot be reviewed");
                ok = false;
            }
    }
    if (ok && out->count == 0) {
        snprintf(err, errcap, "the game has no moves");
        ok = false;
    }
    return ok;
}

bool review_parse_score(const char *s, int *score) {
    int sign = 1;
    if (*s == '+' || *s == '-') {
        sign = *s == '-' ? -1 : 1;
        s++;
    }
    char *end;
    if (*s == 'M' || *s == 'm') {
        long plies = strtol(s + 1, &end, 10);
        if (end == s + 1 || plies < 0 || plies > 10000)
            return false;
        *score = sign * (MATE - (int)plies);
        return true;
    }
    long v = strtol(s, &end, 10);
    if (end == s || v > MATE || v < -MATE)
        return false;
    *score = sign * (int)v;
    return true;
}

/* ---- asking the judge ---- */

typedef struct {
    bool known;
    int score;   /* side to move's view */
    int x, y;    /* the judge's move, -1 if none */
} Verdict;

/* The next parsed line from the brain before the deadline (ms, now_ms()
 * clock); false on silence until then or its exit. */
static bool next_reply(Child *c, int64_t deadline, Reply *rep) {
    for (;;) {
        char err[128];
        int64_t left = deadline - now_ms();
        int r = child_read(c, left > 0 ? (int)left : 0, err, sizeof err);
        if (r == LR_BAD)
            continue;
        if (r != LR_LINE)
            return false;
        codec_parse_reply(child_line(c), rep);
        return true;
    }
}

/* Read replies until one that is not MESSAGE/DEBUG: its text in out, the
 * last score a MESSAGE gave ("... ev SCORE ...") in *score (*known). False if
 * the brain fails (silence past wait_ms, exit). */
static bool read_answer(Child *c, int64_t wait_ms, char *out, size_t cap, int *score, bool *known) {
    int64_t deadline = now_ms() + wait_ms;
    *known = false;
    Reply rep;
    while (next_reply(c, deadline, &rep)) {
        if (rep.kind == REPLY_ABOUT)
            continue; /* a late answer to settle()'s ABOUT */
        if (rep.kind == REPLY_MESSAGE || rep.kind == REPLY_DEBUG) {
            const char *ev = strstr(rep.text, " ev ");
            if (!ev && !strncmp(rep.text, "ev ", 3))
                ev = rep.text - 1;
            int s;
            if (ev && review_parse_score(ev + 4, &s))
                *score = s, *known = true;
            continue;
        }
        snprintf(out, cap, "%.200s", child_line(c));
        return true;
    }
    return false;
}

/* Wait until the brain reads commands again after an answer: some (Rapfi)
 * drop what arrives while they still count themselves thinking, just after
 * printing their move, so the next BOARD would be lost in part. ABOUT until
 * one is answered (about 10 s at most); a late answer is skipped by
 * read_answer. */
static void settle(Child *c) {
    for (int i = 0; i < 200; i++) {
        child_send(c, "ABOUT");
        int64_t deadline = now_ms() + 50;
        Reply rep;
        while (next_reply(c, deadline, &rep))
            if (rep.kind == REPLY_ABOUT)
                return;
    }
}

static bool ask(Child *c, const Record *g, int stones, int64_t turn_ms, Verdict *v) {
    v->known = false;
    v->score = 0;
    v->x = v->y = -1;
    int side = stones % 2; /* 0: black to move */
    child_send(c, "BOARD");
    for (int i = 0; i < stones; i++)
        child_send(c, "%d,%d,%d", g->x[i], g->y[i], i % 2 == side ? 1 : 2);
    child_send(c, "DONE");
    char line[256];
    if (!read_answer(c, turn_ms + 10000, line, sizeof line, &v->score, &v->known))
        return false;
    Reply rep;
    codec_parse_reply(line, &rep);
    if (rep.kind == REPLY_MOVE)
        v->x = rep.x, v->y = rep.y;
    settle(c);
    /* an ERROR (a finished game, say) is an answer too: no verdict */
    return rep.kind == REPLY_MOVE || rep.kind == REPLY_ERROR;
}

/* ---- the report ---- */

static void score_text(int v, bool known, char *buf, int cap) {
    if (!known)
        snprintf(buf, (size_t)cap, "?");
    else if (v >= MATE - 1000)
        snprintf(buf, (size_t)cap, "+M%d", MATE - v);
    else if (v <= -(MATE - 1000))
        snprintf(buf, (size_t)cap, "-M%d", MATE + v);
    else
        snprintf(buf, (size_t)cap, "%+d", v);
}

static int clamp_plot(int v) { return v > PLOT_CLAMP ? PLOT_CLAMP : v < -PLOT_CLAMP ? -PLOT_CLAMP : v; }

static void plot(FILE *o, const int *bv, const bool *known, int n) {
    int step = (n + PLOT_COLS - 1) / PLOT_COLS, cols = (n + step - 1) / step;
    fprintf(o, "\nEvaluation over the game (black's view, clipped at +-%d; a column per %d move%s):\n",
            PLOT_CLAMP, step, step == 1 ? "" : "s");
    for (int row = 0; row < PLOT_ROWS; row++) {
        int hi = PLOT_CLAMP - row * (2 * PLOT_CLAMP) / (PLOT_ROWS - 1);
        int half = PLOT_CLAMP / (PLOT_ROWS - 1);
        char label[16] = "";
        if (row == 0 || row == PLOT_ROWS / 2 || row == PLOT_ROWS - 1)
            snprintf(label, sizeof label, "%+d", hi);
        fprintf(o, "%7s |", label);
        for (int c = 0; c < cols; c++) {
            int i = c * step + step - 1 < n ? c * step + step - 1 : n - 1;
            char ch = row == PLOT_ROWS / 2 ? '-' : ' ';
            if (known[i]) {
                int v = clamp_plot(bv[i]);
                if (v <= hi + half && v > hi - half)
                    ch = '*';
                else if (row == 0 && v > hi)
                    ch = '*';
            }
            fputc(ch, o);
        }
        fputc('\n', o);
    }
    fprintf(o, "%7s +", "");
    for (int c = 0; c < cols; c++)
        fputc((c * step + step) % 10 == 0 ? '+' : '-', o);
    fprintf(o, "\n%7s  ", "");
    for (int c = 0; c < cols; c++) {
        int mv = c * step + step;
        if (mv % 10 == 0 && c + 3 < cols) {
            int k = fprintf(o, "%d", mv);
            c += k - 1;
        } else
            fputc(' ', o);
    }
    fprintf(o, "  (move)\n");
}

/* Start a brain for analysis: START (or RECTSTART) answered OK, then the
 * rule, the time and the engine's options. False with a message on stderr. */
static bool brain_open(Child *c, const EngineSpec *e, int w, int h, Rule rule, int64_t turn_ms,
                       const char *who) {
    char err[512];
    if (!child_spawn(c, e->cmd, e->dir[0] ? e->dir : NULL, NULL, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", who, err);
        return false;
    }
    if (w == h)
        child_send(c, "START %d", w);
    else
        child_send(c, "RECTSTART %d,%d", w, h);
    for (;;) {
        int r = child_read(c, 30000, err, sizeof err);
        if (r != LR_LINE) {
            fprintf(stderr, "%s: %s did not answer START\n", who, e->name);
            child_free(c);
            return false;
        }
        Reply rep;
        codec_parse_reply(child_line(c), &rep);
        if (rep.kind == REPLY_OK)
            break;
        if (rep.kind != REPLY_MESSAGE && rep.kind != REPLY_DEBUG) {
            fprintf(stderr, "%s: %s answered START with '%.100s'\n", who, e->name, child_line(c));
            child_free(c);
            return false;
        }
    }
    child_send(c, "INFO rule %d", rule_to_protocol(rule));
    child_send(c, "INFO timeout_turn %lld", (long long)turn_ms);
    child_send(c, "INFO timeout_match 0");
    child_send(c, "INFO game_type 1");
    child_send(c, "INFO random 0"); /* Quinto: the best move, not a near-best one (others ignore it) */
    for (int i = 0; i < e->option_count; i++)
        child_send(c, "INFO %s %s", e->option_key[i], e->option_value[i]);
    return true;
}

static void brain_close(Child *c) {
    child_send(c, "END");
    child_stop(c, 1000);
    child_free(c);
}

int review_run(const ReviewConfig *cfg, const Record *g) {
    FILE *o = cfg->out;
    Child c;
    const EngineSpec *e = &cfg->judge;
    if (!brain_open(&c, e, g->width, g->height, g->rule, cfg->turn_ms, "review"))
        return 1;

    int n = g->count;
    /* bv[i]: the position before move i (i stones), black's view; i = n: the end */
    int *bv = calloc((size_t)n + 1, sizeof *bv);
    bool *known = calloc((size_t)n + 1, sizeof *known);
    int *jx = malloc(sizeof(int) * ((size_t)n + 1)), *jy = malloc(sizeof(int) * ((size_t)n + 1));
    if (!bv || !known || !jx || !jy) {
        fprintf(stderr, "review: out of memory\n");
        brain_close(&c);
        free(bv), free(known), free(jx), free(jy);
        return 1;
    }
    static Board b;
    board_init(&b, g->width, g->height);
    bool five = false;
    for (int i = 0; i < n; i++) {
        Move m = board_move_at(&b, g->x[i], g->y[i]);
        board_play(&b, m);
        if (i == n - 1)
            five = rule_is_win(&b, m, g->rule);
    }
    fprintf(o, "Review: %s %dx%d, %d moves; judge %s, %lld ms a position\n", rule_name(g->rule),
            g->width, g->height, n, e->name, (long long)cfg->turn_ms);
    int failed = 0;
    for (int i = 1; i <= n; i++) {
        jx[i] = jy[i] = -1;
        if (i == n && five) { /* the last move made five: the mover won */
            known[i] = true;
            bv[i] = (n - 1) % 2 == 0 ? MATE : -MATE;
            continue;
        }
        if (i == g->width * g->height)
            continue;
        Verdict v;
        if (!ask(&c, g, i, cfg->turn_ms, &v)) {
            fprintf(stderr, "review: %s gave no move for the position after move %d\n", e->name, i);
            failed = 1;
            break;
        }
        known[i] = v.known;
        bv[i] = i % 2 == 0 ? v.score : -v.score;
        jx[i] = v.x, jy[i] = v.y;
        if (o == stdout && isatty(1))
            fprintf(stderr, "\rreview: position %d/%d", i, n);
    }
    if (o == stdout && isatty(1))
        fprintf(stderr, "\r%30s\r", "");
    brain_close(&c);

    fprintf(o, "(scores: black's view, +1000 ~ 65%% expected score, +M7: a five in 7 plies)\n\n");
    fprintf(o, "%5s %-5s %-6s %8s %8s %8s  %s\n", "move", "cell", "by", "before", "after",
            "change", "judge's choice");
    int mistake[3] = {0, 0, 0}; /* per colour: the move number of the first decisive mistake */
    for (int i = 0; i < n; i++) {
        int colour = i % 2 == 0 ? BLACK : WHITE, sign = colour == BLACK ? 1 : -1;
        char cell[8], before[16], after[16], change[16] = "", pref[24] = "";
        codec_cell_name(g->x[i], g->y[i], g->height, cell, sizeof cell);
        score_text(bv[i], i > 0 && known[i], before, sizeof before);
        score_text(bv[i + 1], known[i + 1], after, sizeof after);
        if (i > 0 && known[i] && known[i + 1]) {
            int drop = sign * (bv[i] - bv[i + 1]); /* what the mover lost */
            int now = sign * bv[i + 1], was = sign * bv[i];
            snprintf(change, sizeof change, "%+d", -drop);
            if (abs(bv[i]) >= MATE - 1000 || abs(bv[i + 1]) >= MATE - 1000)
                snprintf(change, sizeof change, "%s", now < was ? "worse" : now > was ? "better" : "=");
            /* a move the judge itself chose is no mistake, however its
             * score moved between two searches */
            bool chosen = jx[i] == g->x[i] && jy[i] == g->y[i];
            bool decisive = !chosen && ((drop >= cfg->threshold && now < cfg->threshold) ||
                                        (now <= -(MATE - 1000) && was > -(MATE - 1000)));
            if (decisive && !mistake[colour])
                mistake[colour] = i + 1;
        }
        if (i > 0 && jx[i] >= 0 && (jx[i] != g->x[i] || jy[i] != g->y[i])) {
            char jc[8];
            codec_cell_name(jx[i], jy[i], g->height, jc, sizeof jc);
            snprintf(pref, sizeof pref, "%s", jc);
        }
        fprintf(o, "%5d %-5s %-6s %8s %8s %8s  %s%s\n", i + 1, cell, colour == BLACK ? "black" : "white",
                before, after, change, pref, mistake[colour] == i + 1 ? "   <- decisive mistake" : "");
    }
    fprintf(o, "\nFirst decisive mistake (a fall of %d or more for the mover, or into a forced loss):\n",
            cfg->threshold);
    for (int colour = BLACK; colour <= WHITE; colour++) {
        int k = mistake[colour];
        if (!k) {
            fprintf(o, "  %s: none\n", colour == BLACK ? "black" : "white");
            continue;
        }
        int i = k - 1;
        char cell[8], before[16], after[16], jc[8] = "?";
        codec_cell_name(g->x[i], g->y[i], g->height, cell, sizeof cell);
        score_text(bv[i], true, before, sizeof before);
        score_text(bv[i + 1], true, after, sizeof after);
        if (jx[i] >= 0)
            codec_cell_name(jx[i], jy[i], g->height, jc, sizeof jc);
        fprintf(o, "  %s: move %d %s, %s -> %s; the judge preferred %s\n",
                colour == BLACK ? "black" : "white", k, cell, before, after, jc);
    }
    plot(o, bv + 1, known + 1, n);
    free(bv), free(known), free(jx), free(jy);
    return failed;
}

/* ---- balanced openings ---- */

int balance_openings_run(const BalanceConfig *cfg) {
    Child c;
    if (!brain_open(&c, &cfg->brain, cfg->width, cfg->height, cfg->rule, cfg->turn_ms, "openings"))
        return 1;
    uint64_t rng = cfg->seed;
    int made = 0, tries = 0, hist[5] = {0};
    int cx = cfg->width / 2, cy = cfg->height / 2;
    static short seen[1024][6];
    while (made < cfg->count && tries < cfg->count * 5) {
        tries++;
        /* the first stone within two cells of the centre (renju: on it) */
        int x0 = cx, y0 = cy;
        if (cfg->rule != RULE_RENJU) {
            x0 += (int)(splitmix64(&rng) % 5) - 2;
            y0 += (int)(splitmix64(&rng) % 5) - 2;
        }
        child_send(&c, "INFO max_depth 100"); /* no cap */
        child_send(&c, "INFO timeout_turn %lld", (long long)cfg->turn_ms);
        child_send(&c, "YXBOARD\n%d,%d,2\nDONE", x0, y0);
        child_send(&c, "YXBALANCETWO 0");
        char line[256];
        int score;
        bool known;
        Reply rep;
        if (!read_answer(&c, cfg->turn_ms * 2 + 10000, line, sizeof line, &score, &known) ||
            (codec_parse_reply(line, &rep), rep.kind != REPLY_MOVES || rep.count != 2)) {
            fprintf(stderr, "openings: %s did not answer YXBALANCETWO with two moves ('%s')\n",
                    cfg->brain.name, child_line(&c));
            brain_close(&c);
            return 1;
        }
        settle(&c);
        int xs[3] = {x0, rep.xs[0], rep.xs[1]}, ys[3] = {y0, rep.ys[0], rep.ys[1]};
        bool dup = false;
        for (int k = 0; k < made && k < 1024 && !dup; k++)
            dup = seen[k][0] == xs[0] && seen[k][1] == ys[0] && seen[k][2] == xs[1] &&
                  seen[k][3] == ys[1] && seen[k][4] == xs[2] && seen[k][5] == ys[2];
        if (dup)
            continue;
        /* the check: a fixed-depth search of the position, white to move */
        child_send(&c, "INFO max_depth %d", cfg->depth);
        child_send(&c, "INFO timeout_turn 600000");
        child_send(&c, "BOARD\n%d,%d,2\n%d,%d,1\n%d,%d,2\nDONE", xs[0], ys[0], xs[1], ys[1], xs[2],
                   ys[2]);
        if (!read_answer(&c, 600000, line, sizeof line, &score, &known) || !known ||
            (codec_parse_reply(line, &rep), rep.kind != REPLY_MOVE)) {
            fprintf(stderr, "openings: no scored answer for the check\n");
            brain_close(&c);
            return 1;
        }
        settle(&c);
        int black = -score; /* the search scored it for white, to move */
        int a = abs(black);
        fprintf(cfg->log, "opening %d: %d,%d %d,%d %d,%d  depth %d ev %+d (black's view)%s\n", made + 1,
                xs[0], ys[0], xs[1], ys[1], xs[2], ys[2], cfg->depth, black,
                a <= cfg->max_ev ? "" : "  -- not kept");
        fflush(cfg->log);
        if (a > cfg->max_ev)
            continue;
        hist[a < 25 ? 0 : a < 50 ? 1 : a < 100 ? 2 : a < 200 ? 3 : 4]++;
        if (made < 1024)
            for (int k = 0; k < 3; k++)
                seen[made][2 * k] = (short)xs[k], seen[made][2 * k + 1] = (short)ys[k];
        fprintf(cfg->out, "%s %d %d,%d %d,%d %d,%d | opening # balance %s depth %d ev %+d\n",
                rule_name(cfg->rule), cfg->width, xs[0], ys[0], xs[1], ys[1], xs[2], ys[2],
                cfg->brain.name, cfg->depth, black);
        fflush(cfg->out);
        made++;
    }
    brain_close(&c);
    fprintf(cfg->log,
            "\n%d openings in %d tries; |ev| at depth %d: <25: %d, 25-49: %d, 50-99: %d, 100-199: %d, "
            ">=200: %d\n",
            made, tries, cfg->depth, hist[0], hist[1], hist[2], hist[3], hist[4]);
    return made == cfg->count ? 0 : 1;
}

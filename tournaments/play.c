/* tournaments/play.c — the terminal front end: a person against a brain,
 * two brains to watch, or two people; any brain over the protocol.
 *
 * Raw terminal mode and ANSI escapes (no curses): the board with letters for
 * columns and numbers for rows (counted from the bottom, as Renlib), X black
 * and O white, the last move bracketed, the winning line marked, renju
 * forbidden points shown as ×/f for black. The terminal is restored on every
 * way out (quit, Ctrl-C, a signal, a crashed brain). */
#include "play.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "../eval/evaluate.h"
#include "../brain/util.h"
#include "../protocol/codec.h"
#include "analysis.h"
#include "records.h"

/* ---- coordinates ---- */

void play_coord_name(int x, int y, int w, int h, char *buf, int cap) {
    (void)w;
    codec_cell_name(x, y, h, buf, cap);
}

bool play_parse_coord(const char *s, int w, int h, int *x, int *y) { return codec_parse_cell(s, w, h, x, y); }

/* ---- terminal ---- */

static struct termios saved_tio;
static bool raw_on;
static volatile sig_atomic_t resized, interrupted;

static void term_restore(void) {
    if (!raw_on)
        return;
    /* show the cursor, reset attributes, leave the alternate screen */
    const char *s = "\033[0m\033[?25h\033[?1049l";
    if (write(STDOUT_FILENO, s, strlen(s)) < 0) { /* nothing more to do */
    }
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tio);
    raw_on = false;
}

static void on_signal(int sig) {
    if (sig == SIGWINCH)
        resized = 1;
    else
        interrupted = sig;
}

static bool term_raw(void) {
    if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &saved_tio) != 0)
        return false;
    struct termios t = saved_tio;
    t.c_lflag &= ~(tcflag_t)(ICANON | ECHO | ISIG | IEXTEN);
    t.c_iflag &= ~(tcflag_t)(IXON | ICRNL);
    t.c_cc[VMIN] = 0;
    t.c_cc[VTIME] = 0;
    if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &t) != 0)
        return false;
    raw_on = true;
    static bool registered;
    if (!registered)
        atexit(term_restore), registered = true;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGWINCH, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    printf("\033[?1049h\033[?25l");
    return true;
}

static void term_size(int *cols, int *rows) {
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
        *cols = ws.ws_col;
        *rows = ws.ws_row;
    } else {
        *cols = 80;
        *rows = 24;
    }
}

/* ---- brains ---- */

typedef enum { EXPECT_OK, EXPECT_MOVE, EXPECT_HINT, EXPECT_TAKEBACK, EXPECT_DISCARD, EXPECT_SWAP2 } Expect;

typedef struct {
    const EngineSpec *spec;
    Child c;
    bool live;
    bool synced;          /* its board equals ours */
    Expect queue[16];     /* replies we wait for, oldest first */
    int queued;
    int colour;           /* the colour it plays (0: hints only) */
    char name[64];
} Brain;

/* The swap2 opening (-opening-rule swap2): the party that starts as black
 * proposes three stones, the other chooses (take black, stay white with move
 * 4, or add two), after two added stones the proposer chooses. A person's
 * choices are keys, a brain's come from SWAP2BOARD. */
typedef enum { S2_NONE, S2_PROPOSE, S2_CHOOSE3, S2_ADD2, S2_CHOOSE5 } Swap2Phase;

typedef struct {
    const PlayConfig *cfg;
    Pos *pos;
    bool human[3];        /* per colour, now (swap2 may exchange the parties) */
    bool exchanged;       /* the parties changed colours in the swap2 opening */
    Swap2Phase s2;
    int s2_stones;        /* stones of the finished swap2 opening (undo stops there) */
    char s2_log[160];     /* the choices made, shown and kept in the record's name */
    int strength;         /* INFO strength for the brains that play (100: full) */
    Brain brains[3];      /* [colour] when a brain plays that colour */
    Brain hinter;         /* when people play both colours */
    int cx, cy;           /* cursor */
    int vx, vy;           /* view origin (panning) */
    bool recentre;        /* centre the view on the cursor at the next draw */
    bool weights, show_xy;
    char status[256], note[256], result[256];
    char typed[32];
    bool typing, over, thinking;
    int hint_x, hint_y;
    int64_t think_start, next_move_at;
    int64_t time_left[3];
    short win[12];        /* winning line cells (x,y pairs) */
    int win_n;
    int saved;            /* game files written */
    char last_saved[PATH_MAX + 64];
    int saved_ply;        /* the position last saved (-1: none of this game) */
    int64_t turn_start;   /* when the side to move got the move */
    int move_ms[BOARD_MAX_MOVES]; /* time each move took, by ply */
} Play;

static void note(Play *g, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->note, sizeof g->note, fmt, ap);
    va_end(ap);
}

static void expect_push(Brain *b, Expect e) {
    if (b->queued < 16)
        b->queue[b->queued++] = e;
}

static Expect expect_pop(Brain *b) {
    if (!b->queued)
        return EXPECT_DISCARD;
    Expect e = b->queue[0];
    memmove(b->queue, b->queue + 1, sizeof(Expect) * (size_t)--b->queued);
    return e;
}

static bool brain_start(Play *g, Brain *b, const EngineSpec *spec, int colour) {
    const PlayConfig *cfg = g->cfg;
    char err[300];
    memset(b, 0, sizeof *b);
    b->spec = spec;
    b->colour = colour;
    snprintf(b->name, sizeof b->name, "%s", spec->name[0] ? spec->name : "brain");
    if (!child_spawn(&b->c, spec->cmd, spec->dir[0] ? spec->dir : NULL, NULL, err, sizeof err)) {
        note(g, "%s", err);
        return false;
    }
    b->live = true;
    if (cfg->width == cfg->height)
        child_send(&b->c, "START %d", cfg->width);
    else
        child_send(&b->c, "RECTSTART %d,%d", cfg->width, cfg->height);
    expect_push(b, EXPECT_OK);
    child_send(&b->c, "INFO rule %d", rule_to_protocol(cfg->rule));
    child_send(&b->c, "INFO timeout_turn %lld", (long long)(cfg->turn_ms > 0 ? cfg->turn_ms : 2000));
    child_send(&b->c, "INFO timeout_match %lld", (long long)cfg->match_ms);
    child_send(&b->c, "INFO game_type 0");
    for (int i = 0; i < spec->option_count; i++)
        child_send(&b->c, "INFO %s %s", spec->option_key[i], spec->option_value[i]);
    if (colour && g->strength < 100) /* a brain that plays, weakened for people */
        child_send(&b->c, "INFO strength %d", g->strength);
    b->synced = true; /* an empty board on both sides */
    return true;
}

static void brain_close(Brain *b) {
    if (!b->live)
        return;
    child_send(&b->c, "END");
    child_stop(&b->c, 300);
    child_free(&b->c);
    b->live = false;
}

/* Send the position (BOARD, own stones as the colour `as`) and ask for a move. */
static void brain_ask(Play *g, Brain *b, int as, Expect what) {
    Board *bd = &g->pos->b;
    Move last = board_last_move(bd);
    if (g->cfg->match_ms > 0)
        child_send(&b->c, "INFO time_left %lld", (long long)g->time_left[as]);
    if (b->synced && what == EXPECT_MOVE && last > MOVE_PASS && b->colour == as &&
        bd->cell[last] == opponent(as)) {
        child_send(&b->c, "TURN %d,%d", board_x(bd, last), board_y(bd, last));
    } else if (b->synced && what == EXPECT_MOVE && bd->stones == 0) {
        child_send(&b->c, "BEGIN");
    } else {
        if (bd->stones) {
            child_send(&b->c, "RESTART");
            expect_push(b, EXPECT_OK);
        }
        child_send(&b->c, "BOARD");
        for (int i = 0; i < bd->ply; i++) {
            Move m = bd->history[i];
            if (m == MOVE_PASS)
                continue;
            child_send(&b->c, "%d,%d,%d", board_x(bd, m), board_y(bd, m),
                       bd->cell[m] == as ? 1 : 2);
        }
        child_send(&b->c, "DONE");
    }
    /* after a hint the brain holds the position from the other side */
    b->synced = what == EXPECT_MOVE;
    expect_push(b, what);
    g->think_start = now_ms();
}

static Brain *brain_for(Play *g, int colour) {
    return g->human[colour] ? NULL : &g->brains[colour];
}

/* The parties exchange colours (a swap2 choice): people and brains move
 * together; a brain holds its board from the other side now, so it gets the
 * whole position next time. */
static void exchange_parties(Play *g) {
    Brain t = g->brains[BLACK];
    g->brains[BLACK] = g->brains[WHITE];
    g->brains[WHITE] = t;
    bool h = g->human[BLACK];
    g->human[BLACK] = g->human[WHITE];
    g->human[WHITE] = h;
    for (int c = BLACK; c <= WHITE; c++) {
        g->brains[c].colour = c;
        g->brains[c].synced = false;
    }
    g->exchanged = !g->exchanged;
}

/* The colour whose party acts in the swap2 phase (0: none). */
static int swap2_actor(const Play *g) {
    switch (g->s2) {
    case S2_PROPOSE: case S2_CHOOSE5: return BLACK;
    case S2_CHOOSE3: case S2_ADD2: return WHITE;
    default: return 0;
    }
}

static const char *party_name(const Play *g, int colour) {
    return g->human[colour] ? "you" : g->brains[colour].name;
}

/* Ask a brain for its swap2 answer on the stones so far. */
static void brain_swap2(Play *g, Brain *br) {
    Board *bd = &g->pos->b;
    int as = swap2_actor(g);
    if (g->cfg->match_ms > 0)
        child_send(&br->c, "INFO time_left %lld", (long long)g->time_left[as]);
    child_send(&br->c, "SWAP2BOARD");
    for (int i = 0; i < bd->ply; i++)
        child_send(&br->c, "%d,%d", board_x(bd, bd->history[i]), board_y(bd, bd->history[i]));
    child_send(&br->c, "DONE");
    br->synced = false; /* the game goes on with BOARD */
    expect_push(br, EXPECT_SWAP2);
    g->think_start = now_ms();
}

static void swap2_log(Play *g, const char *fmt, ...) {
    size_t n = strlen(g->s2_log);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->s2_log + n, sizeof g->s2_log - n, fmt, ap);
    va_end(ap);
}

/* What the person deciding in the swap2 phase may do, as a note. */
static void swap2_prompt(Play *g) {
    int a = swap2_actor(g);
    if (!a)
        return;
    if (!g->human[a]) {
        note(g, "swap2: %s %s", g->brains[a].name,
             g->s2 == S2_PROPOSE ? "proposes three stones" : "chooses");
        return;
    }
    int n = g->pos->b.stones;
    switch (g->s2) {
    case S2_PROPOSE:
        note(g, "swap2: place three stones (black, white, black): %d to go", 3 - n);
        break;
    case S2_CHOOSE3:
        note(g, "swap2: b takes black | a cell plays move 4 as white | a adds two stones");
        break;
    case S2_ADD2:
        note(g, "swap2: add a white and a black stone: %d to go", 5 - n);
        break;
    case S2_CHOOSE5:
        note(g, "swap2: b takes black | a cell takes white and plays move 6");
        break;
    default:
        break;
    }
}

static void swap2_done(Play *g) {
    g->s2 = S2_NONE;
    g->s2_stones = g->pos->b.stones;
    note(g, "swap2: %s; black: %s, white: %s", g->s2_log, party_name(g, BLACK), party_name(g, WHITE));
}

/* ---- game ---- */

static void find_win_line(Play *g, Move m) {
    Board *b = &g->pos->b;
    int c = b->cell[m];
    g->win_n = 0;
    for (int d = 0; d < DIR_COUNT; d++) {
        int lo = m, hi = m;
        while (b->cell[lo - b->dir[d]] == c)
            lo -= b->dir[d];
        while (b->cell[hi + b->dir[d]] == c)
            hi += b->dir[d];
        if ((hi - lo) / b->dir[d] + 1 >= 5) {
            for (int k = lo; k <= hi && g->win_n < 12; k += b->dir[d]) {
                g->win[g->win_n++] = (short)board_x(b, (Move)k);
                g->win[g->win_n++] = (short)board_y(b, (Move)k);
            }
            return;
        }
    }
}

static void save_game(Play *g) {
    const PlayConfig *cfg = g->cfg;
    Board *b = &g->pos->b;
    if (g->saved_ply == b->ply && g->last_saved[0]) {
        note(g, "already saved as %s", g->last_saved);
        return;
    }
    const char *dir = cfg->save_dir ? cfg->save_dir : ".";
    mkdir(dir, 0755);
    char full[PATH_MAX];
    if (realpath(dir, full))
        dir = full;
    time_t now = time(NULL);
    struct tm tmv;
    localtime_r(&now, &tmv);
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/quinto-%04d%02d%02d-%02d%02d%02d.psq", dir, tmv.tm_year + 1900,
             tmv.tm_mon + 1, tmv.tm_mday, tmv.tm_hour, tmv.tm_min, tmv.tm_sec);
    GameConfig gc = {0};
    gc.width = cfg->width;
    gc.height = cfg->height;
    gc.rule = cfg->rule;
    GameResult r = {0};
    r.moves = calloc(1, sizeof *r.moves);
    for (int i = 0; i < b->ply; i++)
        if (b->history[i] != MOVE_PASS) {
            int k = r.moves->count++;
            r.moves->x[k] = (short)board_x(b, b->history[i]);
            r.moves->y[k] = (short)board_y(b, b->history[i]);
            r.moves->ms[k] = g->move_ms[i];
        }
    const char *bn = g->human[BLACK] ? "human" : g->brains[BLACK].name;
    const char *wn = g->human[WHITE] ? "human" : g->brains[WHITE].name;
    if (record_write_psq(path, &gc, bn, wn, &r)) {
        snprintf(g->last_saved, sizeof g->last_saved, "%s", path);
        note(g, "%s saved as %s", g->over ? "game" : "unfinished game", path);
        g->saved++;
        g->saved_ply = b->ply;
    } else
        note(g, "cannot write %s", path);
    free(r.moves);
}

static void end_game(Play *g, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->result, sizeof g->result, fmt, ap);
    va_end(ap);
    g->over = true;
    g->thinking = false;
    save_game(g);
}

/* Play m for the side to move; judge it. False if it is not legal. */
static bool make_move(Play *g, int x, int y, bool by_brain) {
    Board *b = &g->pos->b;
    int side = b->side;
    const char *who = side == BLACK ? "black" : "white";
    Outcome o = rule_judge(b, x, y, g->cfg->rule);
    char name[16];
    play_coord_name(x, y, b->width, b->height, name, sizeof name);
    if (o == OUTCOME_ILLEGAL) {
        if (by_brain)
            end_game(g, "%s loses: illegal move %d,%d", who, x, y);
        else
            note(g, "%s: not an empty cell on the board", name);
        return false;
    }
    if (o == OUTCOME_FORBIDDEN) {
        if (by_brain) {
            pos_play(g->pos, board_move_at(b, x, y));
            end_game(g, "white wins: black played the forbidden point %s", name);
        } else
            note(g, "%s is forbidden for black (renju)", name);
        return by_brain;
    }
    Move m = board_move_at(b, x, y);
    pos_play(g->pos, m);
    int64_t now = now_ms();
    g->move_ms[b->ply - 1] = (int)(now - g->turn_start);
    g->turn_start = now;
    g->cx = x, g->cy = y;
    g->hint_x = -1;
    if (o == OUTCOME_WIN) {
        find_win_line(g, m);
        end_game(g, "%s wins with five (%s)", who, name);
    } else if (b->stones == b->width * b->height) {
        end_game(g, "draw: the board is full");
    } else if (g->cfg->rule == RULE_RENJU && b->stones >= b->width * b->height - 25) {
        end_game(g, "draw: renju move limit");
    }
    return true;
}

static void new_game(Play *g) {
    const PlayConfig *cfg = g->cfg;
    if (!g->over && g->pos->b.stones > 0 && g->saved_ply != g->pos->b.ply)
        save_game(g); /* the game left unfinished is kept */
    g->status[0] = 0; /* the last brain line belongs to the old game */
    pos_init(g->pos, cfg->width, cfg->height, cfg->rule);
    g->over = false;
    g->thinking = false;
    g->result[0] = 0;
    g->win_n = 0;
    g->hint_x = -1;
    g->cx = cfg->width / 2;
    g->cy = cfg->height / 2;
    g->recentre = true;
    g->saved_ply = -1;
    g->last_saved[0] = 0;
    g->turn_start = now_ms();
    if (g->exchanged)
        exchange_parties(g); /* back to the colours asked for */
    g->s2 = cfg->swap2 ? S2_PROPOSE : S2_NONE;
    g->s2_stones = 0;
    g->s2_log[0] = 0;
    for (int c = BLACK; c <= WHITE; c++) {
        g->time_left[c] = cfg->match_ms;
        Brain *b = brain_for(g, c);
        if (b && b->live) {
            if (b->queued) { /* something in flight: restart the process cleanly */
                brain_close(b);
                brain_start(g, b, &cfg->engine[c], c);
            } else {
                child_send(&b->c, "RESTART");
                expect_push(b, EXPECT_OK);
                b->synced = true;
            }
        }
    }
    note(g, "new game");
    swap2_prompt(g);
}

/* Undo: back to the last position where a person is to move. */
static void undo(Play *g) {
    g->status[0] = 0; /* the brain line described a position that is gone */
    Board *b = &g->pos->b;
    if (g->human[BLACK] == false && g->human[WHITE] == false)
        return;
    if (g->s2 != S2_NONE) {
        note(g, "no undo in the swap2 opening: n starts a new game");
        return;
    }
    if (g->thinking) { /* stop the brain; its move will be thrown away */
        Brain *br = brain_for(g, b->side);
        if (br && br->live) {
            child_send(&br->c, "YXSTOP");
            for (int i = 0; i < br->queued; i++)
                if (br->queue[i] == EXPECT_MOVE)
                    br->queue[i] = EXPECT_DISCARD;
            br->synced = false;
        }
        g->thinking = false;
    }
    int taken = 0;
    do {
        while (b->ply && board_last_move(b) == MOVE_PASS)
            pos_undo(g->pos);
        if (b->ply <= g->s2_stones)
            break; /* the swap2 opening stays */
        Move m = board_last_move(b);
        for (int c = BLACK; c <= WHITE; c++) {
            Brain *br = brain_for(g, c);
            if (br && br->live && br->synced) {
                child_send(&br->c, "TAKEBACK %d,%d", board_x(b, m), board_y(b, m));
                expect_push(br, EXPECT_TAKEBACK);
            }
        }
        pos_undo(g->pos);
        taken++;
    } while (b->ply && !g->human[b->side]);
    g->over = false;
    g->result[0] = 0;
    g->win_n = 0;
    note(g, taken ? "took back %d move%s" : "nothing to take back", taken, taken == 1 ? "" : "s");
}

static void ask_hint(Play *g) {
    Board *b = &g->pos->b;
    if (g->over) {
        note(g, "the game is over: n starts a new one");
        return;
    }
    if (g->thinking) {
        note(g, "a brain is thinking: ask for a hint when it is your move");
        return;
    }
    if (g->s2 != S2_NONE) {
        note(g, "no hints in the swap2 opening");
        return;
    }
    Brain *br = g->human[opponent(b->side)] ? &g->hinter : brain_for(g, opponent(b->side));
    if (br == &g->hinter && !br->live && !brain_start(g, br, &g->cfg->hint, 0))
        return;
    if (!br || !br->live) {
        note(g, "no brain for a hint");
        return;
    }
    brain_ask(g, br, b->side, EXPECT_HINT);
    g->thinking = true;
    note(g, "thinking of a hint...");
}

/* A brain's swap2 answer. */
static void swap2_answer(Play *g, Brain *br, const Reply *r, const char *line) {
    Board *b = &g->pos->b;
    int a = swap2_actor(g);
    g->thinking = false;
    if (g->cfg->match_ms > 0)
        g->time_left[a] -= now_ms() - g->think_start;
    char n1[16], n2[16], n3[16], who[64];
    snprintf(who, sizeof who, "%s", br->name); /* br may change colour below */
    if (g->s2 == S2_PROPOSE && r->kind == REPLY_MOVES && r->count == 3) {
        for (int i = 0; i < 3; i++)
            if (!make_move(g, r->xs[i], r->ys[i], true))
                return;
        play_coord_name(r->xs[0], r->ys[0], b->width, b->height, n1, sizeof n1);
        play_coord_name(r->xs[1], r->ys[1], b->width, b->height, n2, sizeof n2);
        play_coord_name(r->xs[2], r->ys[2], b->width, b->height, n3, sizeof n3);
        swap2_log(g, "%s proposes %s %s %s", who, n1, n2, n3);
        g->s2 = S2_CHOOSE3;
        swap2_prompt(g);
    } else if ((g->s2 == S2_CHOOSE3 || g->s2 == S2_CHOOSE5) && r->kind == REPLY_SWAP) {
        if (g->s2 == S2_CHOOSE3)
            exchange_parties(g); /* the chooser takes black */
        swap2_log(g, "; %s takes black", who);
        swap2_done(g);
    } else if ((g->s2 == S2_CHOOSE3 || g->s2 == S2_CHOOSE5) && r->kind == REPLY_MOVE) {
        bool five = g->s2 == S2_CHOOSE5;
        if (five)
            exchange_parties(g); /* the proposer takes white */
        play_coord_name(r->x, r->y, b->width, b->height, n1, sizeof n1);
        swap2_log(g, "; %s %s white, plays %s", who, five ? "takes" : "stays", n1);
        if (make_move(g, r->x, r->y, true)) {
            swap2_done(g);
            g->next_move_at = now_ms() + g->cfg->delay_ms;
        }
    } else if (g->s2 == S2_CHOOSE3 && r->kind == REPLY_MOVES && r->count == 2) {
        for (int i = 0; i < 2; i++)
            if (!make_move(g, r->xs[i], r->ys[i], true))
                return;
        play_coord_name(r->xs[0], r->ys[0], b->width, b->height, n1, sizeof n1);
        play_coord_name(r->xs[1], r->ys[1], b->width, b->height, n2, sizeof n2);
        swap2_log(g, "; %s adds %s %s", who, n1, n2);
        g->s2 = S2_CHOOSE5;
        swap2_prompt(g);
    } else {
        g->s2 = S2_NONE;
        end_game(g, "%s loses: '%.60s' is not a swap2 answer", who, line);
    }
}

/* A person's cell in the swap2 phase: a stone of the proposal or of the two
 * added, or the choice to play as white (move 4 staying, move 6 taking it). */
static void swap2_cell(Play *g) {
    Board *b = &g->pos->b;
    int a = swap2_actor(g);
    if (!g->human[a] || g->thinking)
        return;
    char name[16];
    play_coord_name(g->cx, g->cy, b->width, b->height, name, sizeof name);
    if (g->s2 == S2_PROPOSE || g->s2 == S2_ADD2) {
        if (!make_move(g, g->cx, g->cy, false))
            return;
        swap2_log(g, "%s%s", b->stones == 1 || b->stones == 4 ? (b->stones == 1 ? "you propose " : "; you add ") : " ", name);
        if (b->stones == 3 && g->s2 == S2_PROPOSE)
            g->s2 = S2_CHOOSE3;
        else if (b->stones == 5)
            g->s2 = S2_CHOOSE5;
        swap2_prompt(g);
        g->next_move_at = now_ms();
        return;
    }
    bool five = g->s2 == S2_CHOOSE5;
    if (five)
        exchange_parties(g); /* you take white */
    if (!make_move(g, g->cx, g->cy, false)) {
        if (five)
            exchange_parties(g);
        return;
    }
    swap2_log(g, "; you %s white, play %s", five ? "take" : "stay", name);
    swap2_done(g);
    g->next_move_at = now_ms();
}

/* A person's swap2 keys: b takes black, a adds two stones. */
static void swap2_key(Play *g, int k) {
    int a = swap2_actor(g);
    if (!a || !g->human[a] || g->thinking)
        return;
    if (k == 'b' && (g->s2 == S2_CHOOSE3 || g->s2 == S2_CHOOSE5)) {
        if (g->s2 == S2_CHOOSE3)
            exchange_parties(g);
        swap2_log(g, "; you take black");
        swap2_done(g);
        g->next_move_at = now_ms();
    } else if (k == 'a' && g->s2 == S2_CHOOSE3) {
        g->s2 = S2_ADD2;
        swap2_prompt(g);
    }
}

/* A line from a brain. */
static void brain_line(Play *g, Brain *br, const char *line) {
    Reply r;
    codec_parse_reply(line, &r);
    if (r.kind == REPLY_MESSAGE) {
        char text[256];
        if (g->show_xy)
            snprintf(text, sizeof text, "%s", r.text);
        else /* moves as the board names them */
            codec_pv_names(r.text, g->pos->b.height, text, sizeof text);
        snprintf(g->status, sizeof g->status, "%.40s: %.200s", br->name, text);
        return;
    }
    if (r.kind == REPLY_DEBUG)
        return;
    Expect e = expect_pop(br);
    Board *b = &g->pos->b;
    switch (e) {
    case EXPECT_OK:
        if (r.kind != REPLY_OK)
            note(g, "%s: '%s' to START/RESTART", br->name, line);
        break;
    case EXPECT_TAKEBACK:
        if (r.kind != REPLY_OK)
            br->synced = false; /* it will get RESTART + BOARD next time */
        break;
    case EXPECT_DISCARD:
        break;
    case EXPECT_HINT:
        g->thinking = false;
        if (r.kind == REPLY_MOVE && board_on(b, r.x, r.y)) {
            g->hint_x = r.x, g->hint_y = r.y;
            g->cx = r.x, g->cy = r.y;
            char name[16];
            play_coord_name(r.x, r.y, b->width, b->height, name, sizeof name);
            note(g, "hint: %s (%d,%d) - Enter plays it", name, r.x, r.y);
        } else
            note(g, "%s: no hint ('%s')", br->name, line);
        break;
    case EXPECT_SWAP2:
        swap2_answer(g, br, &r, line);
        break;
    case EXPECT_MOVE: {
        g->thinking = false;
        int side = b->side;
        int64_t spent = now_ms() - g->think_start;
        if (g->cfg->match_ms > 0)
            g->time_left[side] -= spent;
        if (r.kind != REPLY_MOVE) {
            end_game(g, "%s loses: %s answered '%.60s'", side == BLACK ? "black" : "white",
                     br->name, line);
            break;
        }
        if (make_move(g, r.x, r.y, true))
            g->next_move_at = now_ms() + g->cfg->delay_ms;
        break;
    }
    }
}

/* ---- drawing ---- */

static int cell_width(const Play *g) { return g->weights ? 4 : 2; }

static bool in_win(const Play *g, int x, int y) {
    for (int i = 0; i < g->win_n; i += 2)
        if (g->win[i] == x && g->win[i + 1] == y)
            return true;
    return false;
}

/* A column's label: its letters (a..z, aa, ab, ...) or its x. */
static void column_label(const Play *g, int x, char *buf, int cap) {
    if (g->show_xy)
        snprintf(buf, (size_t)cap, "%d", x);
    else {
        play_coord_name(x, 0, g->pos->b.width, g->pos->b.height, buf, cap);
        buf[x < 26 ? 1 : 2] = 0;
    }
}

/* The cell's content, at most cw - 1 characters (one separator column
 * precedes every cell: rows keep their width whatever is marked). */
static void cell_body(Play *g, int x, int y, const Move *forb, int nforb, char *body, int cap) {
    Board *b = &g->pos->b;
    Move m = board_move_at(b, x, y);
    int c = b->cell[m];
    if (c == BLACK || c == WHITE) {
        snprintf(body, (size_t)cap, "%c", c == BLACK ? 'X' : 'O');
        return;
    }
    for (int i = 0; i < nforb; i++)
        if (forb[i] == m) {
            snprintf(body, (size_t)cap, "f");
            return;
        }
    if (x == g->hint_x && y == g->hint_y)
        snprintf(body, (size_t)cap, "?");
    else if (g->weights && board_is_candidate(b, m)) {
        int sc = eval_move_score(g->pos, m, b->side);
        if (sc > 999)
            snprintf(body, (size_t)cap, "%dk", sc / 1000 > 9 ? 9 : sc / 1000);
        else
            snprintf(body, (size_t)cap, "%d", sc);
    } else
        snprintf(body, (size_t)cap, ".");
}

static void draw(Play *g) {
    int cols, rows;
    term_size(&cols, &rows);
    Board *b = &g->pos->b;
    const PlayConfig *cfg = g->cfg;
    int cw = cell_width(g);
    /* a row: 4 label columns, cw a cell, one closing column */
    int vis_w = (cols - 5) / cw, vis_h = rows - 7;
    char label[16];
    int label_rows = 1;
    for (int x = 0; x < b->width; x++) {
        column_label(g, x, label, sizeof label);
        if ((int)strlen(label) > cw - 1 && (int)strlen(label) > label_rows)
            label_rows = (int)strlen(label);
    }
    vis_h -= label_rows - 1;
    if (vis_w > b->width)
        vis_w = b->width;
    if (vis_h > b->height)
        vis_h = b->height;
    if (vis_w < 1)
        vis_w = 1;
    if (vis_h < 1)
        vis_h = 1;
    if (g->recentre) { /* a new game opens centred */
        g->vx = g->cx - vis_w / 2;
        g->vy = g->cy - vis_h / 2;
        g->recentre = false;
    }
    /* pan so that the cursor is visible */
    if (g->cx < g->vx)
        g->vx = g->cx;
    if (g->cx >= g->vx + vis_w)
        g->vx = g->cx - vis_w + 1;
    if (g->cy < g->vy)
        g->vy = g->cy;
    if (g->cy >= g->vy + vis_h)
        g->vy = g->cy - vis_h + 1;
    if (g->vx > b->width - vis_w)
        g->vx = b->width - vis_w;
    if (g->vy > b->height - vis_h)
        g->vy = b->height - vis_h;
    if (g->vx < 0)
        g->vx = 0;
    if (g->vy < 0)
        g->vy = 0;
    bool more_left = g->vx > 0, more_right = g->vx + vis_w < b->width;
    bool more_up = g->vy > 0, more_down = g->vy + vis_h < b->height;
    Move *forb = NULL;
    int nforb = 0;
    if (cfg->rule == RULE_RENJU && b->side == BLACK && !g->over) {
        forb = malloc(sizeof(Move) * (size_t)(b->width * b->height));
        nforb = forb ? rule_forbidden_points(b, RULE_RENJU, forb) : 0;
    }
    Move last = board_last_move(b);
    printf("\033[H\033[2J");
    /* line 1: who plays, rule, clocks */
    printf("Quinto  %s %dx%d  black: %s  white: %s", rule_name(cfg->rule), b->width, b->height,
           g->human[BLACK] ? "you" : g->brains[BLACK].name,
           g->human[WHITE] ? "you" : g->brains[WHITE].name);
    if ((g->human[BLACK] || g->human[WHITE]) && g->strength < 100)
        printf("  level %d", g->strength);
    if (cfg->match_ms > 0)
        printf("  clocks %lld.%01lld / %lld.%01lld s", (long long)(g->time_left[BLACK] / 1000),
               (long long)(g->time_left[BLACK] % 1000 / 100), (long long)(g->time_left[WHITE] / 1000),
               (long long)(g->time_left[WHITE] % 1000 / 100));
    printf("\r\n");
    /* column labels: one character a row when they are wider than a cell
     * (x from 10 on, letters from aa on), right-aligned; < and > where the
     * board goes on beyond the view */
    for (int r = 0; r < label_rows; r++) {
        bool lastrow = r == label_rows - 1;
        printf("  %c ", lastrow && more_left ? '<' : ' ');
        for (int x = g->vx; x < g->vx + vis_w; x++) {
            column_label(g, x, label, sizeof label);
            int len = (int)strlen(label);
            if (label_rows == 1) {
                printf("%*s", cw, label);
                continue;
            }
            int k = r - (label_rows - len); /* right-aligned over the label rows */
            printf("%*s%c", cw - 1, "", k >= 0 ? label[k] : ' ');
        }
        printf("%c\r\n", lastrow && more_right ? '>' : ' ');
    }
    for (int y = g->vy; y < g->vy + vis_h; y++) {
        char gutter = y == g->vy && more_up ? '^' : y == g->vy + vis_h - 1 && more_down ? 'v' : ' ';
        printf("%3d%c", g->show_xy ? y : b->height - y, gutter);
        bool close = false; /* the previous cell was the last move: its ']' comes here */
        for (int x = g->vx; x < g->vx + vis_w; x++) {
            Move m = board_move_at(b, x, y);
            bool cur = x == g->cx && y == g->cy, win = in_win(g, x, y), lastm = m == last;
            char body[16];
            cell_body(g, x, y, forb, nforb, body, sizeof body);
            char sep = close ? ']' : lastm ? '[' : ' ';
            if (win && !close && !lastm) { /* the winning line doubled: Xx */
                sep = body[0];
                body[0] = (char)(body[0] == 'X' ? 'x' : 'o');
            }
            const char *pre = cur ? "\033[7m" : win ? "\033[1;4m" : "";
            printf("%c%*s%s%s%s", sep, cw - 1 - (int)strlen(body), "", pre, body, *pre ? "\033[0m" : "");
            close = lastm;
        }
        printf("%c\r\n", close ? ']' : ' ');
    }
    free(forb);
    /* status lines */
    char cur[32];
    if (g->show_xy)
        snprintf(cur, sizeof cur, "(%d,%d)", g->cx, g->cy);
    else
        play_coord_name(g->cx, g->cy, b->width, b->height, cur, sizeof cur);
    if (g->over)
        printf("\033[1m%s\033[0m\r\n", g->result);
    else if (g->s2 != S2_NONE)
        printf("swap2 opening: %s to %s%s  cursor %s%s%s\r\n", party_name(g, swap2_actor(g)),
               g->s2 == S2_PROPOSE ? "propose" : g->s2 == S2_ADD2 ? "add two stones" : "choose",
               g->thinking ? " (thinking...)" : "", cur, g->typing ? "  play at: " : "",
               g->typing ? g->typed : "");
    else if (g->thinking)
        printf("%s to move (%s)  thinking...  %.*s\r\n", b->side == BLACK ? "X black" : "O white",
               g->human[b->side] ? "hint" : "brain", cols > 60 ? cols - 40 : 20, g->status);
    else
        printf("%s to move  cursor %s%s%s\r\n", b->side == BLACK ? "X black" : "O white", cur,
               g->typing ? "  play at: " : "", g->typing ? g->typed : "");
    printf("%.*s\r\n", cols - 1, g->thinking ? "" : g->status);
    printf("%.*s\r\n", cols - 1, g->note);
    char help[200], centre[32];
    if (g->show_xy)
        snprintf(centre, sizeof centre, "%d,%d", b->width / 2, b->height / 2);
    else
        codec_cell_name(b->width / 2, b->height / 2, b->height, centre, sizeof centre);
    if (g->human[BLACK] || g->human[WHITE])
        snprintf(help, sizeof help,
                 "Enter :%s d hint t weights u undo n new s save r review <> level c %s q quit",
                 centre, g->show_xy ? "h8" : "x,y");
    else
        snprintf(help, sizeof help, "watching:  t weights  n new  s save  r review  c %s  q quit", g->show_xy ? "h8" : "x,y");
    printf("%.*s", cols - 1, help);
    fflush(stdout);
}

/* ---- keys ---- */

static void human_play(Play *g) {
    Board *b = &g->pos->b;
    if (g->over) {
        note(g, "the game is over: n for a new one");
        return;
    }
    if (g->s2 != S2_NONE) {
        swap2_cell(g);
        return;
    }
    if (!g->human[b->side] || g->thinking)
        return;
    g->note[0] = 0;
    if (make_move(g, g->cx, g->cy, false))
        g->next_move_at = now_ms();
}

/* The level of the brains that play (INFO strength), from their next move. */
static void set_level(Play *g, int level) {
    if (!g->human[BLACK] && !g->human[WHITE]) {
        note(g, "levels are for playing against a brain");
        return;
    }
    g->strength = level < 0 ? 0 : level > 100 ? 100 : level;
    for (int c = BLACK; c <= WHITE; c++)
        if (!g->human[c] && g->brains[c].live)
            child_send(&g->brains[c].c, "INFO strength %d", g->strength);
    note(g, "level %d of 100 from the brain's next move%s", g->strength,
         g->strength == 100 ? " (full strength)" : "");
}

/* Review the game so far (quinto-manager review) on the normal screen, then
 * back to the board. */
static void review_game(Play *g) {
    const PlayConfig *cfg = g->cfg;
    Board *b = &g->pos->b;
    if (g->thinking) {
        note(g, "a brain is thinking: review when it has moved");
        return;
    }
    if (!b->stones) {
        note(g, "nothing to review yet");
        return;
    }
    Record *r = calloc(1, sizeof *r);
    if (!r)
        return;
    r->rule = cfg->rule;
    r->width = b->width;
    r->height = b->height;
    for (int i = 0; i < b->ply && r->count < RECORD_MAX_MOVES; i++, r->count++) {
        Move m = b->history[i];
        r->x[r->count] = (short)(m == MOVE_PASS ? -1 : board_x(b, m));
        r->y[r->count] = (short)(m == MOVE_PASS ? -1 : board_y(b, m));
    }
    term_restore();
    ReviewConfig rc = {0};
    rc.judge = cfg->hint;
    rc.turn_ms = cfg->review_ms > 0 ? cfg->review_ms : 1000;
    rc.threshold = 600;
    rc.out = stdout;
    rc.ascii = cfg->ascii;
    printf("Reviewing %d moves, %lld ms a position (about %lld s)...\n", r->count, (long long)rc.turn_ms,
           (long long)((r->count + 1) * rc.turn_ms / 1000 + 1));
    fflush(stdout);
    int st = review_run(&rc, r);
    free(r);
    printf("%s\nEnter returns to the board.\n", st ? "The judge failed (see above)." : "");
    fflush(stdout);
    char line[64];
    if (!fgets(line, sizeof line, stdin)) { /* end of input: back all the same */
    }
    interrupted = 0; /* a Ctrl-C during the review ended it, not the program */
    if (!term_raw())
        interrupted = -1;
    note(g, "review done");
}

static void key(Play *g, int k) {
    Board *b = &g->pos->b;
    if (g->typing) {
        size_t n = strlen(g->typed);
        if (k == '\r' || k == '\n') {
            int x, y;
            g->typing = false;
            if (play_parse_coord(g->typed, b->width, b->height, &x, &y)) {
                g->cx = x, g->cy = y;
                human_play(g);
            } else
                note(g, "'%s' is not a cell (h8 or 7,8)", g->typed);
        } else if (k == 27) {
            g->typing = false;
        } else if ((k == 127 || k == 8) && n) {
            g->typed[n - 1] = 0;
        } else if (k >= ' ' && k < 127 && n + 1 < sizeof g->typed) {
            g->typed[n] = (char)k;
            g->typed[n + 1] = 0;
        }
        return;
    }
    switch (k) {
    case 'h': case 1000: if (g->cx > 0) g->cx--; break;
    case 'l': case 1001: if (g->cx < b->width - 1) g->cx++; break;
    case 'k': case 1002: if (g->cy > 0) g->cy--; break;
    case 'j': case 1003: if (g->cy < b->height - 1) g->cy++; break;
    case '\r': case '\n': case ' ': human_play(g); break;
    case ':': case '/': g->typing = true; g->typed[0] = 0; break;
    case 'd': ask_hint(g); break;
    case 't': g->weights = !g->weights; note(g, g->weights ? "weight map on: every candidate cell's move score for the side to move" : "weight map off"); break;
    case 'c': g->show_xy = !g->show_xy; break;
    case 'u': undo(g); break;
    case 'n': new_game(g); break;
    case 's': save_game(g); break;
    case 'b': case 'a': swap2_key(g, k); break;
    case '<': case '>': set_level(g, g->strength + (k == '>' ? 10 : -10)); break;
    case 'r': review_game(g); break;
    default: break;
    }
}

/* Read a key (arrow escapes as 1000..1003); -1 if none. */

static int read_key(void) {
    unsigned char c;
    if (read(STDIN_FILENO, &c, 1) != 1)
        return -1;
    if (c != 27)
        return c;
    unsigned char seq[2];
    struct pollfd p = {STDIN_FILENO, POLLIN, 0};
    if (poll(&p, 1, 30) <= 0 || read(STDIN_FILENO, &seq[0], 1) != 1)
        return 27;
    if (poll(&p, 1, 30) <= 0 || read(STDIN_FILENO, &seq[1], 1) != 1)
        return 27;
    if (seq[0] == '[' || seq[0] == 'O')
        switch (seq[1]) {
        case 'D': return 1000;
        case 'C': return 1001;
        case 'A': return 1002;
        case 'B': return 1003;
        }
    return -1;
}

int play_run(const PlayConfig *cfg) {
    static Play G;
    Play *g = &G;
    memset(g, 0, sizeof *g);
    g->cfg = cfg;
    g->human[BLACK] = cfg->human[BLACK], g->human[WHITE] = cfg->human[WHITE];
    g->strength = cfg->strength;
    g->pos = malloc(sizeof *g->pos);
    if (!g->pos || !pos_init(g->pos, cfg->width, cfg->height, cfg->rule)) {
        fprintf(stderr, "play: bad board size\n");
        return 2;
    }
    for (int c = BLACK; c <= WHITE; c++)
        if (!g->human[c] && !brain_start(g, &g->brains[c], &cfg->engine[c], c)) {
            fprintf(stderr, "play: %s\n", g->note);
            return 1;
        }
    if (!term_raw()) {
        fprintf(stderr, "play: needs a terminal\n");
        return 1;
    }
    new_game(g);
    if (g->s2 == S2_NONE)
        note(g, "%s", g->human[BLACK] || g->human[WHITE] ? "your move: arrows and Enter" : "watching");
    bool dirty = true;
    while (!interrupted) {
        Board *b = &g->pos->b;
        /* the brain on move */
        Brain *br = brain_for(g, b->side);
        if (g->s2 != S2_NONE) /* the swap2 opening: the party deciding */
            br = g->human[swap2_actor(g)] ? NULL : &g->brains[swap2_actor(g)];
        if (!g->over && !g->thinking && br && br->live && now_ms() >= g->next_move_at) {
            if (g->s2 == S2_NONE)
                brain_ask(g, br, b->side, EXPECT_MOVE);
            else
                brain_swap2(g, br);
            g->thinking = true;
            dirty = true;
        }
        if (g->thinking && cfg->turn_ms > 0 && br && now_ms() - g->think_start > cfg->turn_ms + 1000) {
            end_game(g, "%s loses on time", b->side == BLACK ? "black" : "white");
            brain_close(br);
            dirty = true;
        }
        if (resized) {
            resized = 0;
            dirty = true;
        }
        if (dirty) {
            draw(g);
            dirty = false;
        }
        struct pollfd fds[4];
        Brain *who[4];
        int n = 0;
        fds[n].fd = STDIN_FILENO, fds[n].events = POLLIN, who[n++] = NULL;
        Brain *all[3] = {&g->brains[BLACK], &g->brains[WHITE], &g->hinter};
        for (int i = 0; i < 3; i++)
            if (all[i]->live) {
                fds[n].fd = all[i]->c.from_child;
                fds[n].events = POLLIN;
                who[n++] = all[i];
            }
        int pr = poll(fds, (nfds_t)n, 100);
        if (pr < 0 && errno != EINTR)
            break;
        if (pr <= 0) {
            if (g->thinking)
                dirty = true; /* clocks */
            continue;
        }
        if (fds[0].revents & POLLIN) {
            int k;
            while ((k = read_key()) >= 0) {
                if (k == 'q' || k == 3) {
                    interrupted = -1;
                    break;
                }
                key(g, k);
            }
            dirty = true;
        }
        for (int i = 1; i < n; i++) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            Brain *bb = who[i];
            char err[128];
            int r;
            do {
                r = child_read(&bb->c, 0, err, sizeof err);
                if (r == LR_LINE) {
                    bool was = g->exchanged;
                    brain_line(g, bb, child_line(&bb->c));
                    if (was != g->exchanged && bb != &g->hinter) /* swap2: it changed colour */
                        bb = bb == &g->brains[BLACK] ? &g->brains[WHITE] : &g->brains[BLACK];
                }
            } while (r == LR_LINE && bb->live && bb->c.lr->pos < bb->c.lr->len);
            if (r == LR_EOF) {
                bb->live = false;
                child_stop(&bb->c, 0);
                if (!g->over && bb != &g->hinter)
                    end_game(g, "%s crashed: the game cannot go on (q quits, n needs a new brain)",
                             bb->name);
                else
                    note(g, "%s exited", bb->name);
            }
            dirty = true;
        }
    }
    /* an unfinished game is kept too (quit, Ctrl-C, even while a brain thinks) */
    if (!g->over && g->pos->b.stones > 0 && g->saved_ply != g->pos->b.ply)
        save_game(g);
    term_restore();
    for (int c = BLACK; c <= WHITE; c++)
        brain_close(&g->brains[c]);
    brain_close(&g->hinter);
    if (g->over)
        printf("%s\n", g->result);
    if (g->last_saved[0])
        printf("%s saved as %s\n", g->over ? "game" : "unfinished game", g->last_saved);
    free(g->pos);
    return 0;
}

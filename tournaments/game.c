/* tournaments/game.c — the referee. */
#include "game.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../protocol/codec.h"
#include "../brain/util.h"

static const char *const reason_names[] = {
    "none",  "five",     "board full", "renju move limit", "move cap", "time",     "illegal move",
    "forbidden move", "error", "bad reply", "crash", "memory", "start failed"};

const char *end_reason_name(EndReason r) { return reason_names[r]; }

/* A brain that has just printed its move may not have left its thinking
 * state: a command that reaches it then can be lost (seen with Rapfi). The
 * next command waits this long after a reply, and a brain is not stopped
 * (-suspend) sooner either. */
enum { REPLY_GRACE_MS = 20 };

/* A wait of `left` ms as child_read takes it: 0 to INT_MAX. */
static int wait_ms(int64_t left) { return left <= 0 ? 0 : left > INT_MAX ? INT_MAX : (int)left; }

typedef struct {
    const EngineSpec *spec;
    BrainSlot own;       /* when not reused */
    BrainSlot *slot;
    Child *c;
    int colour;
    bool has_position;   /* received the position once (BOARD/BEGIN) */
    int64_t time_left;   /* ms, match clock */
    int64_t turn_ms, match_ms;
    int64_t replied_at;  /* ms of its last move (0: none yet) */
} Side;

static void lose(GameResult *res, int loser, EndReason why, const char *fmt, const char *arg) {
    res->winner = opponent(loser);
    res->reason = why;
    snprintf(res->detail, sizeof res->detail, fmt, arg ? arg : "");
}

/* Start (or restart) a brain and send START and the INFOs. */
static bool side_start(const GameConfig *cfg, Side *s, char *err, size_t cap) {
    Child *c = &s->slot->child;
    if (!s->slot->live) {
        char path[1200], *errpath = NULL;
        if (cfg->stderr_dir) {
            snprintf(path, sizeof path, "%s/%s.stderr", cfg->stderr_dir, s->spec->name);
            errpath = path;
        }
        if (!child_spawn(c, s->spec->cmd, s->spec->dir[0] ? s->spec->dir : NULL, errpath, err,
                         cap))
            return false;
        c->crlf = true; /* as GomocupJudge and Piskvork send */
        s->slot->live = true;
    }
    s->c = c;
    child_resume(c);
    if (cfg->width == cfg->height)
        child_send(c, "START %d", cfg->width);
    else
        child_send(c, "RECTSTART %d,%d", cfg->width, cfg->height);
    int64_t deadline = now_ms() + cfg->start_timeout_ms;
    for (;;) {
        char lerr[128];
        int64_t left = deadline - now_ms();
        int r = child_read(c, wait_ms(left), lerr, sizeof lerr);
        if (r == LR_TIMEOUT) {
            snprintf(err, cap, "no answer to START within %d ms", cfg->start_timeout_ms);
            return false;
        }
        if (r == LR_EOF) {
            snprintf(err, cap, "exited before answering START");
            return false;
        }
        if (r == LR_BAD)
            continue;
        Reply rep;
        codec_parse_reply(child_line(c), &rep);
        if (rep.kind == REPLY_OK)
            break;
        if (rep.kind == REPLY_MESSAGE || rep.kind == REPLY_DEBUG)
            continue;
        snprintf(err, cap, "answered START with '%.100s'", child_line(c));
        return false;
    }
    child_send(c, "INFO timeout_turn %lld", (long long)s->turn_ms);
    child_send(c, "INFO timeout_match %lld", (long long)s->match_ms);
    if (cfg->max_memory)
        child_send(c, "INFO max_memory %llu", (unsigned long long)cfg->max_memory);
    child_send(c, "INFO game_type 1");
    child_send(c, "INFO rule %d", rule_to_protocol(cfg->rule));
    for (int i = 0; i < s->spec->option_count; i++)
        child_send(c, "INFO %s %s", s->spec->option_key[i], s->spec->option_value[i]);
    if (cfg->suspend)
        child_suspend(c);
    return true;
}

/* A side of a game: its engine, its brain process (slot; NULL: its own) and
 * its clocks (the engine's own time control, else the game's). */
static void side_init(Side *s, const GameConfig *cfg, const EngineSpec *spec, int colour,
                      BrainSlot *slot) {
    memset(s, 0, sizeof *s);
    s->spec = spec;
    s->colour = colour;
    s->slot = slot ? slot : &s->own;
    s->turn_ms = spec->turn_ms >= 0 ? spec->turn_ms : cfg->turn_ms;
    s->match_ms = spec->match_ms >= 0 ? spec->match_ms : cfg->match_ms;
    s->time_left = s->match_ms > 0 ? s->match_ms : INT64_MAX;
}

bool engine_probe(const GameConfig *cfg, const EngineSpec *e, char *err, size_t cap) {
    if (!command_executable(e->cmd, e->dir[0] ? e->dir : NULL, err, cap))
        return false;
    Side s;
    side_init(&s, cfg, e, BLACK, NULL);
    GameConfig g = *cfg;
    g.suspend = false;
    bool ok = side_start(&g, &s, err, cap);
    brain_slot_close(&s.own);
    return ok;
}

void brain_slot_close(BrainSlot *s) {
    if (!s->live)
        return;
    child_resume(&s->child);
    child_send(&s->child, "END");
    child_stop(&s->child, 500);
    child_free(&s->child);
    s->live = false;
}

void game_result_free(GameResult *res) {
    free(res->moves);
    res->moves = NULL;
}

static void record_move(GameResult *res, int x, int y, int ms) {
    GameMoves *m = res->moves;
    m->x[m->count] = (short)x;
    m->y[m->count] = (short)y;
    m->ms[m->count] = ms;
    m->count++;
}


/* One SWAP2BOARD exchange: the stones so far (black first) to the side's
 * brain, its reply parsed into rep within the turn limit. False (and the game
 * lost by the side's colour) on silence, a crash or a reply that is not a
 * swap2 answer. */
static bool swap2_ask(const GameConfig *cfg, Side *s, GameResult *res, int loser, Reply *rep) {
    Child *c = s->c;
    child_resume(c);
    bool sent = child_send(c, "SWAP2BOARD");
    for (int i = 0; i < res->moves->count && sent; i++)
        sent = child_send(c, "%d,%d", res->moves->x[i], res->moves->y[i]);
    sent = sent && child_send(c, "DONE");
    if (!sent) {
        lose(res, loser, END_CRASH, "%s", "its input pipe is closed");
        return false;
    }
    int64_t limit = cfg->tolerance_ms + (s->turn_ms > 0 ? s->turn_ms : 24LL * 3600 * 1000);
    int64_t t0 = now_ms();
    for (;;) {
        char lerr[128];
        int r = child_read(c, wait_ms(t0 + limit - now_ms()), lerr, sizeof lerr);
        if (r == LR_TIMEOUT) {
            lose(res, loser, END_TIME, "%s", "no swap2 answer in time");
            return false;
        }
        if (r == LR_EOF) {
            lose(res, loser, END_CRASH, "%s", "exited or closed its output");
            return false;
        }
        if (r == LR_BAD) {
            lose(res, loser, END_BAD_REPLY, "%s", lerr);
            return false;
        }
        codec_parse_reply(child_line(c), rep);
        if (rep->kind == REPLY_MESSAGE || rep->kind == REPLY_DEBUG)
            continue;
        break;
    }
    int64_t spent = now_ms() - t0;
    s->replied_at = now_ms();
    if (s->match_ms > 0)
        s->time_left -= spent; /* on its match clock like any move */
    res->time_ms[loser] += spent;
    res->replies[loser]++;
    if (spent > res->max_ms[loser])
        res->max_ms[loser] = spent;
    if (cfg->suspend) {
        struct timespec grace = {0, REPLY_GRACE_MS * 1000000L};
        nanosleep(&grace, NULL);
        child_suspend(c);
    }
    return true;
}

/* Put the stones of a swap2 answer on the board (they must be empty cells,
 * renju black not on a forbidden point). */
static bool swap2_place(const GameConfig *cfg, Board *b, GameResult *res, const Reply *rep,
                        int first, int count, int loser) {
    for (int i = first; i < first + count; i++) {
        int x = rep->kind == REPLY_MOVE ? rep->x : rep->xs[i - first];
        int y = rep->kind == REPLY_MOVE ? rep->y : rep->ys[i - first];
        Outcome o = rule_judge(b, x, y, cfg->rule);
        char mv[32];
        snprintf(mv, sizeof mv, "%d,%d", x, y);
        if (o == OUTCOME_ILLEGAL || o == OUTCOME_FORBIDDEN) {
            lose(res, loser, o == OUTCOME_ILLEGAL ? END_ILLEGAL : END_FORBIDDEN, "%s", mv);
            return false;
        }
        board_play(b, board_move_at(b, x, y));
        record_move(res, x, y, 0);
    }
    return true;
}

/* The swap2 opening: sides[BLACK] proposes, sides[WHITE] chooses. Leaves the
 * stones on b, the sides in their real colours (swapped when so chosen).
 * False when a side lost in it. */
static bool swap2_opening(const GameConfig *cfg, Side *sides, Board *b, GameResult *res) {
    Side *a = &sides[BLACK], *bb = &sides[WHITE]; /* a proposes, bb chooses */
    Reply rep;
    if (!swap2_ask(cfg, a, res, BLACK, &rep))
        return false;
    if (rep.kind != REPLY_MOVES || rep.count != 3) {
        lose(res, BLACK, END_BAD_REPLY, "swap2: '%.100s' is not three stones", child_line(a->c));
        return false;
    }
    if (!swap2_place(cfg, b, res, &rep, 0, 3, BLACK))
        return false;
    char *log = res->swap2_log;
    size_t cap = sizeof res->swap2_log;
    int k = snprintf(log, cap, "%s proposes %d,%d %d,%d %d,%d; ", a->spec->name, rep.xs[0],
                     rep.ys[0], rep.xs[1], rep.ys[1], rep.xs[2], rep.ys[2]);
    if (!swap2_ask(cfg, bb, res, WHITE, &rep))
        return false;
    bool a_black = true;
    if (rep.kind == REPLY_SWAP) {
        a_black = false;
        snprintf(log + k, cap - (size_t)k, "%s swaps (black)", bb->spec->name);
    } else if (rep.kind == REPLY_MOVE) {
        if (!swap2_place(cfg, b, res, &rep, 0, 1, WHITE))
            return false;
        snprintf(log + k, cap - (size_t)k, "%s stays white, plays %d,%d", bb->spec->name, rep.x,
                 rep.y);
    } else if (rep.kind == REPLY_MOVES && rep.count == 2) {
        if (!swap2_place(cfg, b, res, &rep, 0, 2, WHITE))
            return false;
        k += snprintf(log + k, cap - (size_t)k, "%s adds %d,%d %d,%d; ", bb->spec->name, rep.xs[0],
                      rep.ys[0], rep.xs[1], rep.ys[1]);
        if (!swap2_ask(cfg, a, res, BLACK, &rep))
            return false;
        if (rep.kind == REPLY_SWAP) {
            snprintf(log + k, cap - (size_t)k, "%s swaps (black)", a->spec->name);
        } else if (rep.kind == REPLY_MOVE) {
            a_black = false; /* a takes white and plays its sixth stone */
            if (!swap2_place(cfg, b, res, &rep, 0, 1, BLACK))
                return false;
            snprintf(log + k, cap - (size_t)k, "%s takes white, plays %d,%d", a->spec->name, rep.x,
                     rep.y);
        } else {
            lose(res, BLACK, END_BAD_REPLY, "swap2: '%.100s' is neither SWAP nor a move", child_line(a->c));
            return false;
        }
    } else {
        lose(res, WHITE, END_BAD_REPLY, "swap2: '%.100s' is not SWAP, a move or two", child_line(bb->c));
        return false;
    }
    if (!a_black) {
        /* exchange the two sides whole; a side's own slot moves with it */
        bool own[3] = {false, sides[BLACK].slot == &sides[BLACK].own,
                       sides[WHITE].slot == &sides[WHITE].own};
        Side t = sides[BLACK];
        sides[BLACK] = sides[WHITE];
        sides[WHITE] = t;
        bool tmp = own[BLACK];
        own[BLACK] = own[WHITE], own[WHITE] = tmp;
        for (int c = BLACK; c <= WHITE; c++) {
            sides[c].colour = c;
            if (own[c])
                sides[c].slot = &sides[c].own;
            sides[c].c = &sides[c].slot->child;
        }
        res->swapped = true;
    }
    for (int c = BLACK; c <= WHITE; c++)
        sides[c].has_position = false; /* each gets the whole position with BOARD */
    return true;
}

void game_play(const GameConfig *cfg, const EngineSpec *black, const EngineSpec *white,
               const Record *opening, BrainSlot *black_slot, BrainSlot *white_slot,
               GameResult *res) {
    memset(res, 0, sizeof *res);
    res->moves = calloc(1, sizeof *res->moves);
    Side sides[3];
    side_init(&sides[BLACK], cfg, black, BLACK, black_slot);
    side_init(&sides[WHITE], cfg, white, WHITE, white_slot);
    static _Thread_local Board b; /* one board per worker thread */
    board_init(&b, cfg->width, cfg->height);
    for (int i = 0; i < opening->count; i++) {
        if (opening->x[i] < 0) {
            board_pass(&b);
            continue;
        }
        board_play(&b, board_move_at(&b, opening->x[i], opening->y[i]));
        record_move(res, opening->x[i], opening->y[i], 0);
    }
    res->opening_stones = res->moves->count;
    char err[256];
    for (int c = BLACK; c <= WHITE; c++)
        if (!side_start(cfg, &sides[c], err, sizeof err)) {
            lose(res, c, END_START, "%s", err);
            goto done;
        }
    if (cfg->swap2 && opening->count == 0 && !swap2_opening(cfg, sides, &b, res))
        goto done;

    Move last = MOVE_NONE;
    for (;;) {
        int mover = b.side;
        Side *s = &sides[mover];
        Child *c = s->c;
        if (b.stones >= b.width * b.height) {
            res->winner = 0;
            res->reason = END_FULL;
            break;
        }
        if (cfg->rule == RULE_RENJU && !cfg->no_renju_limit &&
            b.stones >= b.width * b.height - 25) {
            res->winner = 0;
            res->reason = END_RENJU_LIMIT;
            break;
        }
        if (cfg->move_cap && b.stones >= cfg->move_cap) {
            res->winner = 0;
            res->reason = END_MOVE_CAP;
            break;
        }
        child_resume(c);
        int64_t allowed = s->turn_ms > 0 ? s->turn_ms : 0;
        if (s->match_ms > 0) {
            int64_t left = s->time_left > 0 ? s->time_left : 0;
            if (s->turn_ms <= 0 || left < allowed)
                allowed = left;
        }
        if (s->turn_ms <= 0 && s->match_ms <= 0)
            allowed = 24LL * 3600 * 1000; /* no clock */
        int64_t limit = cfg->tolerance_ms + allowed;
        int64_t since = now_ms() - s->replied_at;
        if (s->replied_at && since < REPLY_GRACE_MS) { /* not counted on its clock */
            struct timespec wait = {0, (long)(REPLY_GRACE_MS - since) * 1000000L};
            nanosleep(&wait, NULL);
        }
        if (s->match_ms > 0)
            child_send(c, "INFO time_left %lld",
                       (long long)(s->time_left > 2147483647 ? 2147483647 : s->time_left));
        int64_t t0 = now_ms();
        bool sent;
        if (!s->has_position) {
            s->has_position = true;
            if (b.stones == 0 && cfg->use_begin)
                sent = child_send(c, "BEGIN");
            else {
                sent = child_send(c, "BOARD");
                for (int i = 0; i < res->moves->count && sent; i++) {
                    Move m = board_move_at(&b, res->moves->x[i], res->moves->y[i]);
                    sent = child_send(c, "%d,%d,%d", res->moves->x[i], res->moves->y[i],
                                      b.cell[m] == mover ? 1 : 2);
                }
                sent = sent && child_send(c, "DONE");
            }
        } else {
            sent = child_send(c, "TURN %d,%d", board_x(&b, last), board_y(&b, last));
        }
        if (!sent) {
            lose(res, mover, END_CRASH, "%s", "its input pipe is closed");
            break;
        }
        /* the reply */
        int x = -1, y = -1;
        EndReason fail = END_NONE;
        char failtext[200] = "";
        for (;;) {
            int64_t left = t0 + limit - now_ms();
            char lerr[128];
            int r = child_read(c, wait_ms(left), lerr, sizeof lerr);
            if (r == LR_TIMEOUT) {
                fail = END_TIME;
                snprintf(failtext, sizeof failtext, "no move within %lld ms", (long long)limit);
                break;
            }
            if (r == LR_EOF) {
                fail = END_CRASH;
                snprintf(failtext, sizeof failtext, "exited or closed its output");
                break;
            }
            if (r == LR_BAD) {
                fail = END_BAD_REPLY;
                snprintf(failtext, sizeof failtext, "%s", lerr);
                break;
            }
            Reply rep;
            codec_parse_reply(child_line(c), &rep);
            if (rep.kind == REPLY_MESSAGE || rep.kind == REPLY_DEBUG)
                continue;
            if (rep.kind == REPLY_MOVE) {
                x = rep.x, y = rep.y;
                break;
            }
            if (rep.kind == REPLY_SUGGEST) { /* the manager answers PLAY with the same square */
                child_send(c, "PLAY %d,%d", rep.x, rep.y);
                continue;
            }
            fail = rep.kind == REPLY_ERROR ? END_ERROR : END_BAD_REPLY;
            snprintf(failtext, sizeof failtext, "'%.150s'", child_line(c));
            break;
        }
        int64_t spent = now_ms() - t0;
        s->replied_at = now_ms();
        if (cfg->suspend && fail == END_NONE) {
            struct timespec grace = {0, REPLY_GRACE_MS * 1000000L};
            nanosleep(&grace, NULL);
            child_suspend(c);
        }
        /* the tree's unique set size costs a walk over /proc: only when a
         * limit is enforced on it */
        long peak = child_peak_kib(c), uss = cfg->max_memory ? child_tree_uss_kib(c) : 0;
        if (peak > res->peak_kib[mover])
            res->peak_kib[mover] = peak;
        if (uss > res->uss_kib[mover])
            res->uss_kib[mover] = uss;
        if (fail == END_NONE && spent > limit) {
            fail = END_TIME;
            snprintf(failtext, sizeof failtext, "%lld ms, limit %lld", (long long)spent,
                     (long long)limit);
        }
        if (fail != END_NONE) {
            lose(res, mover, fail, "%s", failtext);
            break;
        }
        res->time_ms[mover] += spent;
        res->replies[mover]++;
        if (spent > res->max_ms[mover])
            res->max_ms[mover] = spent;
        if (s->match_ms > 0)
            s->time_left -= spent;
        if (cfg->max_memory && (uint64_t)uss * 1024 > cfg->max_memory) {
            /* as GomocupJudge: private memory of the whole process tree,
             * measured after the move */
            char t[64];
            snprintf(t, sizeof t, "%ld KiB", uss);
            lose(res, mover, END_MEMORY, "memory (unique set size) %s", t);
            break;
        }
        Outcome o = rule_judge(&b, x, y, cfg->rule);
        char mv[32];
        snprintf(mv, sizeof mv, "%d,%d", x, y);
        if (o == OUTCOME_ILLEGAL) {
            lose(res, mover, END_ILLEGAL, "%s", mv);
            break;
        }
        if (o == OUTCOME_FORBIDDEN) {
            lose(res, mover, END_FORBIDDEN, "%s", mv);
            break;
        }
        last = board_move_at(&b, x, y);
        board_play(&b, last);
        record_move(res, x, y, (int)spent);
        if (o == OUTCOME_WIN) {
            res->winner = mover;
            res->reason = END_FIVE;
            snprintf(res->detail, sizeof res->detail, "%s", mv);
            break;
        }
    }
done:
    for (int c = BLACK; c <= WHITE; c++) {
        Side *s = &sides[c];
        if (s->slot->live && s->slot->child.alive)
            res->peak_kib[c] = res->peak_kib[c] > child_peak_kib(&s->slot->child)
                                   ? res->peak_kib[c]
                                   : child_peak_kib(&s->slot->child);
        /* a reused brain stays unless it misbehaved */
        bool keep = s->slot != &s->own && s->slot->live && s->slot->child.alive &&
                    !((res->reason == END_TIME || res->reason == END_CRASH ||
                       res->reason == END_BAD_REPLY || res->reason == END_START ||
                       res->reason == END_MEMORY) &&
                      res->winner != c);
        if (keep)
            child_resume(&s->slot->child);
        else
            brain_slot_close(s->slot);
    }
}

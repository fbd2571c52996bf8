/* tournaments/game.h — one game between two brains, judged like the Gomocup
 * referee: brain/'s rules for every move, the per-reply limit tolerance +
 * min(turn limit, match time left), INFO time_left before every move, the
 * opponent suspended while not on move (optional), a memory limit (optional);
 * a crash, a closed pipe, silence, a bad reply or ERROR loses, and every
 * result records its reason. */
#ifndef QUINTO_TOURNAMENTS_GAME_H
#define QUINTO_TOURNAMENTS_GAME_H

#include <stdint.h>

#include "../brain/record.h"
#include "process.h"

enum { ENGINE_MAX_OPTIONS = 16 };

typedef struct {
    char name[64];
    char cmd[1024];
    char dir[1024];
    int option_count;
    char option_key[ENGINE_MAX_OPTIONS][64];
    char option_value[ENGINE_MAX_OPTIONS][256];
    int64_t turn_ms, match_ms; /* per engine time control; < 0: use the game's */
} EngineSpec;

typedef struct {
    Rule rule;
    int width, height;
    int64_t turn_ms;       /* 0: no per-move limit sent (timeout_turn 0 means fast!) */
    int64_t match_ms;      /* 0: none */
    int64_t tolerance_ms;
    uint64_t max_memory;   /* bytes, 0: none (not sent, not enforced) */
    bool suspend;          /* SIGSTOP the brain not on move */
    bool use_begin;        /* BEGIN on an empty board (Piskvork) rather than an empty BOARD (GomocupJudge) */
    int move_cap;          /* draw after this many moves in the game (0: none) */
    bool no_renju_limit;   /* renju: play past size^2 - 25 stones (puzzle runs) */
    int start_timeout_ms;  /* for OK after START */
    bool log_messages;
    bool swap2;            /* swap2 opening on an empty board (SWAP2BOARD): the engine
                              scheduled as black proposes, the other chooses */
    const char *stderr_dir; /* brains' stderr files go here (NULL: discarded) */
} GameConfig;

typedef enum {
    END_NONE,
    END_FIVE,        /* the winner made five */
    END_FULL,        /* board full: draw */
    END_RENJU_LIMIT, /* renju: size^2 - 25 stones, draw */
    END_MOVE_CAP,    /* adjudicated draw at the move cap */
    END_TIME,        /* loser over its limit */
    END_ILLEGAL,     /* off the board or on a stone */
    END_FORBIDDEN,   /* renju: black on a forbidden point */
    END_ERROR,       /* the loser answered ERROR */
    END_BAD_REPLY,   /* something that is not a move */
    END_CRASH,       /* exited or closed its output */
    END_MEMORY,      /* over max_memory */
    END_START,       /* could not start, or no OK to START */
} EndReason;

const char *end_reason_name(EndReason r);

typedef struct {
    int count;
    short x[BOARD_MAX_SIZE * BOARD_MAX_SIZE];
    short y[BOARD_MAX_SIZE * BOARD_MAX_SIZE];
    int ms[BOARD_MAX_SIZE * BOARD_MAX_SIZE];     /* time spent, 0 for opening stones */
} GameMoves;

typedef struct {
    int winner;              /* BLACK, WHITE, or 0 for a draw */
    EndReason reason;
    char detail[256];
    int opening_stones;
    GameMoves *moves;        /* opening stones first (passes are not listed) */
    int64_t time_ms[3];      /* per colour: total thinking time */
    int64_t max_ms[3];       /* per colour: longest reply */
    int replies[3];
    long peak_kib[3];        /* per colour: peak resident memory (VmHWM) seen */
    long uss_kib[3];         /* per colour: largest unique set size of the brain's
                                process tree after a move (GomocupJudge's measure) */
    bool swapped;            /* swap2: the engine scheduled as black played white */
    char swap2_log[160];     /* swap2: what each side chose */
} GameResult;

/* A brain kept between games (c-gomoku-cli style reuse): NULL fields start fresh. */
typedef struct {
    Child child;
    bool live;
} BrainSlot;

/* Play a game from the opening: black is `black`, white `white`. Slots may
 * be NULL (a fresh process per game); otherwise a live process in a slot is
 * reused with a new START and left running for the next game. With
 * cfg->swap2 and an empty opening, `black` proposes three stones and `white`
 * chooses (SWAP2BOARD, as Gomocup's swap2 games): res->swapped tells when the
 * engines' colours ended the other way round (res's colours are the real
 * ones). */
void game_play(const GameConfig *cfg, const EngineSpec *black, const EngineSpec *white,
               const Record *opening, BrainSlot *black_slot, BrainSlot *white_slot,
               GameResult *res);

void game_result_free(GameResult *res);

/* Close a reused brain (END, then kill after a grace period). */
void brain_slot_close(BrainSlot *s);

/* Can the engine be started: its program runs and answers START with OK
 * (the game's size and clock)? False with the reason in err. */
bool engine_probe(const GameConfig *cfg, const EngineSpec *e, char *err, size_t cap);

#endif

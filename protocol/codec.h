/* protocol/codec.h — the Gomocup / Piskvork text protocol as values.
 *
 * One line in, one value out: commands from a manager (parsed by the brain)
 * and replies from a brain (parsed by the manager). Case-insensitive, any of
 * CR, LF, CRLF already stripped by the line reader, no I/O of its own.
 */
#ifndef QUINTO_PROTOCOL_CODEC_H
#define QUINTO_PROTOCOL_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { PROTO_MAX_LINE = 65536, PROTO_MSG = 256 };

typedef enum {
    CMD_EMPTY,         /* blank line: ignored */
    CMD_START,         /* a = size */
    CMD_RECTSTART,     /* a = width, b = height */
    CMD_RESTART,
    CMD_BEGIN,
    CMD_TURN,          /* a,b = x,y */
    CMD_BOARD,         /* then position lines, then DONE */
    CMD_YXBOARD,
    CMD_SWAP2BOARD,
    CMD_DONE,
    CMD_INFO,          /* key, value */
    CMD_END,
    CMD_ABOUT,
    CMD_TAKEBACK,      /* a,b */
    CMD_PLAY,          /* a,b */
    CMD_YXSTOP,        /* also STOP */
    CMD_YXSHOWFORBID,
    CMD_YXHASHCLEAR,
    CMD_YXNBEST,       /* a = how many moves */
    CMD_YXBALANCEONE,  /* a = the bias: the score wanted for the side to move after the move */
    CMD_YXBALANCETWO,  /* a = the bias, after two moves */
    CMD_YXSHOWINFO,    /* a GUI (Yixin-Board) says it is there */
    CMD_UNKNOWN,       /* key holds the command word */
    CMD_ERROR,         /* malformed: message says why */
} CommandKind;

typedef struct {
    CommandKind kind;
    long long a, b;
    char key[64];
    char value[PROTO_MSG];
    char message[PROTO_MSG];
} Command;

/* Parse a command line (no line terminator). */
void codec_parse_command(const char *line, Command *cmd);

/* Parse a line inside BOARD/YXBOARD ("x,y,f"; f 1 own, 2 opponent, 3 winning
 * line / forbidden in continuous games) or SWAP2BOARD ("x,y"); "DONE" ends the
 * block. Returns 1 for a position line, 0 for DONE, -1 on a malformed line
 * (message says why). want_field: whether the third field is required. */
int codec_parse_board_line(const char *line, bool want_field, int *x, int *y, int *f, char *message,
                           size_t cap);

/* Replies a brain sends. */
typedef enum {
    REPLY_MOVE,      /* x, y */
    REPLY_MOVES,     /* several "x,y" separated by spaces (SWAP2BOARD): count, xs, ys */
    REPLY_SWAP,
    REPLY_OK,
    REPLY_ERROR,     /* text */
    REPLY_UNKNOWN,   /* text */
    REPLY_MESSAGE,   /* text */
    REPLY_DEBUG,     /* text */
    REPLY_SUGGEST,   /* x, y */
    REPLY_FORBID,    /* text: the digits */
    REPLY_ABOUT,     /* text: the whole line */
    REPLY_OTHER,     /* anything else: text */
} ReplyKind;

typedef struct {
    ReplyKind kind;
    int x, y;
    int count;
    int xs[8], ys[8];
    char text[PROTO_MSG];
} Reply;

void codec_parse_reply(const char *line, Reply *r);

/* Strict "x,y" with decimal digits only (an optional leading '-'); false if
 * the text has anything else. */
bool codec_parse_xy(const char *s, int *x, int *y);

/* The notation people read (the terminal's): column letters a, b, ... z, aa,
 * ab, ... and the row counted from the bottom: "h8" is 7,7 on 15x15. */
void codec_cell_name(int x, int y, int height, char *buf, int cap);

/* A cell in either notation, "h8" (any case) or the protocol's "7,8" (a
 * space after the comma allowed), on a w x h board; false off the board. */
bool codec_parse_cell(const char *s, int w, int h, int *x, int *y);

/* Copy text to out with every "x,y" token after " pv " renamed "h8": a
 * MESSAGE line as people read it. */
void codec_pv_names(const char *text, int height, char *out, int cap);

/* The same for every "x,y" token of text ("five 6,10" -> "five g5"). */
void codec_cell_names(const char *text, int height, char *out, int cap);

/* Case-insensitive compare of the first word of line with word. */
bool codec_word_is(const char *line, const char *word);

#endif

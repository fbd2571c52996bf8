/* protocol/linereader.h — lines from a file descriptor: CR, LF or CRLF ends a
 * line; a line of PROTO_MAX_LINE bytes or more, or one holding control or
 * non-ASCII bytes, is consumed whole and reported as an error. */
#ifndef QUINTO_PROTOCOL_LINEREADER_H
#define QUINTO_PROTOCOL_LINEREADER_H

#include <stdbool.h>
#include <stddef.h>

#include "codec.h"

typedef struct {
    int fd;
    char buf[8192];
    size_t len, pos;
    bool eof;
    bool last_cr;        /* the previous line ended with CR: skip one LF */
    char line[PROTO_MAX_LINE];
    size_t line_len;
    bool too_long, binary;
} LineReader;

enum { LR_LINE = 1, LR_EOF = 0, LR_BAD = -1, LR_TIMEOUT = -2 };

void lr_init(LineReader *r, int fd);

/* Read the next line into r->line (NUL-terminated). Returns LR_LINE,
 * LR_EOF, LR_BAD (err says why; the line is consumed) or LR_TIMEOUT (when
 * timeout_ms >= 0 passes first; a partial line is kept for the next call). */
int lr_read(LineReader *r, int timeout_ms, char *err, size_t errcap);

#endif

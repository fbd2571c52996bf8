/* protocol/linereader.c */
#include "linereader.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../brain/util.h"
#include "platform.h"

void lr_init(LineReader *r, int fd) {
    memset(r, 0, sizeof *r);
    r->fd = fd;
}

/* Refill the buffer; 1 data, 0 eof, -2 timeout. */
static int fill(LineReader *r, long long deadline) {
    for (;;) {
        if (deadline >= 0) {
            long long left = deadline - now_ms();
            if (left < 0)
                left = 0;
            int pr = platform_wait_readable(r->fd, (int)left);
            if (pr == 0)
                return -2;
        }
        ssize_t n = read(r->fd, r->buf, sizeof r->buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            r->eof = true;
            return 0;
        }
        r->len = (size_t)n;
        r->pos = 0;
        return 1;
    }
}

static int finish(LineReader *r, char *err, size_t errcap) {
    r->line[r->line_len < PROTO_MAX_LINE ? r->line_len : PROTO_MAX_LINE - 1] = 0;
    int result = LR_LINE;
    if (r->too_long) {
        snprintf(err, errcap, "line too long (%d bytes or more)", PROTO_MAX_LINE);
        result = LR_BAD;
    } else if (r->binary) {
        snprintf(err, errcap, "binary data in line");
        result = LR_BAD;
    }
    r->line_len = 0;
    r->too_long = r->binary = false;
    return result;
}

int lr_read(LineReader *r, int timeout_ms, char *err, size_t errcap) {
    long long deadline = timeout_ms >= 0 ? now_ms() + timeout_ms : -1;
    err[0] = 0;
    for (;;) {
        if (r->pos >= r->len) {
            if (r->eof)
                goto at_eof;
            int f = fill(r, deadline);
            if (f == -2)
                return LR_TIMEOUT;
            if (f == 0)
                goto at_eof;
        }
        while (r->pos < r->len) {
            unsigned char ch = (unsigned char)r->buf[r->pos++];
            if (r->last_cr) {
                r->last_cr = false;
                if (ch == '\n')
                    continue;
            }
            if (ch == '\r' || ch == '\n') {
                r->last_cr = ch == '\r';
                return finish(r, err, errcap);
            }
            if ((ch < 0x20 && ch != '\t') || ch >= 0x7F)
                r->binary = true;
            if (r->line_len + 1 >= PROTO_MAX_LINE)
                r->too_long = true;
            else
                r->line[r->line_len] = (char)ch;
            r->line_len++;
        }
    }
at_eof:
    if (r->line_len || r->too_long || r->binary)
        return finish(r, err, errcap); /* a last line without terminator */
    return LR_EOF;
}

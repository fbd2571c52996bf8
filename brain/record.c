/* brain/record.c — testdata line parser. */
#include "record.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void trim_copy(char *dst, size_t cap, const char *s, size_t n) {
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, s, n);
    dst[n] = 0;
}

bool record_parse(const char *line, Record *r, char *err, size_t errlen) {
    err[0] = 0;
    const char *p = line;
    while (isspace((unsigned char)*p))
        p++;
    if (!*p || *p == '#')
        return false;
    const char *bar = strchr(p, '|');
    const char *hash = strchr(bar ? bar : p, '#');
    const char *moves_end = bar ? bar : (hash ? hash : p + strlen(p));

    char rulebuf[32];
    int used = 0, size = 0;
    if (sscanf(p, "%31s %d%n", rulebuf, &size, &used) != 2) {
        snprintf(err, errlen, "expected RULE SIZE at the start");
        return false;
    }
    if (!rule_parse(rulebuf, &r->rule)) {
        snprintf(err, errlen, "unknown rule '%s'", rulebuf);
        return false;
    }
    if (size < BOARD_MIN_SIZE || size > BOARD_MAX_SIZE) {
        snprintf(err, errlen, "board size %d out of range", size);
        return false;
    }
    r->width = r->height = size;
    r->count = 0;
    p += used;
    while (p < moves_end) {
        while (p < moves_end && isspace((unsigned char)*p))
            p++;
        if (p >= moves_end)
            break;
        if (r->count >= RECORD_MAX_MOVES) {
            snprintf(err, errlen, "too many moves");
            return false;
        }
        if (*p == '-' && (p + 1 >= moves_end || isspace((unsigned char)p[1]))) {
            r->x[r->count] = r->y[r->count] = -1;
            r->count++;
            p++;
            continue;
        }
        char *e1, *e2;
        long x = strtol(p, &e1, 10);
        if (e1 == p || *e1 != ',') {
            snprintf(err, errlen, "bad move near '%.12s'", p);
            return false;
        }
        long y = strtol(e1 + 1, &e2, 10);
        if (e2 == e1 + 1 || (e2 < moves_end && !isspace((unsigned char)*e2))) {
            snprintf(err, errlen, "bad move near '%.12s'", p);
            return false;
        }
        if (x < 0 || y < 0 || x >= size || y >= size) {
            snprintf(err, errlen, "move %ld,%ld off the %dx%d board", x, y, size, size);
            return false;
        }
        r->x[r->count] = (short)x;
        r->y[r->count] = (short)y;
        r->count++;
        p = e2;
    }
    r->expect[0] = r->source[0] = 0;
    if (bar) {
        const char *end = hash ? hash : bar + strlen(bar);
        trim_copy(r->expect, sizeof r->expect, bar + 1, (size_t)(end - bar - 1));
    }
    if (hash)
        trim_copy(r->source, sizeof r->source, hash + 1, strlen(hash + 1));
    return true;
}

bool record_setup(const Record *r, Board *b) {
    if (!board_init(b, r->width, r->height))
        return false;
    for (int i = 0; i < r->count; i++) {
        if (r->x[i] < 0) {
            board_pass(b);
            continue;
        }
        Move m = board_move_at(b, r->x[i], r->y[i]);
        if (b->cell[m] != EMPTY)
            return false;
        board_play(b, m);
    }
    return true;
}

int record_points(const char *text, int *xs, int *ys, int max) {
    int n = 0;
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == ';')
            return n;
        char *e1, *e2;
        long x = strtol(p, &e1, 10);
        if (e1 == p || *e1 != ',')
            return -1;
        long y = strtol(e1 + 1, &e2, 10);
        if (e2 == e1 + 1 || n >= max)
            return -1;
        xs[n] = (int)x;
        ys[n] = (int)y;
        n++;
        p = e2;
    }
}

const char *record_claim(const Record *r, const char *name) {
    size_t len = strlen(name);
    const char *p = r->expect;
    while (*p) {
        while (*p == ' ' || *p == ';')
            p++;
        if (strncmp(p, name, len) == 0 && (p[len] == 0 || p[len] == ' ' || p[len] == ';'))
            return p + len;
        while (*p && *p != ';')
            p++;
    }
    return NULL;
}

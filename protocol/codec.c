/* protocol/codec.c */
#include "codec.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_ws(const char *p) {
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* Copy the first word (upper-cased) and return what follows it. */
static const char *first_word(const char *line, char *word, size_t cap) {
    const char *p = skip_ws(line);
    size_t n = 0;
    while (*p && *p != ' ' && *p != '\t') {
        if (n + 1 < cap)
            word[n++] = (char)toupper((unsigned char)*p);
        p++;
    }
    word[n] = 0;
    return skip_ws(p);
}

bool codec_word_is(const char *line, const char *word) {
    char w[64];
    first_word(line, w, sizeof w);
    char up[64];
    size_t i = 0;
    for (; word[i] && i + 1 < sizeof up; i++)
        up[i] = (char)toupper((unsigned char)word[i]);
    up[i] = 0;
    return strcmp(w, up) == 0;
}

/* A decimal integer (optional sign) spanning [p, end). */
static bool parse_int(const char *p, const char *end, long long *out) {
    if (p >= end)
        return false;
    const char *q = p;
    if (*q == '-' || *q == '+')
        q++;
    if (q >= end)
        return false;
    for (const char *r = q; r < end; r++)
        if (!isdigit((unsigned char)*r))
            return false;
    if (end - q > 18)
        return false;
    long long v = 0;
    for (const char *r = q; r < end; r++)
        v = v * 10 + (*r - '0');
    *out = *p == '-' ? -v : v;
    return true;
}

/* "a,b" with optional spaces around the numbers and nothing after. */
static bool parse_pair(const char *s, long long *a, long long *b) {
    s = skip_ws(s);
    const char *comma = strchr(s, ',');
    if (!comma)
        return false;
    const char *e1 = comma;
    while (e1 > s && (e1[-1] == ' ' || e1[-1] == '\t'))
        e1--;
    const char *s2 = skip_ws(comma + 1);
    const char *e2 = s2 + strlen(s2);
    while (e2 > s2 && (e2[-1] == ' ' || e2[-1] == '\t'))
        e2--;
    return parse_int(s, e1, a) && parse_int(s2, e2, b);
}

bool codec_parse_xy(const char *s, int *x, int *y) {
    long long a, b;
    const char *comma = strchr(s, ',');
    if (!comma || strchr(comma + 1, ','))
        return false;
    if (!parse_int(s, comma, &a) || !parse_int(comma + 1, comma + 1 + strlen(comma + 1), &b))
        return false;
    if (a < -1000000 || a > 1000000 || b < -1000000 || b > 1000000)
        return false;
    *x = (int)a;
    *y = (int)b;
    return true;
}

static void set_error(Command *c, const char *fmt, const char *arg) {
    c->kind = CMD_ERROR;
    snprintf(c->message, sizeof c->message, fmt, arg);
}

void codec_parse_command(const char *line, Command *c) {
    memset(c, 0, sizeof *c);
    char word[64];
    const char *rest = first_word(line, word, sizeof word);
    if (!word[0]) {
        c->kind = CMD_EMPTY;
        return;
    }
    static const struct {
        const char *name;
        CommandKind kind;
        int args; /* 0 none, 1 one number, 2 pair, 3 INFO */
    } table[] = {
        {"START", CMD_START, 1},       {"RECTSTART", CMD_RECTSTART, 2},
        {"RESTART", CMD_RESTART, 0},   {"BEGIN", CMD_BEGIN, 0},
        {"TURN", CMD_TURN, 2},         {"BOARD", CMD_BOARD, 0},
        {"YXBOARD", CMD_YXBOARD, 0},   {"SWAP2BOARD", CMD_SWAP2BOARD, 0},
        {"DONE", CMD_DONE, 0},         {"INFO", CMD_INFO, 3},
        {"END", CMD_END, 0},           {"ABOUT", CMD_ABOUT, 0},
        {"TAKEBACK", CMD_TAKEBACK, 2}, {"PLAY", CMD_PLAY, 2},
        {"YXSTOP", CMD_YXSTOP, 0},     {"STOP", CMD_YXSTOP, 0},
        {"YXSHOWFORBID", CMD_YXSHOWFORBID, 0}, {"YXHASHCLEAR", CMD_YXHASHCLEAR, 0},
        {"YXNBEST", CMD_YXNBEST, 1},   {"YXBALANCEONE", CMD_YXBALANCEONE, 1},
        {"YXBALANCETWO", CMD_YXBALANCETWO, 1}, {"YXSHOWINFO", CMD_YXSHOWINFO, 0},
    };
    for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
        if (strcmp(word, table[i].name) != 0)
            continue;
        c->kind = table[i].kind;
        switch (table[i].args) {
        case 0:
            if (*rest)
                set_error(c, "%s takes no arguments", table[i].name);
            return;
        case 1: {
            const char *end = rest + strlen(rest);
            while (end > rest && (end[-1] == ' ' || end[-1] == '\t'))
                end--;
            if (!parse_int(rest, end, &c->a))
                set_error(c, "%s needs a number", table[i].name);
            return;
        }
        case 2:
            if (!parse_pair(rest, &c->a, &c->b))
                set_error(c, "%s needs x,y", table[i].name);
            return;
        case 3: {
            size_t n = 0;
            const char *p = rest;
            while (*p && *p != ' ' && *p != '\t') {
                if (n + 1 < sizeof c->key)
                    c->key[n++] = (char)tolower((unsigned char)*p);
                p++;
            }
            c->key[n] = 0;
            if (!n) {
                set_error(c, "%s needs a key", "INFO");
                return;
            }
            p = skip_ws(p);
            snprintf(c->value, sizeof c->value, "%s", p);
            n = strlen(c->value);
            while (n && (c->value[n - 1] == ' ' || c->value[n - 1] == '\t'))
                c->value[--n] = 0;
            return;
        }
        }
    }
    c->kind = CMD_UNKNOWN;
    snprintf(c->key, sizeof c->key, "%s", word);
}

int codec_parse_board_line(const char *line, bool want_field, int *x, int *y, int *f, char *message,
                           size_t cap) {
    const char *p = skip_ws(line);
    if (codec_word_is(p, "DONE")) {
        char w[16];
        const char *rest = first_word(p, w, sizeof w);
        if (*rest) {
            snprintf(message, cap, "DONE takes no arguments");
            return -1;
        }
        return 0;
    }
    long long v[3];
    int n = 0;
    const char *s = p;
    for (;;) {
        const char *comma = strchr(s, ',');
        const char *end = comma ? comma : s + strlen(s);
        const char *a = skip_ws(s), *e = end;
        while (e > a && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        if (n == 3 || !parse_int(a, e, &v[n])) {
            snprintf(message, cap, "bad position line '%.40s'", line);
            return -1;
        }
        n++;
        if (!comma)
            break;
        s = comma + 1;
    }
    if (n != (want_field ? 3 : 2)) {
        snprintf(message, cap, "bad position line '%.40s' (expected %s)", line,
                 want_field ? "x,y,field" : "x,y");
        return -1;
    }
    if (v[0] < -100000 || v[0] > 100000 || v[1] < -100000 || v[1] > 100000) {
        snprintf(message, cap, "coordinates out of range in '%.40s'", line);
        return -1;
    }
    *x = (int)v[0];
    *y = (int)v[1];
    if (want_field) {
        if (v[2] < 1 || v[2] > 3) {
            snprintf(message, cap, "field must be 1, 2 or 3 in '%.40s'", line);
            return -1;
        }
        *f = (int)v[2];
    }
    return 1;
}

void codec_parse_reply(const char *line, Reply *r) {
    memset(r, 0, sizeof *r);
    const char *p = skip_ws(line);
    char word[64];
    const char *rest = first_word(p, word, sizeof word);
    snprintf(r->text, sizeof r->text, "%s", rest);
    static const struct {
        const char *word;
        ReplyKind kind;
        bool alone; /* nothing may follow the word */
    } table[] = {
        {"MESSAGE", REPLY_MESSAGE, false}, {"DEBUG", REPLY_DEBUG, false},
        {"ERROR", REPLY_ERROR, false},     {"UNKNOWN", REPLY_UNKNOWN, false},
        {"FORBID", REPLY_FORBID, false},   {"OK", REPLY_OK, true},
        {"SWAP", REPLY_SWAP, true},
    };
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (!strcmp(word, table[i].word) && (!table[i].alone || !*rest)) {
            r->kind = table[i].kind;
            return;
        }
    if (!strcmp(word, "SUGGEST") && codec_parse_xy(rest, &r->x, &r->y)) {
        r->kind = REPLY_SUGGEST;
        return;
    }
    /* one or more moves separated by spaces */
    char buf[PROTO_MSG];
    snprintf(buf, sizeof buf, "%s", p);
    size_t len = strlen(buf);
    while (len && (buf[len - 1] == ' ' || buf[len - 1] == '\t'))
        buf[--len] = 0;
    int n = 0;
    bool ok = len > 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, " \t", &save); tok && ok; tok = strtok_r(NULL, " \t", &save)) {
        if (n >= 8 || !codec_parse_xy(tok, &r->xs[n], &r->ys[n]))
            ok = false;
        else
            n++;
    }
    if (ok && n >= 1) {
        r->count = n;
        r->x = r->xs[0];
        r->y = r->ys[0];
        r->kind = n == 1 ? REPLY_MOVE : REPLY_MOVES;
        return;
    }
    r->kind = strstr(p, "name=") ? REPLY_ABOUT : REPLY_OTHER;
    snprintf(r->text, sizeof r->text, "%s", p);
}

void codec_cell_name(int x, int y, int height, char *buf, int cap) {
    if (x < 26)
        snprintf(buf, (size_t)cap, "%c%d", 'a' + x, height - y);
    else
        snprintf(buf, (size_t)cap, "%c%c%d", 'a' + x / 26 - 1, 'a' + x % 26, height - y);
}

bool codec_parse_cell(const char *s, int w, int h, int *x, int *y) {
    char buf[64];
    size_t n = 0;
    while (*s == ' ')
        s++;
    for (; *s && n < sizeof buf - 1; s++)
        if (*s != ' ' || (n && buf[n - 1] != ',')) /* "7, 8" as "7,8" */
            buf[n++] = *s;
    while (n && buf[n - 1] == ' ')
        n--;
    buf[n] = 0;
    if (codec_parse_xy(buf, x, y))
        return *x >= 0 && *y >= 0 && *x < w && *y < h;
    const char *p = buf;
    int col = 0, letters = 0;
    while (isalpha((unsigned char)*p) && letters <= 2) { /* a third letter: refused below */
        col = col * 26 + (tolower((unsigned char)*p) - 'a' + 1);
        p++, letters++;
    }
    if (!letters || letters > 2 || *p < '1' || *p > '9')
        return false;
    char *end;
    long row = strtol(p, &end, 10);
    if (*end || row > h)
        return false;
    *x = col - 1;
    *y = h - (int)row;
    return *x >= 0 && *x < w && *y >= 0 && *y < h;
}

/* Copy text[0..head) as it is, and rename the x,y tokens of the rest. */
static void rename_from(const char *text, size_t head, int height, char *out, int cap) {
    int k = snprintf(out, (size_t)cap, "%.*s", (int)head, text);
    if (k >= cap)
        return;
    for (const char *t = text + head; *t && k < cap - 1;) {
        size_t len = strcspn(t, " ");
        char tok[32], name[16];
        int x, y;
        snprintf(tok, sizeof tok, "%.*s", (int)(len < sizeof tok ? len : sizeof tok - 1), t);
        if (codec_parse_xy(tok, &x, &y) && x >= 0 && y >= 0 && y < height) {
            codec_cell_name(x, y, height, name, sizeof name);
            k += snprintf(out + k, (size_t)(cap - k), "%s", name);
        } else
            k += snprintf(out + k, (size_t)(cap - k), "%s", tok);
        t += len;
        while (*t == ' ' && k < cap - 1) {
            out[k++] = ' ';
            out[k] = 0;
            t++;
        }
    }
}

void codec_pv_names(const char *text, int height, char *out, int cap) {
    const char *pv = strstr(text, " pv ");
    if (!pv) {
        snprintf(out, (size_t)cap, "%s", text);
        return;
    }
    rename_from(text, (size_t)(pv - text) + 4, height, out, cap);
}

void codec_cell_names(const char *text, int height, char *out, int cap) {
    rename_from(text, 0, height, out, cap);
}

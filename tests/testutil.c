/* tests/testutil.c */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "../tournaments/openings.h"

const char *testdata_path(const char *relative, char *buf, size_t cap) {
    const char *root = getenv("QUINTO_TESTDATA");
    snprintf(buf, cap, "%s/%s", root ? root : "tests/data", relative);
    return buf;
}

int testdata_load(const char *relative, Record **out) {
    char path[1024], line[1 << 16], err[256];
    FILE *f = fopen(testdata_path(relative, path, sizeof path), "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    int n = 0, cap = 64;
    Record *recs = malloc(sizeof *recs * (size_t)cap);
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (n == cap)
            recs = realloc(recs, sizeof *recs * (size_t)(cap *= 2));
        if (record_parse(line, &recs[n], err, sizeof err))
            n++;
        else
            ck_assert_msg(err[0] == 0, "%s:%d: %s", path, lineno, err);
    }
    fclose(f);
    *out = recs;
    return n;
}

void setup_moves(Board *b, int size, const char *moves) {
    ck_assert(board_init(b, size, size));
    const char *p = moves;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        int x, y, used;
        ck_assert_msg(sscanf(p, "%d,%d%n", &x, &y, &used) == 2, "bad moves '%s'", p);
        Move m = board_move_at(b, x, y);
        ck_assert(board_on(b, x, y) && b->cell[m] == EMPTY);
        board_play(b, m);
        p += used;
    }
}

unsigned test_rand(unsigned long long *s) {
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(*s >> 33);
}

const char *openings_path(const char *name, char *buf, size_t cap) {
    char err[1024];
    ck_assert_msg(openings_find(name, buf, cap, err, sizeof err), "%s", err);
    return buf;
}

long proc_status_kib(int pid, const char *field) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r");
    long v = 0;
    size_t n = strlen(field);
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, field, n))
            v = atol(line + n);
    if (f)
        fclose(f);
    return v;
}

bool read_text_file(const char *path, char *buf, size_t cap) {
    buf[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = 0;
    fclose(f);
    return true;
}

int wait_ms(int ms) {
    const char *e = getenv("QUINTO_TEST_SLACK");
    int f = e ? atoi(e) : 1;
    f = f < 1 ? 1 : f > 10 ? 10 : f;
    return ms * f;
}

const char *screen_text(const char *drawn, size_t len, size_t tail, char *buf, size_t cap) {
    const char *s = drawn + (len > tail ? len - tail : 0), *end = drawn + len;
    size_t n = 0;
    int newlines = 0;
    while (s < end && n + 1 < cap) {
        unsigned char ch = (unsigned char)*s++;
        if (ch == 0x1b) { /* ESC [ parameters final-byte, or ESC and one more byte */
            if (s < end && *s == '[') {
                for (s++; s < end && !(*s >= 0x40 && *s <= 0x7e); s++)
                    ;
                s += s < end;
            } else
                s += s < end;
            continue;
        }
        if (ch == '\r')
            continue;
        if (ch == '\n') {
            if (++newlines > 1)
                continue;
        } else if (ch < 0x20 && ch != '\t')
            continue;
        else
            newlines = 0;
        buf[n++] = (char)ch;
    }
    buf[n] = 0;
    return buf;
}

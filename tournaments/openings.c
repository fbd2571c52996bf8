/* tournaments/openings.c */
#include "openings.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../brain/util.h"

static bool all_numbers(const char *s) {
    for (; *s; s++)
        if (!isdigit((unsigned char)*s) && *s != ',' && *s != '-' && *s != '+' && *s != ' ' &&
            *s != '\t')
            return false;
    return true;
}

bool opening_parse_line(const char *line, int width, int height, Rule rule, Record *r, char *err,
                        size_t errcap) {
    err[0] = 0;
    char buf[8192];
    snprintf(buf, sizeof buf, "%s", line);
    char *hash = strchr(buf, '#');
    if (hash && (hash == buf || isspace((unsigned char)hash[-1])))
        *hash = 0;
    size_t n = strlen(buf);
    while (n && isspace((unsigned char)buf[n - 1]))
        buf[--n] = 0;
    char *p = buf;
    while (isspace((unsigned char)*p))
        p++;
    if (!*p)
        return false;
    if (isalpha((unsigned char)*p)) /* RULE SIZE moves | claims */
        return record_parse(line, r, err, errcap);
    if (!all_numbers(p)) {
        snprintf(err, errcap, "not an opening line");
        return false;
    }
    memset(r, 0, sizeof *r);
    r->rule = rule;
    r->width = width;
    r->height = height;
    /* numbers in order; "a,b, c,d" (offsets, commas between pairs too) or "a,b c,d" */
    long v[2 * RECORD_MAX_MOVES];
    int k = 0;
    bool offsets = strstr(p, ", ") != NULL || (strchr(p, ' ') == NULL && strchr(p, ',') &&
                                                strchr(strchr(p, ',') + 1, ','));
    for (char *q = p; *q;) {
        while (*q == ' ' || *q == '\t' || *q == ',')
            q++;
        if (!*q)
            break;
        char *end;
        long x = strtol(q, &end, 10);
        if (end == q || k >= 2 * RECORD_MAX_MOVES) {
            snprintf(err, errcap, "bad number near '%.10s'", q);
            return false;
        }
        if (x < -BOARD_MAX_SIZE || x > BOARD_MAX_SIZE) { /* off any board, offset or not */
            snprintf(err, errcap, "coordinate %.20s out of range", q);
            return false;
        }
        v[k++] = x;
        q = end;
    }
    if (k % 2) {
        snprintf(err, errcap, "odd count of coordinates");
        return false;
    }
    for (int i = 0; i < k / 2; i++) {
        long x = v[2 * i], y = v[2 * i + 1];
        if (offsets)
            x += width / 2, y += height / 2;
        if (x < 0 || y < 0 || x >= width || y >= height) {
            snprintf(err, errcap, "move %ld,%ld off the %dx%d board", x, y, width, height);
            return false;
        }
        for (int j = 0; j < r->count; j++)
            if (r->x[j] == x && r->y[j] == y) {
                snprintf(err, errcap, "two stones on %ld,%ld", x, y);
                return false;
            }
        r->x[r->count] = (short)x;
        r->y[r->count] = (short)y;
        r->count++;
    }
    snprintf(r->expect, sizeof r->expect, "opening");
    return true;
}

bool openings_load(Openings *o, const char *path, int width, int height, Rule rule, char *err,
                   size_t errcap) {
    memset(o, 0, sizeof *o);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errcap, "cannot open %s", path);
        return false;
    }
    char line[8192], why[256];
    int cap = 64, lineno = 0;
    o->list = malloc(sizeof(Record) * (size_t)cap);
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (o->count == cap)
            o->list = realloc(o->list, sizeof(Record) * (size_t)(cap *= 2));
        if (opening_parse_line(line, width, height, rule, &o->list[o->count], why, sizeof why))
            o->count++;
        else if (why[0]) {
            snprintf(err, errcap, "%s:%d: %s", path, lineno, why);
            fclose(f);
            openings_free(o);
            return false;
        }
    }
    fclose(f);
    if (!o->count) {
        snprintf(err, errcap, "%s: no openings", path);
        openings_free(o);
        return false;
    }
    return true;
}

void openings_free(Openings *o) {
    free(o->list);
    o->list = NULL;
    o->count = 0;
}

void openings_shuffle(Openings *o, uint64_t seed) {
    for (int i = o->count - 1; i > 0; i--) {
        uint64_t z = splitmix64(&seed);
        int j = (int)(z % (uint64_t)(i + 1));
        Record t = o->list[i];
        o->list[i] = o->list[j];
        o->list[j] = t;
    }
}

static bool is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The folders shipped openings may be in, most specific first. */
static int openings_dirs(char dirs[3][PATH_MAX]) {
    int n = 0;
    const char *env = getenv("QUINTO_OPENINGS");
    if (env && *env)
        snprintf(dirs[n++], PATH_MAX, "%s", env);
    char exe[PATH_MAX - 64]; /* room for the suffixes below */
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            snprintf(dirs[n++], PATH_MAX, "%s/tournaments/openings", exe);
            snprintf(dirs[n++], PATH_MAX, "%s/../share/quinto/openings", exe);
        }
    }
    return n;
}

bool openings_find(const char *name, char *out, size_t cap, char *err, size_t errcap) {
    if (is_file(name)) {
        snprintf(out, cap, "%s", name);
        return true;
    }
    char dirs[3][PATH_MAX];
    int nd = openings_dirs(dirs);
    if (!strchr(name, '/'))
        for (int i = 0; i < nd; i++) {
            const char *ext = strlen(name) > 4 && !strcmp(name + strlen(name) - 4, ".txt") ? "" : ".txt";
            if ((size_t)snprintf(out, cap, "%s/%s%s", dirs[i], name, ext) < cap && is_file(out))
                return true;
        }
    /* not found: say which sets there are */
    size_t k = (size_t)snprintf(err, errcap, "openings '%s': no such file, nor a shipped set of that name", name);
    const char *sep = " (shipped: ";
    for (int i = 0; i < nd && k < errcap; i++) {
        DIR *d = opendir(dirs[i]);
        if (!d)
            continue;
        struct dirent *de;
        while ((de = readdir(d)) && k < errcap) {
            size_t l = strlen(de->d_name);
            if (l > 4 && !strcmp(de->d_name + l - 4, ".txt")) {
                k += (size_t)snprintf(err + k, errcap - k, "%s%.*s", sep, (int)(l - 4), de->d_name);
                sep = ", ";
            }
        }
        closedir(d);
        break;
    }
    if (k < errcap && sep[0] == ',')
        snprintf(err + k, errcap - k, ")");
    return false;
}

/* tournaments/records.c */
#include "records.h"

#include <string.h>

const char *record_result_text(const GameResult *r) {
    return r->winner == BLACK ? "1-0" : r->winner == WHITE ? "0-1" : "1/2-1/2";
}

bool record_result_parse(const char *text, double *black_points) {
    if (!strcmp(text, "1-0"))
        *black_points = 1;
    else if (!strcmp(text, "0-1"))
        *black_points = 0;
    else if (!strcmp(text, "1/2-1/2"))
        *black_points = 0.5;
    else
        return false;
    return true;
}

bool record_results_field(const char *line, int k, char *out, size_t cap) {
    for (int i = 0; i < k; i++) {
        line = strchr(line, '\t');
        if (!line)
            return false;
        line++;
    }
    size_t n = strcspn(line, "\t\n\r");
    if (n >= cap)
        n = cap - 1;
    memcpy(out, line, n);
    out[n] = 0;
    return true;
}

bool record_write_psq(const char *path, const GameConfig *cfg, const char *black,
                      const char *white, const GameResult *r) {
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fprintf(f, "Piskvorky %dx%d, 11:11, 0\n", cfg->width, cfg->height);
    for (int i = 0; i < r->moves->count; i++)
        fprintf(f, "%d,%d,%d\n", r->moves->x[i] + 1, r->moves->y[i] + 1, r->moves->ms[i]);
    fprintf(f, "%s\n%s\n-1\n", black, white);
    return fclose(f) == 0;
}

static char sgf_coord(int v) { return (char)(v < 26 ? 'a' + v : 'A' + v - 26); }

bool record_write_sgf(const char *path, const GameConfig *cfg, const char *black,
                      const char *white, const GameResult *r) {
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fprintf(f, "(;FF[4]GM[4]CA[UTF-8]AP[quinto-manager]");
    if (cfg->width == cfg->height)
        fprintf(f, "SZ[%d]", cfg->width);
    else
        fprintf(f, "SZ[%d:%d]", cfg->width, cfg->height);
    fprintf(f, "RU[%s]PB[%s]PW[%s]", rule_name(cfg->rule), black, white);
    if (r->winner)
        fprintf(f, "RE[%c+%s]", r->winner == BLACK ? 'B' : 'W',
                r->reason == END_TIME ? "Time" : r->reason == END_FIVE ? "" : "F");
    else
        fprintf(f, "RE[0]");
    fprintf(f, "C[%s %s]\n", end_reason_name(r->reason), r->detail);
    bool fits = cfg->width <= 52 && cfg->height <= 52;
    for (int i = 0; i < r->moves->count && fits; i++)
        fprintf(f, ";%c[%c%c]%s", i % 2 ? 'W' : 'B', sgf_coord(r->moves->x[i]),
                sgf_coord(r->moves->y[i]), i % 10 == 9 ? "\n" : "");
    fprintf(f, ")\n");
    return fclose(f) == 0;
}

void record_results_header(FILE *f) {
    fprintf(f, "game\topening\tblack\twhite\tresult\treason\tdetail\tmoves\tblack_ms\twhite_ms\n");
}

void record_results_line(FILE *f, int game, int opening, const char *black, const char *white,
                         const GameResult *r) {
    fprintf(f, "%d\t%d\t%s\t%s\t%s\t%s\t%s\t", game, opening, black, white,
            record_result_text(r), end_reason_name(r->reason), r->detail[0] ? r->detail : "-");
    for (int i = 0; i < r->moves->count; i++)
        fprintf(f, "%s%d,%d", i ? ";" : "", r->moves->x[i], r->moves->y[i]);
    fprintf(f, "\t%lld\t%lld\n", (long long)r->time_ms[BLACK], (long long)r->time_ms[WHITE]);
    fflush(f);
}

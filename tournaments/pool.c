/* tournaments/pool.c */
#include "pool.h"

#include <stdlib.h>
#include <string.h>

#include "records.h"

void pool_init(ResultsPool *rp) { memset(rp, 0, sizeof *rp); }

void pool_free(ResultsPool *rp) {
    free(rp->names);
    free(rp->name_order);
    free(rp->pairs);
    free(rp->pending);
    pool_init(rp);
}

/* Room for one more element of `size` bytes in *arr (count used of *cap). */
static bool grow(void *arr, int count, int *cap, size_t size) {
    if (count < *cap)
        return true;
    int ncap = *cap ? *cap * 2 : 16;
    void *p = realloc(*(void **)arr, (size_t)ncap * size);
    if (!p)
        return false;
    *(void **)arr = p;
    *cap = ncap;
    return true;
}

/* The index of an engine name, added when new (-1: no memory). */
static int name_index(ResultsPool *rp, const char *name, long order) {
    for (int i = 0; i < rp->name_count; i++)
        if (!strcmp(rp->names[i], name)) {
            if (order < rp->name_order[i])
                rp->name_order[i] = order;
            return i;
        }
    int cap = rp->name_cap;
    if (!grow(&rp->names, rp->name_count, &cap, sizeof rp->names[0]) ||
        !grow(&rp->name_order, rp->name_count, &rp->name_cap, sizeof rp->name_order[0]))
        return -1;
    snprintf(rp->names[rp->name_count], POOL_NAME_MAX, "%s", name);
    rp->name_order[rp->name_count] = order;
    return rp->name_count++;
}

static int pair_index(ResultsPool *rp, int first, int second) {
    for (int i = 0; i < rp->pair_count; i++)
        if (rp->pairs[i].first == first && rp->pairs[i].second == second)
            return i;
    if (!grow(&rp->pairs, rp->pair_count, &rp->pair_cap, sizeof rp->pairs[0]))
        return -1;
    PoolPair *p = &rp->pairs[rp->pair_count];
    memset(p, 0, sizeof *p);
    p->first = first, p->second = second;
    return rp->pair_count++;
}

static int reason_from_name(const char *name) {
    for (int r = 0; r < POOL_REASONS; r++)
        if (!strcmp(end_reason_name((EndReason)r), name))
            return r;
    return -1;
}

bool pool_add_line(ResultsPool *rp, int source, const char *line, char *err, size_t errcap) {
    if (strcspn(line, "\r\n") == 0 || !strncmp(line, "game\t", 5))
        return true;
    /* game, opening, black, white, result, reason; then at least the detail
     * (a longer engine name is known by its first POOL_NAME_MAX - 1 characters) */
    char f[7][POOL_NAME_MAX];
    bool seven = true;
    for (int k = 0; k < 7; k++)
        seven = seven && record_results_field(line, k, f[k], sizeof f[k]);
    char *end;
    long game = seven ? strtol(f[0], &end, 10) : 0;
    if (!seven || game <= 0 || *end) {
        snprintf(err, errcap, "not a -results line (game, opening, black, white, result, reason, ...)");
        return false;
    }
    long opening = strtol(f[1], &end, 10);
    if (*end || opening < 0) {
        snprintf(err, errcap, "game %ld: the opening '%s' is not a number", game, f[1]);
        return false;
    }
    double black_points;
    if (!record_result_parse(f[4], &black_points)) {
        snprintf(err, errcap, "game %ld: the result '%s' is none of 1-0, 0-1, 1/2-1/2", game, f[4]);
        return false;
    }
    int reason = reason_from_name(f[5]);
    if (reason < 0) {
        snprintf(err, errcap, "game %ld: unknown end '%s'", game, f[5]);
        return false;
    }
    if (!f[2][0] || !f[3][0] || !strcmp(f[2], f[3])) {
        snprintf(err, errcap, "game %ld: two engines are needed, not '%s' and '%s'", game, f[2], f[3]);
        return false;
    }
    if (reason == END_START) { /* not a game: the referee scored nobody */
        rp->skipped++;
        return true;
    }
    int b = name_index(rp, f[2], 2 * game), w = name_index(rp, f[3], 2 * game + 1);
    bool first_black = b >= 0 && w >= 0 && b < w;
    int k = b < 0 || w < 0 ? -1 : first_black ? pair_index(rp, b, w) : pair_index(rp, w, b);
    if (k < 0 || !grow(&rp->pending, rp->pending_count, &rp->pending_cap, sizeof rp->pending[0])) {
        snprintf(err, errcap, "out of memory");
        return false;
    }
    PoolPair *p = &rp->pairs[k];
    double points = first_black ? black_points : 1 - black_points;
    pair_stats_game(&p->s, first_black, points);
    p->reasons[reason]++;
    rp->games++;
    /* its twin: the same opening of the same file, the same engines, the colours swapped */
    for (int i = 0; i < rp->pending_count; i++) {
        PoolPending *q = &rp->pending[i];
        if (q->source == source && q->opening == opening && q->pair == k && q->first_black != first_black) {
            p->s.penta[(int)((q->points + points) * 2 + 0.5)]++;
            *q = rp->pending[--rp->pending_count];
            return true;
        }
    }
    rp->pending[rp->pending_count++] =
        (PoolPending){.source = source, .opening = (int)opening, .pair = k, .first_black = first_black,
                      .points = points};
    return true;
}

void pool_print(const ResultsPool *rp, FILE *o) {
    for (int i = 0; i < rp->pair_count; i++) {
        const PoolPair *p = &rp->pairs[i];
        if (rp->name_order[p->first] <= rp->name_order[p->second]) {
            pair_stats_print(o, rp->names[p->first], rp->names[p->second], &p->s);
        } else { /* the second engine's view */
            const PairStats *a = &p->s;
            PairStats v = {.w = a->l, .l = a->w, .d = a->d, .bw = a->l - a->bl, .bl = a->w - a->bw,
                           .bd = a->d - a->bd};
            for (int j = 0; j < 5; j++)
                v.penta[j] = a->penta[4 - j];
            pair_stats_print(o, rp->names[p->second], rp->names[p->first], &v);
        }
        int unpaired = 0;
        for (int j = 0; j < rp->pending_count; j++)
            unpaired += rp->pending[j].pair == i;
        if (unpaired)
            fprintf(o, "  %d game%s without a colour-swapped twin\n", unpaired, unpaired == 1 ? "" : "s");
        fprintf(o, "  ended:");
        const char *sep = " ";
        for (int r = 0; r < POOL_REASONS; r++)
            if (p->reasons[r]) {
                fprintf(o, "%s%s %d", sep, end_reason_name((EndReason)r), p->reasons[r]);
                sep = ", ";
            }
        fprintf(o, "\n");
    }
    if (rp->skipped)
        fprintf(o, "%d game%s not played (a brain failed to start)\n", rp->skipped, rp->skipped == 1 ? "" : "s");
}

/* search/bench.c */
#include "bench.h"

#include <stdlib.h>

#include "../brain/record.h"
#include "../brain/util.h"

const char *const bench_positions[] = {
    /* tests/data/bench/positions.txt */
    "freestyle 15 7,7 6,6 5,5 6,7 6,8",
    "freestyle 15 7,1 7,4 7,3 5,5",
    "freestyle 20 4,1 5,1 7,2 6,2 6,5 7,4 5,8",
    "freestyle 20 5,4 4,2 1,6 7,4 6,2 6,3 8,5 4,3 7,3 3,3 5,1 8,4 5,3 5,5 4,4 3,5 3,6 4,6 5,7",
    "standard 15 7,7 7,6 9,5 8,6 5,6",
    "standard 15 5,5 8,8 7,7",
    "standard 15 1,2 10,9 6,1 5,5",
    "renju 15 7,7 8,8 9,9 8,7 8,6 6,8",
    /* clang-format off */
    "renju 15 7,7 7,8 9,8 9,7 5,7 8,6 6,6 8,8 7,5 4,8 5,5 10,6 11,5 8,9 8,5 5,8 6,8 6,10 7,9 8,10 8,7",
    /* clang-format on */
    "renju 15 7,7 7,8 7,5 8,9 8,5 8,8 6,8 6,7 9,10 8,6",
    /* our own */
    "caro8 15 7,7 8,8 8,7 6,7 9,6 10,5 7,6 7,5",
    "caro9 15 7,7 7,8 8,7 6,7 8,8 9,9 6,6",
    "freestyle 20 10,10 11,10 11,13 9,11 10,12 12,12 12,11 10,11",
    "standard 20 9,9 10,10 10,9 8,9 11,8 12,7 9,10 9,11",
    "freestyle 128 64,64 65,65 63,65 65,63 64,66 66,64 62,66",
    "renju 15 7,7 8,7 8,10 7,9 6,8 9,8 8,8 9,9",
};
const int bench_position_count = sizeof bench_positions / sizeof *bench_positions;

uint64_t bench_run(int depth, int threads, int hash_mb, BenchReport report, void *ctx) {
    Engine *e = engine_new();
    Pos *p = malloc(sizeof *p);
    Record *r = malloc(sizeof *r);
    uint64_t total = 0;
    if (!e || !p || !r)
        goto out;
    engine_set_memory(e, 0, (uint64_t)hash_mb * 1024);
    for (int i = 0; i < bench_position_count; i++) {
        char err[128];
        if (!record_parse(bench_positions[i], r, err, sizeof err) ||
            !pos_init(p, r->width, r->height, r->rule)) {
            total = 0;
            goto out;
        }
        for (int k = 0; k < r->count; k++) {
            if (r->x[k] < 0)
                pos_pass(p);
            else
                pos_play(p, board_move_at(&p->b, r->x[k], r->y[k]));
        }
        engine_clear_hash(e);
        SearchLimits l;
        search_limits_default(&l);
        l.turn_ms = -1;
        l.max_depth = depth;
        l.threads = threads;
        SearchInfo info;
        int64_t t0 = now_ns();
        Move m = engine_think(e, p, &l, NULL, NULL, &info);
        BenchResult br = {i,           bench_positions[i], m,        info.score, info.nodes,
                          now_ns() - t0, r->width,         r->height, r->rule,    depth};
        total += info.nodes;
        if (report)
            report(ctx, &br);
    }
out:
    free(r);
    free(p);
    engine_free(e);
    return total;
}

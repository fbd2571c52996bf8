/* search/bench.h — the fixed positions of `pbrain-quinto bench`: the ten of
 * tests/data/bench (Rapfi's benchmark set) and our own, covering every
 * rule, 15x15, 20x20, a rectangle and 128x128. The node count of a bench run
 * is the search's regression signature. */
#ifndef QUINTO_SEARCH_BENCH_H
#define QUINTO_SEARCH_BENCH_H

#include "search.h"

enum { BENCH_DEFAULT_DEPTH = 6, BENCH_DEFAULT_HASH_MB = 16 };

extern const char *const bench_positions[];
extern const int bench_position_count;

typedef struct {
    int index;
    const char *text;
    Move best;
    int32_t score;
    uint64_t nodes;
    int64_t ns;
    int width, height;
    Rule rule;
    int depth;
} BenchResult;

typedef void (*BenchReport)(void *ctx, const BenchResult *r);

/* Search every position to a fixed depth with a cleared table, no
 * randomisation; returns the total node count (0 on a bad position). */
uint64_t bench_run(int depth, int threads, int hash_mb, BenchReport report, void *ctx);

#endif

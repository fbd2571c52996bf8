/* search/tt.h — the transposition table.
 *
 * Buckets of four 16-byte entries (one 64-byte cache line). An entry is two
 * 64-bit words, {key ^ data, data}, written and read with relaxed atomics so
 * that helper threads share it without locks: a torn entry fails the key check.
 * data packs the value (32 bits, mate scores stored relative to the node), the
 * move (16), the depth (8, signed), the bound (2) and the generation (6).
 * Replacement: a matching key first, else the entry with the lowest
 * depth - 4 * age. Memory is allocated on first use, so setting the size is
 * cheap (START must answer fast). Fresh pages cost a fault on first touch
 * (about 16 us each for 4 KiB in a virtual machine: 1.2 s for 300 MB, five
 * times the search's own work on the first moves), so a helper thread
 * touches them all as soon as the table is allocated, beside the search;
 * where the system offers it, the table asks for huge pages too.
 */
#ifndef QUINTO_SEARCH_TT_H
#define QUINTO_SEARCH_TT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../brain/board.h"

enum { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

typedef struct {
    _Atomic uint64_t check, data;
} TTEntry;

typedef struct {
    TTEntry entry[4];
} TTBucket;

typedef struct TT {
    TTBucket *buckets;  /* inside raw, aligned */
    void *raw;
    size_t count;       /* buckets */
    size_t want_bytes;  /* size to allocate on first use */
    uint8_t generation;
    pthread_t warm_tid;    /* the thread touching fresh pages */
    bool warm_started;
    atomic_bool warm_stop;
} TT;

typedef struct {
    int32_t value;
    Move move;
    int depth;
    int bound;
} TTHit;

/* Choose the size in bytes (rounded down to whole buckets, at least one);
 * frees the old table; memory comes on the next tt_ensure. */
void tt_set_size(TT *tt, size_t bytes);
/* Allocate if needed. Returns false if no memory could be had even after
 * halving (the table then has no buckets and probes miss). */
bool tt_ensure(TT *tt);
/* Wait until the helper has touched every page of the table (tests). */
void tt_warm_wait(TT *tt);
void tt_clear(TT *tt);
void tt_free(TT *tt);
void tt_new_search(TT *tt);
size_t tt_bytes(const TT *tt);
/* Permille of sampled entries written in the current generation. */
int tt_hashfull(const TT *tt);

bool tt_probe(const TT *tt, uint64_t key, TTHit *hit);
void tt_store(TT *tt, uint64_t key, int32_t value, Move move, int depth, int bound);

static inline void tt_prefetch(const TT *tt, uint64_t key) {
    if (tt->count)
        __builtin_prefetch(&tt->buckets[(size_t)(((unsigned __int128)key * tt->count) >> 64)]);
}

#endif

/* search/tt.c */
#include "tt.h"

#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

static inline TTBucket *bucket_of(const TT *tt, uint64_t key) {
    return &tt->buckets[(size_t)(((unsigned __int128)key * tt->count) >> 64)];
}

static inline uint64_t pack(int32_t value, Move move, int depth, int bound, int gen) {
    return (uint64_t)(uint32_t)value | (uint64_t)move << 32 | (uint64_t)(uint8_t)(int8_t)depth << 48 |
           (uint64_t)(bound & 3) << 56 | (uint64_t)(gen & 63) << 58;
}
static inline int32_t d_value(uint64_t d) { return (int32_t)(uint32_t)d; }
static inline Move d_move(uint64_t d) { return (Move)(d >> 32); }
static inline int d_depth(uint64_t d) { return (int8_t)(uint8_t)(d >> 48); }
static inline int d_bound(uint64_t d) { return (int)(d >> 56) & 3; }
static inline int d_gen(uint64_t d) { return (int)(d >> 58) & 63; }

void tt_set_size(TT *tt, size_t bytes) {
    tt_free(tt);
    tt->want_bytes = bytes < sizeof(TTBucket) ? sizeof(TTBucket) : bytes;
}

/* Touch one entry of every 4 KiB page: a compare-and-swap of zero with zero
 * writes nothing a search could have stored, yet makes the system map the
 * page. Stops early when the table is freed. */
static void *warm_pages(void *arg) {
    TT *tt = arg;
    size_t step = 4096 / sizeof(TTBucket);
    for (size_t i = 0; i < tt->count; i += step) {
        if ((i & (step * 256 - 1)) == 0 && atomic_load_explicit(&tt->warm_stop, memory_order_relaxed))
            break;
        uint64_t zero = 0;
        atomic_compare_exchange_strong_explicit(&tt->buckets[i].entry[0].data, &zero, 0,
                                                memory_order_relaxed, memory_order_relaxed);
    }
    return NULL;
}

static void warm_start(TT *tt) {
    size_t bytes = tt->count * sizeof(TTBucket);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    /* one fault per 2 MiB instead of per 4 KiB */
    if (bytes >= (8u << 20))
        madvise(tt->buckets, bytes & ~(size_t)((2u << 20) - 1), MADV_HUGEPAGE);
#endif
    if (bytes < (1u << 20))
        return; /* small tables: not worth a thread */
    atomic_store(&tt->warm_stop, false);
    /* (a default stack: a small one can be too small for the static TLS) */
    tt->warm_started = pthread_create(&tt->warm_tid, NULL, warm_pages, tt) == 0;
}

void tt_warm_wait(TT *tt) {
    if (tt->warm_started)
        pthread_join(tt->warm_tid, NULL);
    tt->warm_started = false;
}

bool tt_ensure(TT *tt) {
    if (tt->buckets)
        return true;
    size_t count = tt->want_bytes / sizeof(TTBucket);
    while (count) {
        /* calloc of a large block maps zero pages lazily: fast, and resident
         * memory grows only as entries are written. The buckets start on a
         * cache line (a bucket is one line: calloc's own alignment would
         * split every bucket over two), and large tables on 2 MiB so that
         * huge pages cover them; the slack is never touched. */
        size_t align = count * sizeof(TTBucket) >= (8u << 20) ? (2u << 20) : sizeof(TTBucket);
        tt->raw = calloc(1, count * sizeof(TTBucket) + align);
        if (tt->raw) {
            uintptr_t a = ((uintptr_t)tt->raw + align - 1) & ~(uintptr_t)(align - 1);
            tt->buckets = (TTBucket *)a;
            break;
        }
        count /= 2;
    }
    tt->count = tt->buckets ? count : 0;
    tt->generation = 0;
    if (tt->buckets)
        warm_start(tt);
    return tt->buckets != NULL;
}

void tt_clear(TT *tt) {
    /* free and let the next search map fresh zero pages: cheaper than
     * touching every page, and memory use starts low again */
    size_t want = tt->want_bytes;
    tt_free(tt);
    tt->want_bytes = want;
}

void tt_free(TT *tt) {
    atomic_store(&tt->warm_stop, true);
    tt_warm_wait(tt);
    free(tt->raw);
    tt->raw = NULL;
    tt->buckets = NULL;
    tt->count = 0;
}

void tt_new_search(TT *tt) { tt->generation = (uint8_t)((tt->generation + 1) & 63); }

size_t tt_bytes(const TT *tt) { return tt->buckets ? tt->count * sizeof(TTBucket) : tt->want_bytes; }

int tt_hashfull(const TT *tt) {
    if (!tt->count)
        return 0;
    size_t n = tt->count < 250 ? tt->count : 250, used = 0;
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < 4; j++) {
            uint64_t d = atomic_load_explicit(&tt->buckets[i].entry[j].data, memory_order_relaxed);
            used += d != 0 && d_gen(d) == tt->generation;
        }
    return (int)(used * 1000 / (n * 4));
}

bool tt_probe(const TT *tt, uint64_t key, TTHit *hit) {
    if (!tt->count)
        return false;
    TTBucket *b = bucket_of(tt, key);
    for (int i = 0; i < 4; i++) {
        uint64_t d = atomic_load_explicit(&b->entry[i].data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&b->entry[i].check, memory_order_relaxed);
        if ((c ^ d) == key && d) {
            hit->value = d_value(d);
            hit->move = d_move(d);
            hit->depth = d_depth(d);
            hit->bound = d_bound(d);
            return true;
        }
    }
    return false;
}

void tt_store(TT *tt, uint64_t key, int32_t value, Move move, int depth, int bound) {
    if (!tt->count)
        return;
    TTBucket *b = bucket_of(tt, key);
    TTEntry *slot = NULL;
    int worst = 1 << 30;
    for (int i = 0; i < 4; i++) {
        TTEntry *e = &b->entry[i];
        uint64_t d = atomic_load_explicit(&e->data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&e->check, memory_order_relaxed);
        if (!d || (c ^ d) == key) {
            if (d && (c ^ d) == key) {
                /* same position: keep a deeper exact-ish result and the old move */
                if (bound != BOUND_EXACT && depth + 2 < d_depth(d) && d_gen(d) == tt->generation)
                    return;
                if (move == MOVE_NONE)
                    move = d_move(d);
            }
            slot = e;
            break;
        }
        int age = (tt->generation - d_gen(d)) & 63;
        int worth = d_depth(d) - 4 * age;
        if (worth < worst) {
            worst = worth;
            slot = e;
        }
    }
    if (depth < -100)
        depth = -100;
    if (depth > 127)
        depth = 127;
    uint64_t d = pack(value, move, depth, bound, tt->generation);
    atomic_store_explicit(&slot->data, d, memory_order_relaxed);
    atomic_store_explicit(&slot->check, key ^ d, memory_order_relaxed);
}

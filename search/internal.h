/* search/internal.h — the engine and its search threads, shared by the
 * engine's life cycle (engine.c) and the search proper (search.c); not for
 * other layers. Each thread owns everything that changes while it searches;
 * only the table, the limits, the time plan and the stop flag are shared. */
#ifndef QUINTO_SEARCH_INTERNAL_H
#define QUINTO_SEARCH_INTERNAL_H

#include <stdatomic.h>

#include "history.h"
#include "movepick.h"
#include "params.h"
#include "search.h"
#include "timeman.h"
#include "tt.h"

enum { MAX_THREADS = 64 };

typedef struct {
    Move killer[2];
    int32_t static_eval;
    Move move;                    /* the move played from this ply */
    Move excluded;                /* singular test: the TT move left out */
    int ext_credit;               /* fractions of a ply of extension owed to this path */
    float extra_ext;              /* renju node: plies of extension beyond one a move along this path */
    uint8_t p4self;               /* renju node: the class of the move played here, for its player */
} Stack;

typedef struct {
    Move move;
    int32_t score, prev_score;
    bool near_best;               /* randomisation: proven within the margin of the best */
} RootMove;

typedef struct SearchThread {
    Pos pos;
    struct Engine *eng;
    int id;                       /* 0: the main thread */
    uint32_t off;                 /* FEAT_* bits switched off */
    _Atomic uint64_t nodes;       /* written by its thread only; read by the others */
    uint64_t threat_nodes;        /* nodes of the root solvers */
    uint64_t singular_tests, singular_found; /* singular tests run, moves found singular */
    uint64_t mtdf_iterations, mtdf_passes;       /* MTD(f) iterations completed, root searches they took */
    uint64_t prune_seen;          /* nodes child futility could have cut (prune_sample) */
    PruneStats prune;             /* the sampled ones; kept across searches (engine_take_prune_stats) */
    int seldepth;
    int32_t root_delta;           /* the root window's width (PV reductions of the renju node) */
    bool aborted;                 /* this search was stopped: its values mean nothing */
    Stack stack[MAX_PLY + 8];
    History hist;
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_len[MAX_PLY + 1];
    RootMove root[BOARD_MAX_CELLS];
    int root_count;
    ScoredMove scratch[BOARD_MAX_CELLS]; /* move generation workspace (OrderCtx) */
    Marks marks;                  /* gen_defences workspace */
    uint64_t vcf_fail[VCF_FAIL_CACHE]; /* the root solvers' failure cache */
    /* results of the last completed iteration */
    int done_depth;
    int32_t done_score;
    Move done_move;
    Move done_pv[PV_MAX];
    int done_pv_len;
    uint64_t rng;
} SearchThread;

struct Engine {
    TT tt;
    atomic_bool stop;             /* the running search must end (time, nodes, request, done) */
    atomic_bool stop_request;     /* engine_stop since engine_arm: every search ends at once */
    SearchThread *threads[MAX_THREADS];
    int thread_count;             /* threads of the running search */
    SearchLimits limits;
    TimePlan time;
    SearchReport report;
    void *ctx;
    Move reported;                /* first move of the last report (MOVE_NONE: none yet) */
    uint64_t max_memory, hash_kib;/* what the table is sized from */
    atomic_bool clear_pending;    /* engine_clear_hash: cleared when the next search starts */
};

/* Iterative deepening on one thread (main or helper); the main thread stops
 * the others when it is done. */
void search_iterate(SearchThread *t);

/* The last completed iteration of t as a report. */
void search_fill_info(Engine *e, SearchThread *t, SearchInfo *info, const char *source);

/* Count a node: relaxed atomics, a plain load, add and store on x86. */
static inline uint64_t node_count(const SearchThread *t) {
    return atomic_load_explicit(&t->nodes, memory_order_relaxed);
}
static inline void node_inc(SearchThread *t) {
    atomic_store_explicit(&t->nodes, node_count(t) + 1, memory_order_relaxed);
}

#endif

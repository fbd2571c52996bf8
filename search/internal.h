/* search/internal.h — what the search modules share; not for other layers. */
#ifndef QUINTO_SEARCH_INTERNAL_H
#define QUINTO_SEARCH_INTERNAL_H

#include <stdatomic.h>

#include "../eval/evaluate.h"
#include "search.h"
#include "tt.h"

enum { MAX_THREADS = 64, VCF_CACHE = 1 << 16, MAX_GEN = 512 };

typedef struct {
    Move m;
    int score;
} ScoredMove;

typedef struct {
    Move killer[2];
    int32_t static_eval;
    Move move;
} Stack;

typedef struct {
    Move move;
    int32_t score, prev_score;
    bool near_best;   /* randomisation: proven within the margin of the best */
} RootMove;

typedef struct SearchThread {
    Pos pos;
    struct Engine *eng;
    int id;
    uint32_t off;                 /* FEAT_* bits switched off */
    _Atomic uint64_t nodes;       /* written by its thread only; read by the others */
    int seldepth;
    bool aborted;
    Stack stack[MAX_PLY + 8];
    int32_t history[2][BOARD_MAX_CELLS];
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_len[MAX_PLY + 1];
    RootMove *root;
    int root_count;
    ScoredMove scratch[BOARD_MAX_CELLS]; /* generation workspace */
    uint16_t mark[BOARD_MAX_CELLS];
    uint16_t mark_gen;
    uint64_t vcf_fail[VCF_CACHE]; /* keys of positions proven to have no VCF (per depth) */
    uint64_t threat_nodes;        /* nodes of the VCF/VCT solvers */
    uint64_t threat_budget;
    int64_t threat_deadline_ns;   /* the solvers give up here (monotonic ns) */
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
    atomic_bool stop;
    SearchThread *threads[MAX_THREADS];
    int thread_count;
    SearchLimits limits;
    int64_t start_ns, soft_ns, hard_ns; /* absolute monotonic deadlines */
    bool hard_limit;
    SearchReport report;
    void *ctx;
    uint64_t max_memory, hash_kib;
};

/* Is colour's move to empty m legal (renju: black's forbidden points)? */
static inline bool move_legal(Pos *p, Move m, int colour) {
    if (p->rule != RULE_RENJU || colour != BLACK || p->c[m].p4[0] != P4_FORBID)
        return true;
    return !rule_is_forbidden(&p->b, m, RULE_RENJU);
}

/* Does colour's move to m make a four (a five threat) without being an
 * open four (which quick checks handle)? Renju black: a FORBID cell that
 * holds a four and is not truly forbidden counts. */
bool makes_four(Pos *p, Move m, int colour);

/* Cells of colour's five points (at most max). */
int find_fives(const Pos *p, int colour, Move *out, int max);

/* Points where colour makes an open four now (at most max): FLEX4 cells, and
 * for renju black also FORBID-class cells holding a straight four that are not
 * truly forbidden (a four-three whose second three is false). */
int find_flex4(Pos *p, int colour, Move *out, int max);

/* Does colour's move to m make an open three (a new open-four point)?
 * Renju black's legal FORBID-class cells holding a three count. */
bool makes_three(Pos *p, Move m, int colour);

/* Threat-space solvers (threat.c): is there a forced win for the side to move
 * by continuous fours (VCF) / by threes and fours (VCT) within the depth (own
 * moves)? On success *first holds the first move. */
bool vcf_solve(SearchThread *t, int depth, Move *first);
bool vct_solve(SearchThread *t, int depth, Move *first);

uint64_t rng_next(uint64_t *s);

/* Count a node: relaxed atomics, a plain load, add and store on x86. */
static inline uint64_t node_count(const SearchThread *t) {
    return atomic_load_explicit(&t->nodes, memory_order_relaxed);
}
static inline void node_inc(SearchThread *t) {
    atomic_store_explicit(&t->nodes, node_count(t) + 1, memory_order_relaxed);
}

/* Main thread: stop the engine when its hard deadline or node cap is reached. */
void search_check_time(SearchThread *t);

/* Defences against the opponent's open-four points plus our own fours, into
 * t->scratch; returns the count. */
int gen_defences(SearchThread *t);

/* Move the best-scored of list[i..n) to list[i] (ties: lower cell first). */
static inline void pick_best(ScoredMove *list, int i, int n) {
    int b = i;
    for (int j = i + 1; j < n; j++)
        if (list[j].score > list[b].score || (list[j].score == list[b].score && list[j].m < list[b].m))
            b = j;
    ScoredMove x = list[i];
    list[i] = list[b];
    list[b] = x;
}

#endif

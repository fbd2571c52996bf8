/* search/search.h — choosing a move: the layer's public face.
 *
 * An Engine owns the transposition table and the search threads. engine_think
 * searches a position under limits and returns the move; it blocks, so the
 * protocol runs it on its own thread and calls engine_stop from the reader to
 * bring the move at once. Progress is reported through a callback after every
 * iteration (the search itself never prints).
 *
 * The rooms behind it: movegen (threat tests and generators over a position),
 * history (history and killers), movepick (the staged move picker), threat
 * (VCF/VCT solvers over a small context), timeman (the time plan), tt (the
 * table), search (the alpha-beta and its iterations), engine (life cycle,
 * threads, memory), bench (the fixed positions), params.h (every tunable).
 */
#ifndef QUINTO_SEARCH_SEARCH_H
#define QUINTO_SEARCH_SEARCH_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "../eval/position.h"
#include "value.h"

typedef enum { DRIVER_AUTO, DRIVER_PVS, DRIVER_MTDF } Driver;

enum { SEARCH_EXCLUDE_MAX = 32 };

/* Search features that can be switched off (INFO features_off <mask>), to
 * measure what each one gains in self-play. */
enum {
    FEAT_TT = 1 << 0,           /* transposition-table cutoffs and move */
    FEAT_ASPIRATION = 1 << 1,   /* aspiration windows at the root */
    FEAT_KILLERS = 1 << 2,      /* killer moves in ordering */
    FEAT_HISTORY = 1 << 3,      /* history heuristic in ordering */
    FEAT_LMR = 1 << 4,          /* late-move reductions */
    FEAT_FUTILITY = 1 << 5,     /* child futility pruning */
    FEAT_MOVECAP = 1 << 6,      /* pruning the quiet tail of the move list */
    FEAT_QSEARCH = 1 << 7,      /* quiescence of fours at the leaves */
    FEAT_ROOT_THREATS = 1 << 8, /* VCF/VCT solvers at the root */
    FEAT_DEFENCES = 1 << 9,     /* only the defences against an open three */
    FEAT_EXTENSION = 1 << 10,   /* +1 ply for the forced block of a five */
    FEAT_QUICKWIN5 = 1 << 11,   /* four-three / three-three wins in the quick check */
    FEAT_SINGULAR = 1 << 12,    /* singular extension of the TT move on the PV (and its multi-cut) */
    FEAT_QTT = 1 << 13,         /* the transposition table in the quiescence */
    FEAT_DEFEND43 = 1 << 14,    /* only the defences against a four-three point (not at the root) */
    FEAT_ALL = (1 << 15) - 1,
};

typedef struct SearchLimits {
    int64_t turn_ms;       /* per move; 0 = as fast as possible; < 0 = no limit */
    int64_t match_ms;      /* whole game; <= 0 = no limit */
    int64_t time_left_ms;  /* left in the game; INT64_MAX when unlimited */
    int64_t start_ns;      /* monotonic time the command arrived (0 = now) */
    int max_depth;         /* 0 = no cap */
    uint64_t max_nodes;    /* 0 = no cap */
    int threads;           /* >= 1 */
    bool randomize;        /* MTD(f) or PVS at random (renju: PVS), random choice among near-best moves */
    uint64_t seed;         /* seeds the randomisation: same seed, same choices */
    Driver driver;         /* PVS, MTD(f), or AUTO (PVS unless randomised; renju always PVS) */
    bool use_vct;          /* threat-space search at the root */
    uint32_t features_off; /* FEAT_* bits: features switched off (0 for play) */
    bool one_ply;          /* no search: the best-weighted cell (seeds 000/002), after
                              taking a five and blocking one */
    int random_margin;     /* randomising: root moves within this of the best may be
                              chosen (0: the default, RANDOM_MARGIN) */
    int exclude_count;     /* root moves not to play (N-best: the ones already given) */
    Move exclude[SEARCH_EXCLUDE_MAX];
    uint32_t prune_sample; /* 0: play; N: every Nth node child futility could cut is
                              searched instead and its answer recorded (PruneStats) */
} SearchLimits;

/* Defaults: 5 s a move, no match limit, one thread, no randomisation. */
void search_limits_default(SearchLimits *l);

typedef struct SearchInfo {
    int depth, seldepth;
    int32_t score;         /* side to move's view */
    uint64_t nodes;
    int64_t elapsed_ms;
    uint64_t nps;
    int hashfull;          /* permille */
    Move best;
    Move pv[PV_MAX];
    int pv_len;
    const char *source;    /* "search", "vcf", "vct", "forced", "book" */
} SearchInfo;

typedef void (*SearchReport)(void *ctx, const SearchInfo *info);

/* How often child futility would cut wrongly (SearchLimits.prune_sample): a
 * sampled node is one off the PV, nothing threatened, not a singular test,
 * beta no mate, depth 1..PRUNE_STAT_DEPTHS, its static value from
 * PRUNE_STAT_LOW up to PRUNE_STAT_LOW + PRUNE_STAT_BUCKETS * PRUNE_STAT_STEP
 * above beta; it is searched as if futility did not exist, and counted by
 * depth and by that distance (buckets of PRUNE_STAT_STEP), with how many of
 * them the search found below beta: the cuts a margin at that distance
 * would have got wrong. */
enum { PRUNE_STAT_DEPTHS = 8, PRUNE_STAT_LOW = -200, PRUNE_STAT_STEP = 100, PRUNE_STAT_BUCKETS = 42 };
typedef struct {
    uint64_t nodes[PRUNE_STAT_DEPTHS + 1][PRUNE_STAT_BUCKETS]; /* sampled and searched to the end */
    uint64_t below[PRUNE_STAT_DEPTHS + 1][PRUNE_STAT_BUCKETS]; /* of them, below beta */
} PruneStats;

typedef struct Engine Engine;

Engine *engine_new(void);
void engine_free(Engine *e);

/* Size the table from the memory limit (bytes, 0 = default) and an explicit
 * hash size (KiB, 0 = none). Only recorded: the table is resized at the start
 * of the next search, so this is safe while a search runs. */
void engine_set_memory(Engine *e, uint64_t max_memory, uint64_t hash_kib);
/* The table size the next search will have, in bytes. */
size_t engine_hash_bytes(const Engine *e);
/* Empty the table (done when the next search starts: safe at any time). */
void engine_clear_hash(Engine *e);

/* Search p (not modified) and return the move to play (MOVE_NONE only if the
 * board has no empty cell). Blocks until the limits or engine_stop end it. */
Move engine_think(Engine *e, const Pos *p, const SearchLimits *l, SearchReport report, void *ctx,
                  SearchInfo *result);

/* Clear a stop request: call before starting the thread that runs
 * engine_think, from the thread that may call engine_stop, so that a stop
 * sent right after the command is never lost. */
void engine_arm(Engine *e);

/* Ask engine_think to return as soon as possible (any thread). The request
 * holds until engine_arm: every engine_think started after it returns at
 * once too (a swap2 decision made of several searches stops whole). */
void engine_stop(Engine *e);

/* Has a stop been asked for since the last engine_arm? */
bool engine_stopped(const Engine *e);

/* Add the samples of every search since the last call (prune_sample) to *out
 * and start counting afresh. Not while a search runs. */
void engine_take_prune_stats(Engine *e, PruneStats *out);

/* The late-move reduction of the i-th move (from 0) of a node at a depth in
 * a rule (0 for the first two moves and below LMR_MIN_DEPTH), before the
 * search clamps it to the depth left. */
int search_reduction(int rule, int depth, int i, bool pv_node, bool cut_node);

/* Is move m of the side s spared from late-move reductions in the tree?
 * Moves that make or stop a three (or better); in freestyle also the side's
 * own double twos and three-and-twos. */
bool search_move_spared(const Pos *p, Move m, int s);

/* The margin child futility uses at a depth (0 beyond the depths it acts at). */
int search_futility_margin(int depth);

#endif

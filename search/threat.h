/* search/threat.h — threat-space solvers: is there a forced win for the side
 * to move by continuous fours (VCF) or by threes and fours (VCT)?
 *
 * A solver works on a small context: the position (played and undone in
 * place, left as it was), a node budget, a deadline, the flag that stops the
 * whole search, and its own workspace. It knows nothing of engines or
 * threads. An interrupted solver (budget, deadline, stop) proves nothing and
 * answers false with ctx->aborted set. */
#ifndef QUINTO_SEARCH_THREAT_H
#define QUINTO_SEARCH_THREAT_H

#include <stdatomic.h>

#include "movegen.h"

typedef struct {
    Pos *pos;
    uint64_t nodes;            /* solver nodes so far (moves played) */
    uint64_t budget;           /* give up when nodes reach this */
    int64_t deadline_ns;       /* give up at this monotonic time (INT64_MAX: never) */
    const atomic_bool *stop;   /* give up when set (NULL: never) */
    bool aborted;              /* set when it gave up */
    Marks *marks;              /* workspace of gen_defences */
    uint64_t *fail_cache;      /* VCF_FAIL_CACHE entries: positions proven without a VCF */
} ThreatCtx;

/* A context over p with the given workspace; budget and deadline unlimited. */
void threat_ctx_init(ThreatCtx *c, Pos *p, Marks *marks, uint64_t *fail_cache);

/* Forced win by fours (VCF) / threes and fours (VCT) within depth own
 * moves; on success *first holds the first move. */
bool vcf_solve(ThreatCtx *c, int depth, Move *first);
bool vct_solve(ThreatCtx *c, int depth, Move *first);

/* vct_solve at depth 2, 3, ... max_depth, each depth with step_budget more
 * nodes, until a win whose first move is legal, the deadline, the stop flag,
 * or a depth that used its whole budget: the depth of the win (its first move
 * in *first), or 0. */
int vct_solve_deepening(ThreatCtx *c, int max_depth, uint64_t step_budget, Move *first);

/* Does the side to move win by continuous fours when it starts with m (a
 * five, an open four, or a four whose forced block leaves a VCF)? Budget in
 * solver nodes; false when it runs out. *first_win receives the solver's own
 * first move for the position (MOVE_NONE if it finds none). */
bool threat_vcf_first_moves(const Pos *p, Move m, uint64_t budget, bool *wins, Move *first_win);

#endif

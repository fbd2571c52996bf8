/* search/timeman.h — how long a move may take.
 *
 * From the protocol's clocks (timeout_turn, timeout_match, time_left) a plan
 * of two deadlines: the hard one is never passed (the search stops there),
 * the soft one ends iterative deepening (no new iteration starts after it).
 * Pure arithmetic on the limits, saturating: any input, however large or
 * negative, gives 0 <= soft <= hard and no overflow. */
#ifndef QUINTO_SEARCH_TIMEMAN_H
#define QUINTO_SEARCH_TIMEMAN_H

#include "search.h"

/* Limits above this many milliseconds (about 31 years) count as this. */
#define TIME_MS_CAP ((int64_t)1000000000000)

typedef struct {
    bool limited;          /* false: no deadline at all */
    int64_t soft_ms, hard_ms; /* from the start */
    int64_t start_ns, soft_ns, hard_ns; /* absolute monotonic (INT64_MAX when unlimited) */
} TimePlan;

/* The plan for a move with `stones` on a board of `cells` cells, the
 * command having arrived at start_ns. */
TimePlan time_plan(const SearchLimits *l, int stones, int cells, int64_t start_ns);

/* a + b, at most INT64_MAX (b >= 0). */
static inline int64_t time_add_sat(int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }

#endif

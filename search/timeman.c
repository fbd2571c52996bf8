/* search/timeman.c */
#include "timeman.h"

#include "params.h"

static int64_t clamp_ms(int64_t v) { return v < 0 ? 0 : v > TIME_MS_CAP ? TIME_MS_CAP : v; }

TimePlan time_plan(const SearchLimits *l, int stones, int cells, int64_t start_ns) {
    TimePlan t = {.start_ns = start_ns, .soft_ms = INT64_MAX, .hard_ms = INT64_MAX,
                  .soft_ns = INT64_MAX, .hard_ns = INT64_MAX};
    int64_t hard = INT64_MAX, soft = INT64_MAX;
    if (l->turn_ms >= 0) {
        int64_t turn = clamp_ms(l->turn_ms);
        int64_t share = turn / TIME_MARGIN_DIV;
        int64_t margin = TIME_MARGIN_MS + (share < TIME_MARGIN_MAX_MS ? share : TIME_MARGIN_MAX_MS);
        hard = turn - margin;
        soft = hard * TIME_SOFT_PERCENT / 100;
        t.limited = true;
    }
    if (l->match_ms > 0 && l->time_left_ms != INT64_MAX) {
        int64_t left = clamp_ms(l->time_left_ms);
        int empty = cells - stones;
        int moves_left = TIME_MOVES_BASE - stones / TIME_MOVES_STONES_DIV;
        if (moves_left < TIME_MOVES_MIN)
            moves_left = TIME_MOVES_MIN;
        if (moves_left > empty / 2 + 1)
            moves_left = empty / 2 + 1;
        int64_t avail = left - (TIME_RESERVE_MS + left / TIME_RESERVE_DIV);
        if (avail < 0)
            avail = 0;
        int64_t opt = avail / moves_left, most = avail / TIME_MAX_SHARE_DIV;
        if (most < hard)
            hard = most;
        if (opt < soft)
            soft = opt;
        t.limited = true;
    }
    if (!t.limited)
        return t;
    if (hard < 0)
        hard = 0;
    if (soft > hard)
        soft = hard;
    if (soft < 0)
        soft = 0;
    t.hard_ms = hard;
    t.soft_ms = soft;
    t.hard_ns = time_add_sat(start_ns, hard * 1000000);
    t.soft_ns = time_add_sat(start_ns, soft * 1000000);
    return t;
}

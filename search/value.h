/* search/value.h — search values: the mate range and its storage form. */
#ifndef QUINTO_SEARCH_VALUE_H
#define QUINTO_SEARCH_VALUE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

enum {
    VALUE_MATE = 30000,
    VALUE_INF = 32000,
    VALUE_MATE_MIN = VALUE_MATE - 2000, /* |value| at or above this is a proven result */
    MAX_PLY = 160,
    PV_MAX = 64,
};

/* "No value": the caller searches on. */
#define VALUE_NONE INT_MIN

static inline bool value_is_mate(int32_t v) { return v >= VALUE_MATE_MIN || v <= -VALUE_MATE_MIN; }

/* Mate values are stored in the table relative to the node, read back
 * relative to the root. */
static inline int32_t value_to_tt(int32_t v, int ply) {
    return v >= VALUE_MATE_MIN ? v + ply : v <= -VALUE_MATE_MIN ? v - ply : v;
}
static inline int32_t value_from_tt(int32_t v, int ply) {
    return v >= VALUE_MATE_MIN ? v - ply : v <= -VALUE_MATE_MIN ? v + ply : v;
}

#endif

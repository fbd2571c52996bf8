/* brain/util.h — the tree's one monotonic clock and one random-number
 * generator (splitmix64), for every layer above. Header only. */
#ifndef QUINTO_BRAIN_UTIL_H
#define QUINTO_BRAIN_UTIL_H

#include <stdint.h>
#include <time.h>

/* Monotonic clock in nanoseconds and milliseconds. */
static inline int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
static inline int64_t now_ms(void) { return now_ns() / 1000000; }

/* splitmix64: advances *state and returns the next 64 random bits. */
static inline uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

#endif

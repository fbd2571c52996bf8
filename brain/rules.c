/* brain/rules.c — win and forbidden-point rules by direct scans along the four
 * lines through a cell. Reference definitions: eval/'s table-driven patterns
 * are tested against these. */
#include "rules.h"

#include <stdlib.h>
#include <string.h>

/* Deepest recursion of the renju three check (each level places one more
 * stone); real positions need two or three, the cap only guards against a
 * constructed pathological position. */
enum { FORBID_MAX_DEPTH = 12 };

bool rule_from_protocol(int v, Rule *rule, bool *continuous) {
    if (v < 0 || v > 15)
        return false;
    bool cont = false;
    Rule r;
    if (v & 8)
        r = (v & 1) ? RULE_CARO9 : RULE_CARO8;
    else if (v & 4)
        r = RULE_RENJU;
    else if (v & 1)
        r = RULE_STANDARD;
    else if (v == 2)
        r = RULE_RENJU; /* Yixin-Board's renju */
    else
        r = RULE_FREESTYLE;
    if ((v & 2) && v != 2)
        cont = true;
    *rule = r;
    if (continuous)
        *continuous = cont;
    return true;
}

int rule_to_protocol(Rule rule) {
    static const int value[RULE_COUNT] = {0, 1, 4, 8, 9};
    return value[rule];
}

static const char *const rule_names[RULE_COUNT] = {"freestyle", "standard", "renju", "caro8",
                                                   "caro9"};

const char *rule_name(Rule rule) { return rule_names[rule]; }

static bool same_word(const char *a, const char *b) {
    for (; *a && *b; a++, b++)
        if ((*a | 32) != (*b | 32))
            return false;
    return *a == *b;
}

bool rule_parse(const char *s, Rule *rule) {
    for (int r = 0; r < RULE_COUNT; r++)
        if (same_word(s, rule_names[r])) {
            *rule = (Rule)r;
            return true;
        }
    if (same_word(s, "caro")) {
        *rule = RULE_CARO8;
        return true;
    }
    char *end;
    long v = strtol(s, &end, 10);
    return *s && !*end && rule_from_protocol((int)v, rule, NULL);
}

/* Length of the run of colour c through m along d (m counts as c), and the
 * cells just beyond both ends. */
static int run_through(const Board *b, int m, int d, int c, int *before, int *after) {
    int lo = m - d, hi = m + d, n = 1;
    while (b->cell[lo] == c)
        lo -= d, n++;
    while (b->cell[hi] == c)
        hi += d, n++;
    if (before)
        *before = lo;
    if (after)
        *after = hi;
    return n;
}

/* Does a run of length n of colour c with these end cells win? */
static bool run_wins(const Board *b, int n, int c, int before, int after, Rule rule) {
    int o = opponent(c);
    switch (rule) {
    case RULE_FREESTYLE:
        return n >= 5;
    case RULE_STANDARD:
        return n == 5;
    case RULE_RENJU:
        return c == BLACK ? n == 5 : n >= 5;
    case RULE_CARO8:
        return n >= 6 || (n == 5 && !(b->cell[before] == o && b->cell[after] == o));
    case RULE_CARO9:
        return n == 5 && !(b->cell[before] == o && b->cell[after] == o);
    default:
        return false;
    }
}

static bool wins_at(const Board *b, int m, int c, Rule rule) {
    for (int d = 0; d < DIR_COUNT; d++) {
        int before, after;
        int n = run_through(b, m, b->dir[d], c, &before, &after);
        if (n >= 5 && run_wins(b, n, c, before, after, rule))
            return true;
    }
    return false;
}

bool rule_is_win(const Board *b, Move m, Rule rule) {
    int c = b->cell[m];
    return (c == BLACK || c == WHITE) && wins_at(b, m, c, rule);
}

bool rule_wins_if_played(Board *b, Move m, int colour, Rule rule) {
    if (b->cell[m] != EMPTY)
        return false;
    b->cell[m] = (uint8_t)colour;
    bool w = wins_at(b, m, colour, rule);
    b->cell[m] = EMPTY;
    return w;
}

/* ---- Renju: black's forbidden points ---- */

static bool forbidden_rec(Board *b, int m, int depth);

/* Number of fours black has along d through the black stone on m: the empty
 * points of the line that complete exactly five with m in it. Two such points
 * five apart enclose one straight four and count once. */
static int fours_along(Board *b, int m, int d) {
    int points[8], n = 0;
    for (int k = -4; k <= 4; k++) {
        int e = m + k * d;
        if (k == 0 || b->cell[e] != EMPTY)
            continue;
        int before, after;
        b->cell[e] = BLACK;
        int len = run_through(b, e, d, BLACK, &before, &after);
        b->cell[e] = EMPTY;
        /* the run through e contains m iff m lies strictly between its ends */
        bool has_m = (k > 0) ? before < m : after > m;
        if (len == 5 && has_m)
            points[n++] = k;
    }
    if (n == 2 && points[1] - points[0] == 5)
        return 1;
    return n;
}

/* Does the black stone on m, with black on e too, stand in a straight four
 * along d: a run of exactly four with both ends empty and each end point
 * completing exactly five? */
static bool straight_four(const Board *b, int m, int d) {
    int before, after;
    if (run_through(b, m, d, BLACK, &before, &after) != 4)
        return false;
    return b->cell[before] == EMPTY && b->cell[after] == EMPTY && b->cell[before - d] != BLACK &&
           b->cell[after + d] != BLACK;
}

/* Is there a real three along d through the black stone on m: an empty point
 * that makes a straight four with m and is not itself forbidden? */
static bool three_along(Board *b, int m, int d, int depth) {
    for (int k = -4; k <= 4; k++) {
        int e = m + k * d;
        if (k == 0 || b->cell[e] != EMPTY)
            continue;
        b->cell[e] = BLACK;
        bool four = straight_four(b, m, d);
        b->cell[e] = EMPTY;
        if (four && (depth >= FORBID_MAX_DEPTH || !forbidden_rec(b, e, depth + 1)))
            return true;
    }
    return false;
}

static bool forbidden_rec(Board *b, int m, int depth) {
    b->cell[m] = BLACK;
    bool forbidden = false, overline = false;
    for (int d = 0; d < DIR_COUNT; d++) {
        int n = run_through(b, m, b->dir[d], BLACK, NULL, NULL);
        if (n == 5)
            goto done; /* a five wins whatever else it makes */
        if (n > 5)
            overline = true;
    }
    if (overline) {
        forbidden = true;
        goto done;
    }
    int fours = 0, threes = 0;
    bool has_four[DIR_COUNT];
    for (int d = 0; d < DIR_COUNT; d++) {
        int f = fours_along(b, m, b->dir[d]);
        has_four[d] = f > 0;
        fours += f;
    }
    if (fours >= 2) {
        forbidden = true;
        goto done;
    }
    for (int d = 0; d < DIR_COUNT && threes < 2; d++)
        if (!has_four[d] && three_along(b, m, b->dir[d], depth))
            threes++;
    forbidden = threes >= 2;
done:
    b->cell[m] = EMPTY;
    return forbidden;
}

bool rule_is_forbidden(Board *b, Move m, Rule rule) {
    if (rule != RULE_RENJU || b->cell[m] != EMPTY)
        return false;
    return forbidden_rec(b, m, 0);
}

int rule_forbidden_points(Board *b, Rule rule, Move *out) {
    int n = 0;
    if (rule != RULE_RENJU)
        return 0;
    for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++) {
            Move m = board_move_at(b, x, y);
            if (b->cell[m] == EMPTY && forbidden_rec(b, m, 0))
                out[n++] = m;
        }
    return n;
}

Outcome rule_judge(Board *b, int x, int y, Rule rule) {
    if (!board_on(b, x, y))
        return OUTCOME_ILLEGAL;
    Move m = board_move_at(b, x, y);
    if (b->cell[m] != EMPTY)
        return OUTCOME_ILLEGAL;
    if (rule_wins_if_played(b, m, b->side, rule))
        return OUTCOME_WIN;
    if (rule == RULE_RENJU && b->side == BLACK && forbidden_rec(b, m, 0))
        return OUTCOME_FORBIDDEN;
    return OUTCOME_NORMAL;
}

/* eval/pattern.c — generation of the pattern tables. */
#include "pattern.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

uint8_t pattern_half[2][1 << 10];
uint8_t pattern_lut[RULE_COUNT * 2][96][96];
uint16_t pattern_code_lut[PAT_COUNT][PAT_COUNT][PAT_COUNT][PAT_COUNT];
uint8_t pattern4_lut[RULE_COUNT * 2][PCODE_COUNT];

/* In generation, lines are relative to the colour: */
enum { L_EMPTY = 0, L_OWN = 1, L_OPP = 2, L_WALL = 3 };

/* ---- Side canonicalisation ----
 * A half is 5 cells nearest first. Everything beyond the first blocker (an
 * opponent stone or the wall) is irrelevant, so it is replaced by walls; what
 * remains (at most 94 shapes) gets a dense id. */
static int half_count;
static uint16_t half_repr[96]; /* canonical relative half of each id */

static unsigned canon_half(unsigned h) {
    for (int k = 0; k < 5; k++) {
        unsigned c = (h >> (2 * k)) & 3;
        if (c == L_OPP || c == L_WALL) {
            for (int j = k + 1; j < 5; j++)
                h |= 3u << (2 * j);
            return h;
        }
    }
    return h;
}

/* ---- Classification of a relative line (cells[5] is own) ---- */

typedef struct {
    Rule rule;
    int colour;
    uint8_t *memo; /* indexed by the 20-bit relative key, 0xFF unknown */
} Gen;

static int line_key(const int c[11]) {
    int k = 0;
    for (int i = 1; i <= 5; i++) {
        k |= c[5 - i] << (2 * (i - 1));
        k |= c[5 + i] << (10 + 2 * (i - 1));
    }
    return k;
}

/* Run of own stones through the centre: its length and end cells. */
static int centre_run(const int c[11], int *lo_end, int *hi_end) {
    int lo = 5, hi = 5;
    while (lo > 0 && c[lo - 1] == L_OWN)
        lo--;
    while (hi < 10 && c[hi + 1] == L_OWN)
        hi++;
    *lo_end = lo > 0 ? c[lo - 1] : L_WALL;
    *hi_end = hi < 10 ? c[hi + 1] : L_WALL;
    return hi - lo + 1;
}

/* The five test on the centre run: F5 (wins), PAT_OL (an overline that does
 * not win), PAT_DEAD (a caro five blocked at both ends), or -1 (no five). */
static int five_kind(const Gen *g, const int c[11]) {
    int lo_end, hi_end;
    int n = centre_run(c, &lo_end, &hi_end);
    if (n < 5)
        return -1;
    bool blocked = lo_end == L_OPP && hi_end == L_OPP;
    switch (g->rule) {
    case RULE_FREESTYLE:
        return PAT_F5;
    case RULE_STANDARD:
        return n == 5 ? PAT_F5 : PAT_OL;
    case RULE_RENJU:
        return g->colour == WHITE || n == 5 ? PAT_F5 : PAT_OL;
    case RULE_CARO8:
        return n >= 6 || !blocked ? PAT_F5 : PAT_DEAD;
    case RULE_CARO9:
        return n > 5 ? PAT_OL : !blocked ? PAT_F5 : PAT_DEAD;
    default:
        return -1;
    }
}

static bool is_f2(int p) { return p == PAT_F2 || p == PAT_F2A || p == PAT_F2B; }
static bool is_f3(int p) { return p == PAT_F3 || p == PAT_F3S; }

static int classify(Gen *g, int c[11]) {
    int key = line_key(c);
    if (g->memo[key] != 0xFF)
        return g->memo[key];
    int result;
    int fk = five_kind(g, c);
    if (fk >= 0) {
        result = fk;
        goto done;
    }
    /* five points: empty cells within 4 that complete a winning five */
    int fives = 0, first = -1, last = -1;
    for (int i = 1; i <= 9; i++) {
        if (c[i] != L_EMPTY)
            continue;
        c[i] = L_OWN;
        if (five_kind(g, c) == PAT_F5) {
            fives++;
            if (first < 0)
                first = i;
            last = i;
        }
        c[i] = L_EMPTY;
    }
    if (fives >= 2) {
        /* renju black: two fours on one line (five points not enclosing one
         * straight four) are a forbidden double four */
        bool straight = fives == 2 && last - first == 5;
        result = g->rule == RULE_RENJU && g->colour == BLACK && !straight ? PAT_OL : PAT_F4;
        goto done;
    }
    if (fives == 1) {
        result = PAT_B4;
        goto done;
    }
    int f4 = 0, b4 = 0, f3 = 0, b3 = 0, f2 = 0, b2 = 0;
    for (int i = 1; i <= 9; i++) {
        if (c[i] != L_EMPTY)
            continue;
        c[i] = L_OWN;
        int p = classify(g, c);
        c[i] = L_EMPTY;
        f4 += p == PAT_F4;
        b4 += p == PAT_B4;
        f3 += is_f3(p);
        b3 += p == PAT_B3;
        f2 += is_f2(p);
        b2 += p == PAT_B2;
    }
    if (f4 >= 2)
        result = PAT_F3S;
    else if (f4 == 1)
        result = PAT_F3;
    else if (b4)
        result = PAT_B3;
    else if (f3 >= 4)
        result = PAT_F2B;
    else if (f3 == 3)
        result = PAT_F2A;
    else if (f3)
        result = PAT_F2;
    else if (b3)
        result = PAT_B2;
    else if (f2)
        result = PAT_F1;
    else if (b2)
        result = PAT_B1;
    else
        result = PAT_DEAD;
done:
    g->memo[key] = (uint8_t)result;
    return result;
}

/* ---- Pattern4 ---- */

Pattern4 pattern4_classify(Rule rule, int colour, const Pattern p[4]) {
    int n[PAT_COUNT] = {0};
    for (int i = 0; i < 4; i++)
        n[p[i]]++;
    int fours = n[PAT_F4] + n[PAT_B4];
    int flex3 = n[PAT_F3] + n[PAT_F3S];
    int flex2 = n[PAT_F2] + n[PAT_F2A] + n[PAT_F2B];
    if (n[PAT_F5])
        return P4_FIVE;
    if (rule == RULE_RENJU && colour == BLACK && (n[PAT_OL] || fours >= 2 || flex3 >= 2))
        return P4_FORBID;
    if (n[PAT_F4] || n[PAT_B4] >= 2)
        return P4_FLEX4;
    if (n[PAT_B4] && flex3)
        return P4_BLOCK4_FLEX3;
    if (n[PAT_B4] && (n[PAT_B3] || flex2))
        return P4_BLOCK4_PLUS;
    if (n[PAT_B4])
        return P4_BLOCK4;
    if (flex3 >= 2)
        return P4_FLEX3_2X;
    if (flex3 && (n[PAT_B3] || flex2))
        return P4_FLEX3_PLUS;
    if (flex3)
        return P4_FLEX3;
    if (n[PAT_B3] >= 2 || (n[PAT_B3] && flex2))
        return P4_BLOCK3_PLUS;
    if (flex2 >= 2)
        return P4_FLEX2_2X;
    if (n[PAT_B3])
        return P4_BLOCK3;
    if (flex2)
        return P4_FLEX2;
    return P4_NONE;
}

static Pattern code_patterns[PCODE_COUNT][4];

void pattern_code_decode(int pcode, Pattern out[4]) {
    memcpy(out, code_patterns[pcode], sizeof code_patterns[pcode]);
}

/* ---- Table construction ---- */

/* Side ids and pattern codes: shared by every rule. */
static void build_base(void) {
    uint8_t id_of[1 << 10];
    memset(id_of, 0xFF, sizeof id_of);
    half_count = 0;
    for (unsigned h = 0; h < (1u << 10); h++) {
        unsigned ch = canon_half(h);
        if (id_of[ch] == 0xFF) {
            half_repr[half_count] = (uint16_t)ch;
            id_of[ch] = (uint8_t)half_count++;
        }
    }
    /* absolute half (BLACK 1, WHITE 2) -> relative for each colour */
    for (int colour = BLACK; colour <= WHITE; colour++)
        for (unsigned h = 0; h < (1u << 10); h++) {
            unsigned rel = 0;
            for (int k = 0; k < 5; k++) {
                unsigned c = (h >> (2 * k)) & 3, r;
                if (c == EMPTY)
                    r = L_EMPTY;
                else if (c == WALL)
                    r = L_WALL;
                else
                    r = (int)c == colour ? L_OWN : L_OPP;
                rel |= r << (2 * k);
            }
            pattern_half[colour - 1][h] = id_of[canon_half(rel)];
        }
    /* pattern codes: sorted 4-tuples numbered in order */
    int next = 0;
    static int16_t code_of_sorted[PAT_COUNT][PAT_COUNT][PAT_COUNT][PAT_COUNT];
    for (int a = 0; a < PAT_COUNT; a++)
        for (int b = a; b < PAT_COUNT; b++)
            for (int c = b; c < PAT_COUNT; c++)
                for (int d = c; d < PAT_COUNT; d++) {
                    code_of_sorted[a][b][c][d] = (int16_t)next;
                    Pattern *cp = code_patterns[next++];
                    cp[0] = (Pattern)a, cp[1] = (Pattern)b, cp[2] = (Pattern)c, cp[3] = (Pattern)d;
                }
    for (int a = 0; a < PAT_COUNT; a++)
        for (int b = 0; b < PAT_COUNT; b++)
            for (int c = 0; c < PAT_COUNT; c++)
                for (int d = 0; d < PAT_COUNT; d++) {
                    int v[4] = {a, b, c, d};
                    for (int i = 1; i < 4; i++) /* insertion sort */
                        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
                            int t = v[j];
                            v[j] = v[j - 1];
                            v[j - 1] = t;
                        }
                    pattern_code_lut[a][b][c][d] = (uint16_t)code_of_sorted[v[0]][v[1]][v[2]][v[3]];
                }
}

/* The classification of every pair of side shapes and the threat classes,
 * for one rule and both colours. */
static void build_rule(Rule rule) {
    uint8_t *memo = malloc(1u << LINE_KEY_BITS);
    if (!memo)
        abort();
    for (int colour = BLACK; colour <= WHITE; colour++) {
        Gen g = {rule, colour, memo};
        memset(memo, 0xFF, 1u << LINE_KEY_BITS);
        int t = pattern_table(rule, colour);
        for (int l = 0; l < half_count; l++)
            for (int r = 0; r < half_count; r++) {
                int c[11];
                c[5] = L_OWN;
                for (int k = 1; k <= 5; k++) {
                    c[5 - k] = (half_repr[l] >> (2 * (k - 1))) & 3;
                    c[5 + k] = (half_repr[r] >> (2 * (k - 1))) & 3;
                }
                pattern_lut[t][l][r] = (uint8_t)classify(&g, c);
            }
        for (int pc = 0; pc < PCODE_COUNT; pc++)
            pattern4_lut[t][pc] = (uint8_t)pattern4_classify(rule, colour, code_patterns[pc]);
    }
    free(memo);
}

static pthread_once_t base_once = PTHREAD_ONCE_INIT;
static pthread_once_t rule_once[RULE_COUNT] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                               PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                               PTHREAD_ONCE_INIT};
static void build_freestyle(void) { build_rule(RULE_FREESTYLE); }
static void build_standard(void) { build_rule(RULE_STANDARD); }
static void build_renju(void) { build_rule(RULE_RENJU); }
static void build_caro8(void) { build_rule(RULE_CARO8); }
static void build_caro9(void) { build_rule(RULE_CARO9); }
static void (*const rule_builders[RULE_COUNT])(void) = {build_freestyle, build_standard, build_renju,
                                                        build_caro8, build_caro9};

void pattern_init(Rule rule) {
    pthread_once(&base_once, build_base);
    pthread_once(&rule_once[rule], rule_builders[rule]);
}

Pattern pattern_of(Rule rule, int colour, uint32_t key) {
    pattern_init(rule);
    return pattern_fast(pattern_table(rule, colour), colour, key);
}

static const char *const pat_names[PAT_COUNT] = {"DEAD", "OL", "B1", "F1", "B2", "F2", "F2A",
                                                 "F2B", "B3", "F3", "F3S", "B4", "F4", "F5"};
static const char *const p4_names[P4_COUNT] = {
    "none", "forbid", "flex2", "block3", "flex2x2", "block3+", "flex3",
    "flex3+", "flex3x2", "block4", "block4+", "four-three", "flex4", "five"};

const char *pattern_name(Pattern p) { return pat_names[p]; }
const char *pattern4_name(Pattern4 p) { return p4_names[p]; }

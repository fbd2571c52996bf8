/* eval/weights.c — the tunable numbers. */
#include "weights.h"

#include <pthread.h>
#include <stdbool.h>

/* Fitted to freestyle self-play results (pbrain-quinto tune freestyle 15, ~2 400 games
 * at 100 ms a move); the other rules start from the same numbers. */
#define FREESTYLE_WEIGHTS                                                                              \
    {                                                                                              \
        .window = {0, 189, -1053, 459, 1751, 100000},                                              \
        /*          DEAD OL B1   F1   B2   F2  F2A F2B  B3   F3  F3S B4   F4   F5 */                \
        .pattern = {-26, 0, -37, -34, -23, 38, 6, 22, 116, 54, 39, 231, 240, 800},                 \
        /*     none forbid F2  B3   F2x2 B3+  F3   F3+  F3x2 B4  B4+  B4F3 F4   F5 */              \
        .p4 = {-10, 0, -87, -99, -95, -50, 138, 198, 105, 40, 277, 627, 900, 2000},                 \
        .threat = {2487, 2077, -400}, .tempo = 1193, .black = 0,                                    \
    }

static const EvalWeights BASE_WEIGHTS[RULE_COUNT] = {
    [RULE_FREESTYLE] = FREESTYLE_WEIGHTS,
    [RULE_STANDARD] = FREESTYLE_WEIGHTS,
    /* pbrain-quinto tune renju 15 over 943 renju self-play games (120 ms a move,
     * Piskvork 15x15 openings): 12 419 quiet positions, held-out error
     * 0.2066 -> 0.1869; black's bias (-657) is the colour term's work */
    [RULE_RENJU] =
        {
            .window = {0, 810, -649, -816, -364, 100000},
            .pattern = {43, 0, 53, 52, 35, 31, -16, 45, 113, 80, 152, 396, 240, 800},
            .p4 = {14, 0, 8, 32, -69, 93, 214, 201, -173, 92, 457, 1127, 900, 2000},
            .threat = {3840, 3380, -400},
            .tempo = 1753,
            .black = -657,
        },
    [RULE_CARO8] = FREESTYLE_WEIGHTS,
    [RULE_CARO9] = FREESTYLE_WEIGHTS,
};

/*                                   DEAD OL B1 F1 B2 F2 F2A F2B B3  F3  F3S B4   F4   F5 */
const int16_t PATTERN_SCORE[PAT_COUNT] = {0, 0, 1, 2, 3, 7, 8, 9, 10, 28, 30, 32, 120, 600};
/*                                none forbid F2 B3 F2x2 B3+ F3 F3+ F3x2 B4 B4+ B4F3 F4  F5 */
const int16_t P4_SCORE[P4_COUNT] = {0, -40, 0, 0, 6, 8, 10, 20, 160, 4, 24, 400, 1200, 5000};

/* Fitted corrections (pbrain-quinto tune RULE SIZE --table; the kinds are
 * CodeCorrection's, weights.h), added to the value the weights above give.
 * A direction pair's value goes to every code holding its two patterns in
 * two directions. Each file's head says how it was made. */
static const CodeCorrection FREESTYLE_TABLE[] = {
#include "table-freestyle.inc"
    {-1, 0, 0},
};

static const CodeCorrection STANDARD_TABLE[] = {
#include "table-standard.inc"
    {-1, 0, 0},
};

static const CodeCorrection RENJU_TABLE[] = {
#include "table-renju.inc"
    {-1, 0, 0},
};

/* Standard (exactly five) has its own table since session 55: the freestyle
 * table refined on 17 592 games of Rapfi against itself under the rule, the
 * scalar weights held (tune --keep-scalars). Pattern codes mean the same
 * shapes in both rules (the overline is its own pattern); the earlier fits of
 * standard's own self-play games, scalars free, had lost to the borrowed
 * freestyle table (README, changes tried). */
static const CodeCorrection *const CORRECTIONS[RULE_COUNT] = {
    [RULE_FREESTYLE] = FREESTYLE_TABLE,
    [RULE_STANDARD] = STANDARD_TABLE,
    [RULE_RENJU] = RENJU_TABLE,
};

/* Move-ordering corrections (pbrain-quinto tune RULE SIZE --ordering), fitted
 * to the moves a stronger brain chose: kind 6 the attack value of a code (the
 * mover's own code at the cell), 7 the defence value (the opponent's code
 * there); index colour * PCODE_COUNT + code (colour 0: both, 1 black, 2 white). */
static const CodeCorrection FREESTYLE_ORDER[] = {
#include "order-freestyle.inc"
    {-1, 0, 0},
};

static const CodeCorrection *const ORDER_CORRECTIONS[RULE_COUNT] = {
    [RULE_FREESTYLE] = FREESTYLE_ORDER,
    [RULE_STANDARD] = FREESTYLE_ORDER,
};

EvalWeights EVAL_WEIGHTS[RULE_COUNT];
int16_t pcode_eval[RULE_COUNT * 2][PCODE_COUNT];
int16_t threat_value[RULE_COUNT][THREAT_MASKS];

const CodeCorrection *eval_corrections(Rule rule) { return CORRECTIONS[rule]; }

static bool without_corrections;
void weights_without_corrections(void) { without_corrections = true; }

bool eval_has_corrections(Rule rule) {
    return !without_corrections && CORRECTIONS[rule] && CORRECTIONS[rule][0].kind >= 0;
}
int16_t pcode_score[RULE_COUNT * 2][PCODE_COUNT];
int16_t pcode_order[2][RULE_COUNT * 2][PCODE_COUNT];
int32_t window_value_lut[RULE_COUNT][256];

/* Renju black's pattern-code values, counted from the open-one code (F1 on
 * all four lines), are played at this percent of the fitted ones: black
 * values its own shapes more, white defends against them harder. A search
 * choice, not a fit (tune fits without it; only --refine starts from the
 * scaled values, and stores black's changes divided by it). Against Rapfi,
 * 15x15 renju, balanced-r15 (README, changes tried): 200 ms, 160 games each,
 * 80% 17%, 100% 26-30%, 125% 33.8%, 150% 32.5%; 1 s, 125% 30.6% over 160
 * games against 31.2%: neutral there. */
enum { RENJU_BLACK_SHAPE_PCT = 125 };

int eval_code_pct(Rule rule, int colour) {
    return rule == RULE_RENJU && colour == BLACK && eval_has_corrections(rule) ? RENJU_BLACK_SHAPE_PCT : 100;
}

static void scale_codes(int16_t *eval, int table, int pct) {
    int base = eval[eval_code_pct_base()];
    for (int pc = 0; pc < PCODE_COUNT; pc++)
        if (pattern4_of(table, pc) != P4_FORBID)
            eval[pc] = (int16_t)(base + (eval[pc] - base) * pct / 100);
}

static void build(Rule rule) {
    pattern_init(rule);
    const CodeCorrection *fix = without_corrections ? NULL : CORRECTIONS[rule];
    EVAL_WEIGHTS[rule] = BASE_WEIGHTS[rule];
    for (const CodeCorrection *c = fix; c && c->kind >= 0; c++)
        if (c->kind == 4 && c->index >= 0 && c->index < 4)
            EVAL_WEIGHTS[rule].window[c->index + 1] += c->value;
        else if (c->kind == 4 && c->index == 4)
            EVAL_WEIGHTS[rule].tempo += c->value;
        else if (c->kind == 4 && c->index == 5)
            EVAL_WEIGHTS[rule].black += c->value;
    const EvalWeights *wt = &EVAL_WEIGHTS[rule];
    for (unsigned w = 0; w < 256; w++) {
        unsigned nb = w & 15, nw = w >> 4;
        /* five stones in a window are a five (the game is over) or, under
         * exactly-five rules, part of an overline that wins nothing: 0 */
        window_value_lut[rule][w] = nb && !nw && nb <= 4   ? wt->window[nb]
                                    : nw && !nb && nw <= 4 ? -wt->window[nw]
                                                           : 0;
    }
    for (int colour = BLACK; colour <= WHITE; colour++) {
        int t = pattern_table(rule, colour);
        for (int pc = 0; pc < PCODE_COUNT; pc++) {
            Pattern p[4];
            pattern_code_decode(pc, p);
            Pattern4 cls = pattern4_of(t, pc);
            int e = wt->p4[cls], s = P4_SCORE[cls];
            for (int i = 0; i < 4; i++) {
                e += wt->pattern[p[i]];
                s += PATTERN_SCORE[p[i]];
            }
            if (cls == P4_FORBID) /* a forbidden point is worth nothing to black */
                e = 0, s = 0;
            pcode_eval[t][pc] = (int16_t)e;
            pcode_score[t][pc] = (int16_t)s;
            pcode_order[0][t][pc] = (int16_t)(2 * s);
            pcode_order[1][t][pc] = (int16_t)s;
        }
        for (const CodeCorrection *c = without_corrections ? NULL : ORDER_CORRECTIONS[rule]; c && c->kind >= 0; c++) {
            int sel = c->index / PCODE_COUNT, pc = c->index % PCODE_COUNT;
            if ((c->kind == 6 || c->kind == 7) && c->index >= 0 && (sel == 0 || sel == colour) && sel <= 2 &&
                pattern4_of(t, pc) != P4_FORBID)
                pcode_order[c->kind - 6][t][pc] = (int16_t)(pcode_order[c->kind - 6][t][pc] + c->value);
        }
        /* direction pairs (kind 5): every code adds its six pairs' values */
        int16_t pair[PCODE_PAIRS] = {0};
        bool pairs = false;
        for (const CodeCorrection *c = fix; c && c->kind >= 0; c++)
            if (c->kind == 5 && (c->index / PCODE_PAIRS == 0 || c->index / PCODE_PAIRS == colour))
                pair[c->index % PCODE_PAIRS] = c->value, pairs = true;
        for (int pc = 0; pairs && pc < PCODE_COUNT; pc++) {
            if (pattern4_of(t, pc) == P4_FORBID)
                continue;
            int pi[6], add = 0;
            pcode_pairs(pc, pi);
            for (int k = 0; k < 6; k++)
                add += pair[pi[k]];
            pcode_eval[t][pc] = (int16_t)(pcode_eval[t][pc] + add);
        }
        for (const CodeCorrection *c = fix; c && c->kind >= 0; c++)
            if ((c->kind == 0 || c->kind == colour) && c->index < PCODE_COUNT &&
                pattern4_of(t, c->index) != P4_FORBID)
                pcode_eval[t][c->index] = (int16_t)(pcode_eval[t][c->index] + c->value);
        if (eval_code_pct(rule, colour) != 100)
            scale_codes(pcode_eval[t], t, eval_code_pct(rule, colour));
    }
    /* the threat terms: the side to move's four-three or open four; its double
     * three against no four of the opponent's; the opponent's two open-four
     * points */
    for (int m = 0; m < THREAT_MASKS; m++) {
        bool on[3];
        threat_terms_of_mask(m, on);
        threat_value[rule][m] = (int16_t)((on[0] ? wt->threat[0] : 0) + (on[1] ? wt->threat[1] : 0) +
                                          (on[2] ? wt->threat[2] : 0));
    }
    for (const CodeCorrection *c = fix; c && c->kind >= 0; c++)
        if (c->kind == 3 && c->index >= 0 && c->index < THREAT_MASKS)
            threat_value[rule][c->index] = (int16_t)(threat_value[rule][c->index] + c->value);
}

void pcode_pairs(int pcode, int out[6]) {
    Pattern q[4];
    pattern_code_decode(pcode, q);
    int k = 0;
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++)
            out[k++] = q[i] < q[j] ? q[i] * PAT_COUNT + q[j] : q[j] * PAT_COUNT + q[i];
}

static pthread_once_t once[RULE_COUNT] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                          PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT};
static void build0(void) { build(RULE_FREESTYLE); }
static void build1(void) { build(RULE_STANDARD); }
static void build2(void) { build(RULE_RENJU); }
static void build3(void) { build(RULE_CARO8); }
static void build4(void) { build(RULE_CARO9); }
static void (*const builders[RULE_COUNT])(void) = {build0, build1, build2, build3, build4};

void weights_init(Rule rule) { pthread_once(&once[rule], builders[rule]); }

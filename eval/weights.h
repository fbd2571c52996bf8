/* eval/weights.h — every number eval uses, in one place, and the per-code
 * tables derived from them. Tune here. */
#ifndef QUINTO_EVAL_WEIGHTS_H
#define QUINTO_EVAL_WEIGHTS_H

#include <stdbool.h>
#include <stdint.h>

#include "pattern.h"

/* The evaluation's weights for one rule (eval_static, eval_features):
 *  - window: seed 003's five-cell windows (the first seed article's
 *    evaluator): a window holding n stones of one colour and none of the
 *    other is worth window[n] to that colour;
 *  - pattern: per direction, the value of the line pattern a colour gets by
 *    playing an empty cell; p4: a bonus by the cell's threat class;
 *  - threat: whole-position terms for the side to move (its own four-three or
 *    open four; its double three against no four; the opponent's two
 *    open-four points); tempo: the side to move's bonus; black: added to
 *    black's view whoever moves (a colour bias, renju's above all). */
typedef struct {
    int32_t window[6];
    int16_t pattern[PAT_COUNT];
    int16_t p4[P4_COUNT];
    int32_t threat[3];
    int32_t tempo;
    int32_t black;
} EvalWeights;

/* The weights in use: eval/weights.c's numbers plus the fitted corrections of
 * the window values, tempo and colour terms (filled by weights_init). */
extern EvalWeights EVAL_WEIGHTS[RULE_COUNT];

/* Does the rule's evaluation carry fitted corrections (pattern codes, threat
 * masks)? Then it is no longer the linear model of eval_features alone. */
bool eval_has_corrections(Rule rule);

/* A fitted correction: {kind, index, value}, kind 0 a pattern code of either
 * colour, 1 black's, 2 white's, 3 a threat mask, 4 a scalar weight (index
 * 0..3 window[1..4], 4 tempo, 5 black), 5 a direction pair (colour * 196 +
 * a * 14 + b, a <= b); added to the value the weights give. */
typedef struct {
    int8_t kind;
    int16_t index, value;
} CodeCorrection;

/* The rule's built-in corrections, ended by kind -1 (NULL: none). */
const CodeCorrection *eval_corrections(Rule rule);


/* The percent at which a colour's pattern-code values are played, counted
 * from the open-one code: 100 but for renju black with its corrections built
 * in (a search choice, not a fit: eval/weights.c). A fit made on the played
 * values (tune --refine) divides black's changes by it before it stores them. */
int eval_code_pct(Rule rule, int colour);

/* The code the percent counts from, which keeps its value: the open-one code
 * (F1 on all four lines). */
static inline int eval_code_pct_base(void) { return pattern_code(PAT_F1, PAT_F1, PAT_F1, PAT_F1); }

/* Build every rule's tables without the fitted corrections (the tuner fits
 * them anew from the weights alone). Call before anything uses a rule. */
void weights_without_corrections(void);

/* The value of a window's stone counts (black | white << 4), black's view:
 * window[n] for one colour alone, 0 for a mixed or empty window, per rule. */
extern int32_t window_value_lut[RULE_COUNT][256];

/* Per-direction pattern values and per-class bonuses for move ordering. */
extern const int16_t PATTERN_SCORE[PAT_COUNT];
extern const int16_t P4_SCORE[P4_COUNT];

/* The threat mask of a position for the side to move (eval_threat_mask):
 * which threat classes each side holds. Its value, per rule, starts from the
 * three threat weights and takes fitted corrections (tune --table). */
enum {
    TM_SELF_FLEX4 = 1 << 0, TM_SELF_B4F3 = 1 << 1, TM_SELF_B4PLUS = 1 << 2, TM_SELF_B4 = 1 << 3,
    TM_SELF_F3X2 = 1 << 4, TM_SELF_F3PLUS = 1 << 5, TM_SELF_F3 = 1 << 6,
    TM_OPP_FLEX4_2 = 1 << 7, TM_OPP_FLEX4 = 1 << 8, TM_OPP_B4F3 = 1 << 9, TM_OPP_B4PLUS = 1 << 10,
    TM_OPP_B4 = 1 << 11, TM_OPP_F3X = 1 << 12, TM_OPP_F3 = 1 << 13,
    THREAT_MASKS = 1 << 14,
};
extern int16_t threat_value[RULE_COUNT][THREAT_MASKS];

/* The three threat terms a mask holds: the side to move's four-three or open
 * four; else its double three against no four of the opponent's; the
 * opponent's two open-four points. */
static inline void threat_terms_of_mask(int m, bool on[3]) {
    on[0] = m & (TM_SELF_FLEX4 | TM_SELF_B4F3);
    on[1] = !on[0] && (m & TM_SELF_F3X2) && !(m & (TM_OPP_B4 | TM_OPP_B4PLUS));
    on[2] = m & TM_OPP_FLEX4_2;
}

/* The six direction pairs of a pattern code as indices a * PAT_COUNT + b
 * (patterns a <= b): the pair model's parameters (tune --table, kind 5). */
enum { PCODE_PAIRS = PAT_COUNT * PAT_COUNT };
void pcode_pairs(int pcode, int out[6]);

/* Derived per rule-and-colour table and pattern code. */
extern int16_t pcode_eval[RULE_COUNT * 2][PCODE_COUNT];
extern int16_t pcode_score[RULE_COUNT * 2][PCODE_COUNT];
/* The move-ordering values of a cell's codes: [0] the mover's own code
 * (2 * pcode_score, corrected), [1] the opponent's (pcode_score, corrected). */
extern int16_t pcode_order[2][RULE_COUNT * 2][PCODE_COUNT];

/* Build a rule's pattern tables and derived tables (idempotent, thread-safe). */
void weights_init(Rule rule);

#endif

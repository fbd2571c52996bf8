/* eval/weights.h — every number eval uses, in one place, and the per-code
 * tables derived from them. Tune here. */
#ifndef QUINTO_EVAL_WEIGHTS_H
#define QUINTO_EVAL_WEIGHTS_H

#include <stdint.h>

#include "pattern.h"

/* Seed 003's five-cell window values: a window holding n stones of one colour
 * and none of the other is worth WINDOW_VALUE[n] to that colour. */
extern const int32_t WINDOW_VALUE[6];
/* The value of a window's stone counts (black | white << 4), black's view:
 * WINDOW_VALUE for one colour alone, 0 for a mixed or empty window. */
extern int32_t window_value_lut[256];

/* Per-direction values of a line pattern, for the static evaluation (own
 * stone shapes at empty cells) and for move ordering. */
extern const int16_t PATTERN_EVAL[PAT_COUNT];
extern const int16_t PATTERN_SCORE[PAT_COUNT];
/* Bonus by threat class, for evaluation and ordering. */
extern const int16_t P4_EVAL[P4_COUNT];
extern const int16_t P4_SCORE[P4_COUNT];

/* Whole-position threat terms (see eval_static) and the side to move's bonus. */
extern const int32_t THREAT_EVAL[3];
extern const int32_t TEMPO_EVAL;

/* Derived per rule-and-colour table and pattern code. */
extern int16_t pcode_eval[RULE_COUNT * 2][PCODE_COUNT];
extern int16_t pcode_score[RULE_COUNT * 2][PCODE_COUNT];

/* Build a rule's pattern tables and derived tables (idempotent, thread-safe). */
void weights_init(Rule rule);

#endif

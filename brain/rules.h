/* brain/rules.h — what wins and what is forbidden, for every rule the protocol
 * can name. One definition, used by the engine, the manager's judge and the
 * terminal front end alike. Rules are values passed in, never globals.
 *
 *   RULE_FREESTYLE  five or more in a row wins.
 *   RULE_STANDARD   exactly five wins; an overline wins for nobody.
 *   RULE_RENJU      black: exactly five wins; overline, double four (also two
 *                   fours on one line) and double three are forbidden and lose,
 *                   a three counting only if the point that makes it a straight
 *                   four is itself not forbidden (recursively); a five made
 *                   together with a forbidden shape wins. White: five or more.
 *   RULE_CARO8      caro as GomocupJudge judges rule 8: six or more wins; exactly
 *                   five wins unless both ends are opponent stones (the board
 *                   edge is not a block).
 *   RULE_CARO9      exactly five, not blocked at both ends by opponent stones.
 */
#ifndef QUINTO_BRAIN_RULES_H
#define QUINTO_BRAIN_RULES_H

#include "board.h"

typedef enum { RULE_FREESTYLE, RULE_STANDARD, RULE_RENJU, RULE_CARO8, RULE_CARO9, RULE_COUNT } Rule;

/* The protocol's INFO rule value (0, 1, 2 as Yixin-Board sends renju, 4, 8, 9,
 * with the continuous-game bit 2 beside others) to a Rule. Returns false for a
 * value no rule matches. *continuous is set when the continuous-game bit is on. */
bool rule_from_protocol(int value, Rule *rule, bool *continuous);

/* The protocol value for a rule (0, 1, 4, 8, 9). */
int rule_to_protocol(Rule rule);

/* Name: "freestyle", "standard", "renju", "caro8", "caro9". */
const char *rule_name(Rule rule);

/* Parse a rule name as used in testdata and on command lines ("freestyle",
 * "standard", "renju", "caro" = caro8, "caro8", "caro9", or the protocol number). */
bool rule_parse(const char *s, Rule *rule);

/* Does the stone on m (already on the board, of colour cell[m]) make a winning
 * line under the rule? Looks only along the four lines through m. */
bool rule_is_win(const Board *b, Move m, Rule rule);

/* Would a stone of colour c on empty cell m make a winning line? */
bool rule_wins_if_played(Board *b, Move m, int colour, Rule rule);

/* Renju: is empty cell m forbidden for black? Always false for other rules.
 * The board is modified during the check and restored before returning. */
bool rule_is_forbidden(Board *b, Move m, Rule rule);

/* All of black's forbidden points (renju), in cell order. Returns the count;
 * out must hold b->width * b->height moves. */
int rule_forbidden_points(Board *b, Rule rule, Move *out);

/* What a move does under the rules, judged before it is played. */
typedef enum {
    OUTCOME_NORMAL,     /* legal, game goes on */
    OUTCOME_WIN,        /* the mover makes a winning line */
    OUTCOME_FORBIDDEN,  /* renju: black plays a forbidden point and loses */
    OUTCOME_ILLEGAL,    /* off the board or occupied */
} Outcome;

/* Judge the side to move playing at x,y (not played). */
Outcome rule_judge(Board *b, int x, int y, Rule rule);

#endif

/* protocol/tools.h — pbrain-quinto's command-line tools. */
#ifndef QUINTO_PROTOCOL_TOOLS_H
#define QUINTO_PROTOCOL_TOOLS_H

#include <stdbool.h>

#include "../brain/board.h"

int tool_bench(int argc, char **argv);
int tool_speed(int argc, char **argv);
int tool_eval(int argc, char **argv);
int tool_ordering(int argc, char **argv);
int tool_tune(int argc, char **argv);
int tool_pruning(int argc, char **argv);

/* quinto-manager -results files (tune.c). The decided games of the files:
 * fn(ctx, moves, result for black) for each (moves is the file's field,
 * modifiable). Games given twice count once (FNV-1a of the move list) when
 * `unique`. Returns the number of games, -1 when a file cannot be read (said
 * on stderr after the tool's name); *repeats counts the skipped ones. */
int results_read_games(const char *tool, int nfiles, char **files, bool unique, int *repeats,
                       void (*fn)(void *ctx, char *moves, float black_result), void *ctx);

/* The cells of "x,y;x,y;..." (modified) on b: how many, -1 for one off the board. */
int results_parse_moves(const Board *b, char *moves, Move *seq);

#endif

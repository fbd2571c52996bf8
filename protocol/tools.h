/* protocol/tools.h — pbrain-quinto's command-line tools. */
#ifndef QUINTO_PROTOCOL_TOOLS_H
#define QUINTO_PROTOCOL_TOOLS_H

int tool_bench(int argc, char **argv);
int tool_speed(int argc, char **argv);
int tool_eval(int argc, char **argv);
int tool_ordering(int argc, char **argv);
int tool_tune(int argc, char **argv);
int tool_pruning(int argc, char **argv);

#endif

/* protocol/main.c — pbrain-quinto: the Gomocup brain, and its command-line
 * tools (bench, eval). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "platform.h"
#include "session.h"
#include "tools.h"

static void usage(FILE *f) {
    fprintf(f, "usage: pbrain-quinto                 speak the Gomocup protocol on stdin/stdout\n"
               "       pbrain-quinto bench [depth] [threads] [hash-mb]\n"
               "                                     fixed-depth search of the bench positions\n"
               "       pbrain-quinto speed           play/undo throughput on 15x15 and 128x128\n"
               "       pbrain-quinto eval RULE SIZE x,y x,y ...\n"
               "                                     every empty cell's weight and threats\n"
               "       pbrain-quinto ordering FILE [N]  share of VCF puzzles whose winning first\n"
               "                                     move ranks in the top N (5) by move score\n"
               "       pbrain-quinto tune RULE SIZE RESULTS.tsv...\n"
               "                                     fit the eval weights to the results of\n"
               "                                     quinto-manager games (-results files)\n"
               "       pbrain-quinto pruning RULE SIZE [--ms N] [--positions N] [--sample N] RESULTS.tsv...\n"
               "                                     how often child futility would cut wrongly, by\n"
               "                                     depth and margin, on positions of the games\n"
               "       pbrain-quinto about\n");
}

int main(int argc, char **argv) {
    if (argc <= 1) {
        platform_stdio_init();
        return session_run(STDIN_FILENO, stdout);
    }
    if (!strcmp(argv[1], "bench"))
        return tool_bench(argc - 2, argv + 2);
    if (!strcmp(argv[1], "speed"))
        return tool_speed(argc - 2, argv + 2);
    if (!strcmp(argv[1], "eval"))
        return tool_eval(argc - 2, argv + 2);
    if (!strcmp(argv[1], "ordering"))
        return tool_ordering(argc - 2, argv + 2);
    if (!strcmp(argv[1], "tune"))
        return tool_tune(argc - 2, argv + 2);
    if (!strcmp(argv[1], "pruning"))
        return tool_pruning(argc - 2, argv + 2);
    if (!strcmp(argv[1], "about") || !strcmp(argv[1], "--version")) {
        printf("%s\n", session_about());
        return 0;
    }
    if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    usage(stderr);
    return 2;
}

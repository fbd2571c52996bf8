/* tests/fuzz/fuzz_manager.c — libFuzzer: the parsers quinto-manager runs on
 * text it did not write: opening lines in the three formats, testdata
 * records, brain replies, and whole games for review (.psq, SGF, results).
 * Each line is parsed under several rules and board sizes; what a parser
 * accepts must be a position that can be set up. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../brain/board.h"
#include "../../brain/record.h"
#include "../../protocol/codec.h"
#include "../../tournaments/openings.h"
#include "../../tournaments/analysis.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static Record r;
    static Board b;
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    int w = size ? 5 + data[0] % 30 : 15, h = size > 1 ? 5 + data[1] % 30 : 15;
    Rule rule = (Rule)((size > 2 ? data[2] : 0) % RULE_COUNT);
    char err[256];
    /* the whole input as a game to review */
    if (review_parse_game(text, size > 3 ? data[3] % 4 : 0, w, h, rule, &r, err, sizeof err)) {
        if (r.count < 1 || r.count > RECORD_MAX_MOVES)
            abort();
        record_setup(&r, &b);
    }
    int score;
    review_parse_score(text, &score);
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        if (opening_parse_line(line, w, h, rule, &r, err, sizeof err)) {
            if (r.count < 0 || r.count > RECORD_MAX_MOVES || r.width < BOARD_MIN_SIZE ||
                r.height < BOARD_MIN_SIZE || r.width > BOARD_MAX_SIZE || r.height > BOARD_MAX_SIZE)
                abort(); /* an accepted opening is a real position */
            record_setup(&r, &b);
        }
        if (record_parse(line, &r, err, sizeof err)) {
            record_setup(&r, &b);
            int xs[16], ys[16];
            record_points(r.expect, xs, ys, 16);
            record_claim(&r, "win");
        }
        Reply rep;
        codec_parse_reply(line, &rep);
        if (rep.kind == REPLY_MOVES && (rep.count < 1 || rep.count > 8))
            abort();
    }
    free(text);
    return 0;
}

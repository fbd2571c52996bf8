/* tests/fuzz/fuzz_codec.c — libFuzzer: the protocol codec (every parser the
 * brain and the manager use on a line) and the line reader over a pipe. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../protocol/codec.h"
#include "../../protocol/linereader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
    int fd;
    const uint8_t *data;
    size_t size;
} CodecFeed;

static void *codec_feed(void *arg) {
    CodecFeed *f = arg;
    size_t off = 0;
    while (off < f->size) {
        ssize_t w = write(f->fd, f->data + off, f->size - off);
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    close(f->fd);
    return NULL;
}

static void codec_one_line(const char *line, int w, int h) {
    Command c;
    codec_parse_command(line, &c);
    int x, y, fld;
    char msg[128];
    codec_parse_board_line(line, true, &x, &y, &fld, msg, sizeof msg);
    codec_parse_board_line(line, false, &x, &y, &fld, msg, sizeof msg);
    Reply r;
    codec_parse_reply(line, &r);
    codec_parse_xy(line, &x, &y);
    if (codec_parse_cell(line, w, h, &x, &y) && (x < 0 || y < 0 || x >= w || y >= h))
        abort(); /* a cell it accepts is on the board */
    char out[512];
    codec_pv_names(line, h, out, sizeof out);
    codec_cell_names(line, h, out, 7); /* a small buffer: truncation, never overflow */
    codec_cell_name(x, y, h, out, 4);
    codec_word_is(line, "BOARD");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    int w = size ? 5 + data[0] % 124 : 15, h = size > 1 ? 5 + data[1] % 124 : 15;
    int fds[2];
    if (pipe(fds) != 0)
        return 0;
    CodecFeed f = {fds[1], data, size};
    pthread_t t;
    pthread_create(&t, NULL, codec_feed, &f);
    static LineReader lr;
    lr_init(&lr, fds[0]);
    char err[128];
    for (;;) {
        int r = lr_read(&lr, 1000, err, sizeof err);
        if (r == LR_EOF || r == LR_TIMEOUT)
            break;
        if (r == LR_LINE) {
            if (strlen(lr.line) >= PROTO_MAX_LINE)
                abort();
            codec_one_line(lr.line, w, h);
        }
    }
    close(fds[0]);
    pthread_join(t, NULL);
    return 0;
}

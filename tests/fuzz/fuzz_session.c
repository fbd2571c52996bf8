/* tests/fuzz/fuzz_session.c — libFuzzer: arbitrary command streams to the
 * brain's session (protocol/session.c) over a pipe, as a manager would send
 * them: the whole input is written at once, so TURN, STOP, INFO and END
 * arrive while the search thinks. Time, node and memory settings in the input
 * are scaled down so that one input runs in milliseconds, never seconds. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../protocol/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
    int fd;
    char *text;
    size_t len;
} SessionFeed;

static void *session_feed(void *arg) {
    SessionFeed *f = arg;
    size_t off = 0;
    while (off < f->len) {
        ssize_t w = write(f->fd, f->text + off, f->len - off);
        if (w <= 0)
            break; /* the session stopped reading (END): the rest is not read */
        off += (size_t)w;
    }
    close(f->fd);
    return NULL;
}

/* Keys whose numbers are clamped: the session must handle any value (the
 * codec target and the unit tests cover large ones), but here a turn of an
 * hour or a 100 GB table would stop the fuzzer, not find a bug. */
static const struct {
    const char *key;
    long long mod;
} session_clamp[] = {{"timeout_turn", 40},  {"timeout_match", 400}, {"time_left", 400},
             {"max_memory", 24 << 20}, {"hash_size", 16384},  {"thread_num", 4},
             {"max_node", 20000},  {"max_depth", 12}};

/* Copy one input line to out, clamping the numbers above. */
static size_t session_put_line(char *out, const char *line, size_t len) {
    char buf[160];
    if (len < sizeof buf) {
        memcpy(buf, line, len);
        buf[len] = 0;
        char key[64];
        long long v;
        int used = 0;
        if (sscanf(buf, "%*[Ii]%*[Nn]%*[Ff]%*[Oo] %63s %lld%n", key, &v, &used) == 2)
            for (size_t i = 0; i < sizeof session_clamp / sizeof session_clamp[0]; i++)
                if (!strcasecmp(key, session_clamp[i].key)) {
                    if (v < 0)
                        v = -v;
                    if (v < 0) /* LLONG_MIN */
                        v = 0;
                    return (size_t)sprintf(out, "INFO %s %lld\n", session_clamp[i].key, v % session_clamp[i].mod);
                }
    }
    memcpy(out, line, len);
    out[len] = '\n';
    return len + 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static FILE *null_out;
    if (!null_out)
        null_out = fopen("/dev/null", "w");
    static const char head[] = "INFO seed 1\nINFO max_memory 16000000\nINFO timeout_turn 20\n";
    char *text = malloc(sizeof head + size * 2 + 64);
    size_t n = sizeof head - 1;
    memcpy(text, head, n);
    const char *p = (const char *)data, *end = p + size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        n += session_put_line(text + n, p, len);
        p += len + (nl != NULL);
    }
    int fds[2];
    if (pipe(fds) != 0) {
        free(text);
        return 0;
    }
    SessionFeed f = {fds[1], text, n};
    pthread_t t;
    pthread_create(&t, NULL, session_feed, &f);
    session_run(fds[0], null_out);
    close(fds[0]); /* after END: the writer's next write fails */
    pthread_join(t, NULL);
    free(text);
    return 0;
}

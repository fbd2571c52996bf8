/* tests/check_hardening.c — what fuzzing found, kept found: every input under
 * tests/fuzz/seeds/ (the seed corpora and each finding, named regress-*)
 * replayed through the same harnesses the fuzzers run, in this build (the
 * sanitizer build checks them for memory errors and undefined behaviour),
 * and the findings as plain assertions. */
#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

/* the libFuzzer harnesses, each under its own name */
#define LLVMFuzzerTestOneInput fuzz_session_input
#include "fuzz/fuzz_session.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_codec_input
#include "fuzz/fuzz_codec.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_manager_input
#include "fuzz/fuzz_manager.c"
#undef LLVMFuzzerTestOneInput

/* Feed every file of tests/fuzz/seeds/NAME to fn; returns how many. */
static int replay(const char *name, int (*fn)(const uint8_t *, size_t)) {
    const char *root = getenv("QUINTO_TESTS");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/fuzz/seeds/%s", root ? root : "tests", name);
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "no seed folder %s", dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        ck_assert_msg(f != NULL, "cannot read %s", path);
        static uint8_t buf[1 << 16];
        size_t len = fread(buf, 1, sizeof buf, f);
        fclose(f);
        fn(buf, len);
        n++;
    }
    closedir(d);
    return n;
}

START_TEST(test_fuzz_corpora_replay) {
    ck_assert_int_ge(replay("codec", fuzz_codec_input), 2);
    ck_assert_int_ge(replay("manager", fuzz_manager_input), 2);
    ck_assert_int_ge(replay("session", fuzz_session_input), 5);
}
END_TEST

START_TEST(test_fuzz_findings) {
    /* 1: a cell name of many letters overflowed the column number (UBSan:
     * signed integer overflow in codec_parse_cell) */
    int x = -1, y = -1;
    ck_assert(!codec_parse_cell("abcdefghijklmnopqrstuvwxyz12", 15, 15, &x, &y));
    ck_assert(!codec_parse_cell("zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz1", 128, 128, &x, &y));
    ck_assert(!codec_parse_cell("abc1", 128, 128, &x, &y));
    ck_assert(codec_parse_cell("ab1", 128, 128, &x, &y) && x == 27 && y == 127);
    /* 2: a huge offset in an opening line overflowed when the centre was
     * added (UBSan: signed integer overflow in opening_parse_line) */
    static Record rec;
    char err[200];
    ck_assert(!opening_parse_line("9223372036854775807, 1, 0, 0", 20, 20, RULE_FREESTYLE, &rec, err,
                                  sizeof err));
    ck_assert_msg(strstr(err, "out of range") != NULL, "%s", err);
    ck_assert(!opening_parse_line("-9223372036854775807,3 4,4", 20, 20, RULE_FREESTYLE, &rec, err,
                                  sizeof err));
    ck_assert(opening_parse_line("0,0, 1,1, -1,2", 20, 20, RULE_FREESTYLE, &rec, err, sizeof err));
    ck_assert_int_eq(rec.count, 3);
    /* 3: an SGF cut off inside a move ("(;B[") read past its end (ASan:
     * heap-buffer-overflow in parse_sgf); the text sits in a block of its
     * exact size so the sanitizer build sees any read beyond it */
    static const char cut[] = "(;B[";
    char *heap = malloc(sizeof cut);
    memcpy(heap, cut, sizeof cut);
    ck_assert(!review_parse_game(heap, 0, 15, 15, RULE_FREESTYLE, &rec, err, sizeof err));
    free(heap);
}
END_TEST



START_TEST(test_start_end_cycles) {
    /* 10 000 sessions, START ... END each, in this one process: no growth
     * in memory (the sanitizer build runs 1 000 and leaves leaks to LSan,
     * whose quarantine makes resident memory meaningless) */
    static const char script[] = "INFO max_node 300\nINFO max_memory 8000000\nSTART 15\nBEGIN\n"
                                 "TURN 3,3\nRESTART\nTURN 7,7\nEND\n";
#ifdef UNDER_ASAN
    const int cycles = 1000;
#else
    const int cycles = 10000;
#endif
    long after_warmup = 0;
    for (int i = 0; i < cycles; i++) {
        fuzz_session_input((const uint8_t *)script, sizeof script - 1);
        if (i == cycles / 10)
            after_warmup = proc_status_kib(getpid(), "VmRSS:");
    }
    long at_end = proc_status_kib(getpid(), "VmRSS:");
#ifndef UNDER_ASAN
    ck_assert_msg(at_end <= after_warmup + 2048, "resident memory grew from %ld to %ld KiB",
                  after_warmup, at_end);
#else
    (void)at_end, (void)after_warmup;
#endif
}
END_TEST

Suite *suite_hardening(void) {
    Suite *s = suite_create("hardening");
    TCase *tc = tcase_create("fuzz");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_fuzz_corpora_replay);
    tcase_add_test(tc, test_fuzz_findings);
    tcase_add_test(tc, test_start_end_cycles);
    suite_add_tcase(s, tc);
    return s;
}

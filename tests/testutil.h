/* tests/testutil.h — helpers shared by the Check suites. */
#ifndef QUINTO_TESTUTIL_H
#define QUINTO_TESTUTIL_H

#include <check.h>
#include <stdio.h>

#include "../brain/record.h"

/* Path of a file under tests/data ($QUINTO_TESTDATA, else tests/data). */
const char *testdata_path(const char *relative, char *buf, size_t cap);

/* Path of a shipped openings set by name ("piskvork-f15"), found as
 * quinto-manager finds it (openings_find; make test sets $QUINTO_OPENINGS). */
const char *openings_path(const char *name, char *buf, size_t cap);

/* Read every record of a testdata file; returns the count (asserts the file
 * exists and every line parses). *out is malloc'ed. */
int testdata_load(const char *relative, Record **out);

/* Set up a position from "x,y x,y ..." (black first) on a size x size board. */
void setup_moves(Board *b, int size, const char *moves);

/* UNDER_ASAN: this build (and so the brain and manager it tests) runs under
 * AddressSanitizer, whose quarantine makes resident-memory growth meaningless;
 * LeakSanitizer checks leaks at each process's exit instead. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* A field of /proc/PID/status in KiB ("VmRSS:", "VmHWM:"), 0 if unknown. */
long proc_status_kib(int pid, const char *field);

/* A wait for a reply or a screen that must come, scaled by QUINTO_TEST_SLACK
 * (1..10): make test-windows and make sanitize set it, as a brain under wine
 * or the sanitizers starts and answers more slowly on a loaded machine. The
 * waits only bound what must come; they measure nothing. */
int wait_ms(int ms);

/* The last `tail` bytes of what a program drew on a terminal, readable in a
 * failure message: escape sequences dropped, carriage returns and runs of
 * blank lines folded. Returns buf. */
const char *screen_text(const char *drawn, size_t len, size_t tail, char *buf, size_t cap);

/* Cheap deterministic PRNG for tests. */
unsigned test_rand(unsigned long long *state);

/* The start of a text file (at most cap - 1 bytes, NUL-terminated; "" when it
 * cannot be opened); false when it cannot be opened. */
bool read_text_file(const char *path, char *buf, size_t cap);

/* Every suite (tests/suites.inc). */
#define SUITE(f) Suite *f(void);
#include "suites.inc"
#undef SUITE

#endif

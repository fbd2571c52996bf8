/* tests/check_main.c — runs every suite. */
#include <stdlib.h>

#include "testutil.h"

int main(void) {
    SRunner *sr = srunner_create(NULL);
#define SUITE(f) srunner_add_suite(sr, f());
#include "suites.inc"
#undef SUITE
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

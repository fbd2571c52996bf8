build/release/tests/check_main.o: tests/check_main.c tests/testutil.h \
 tests/../brain/record.h tests/../brain/rules.h tests/../brain/board.h \
 tests/suites.inc
tests/testutil.h:
tests/../brain/record.h:
tests/../brain/rules.h:
tests/../brain/board.h:
tests/suites.inc:

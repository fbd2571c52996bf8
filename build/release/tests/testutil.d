build/release/tests/testutil.o: tests/testutil.c tests/testutil.h \
 tests/../brain/record.h tests/../brain/rules.h tests/../brain/board.h
tests/testutil.h:
tests/../brain/record.h:
tests/../brain/rules.h:
tests/../brain/board.h:

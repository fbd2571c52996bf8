build/release/tests/check_board.o: tests/check_board.c \
 tests/../brain/board.h tests/../brain/rules.h tests/../brain/board.h \
 tests/testutil.h tests/../brain/record.h tests/../brain/rules.h
tests/../brain/board.h:
tests/../brain/rules.h:
tests/../brain/board.h:
tests/testutil.h:
tests/../brain/record.h:
tests/../brain/rules.h:

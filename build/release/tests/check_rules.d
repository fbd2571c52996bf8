build/release/tests/check_rules.o: tests/check_rules.c \
 tests/../brain/rules.h tests/../brain/board.h tests/testutil.h \
 tests/../brain/record.h tests/../brain/rules.h
tests/../brain/rules.h:
tests/../brain/board.h:
tests/testutil.h:
tests/../brain/record.h:
tests/../brain/rules.h:

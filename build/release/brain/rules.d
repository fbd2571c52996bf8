build/release/brain/rules.o: brain/rules.c brain/rules.h brain/board.h
brain/rules.h:
brain/board.h:

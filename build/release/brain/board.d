build/release/brain/board.o: brain/board.c brain/board.h
brain/board.h:

build/release/brain/record.o: brain/record.c brain/record.h brain/rules.h \
 brain/board.h
brain/record.h:
brain/rules.h:
brain/board.h:

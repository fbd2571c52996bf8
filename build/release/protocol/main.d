build/release/protocol/main.o: protocol/main.c protocol/session.h \
 protocol/tools.h
protocol/session.h:
protocol/tools.h:

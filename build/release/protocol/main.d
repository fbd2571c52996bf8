build/release/protocol/main.o: protocol/main.c

/* protocol/session.h — the brain's side of the protocol: reads commands,
 * keeps the game, runs the search on its own thread and answers. */
#ifndef QUINTO_PROTOCOL_SESSION_H
#define QUINTO_PROTOCOL_SESSION_H

#include <stdio.h>

/* Run the protocol on in_fd / out until END or end of input. Returns the exit
 * status. */
int session_run(int in_fd, FILE *out);

/* The ABOUT line (without newline). */
const char *session_about(void);

#endif

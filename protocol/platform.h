/* protocol/platform.h — the little that differs between POSIX systems and
 * Windows (the Gomocup build, mingw-w64), in one place. Everything else in
 * the tree is plain C11 with POSIX threads and clocks (winpthreads provides
 * them on Windows); brain/, eval/ and search/ never include this. */
#ifndef QUINTO_PROTOCOL_PLATFORM_H
#define QUINTO_PROTOCOL_PLATFORM_H

#include <stdbool.h>

/* Standard input as raw bytes (Windows: no text-mode translation, no end of
 * file at Ctrl-Z; our reader handles CR, LF and CRLF itself); POSIX: SIGPIPE
 * ignored, so a closed stdout is a failed write the session sees. */
void platform_stdio_init(void);

/* Wait until fd has data or is at its end (1), or timeout_ms passes (0);
 * -1 on error. */
int platform_wait_readable(int fd, int timeout_ms);

/* "Windows" or "POSIX", for ABOUT-like reports. */
const char *platform_name(void);

#endif

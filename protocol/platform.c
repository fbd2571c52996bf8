/* protocol/platform.c */
#include "platform.h"

#ifdef _WIN32

#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <windows.h>

void platform_stdio_init(void) { _setmode(_fileno(stdin), _O_BINARY); }

/* A pipe cannot be polled on Windows: ask it how much it holds, every
 * millisecond. (The brain itself never waits with a timeout: its reader
 * blocks in read() on the main thread while the search runs on another.) */
int platform_wait_readable(int fd, int timeout_ms) {
    HANDLE h = (HANDLE)_get_osfhandle(fd);
    if (h == INVALID_HANDLE_VALUE)
        return -1;
    if (GetFileType(h) != FILE_TYPE_PIPE)
        return 1; /* files and consoles: read() decides */
    DWORD start = GetTickCount();
    for (;;) {
        DWORD avail = 0;
        if (!PeekNamedPipe(h, NULL, 0, NULL, &avail, NULL))
            return 1; /* broken pipe: read() reports the end */
        if (avail > 0)
            return 1;
        if (timeout_ms >= 0 && (int)(GetTickCount() - start) >= timeout_ms)
            return 0;
        Sleep(1);
    }
}

const char *platform_name(void) { return "Windows"; }

#else

#include <errno.h>
#include <poll.h>
#include <signal.h>

/* A manager that closes our stdout must not kill us with SIGPIPE: the
 * session sees the failed write and exits quietly. */
void platform_stdio_init(void) { signal(SIGPIPE, SIG_IGN); }

int platform_wait_readable(int fd, int timeout_ms) {
    struct pollfd pfd = {fd, POLLIN, 0};
    for (;;) {
        int r = poll(&pfd, 1, timeout_ms);
        if (r < 0 && errno == EINTR)
            continue;
        return r < 0 ? -1 : r > 0;
    }
}

const char *platform_name(void) { return "POSIX"; }

#endif

/* tests/fakebrain.c — a misbehaving brain for the manager's tests.
 * usage: fakebrain MODE [x,y]
 *   good      plays the first empty cell in row order
 *   timeout   never answers a move request
 *   crash     exits when asked for a move
 *   offboard  answers 99,99
 *   occupied  answers the opponent's last move
 *   garbage   answers "hello world"
 *   error     answers "ERROR cannot think"
 *   fixed     plays x,y first, then like good
 *   memory    touches 120 MiB, then plays like good
 *   memchild  starts a child process that touches 120 MiB, then plays like good
 *   nostart   never answers START
 *   slow      like good, 600 ms late every move
 *   flood     asked for its third move: 64 MiB of MESSAGE lines and one endless
 *             line, then nothing
 *   binary    asked for its third move: every byte value, then a move */
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int w = 15, h = 15, lastx = -1, lasty = -1;
static char cell[128][128];
static const char *mode;
static int fx = -1, fy = -1;

static void chomp(char *s) {
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = 0;
}

static long long mono_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static char *volatile hoard; /* memory held on purpose */
static long long moved_at; /* when the last move was printed */

/* "racy": like Rapfi, a command that arrives within 15 ms of a move is lost
 * (measured from the move's printing, so that a slow scheduler does not
 * stretch the window). */
static void drop_if_racy(void) {
    if (strcmp(mode, "racy"))
        return;
    long long left = moved_at + 15 - mono_ms();
    struct pollfd pfd = {0, POLLIN, 0};
    if (left > 0 && poll(&pfd, 1, (int)left) > 0) {
        char junk[1024];
        if (fgets(junk, sizeof junk, stdin)) {
            /* dropped */
        }
    }
}

static void move(void) {
    if (!strcmp(mode, "timeout")) {
        sleep(30);
        return;
    }
    if (!strcmp(mode, "crash"))
        exit(3);
    if (!strcmp(mode, "offboard")) {
        printf("99,99\n");
        return;
    }
    if (!strcmp(mode, "occupied") && lastx >= 0) {
        printf("%d,%d\n", lastx, lasty);
        return;
    }
    if (!strcmp(mode, "garbage")) {
        printf("hello world\n");
        return;
    }
    if (!strcmp(mode, "error")) {
        printf("ERROR cannot think\n");
        return;
    }
    if (!strcmp(mode, "memory")) {
        size_t n = 120u << 20;
        char *p = malloc(n);
        if (p)
            memset(p, 1, n);
    }
    static bool forked;
    if (!strcmp(mode, "memchild") && !forked) {
        forked = true;
        int ready[2];
        if (pipe(ready) == 0 && fork() == 0) { /* the helper: dies with the process group */
            size_t n = 120u << 20;
            hoard = malloc(n); /* a global: the compiler may not drop it */
            if (hoard)
                memset(hoard, 1, n);
            if (write(ready[1], "x", 1) != 1)
                _exit(1);
            for (;;)
                pause();
        }
        char x;
        if (read(ready[0], &x, 1) != 1)
            return;
    }
    static int asked;
    if (!strcmp(mode, "flood") && ++asked == 3) {
        static char chunk[1 << 16];
        memset(chunk, 'x', sizeof chunk);
        for (int i = 0; i < 1024; i++)
            printf("MESSAGE %.*s\n", (int)sizeof chunk - 10, chunk);
        for (int i = 0; i < 1024; i++) /* 64 MiB without a line end */
            if (fwrite(chunk, 1, sizeof chunk, stdout) != sizeof chunk)
                break;
        sleep(30);
        return;
    }
    if (!strcmp(mode, "binary") && ++asked == 3) {
        for (int i = 0; i < 256; i++)
            putchar(i);
        putchar('\n');
    }
    if (!strcmp(mode, "slow"))
        usleep(600000);
    if (!strcmp(mode, "fixed") && fx >= 0 && !cell[fx][fy]) {
        cell[fx][fy] = 1;
        printf("%d,%d\n", fx, fy);
        fx = -1;
        return;
    }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if (!cell[x][y]) {
                cell[x][y] = 1;
                printf("MESSAGE playing %d,%d\n%d,%d\n", x, y, x, y);
                moved_at = mono_ms();
                return;
            }
}

int main(int argc, char **argv) {
    mode = argc > 1 ? argv[1] : "good";
    if (argc > 2 && strcmp(mode, "once"))
        sscanf(argv[2], "%d,%d", &fx, &fy);
    setvbuf(stdout, NULL, _IONBF, 0);
    char line[1024];
    while (fgets(line, sizeof line, stdin)) {
        chomp(line);
        int a, b, c;
        if (!strncmp(line, "START", 5)) {
            if (!strcmp(mode, "nostart"))
                continue;
            /* "once FILE": answers START in the first process only (FILE marks it) */
            if (!strcmp(mode, "once") && argc > 2) {
                if (!access(argv[2], F_OK))
                    continue;
                FILE *f = fopen(argv[2], "w");
                if (f)
                    fclose(f);
            }
            w = h = atoi(line + 6);
            memset(cell, 0, sizeof cell);
            printf("OK\n");
        } else if (!strncmp(line, "RECTSTART", 9)) {
            sscanf(line + 10, "%d,%d", &w, &h);
            memset(cell, 0, sizeof cell);
            printf("OK\n");
        } else if (!strncmp(line, "BEGIN", 5)) {
            move();
            drop_if_racy();
        } else if (sscanf(line, "TURN %d,%d", &a, &b) == 2) {
            cell[a][b] = 2;
            lastx = a, lasty = b;
            move();
            drop_if_racy();
        } else if (!strncmp(line, "BOARD", 5)) {
            memset(cell, 0, sizeof cell);
            while (fgets(line, sizeof line, stdin)) {
                chomp(line);
                if (!strncmp(line, "DONE", 4))
                    break;
                if (sscanf(line, "%d,%d,%d", &a, &b, &c) == 3) {
                    cell[a][b] = (char)c;
                    if (c == 2)
                        lastx = a, lasty = b;
                }
            }
            move();
            drop_if_racy();
        } else if (!strncmp(line, "END", 3)) {
            return 0;
        } else if (!strncmp(line, "ABOUT", 5)) {
            printf("name=\"fake\"\n");
        }
    }
    return 0;
}

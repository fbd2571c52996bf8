/* tournaments/process.h — a brain as a child process spoken to over pipes. */
#ifndef QUINTO_TOURNAMENTS_PROCESS_H
#define QUINTO_TOURNAMENTS_PROCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "../protocol/linereader.h"

typedef struct {
    pid_t pid;
    int to_child, from_child;
    LineReader *lr;
    bool alive, suspended;
    int exit_status; /* when it ended: as from waitpid */
    bool crlf;       /* end lines sent with CR LF (as GomocupJudge and Piskvork do) */
} Child;

/* Start `command`; the first call sets SIGPIPE to be ignored process-wide (a
 * write to a dead brain then fails with EPIPE). Start (run by /bin/sh -c "exec ...") in directory dir (NULL: the
 * current one), with stdin/stdout on pipes and stderr to stderr_path (NULL:
 * /dev/null). The child gets its own process group. */
bool child_spawn(Child *c, const char *command, const char *dir, const char *stderr_path, char *err,
                 size_t errcap);

/* Can the command's program be run (its first word: a path, relative to dir
 * when given, or a name looked up in PATH)? False with "cannot execute
 * PROGRAM: why" in err. */
bool command_executable(const char *command, const char *dir, char *err, size_t errcap);

/* Create a folder and its parents (mkdir -p). False with errno set. */
bool make_dirs(const char *path);

/* Send one line (a line end is added). False if the pipe is closed. */
bool child_send(Child *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Read one line within timeout_ms (-1: wait for ever); LR_* codes. */
int child_read(Child *c, int timeout_ms, char *err, size_t errcap);
static inline const char *child_line(const Child *c) { return c->lr->line; }

void child_suspend(Child *c);
void child_resume(Child *c);

/* Has it exited? (reaps it without blocking) */
bool child_exited(Child *c);

/* Wait up to grace_ms for it to exit by itself, then kill its process group. */
void child_stop(Child *c, int grace_ms);

/* Peak resident memory (VmHWM) of the child in KiB, 0 if unknown. */
long child_peak_kib(const Child *c);

/* Unique set size (private pages, psutil's uss) of the child and all its
 * descendants in KiB, 0 if unknown: GomocupJudge's memory measure, which it
 * takes after every move. */
long child_tree_uss_kib(const Child *c);

void child_free(Child *c);

/* Kill the process group of every child still running (async-signal-safe:
 * for a SIGINT handler). Their games then end as crashes. */
void children_kill_all(void);

#endif

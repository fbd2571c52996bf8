/* tournaments/process.c */
#include "process.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void ignore_sigpipe(void) { signal(SIGPIPE, SIG_IGN); }

/* Every running child's process group, for children_kill_all (a signal
 * handler): a slot holds a pid from its start until just before it is
 * reaped, so a pid that the system may reuse is never killed. */
enum { LIVE_MAX = 512 };
static volatile sig_atomic_t live_pids[LIVE_MAX];
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;

static void live_add(pid_t pid) {
    pthread_mutex_lock(&live_lock);
    for (int i = 0; i < LIVE_MAX; i++)
        if (!live_pids[i]) {
            live_pids[i] = (sig_atomic_t)pid;
            break;
        }
    pthread_mutex_unlock(&live_lock);
}

static void live_remove(pid_t pid) {
    pthread_mutex_lock(&live_lock);
    for (int i = 0; i < LIVE_MAX; i++)
        if (live_pids[i] == (sig_atomic_t)pid)
            live_pids[i] = 0;
    pthread_mutex_unlock(&live_lock);
}

void children_kill_all(void) {
    for (int i = 0; i < LIVE_MAX; i++) {
        pid_t p = (pid_t)live_pids[i];
        if (p > 0) {
            kill(-p, SIGKILL);
            kill(-p, SIGCONT);
        }
    }
}

static bool runnable(const char *path, int *why) {
    struct stat st;
    if (stat(path, &st) != 0) {
        *why = errno;
        return false;
    }
    if (S_ISDIR(st.st_mode)) {
        *why = EISDIR;
        return false;
    }
    if (access(path, X_OK) != 0) {
        *why = errno;
        return false;
    }
    return true;
}

bool command_executable(const char *command, const char *dir, char *err, size_t errcap) {
    /* the first word, quotes removed */
    char word[1024];
    size_t n = 0;
    const char *s = command;
    while (*s == ' ' || *s == '\t')
        s++;
    char quote = 0;
    for (; *s && n < sizeof word - 1; s++) {
        if (quote) {
            if (*s == quote)
                quote = 0;
            else
                word[n++] = *s;
        } else if (*s == '\'' || *s == '"')
            quote = *s;
        else if (*s == ' ' || *s == '\t')
            break;
        else
            word[n++] = *s;
    }
    word[n] = 0;
    if (!n) {
        snprintf(err, errcap, "no command given (cmd=PROGRAM)");
        return false;
    }
    int why = ENOENT;
    if (strchr(word, '/')) {
        char path[2200];
        if (word[0] != '/' && dir && *dir)
            snprintf(path, sizeof path, "%s/%s", dir, word);
        else
            snprintf(path, sizeof path, "%s", word);
        if (runnable(path, &why))
            return true;
        snprintf(err, errcap, "cannot execute %s: %s", path, strerror(why));
        return false;
    }
    const char *env = getenv("PATH");
    char paths[4096];
    snprintf(paths, sizeof paths, "%s", env ? env : "/usr/bin:/bin");
    for (char *save = NULL, *d = strtok_r(paths, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        char path[5200];
        snprintf(path, sizeof path, "%s/%s", *d ? d : ".", word);
        int w;
        if (runnable(path, &w))
            return true;
        if (w != ENOENT)
            why = w;
    }
    snprintf(err, errcap, "cannot execute %s: %s", word,
             why == ENOENT ? "not found (give a path, e.g. cmd=./pbrain-x)" : strerror(why));
    return false;
}

bool make_dirs(const char *path) {
    char buf[2048];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(buf, 0755) != 0 && errno != EEXIST)
            return false;
        *p = '/';
    }
    if (mkdir(buf, 0755) != 0 && errno != EEXIST)
        return false;
    struct stat st;
    if (stat(buf, &st) != 0)
        return false;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return false;
    }
    return true;
}

bool child_spawn(Child *c, const char *command, const char *dir, const char *stderr_path, char *err,
                 size_t errcap) {
    /* a write to a brain that died must fail with EPIPE, not kill us */
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, ignore_sigpipe);
    memset(c, 0, sizeof *c);
    /* Every pipe end is close-on-exec, set before any other thread can fork:
     * a brain started by a concurrent game must not inherit this brain's
     * pipes (holding its output's write end open, it would hide this brain's
     * exit, and a crash would be judged a time loss). */
    static pthread_mutex_t spawn_lock = PTHREAD_MUTEX_INITIALIZER;
    int in[2], out[2], status_pipe[2];
    pthread_mutex_lock(&spawn_lock);
    if (pipe(in) || pipe(out) || pipe(status_pipe)) {
        pthread_mutex_unlock(&spawn_lock);
        snprintf(err, errcap, "pipe: %s", strerror(errno));
        return false;
    }
    int ends[6] = {in[0], in[1], out[0], out[1], status_pipe[0], status_pipe[1]};
    for (int i = 0; i < 6; i++)
        fcntl(ends[i], F_SETFD, FD_CLOEXEC);
    pid_t pid = fork();
    pthread_mutex_unlock(&spawn_lock); /* the child does not use it: it execs or exits */
    if (pid < 0) {
        snprintf(err, errcap, "fork: %s", strerror(errno));
        return false;
    }
    if (pid == 0) {
        setpgid(0, 0);
        signal(SIGPIPE, SIG_DFL);
        dup2(in[0], 0);
        dup2(out[1], 1);
        fcntl(0, F_SETFD, 0), fcntl(1, F_SETFD, 0); /* the brain's stdin and stdout stay */
        int e = open(stderr_path ? stderr_path : "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (e >= 0)
            dup2(e, 2);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]), close(status_pipe[0]);
        int code = 0;
        if (dir && chdir(dir) != 0)
            code = errno;
        else {
            size_t len = strlen(command) + 8;
            char *cmd = malloc(len);
            snprintf(cmd, len, "exec %s", command);
            execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
            code = errno;
        }
        if (write(status_pipe[1], &code, sizeof code) < 0)
            _exit(127);
        _exit(127);
    }
    setpgid(pid, pid);
    close(in[0]), close(out[1]), close(status_pipe[1]);
    int code = 0;
    ssize_t n = read(status_pipe[0], &code, sizeof code);
    close(status_pipe[0]);
    if (n == (ssize_t)sizeof code) {
        snprintf(err, errcap, "cannot start '%s' in '%s': %s", command, dir ? dir : ".",
                 strerror(code));
        close(in[1]), close(out[0]);
        waitpid(pid, NULL, 0);
        return false;
    }
    c->pid = pid;
    live_add(pid);
    c->to_child = in[1];
    c->from_child = out[0];
    c->lr = malloc(sizeof *c->lr);
    lr_init(c->lr, out[0]);
    c->alive = true;
    return true;
}

bool child_send(Child *c, const char *fmt, ...) {
    if (!c->alive)
        return false;
    char buf[PROTO_MAX_LINE + 4];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf - 3, fmt, ap);
    va_end(ap);
    if (n < 0)
        return false;
    if (n > (int)sizeof buf - 4)
        n = (int)sizeof buf - 4;
    if (c->crlf)
        buf[n++] = '\r';
    buf[n++] = '\n';
    for (int off = 0; off < n;) {
        ssize_t w = write(c->to_child, buf + off, (size_t)(n - off));
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        off += (int)w;
    }
    return true;
}

int child_read(Child *c, int timeout_ms, char *err, size_t errcap) {
    return lr_read(c->lr, timeout_ms, err, errcap);
}

void child_suspend(Child *c) {
    if (c->alive && !c->suspended) {
        kill(-c->pid, SIGSTOP);
        c->suspended = true;
    }
}

void child_resume(Child *c) {
    if (c->alive && c->suspended) {
        kill(-c->pid, SIGCONT);
        c->suspended = false;
    }
}

bool child_exited(Child *c) {
    if (!c->alive)
        return true;
    int st;
    siginfo_t info;
    memset(&info, 0, sizeof info);
    /* look without reaping: the registry lets the pid go first */
    if (waitid(P_PID, (id_t)c->pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid != c->pid)
        return false;
    live_remove(c->pid);
    pid_t r = waitpid(c->pid, &st, WNOHANG);
    if (r == c->pid) {
        c->alive = false;
        c->exit_status = st;
        return true;
    }
    return false;
}

void child_stop(Child *c, int grace_ms) {
    if (!c->pid)
        return;
    child_resume(c);
    if (c->to_child >= 0) {
        close(c->to_child);
        c->to_child = -1;
    }
    struct timespec ts = {0, 5 * 1000000};
    for (int waited = 0; waited < grace_ms && !child_exited(c); waited += 5)
        nanosleep(&ts, NULL);
    kill(-c->pid, SIGKILL);
    if (c->alive) {
        live_remove(c->pid);
        int st;
        waitpid(c->pid, &st, 0);
        c->exit_status = st;
        c->alive = false;
    }
}

static long status_field_kib(pid_t pid, const char *field) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    long v = 0;
    size_t len = strlen(field);
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, field, len)) {
            v = atol(line + len);
            break;
        }
    fclose(f);
    return v;
}

long child_peak_kib(const Child *c) { return c->alive ? status_field_kib(c->pid, "VmHWM:") : 0; }

/* Private_Clean + Private_Dirty + Private_Hugetlb of one process (psutil's
 * "uss"), from smaps_rollup, or smaps on kernels without it. */
static long uss_of(pid_t pid) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/smaps_rollup", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(path, sizeof path, "/proc/%d/smaps", (int)pid);
        if (!(f = fopen(path, "r")))
            return 0;
    }
    long v = 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "Private_", 8)) {
            const char *colon = strchr(line, ':');
            if (colon)
                v += atol(colon + 1);
        }
    fclose(f);
    return v;
}

enum { TREE_MAX = 4096 };

long child_tree_uss_kib(const Child *c) {
    if (!c->alive)
        return 0;
    /* every process's parent, from /proc/PID/stat */
    static pid_t pids[TREE_MAX], parents[TREE_MAX];
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    int n = 0;
    DIR *d = opendir("/proc");
    for (struct dirent *e; d && n < TREE_MAX && (e = readdir(d));) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        char path[300], buf[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t len = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[len] = 0;
        const char *close_paren = strrchr(buf, ')'); /* the name may hold spaces */
        int ppid;
        if (close_paren && sscanf(close_paren + 1, " %*c %d", &ppid) == 1) {
            pids[n] = (pid_t)atoi(e->d_name);
            parents[n++] = (pid_t)ppid;
        }
    }
    if (d)
        closedir(d);
    /* the child and its descendants, as psutil's children(recursive=True) */
    static pid_t tree[TREE_MAX];
    int t = 0;
    tree[t++] = c->pid;
    for (int i = 0; i < t; i++)
        for (int j = 0; j < n && t < TREE_MAX; j++)
            if (parents[j] == tree[i] && pids[j] != tree[i])
                tree[t++] = pids[j];
    long sum = 0;
    for (int i = 0; i < t; i++)
        sum += uss_of(tree[i]);
    pthread_mutex_unlock(&lock);
    return sum;
}

void child_free(Child *c) {
    child_stop(c, 0);
    if (c->from_child >= 0)
        close(c->from_child);
    free(c->lr);
    c->lr = NULL;
}

/* tournaments/main.c — quinto-manager: matches, gauntlets, round robins and
 * puzzle runs between Gomocup-protocol brains. */
#include <signal.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "play.h"
#include "process.h"
#include "analysis.h"
#include "pool.h"
#include "tourney.h"

static void usage(FILE *f) {
    fprintf(f,
        "usage: quinto-manager [match|gauntlet|roundrobin] -engine cmd=PATH [name=N] [dir=D]\n"
        "                      [tc=TURN/MATCH] [option.KEY=VALUE ...] -engine ... [options]\n"
        "       quinto-manager puzzles -engine cmd=PATH [-defender cmd=PATH] -file F [options]\n"
        "       quinto-manager play [-human black|white|both|none] [-engine ...] [options]\n"
        "       quinto-manager watch [-engine ...] [-engine ...] [options]\n"
        "       quinto-manager review GAME [-engine ...] [-tc MS] [-threshold N] [-game K]\n"
        "       quinto-manager openings -balance [-engine ...] -count N [-depth D] [-max-ev E]\n"
        "                      [-tc MS] [-out FILE] [-rule R] [-size N] [-seed S]\n"
        "       quinto-manager stats RESULTS...  the -results files of several runs pooled:\n"
        "                      each pair's W-L-D, Elo, colours and pentanomial pairs\n"
        "\n"
        "games:\n"
        "  -rule R            freestyle, standard, renju, caro (=caro8), caro9, or 0 1 4 8 9\n"
        "  -size N | WxH      board (default 15)\n"
        "  -tc TURN[/MATCH]   milliseconds a move and a game (default 1000/0; 0 = none)\n"
        "  -tolerance MS      added to every reply limit, as GomocupJudge (default 1000)\n"
        "  -start-timeout MS  how long a brain may take to answer START (default 30000)\n"
        "  -memory MIB        max_memory sent, and enforced as GomocupJudge does: the unique\n"
        "                     set size of the brain's process tree after each move\n"
        "  -openings FILE|NAME  a file of testdata lines, Gomocup offsets or plain moves, or\n"
        "                     a shipped set by name: piskvork-f15, piskvork-f20, gomocupjudge-f20,\n"
        "                     cgomokucli-offset-f20, cgomokucli-pos-f20; each is played twice\n"
        "                     with colours swapped\n"
        "  -random            openings in seeded random order (-seed N)\n"
        "  -games N           games per pair and round (default: two per opening)\n"
        "  -rounds N          repeat everything N times\n"
        "  -concurrency N, -j N  games at once\n"
        "  -each KEY=VALUE    applied to every engine (option.X=Y, tc=...)\n"
        "  -sprt elo0=A elo1=B [alpha=0.05] [beta=0.05]   stop when the test decides\n"
        "  -psq DIR -sgf DIR -results FILE   game records and one results line a game\n"
        "  -suspend           SIGSTOP the brain not on move (as GomocupJudge)\n"
        "  -reuse             one process per engine and worker, a new START each game\n"
        "  -begin             BEGIN on an empty board (default: an empty BOARD)\n"
        "  -movecap N         adjudicate a draw after N stones\n"
        "  -opening-rule swap2  swap2 on an empty board (SWAP2BOARD): the engine scheduled\n"
        "                     as black proposes three stones, the other chooses\n"
        "  -stderr DIR        keep the brains' stderr in DIR\n"
        "puzzles:\n"
        "  -file F            a puzzle file (testdata lines; sets in tests/data/puzzles)\n"
        "  -defender ...      the defender brain (default: the solver's command)\n"
        "  -tc MS             the solver's time a move (default 1000)\n"
        "  -defender-tc MS    the defender's (default 300)\n"
        "  -movecap N         the solver must make five within N own moves (default 80)\n"
        "  -first N -limit N  a slice of the file\n"
        "play / watch (in the terminal):\n"
        "  -human C           who a person plays: black (default), white, both, none\n"
        "  -engine ...        the brain (default: pbrain-quinto beside this program); a second\n"
        "                     -engine plays white when two brains play\n"
        "  -tc TURN[/MATCH]   the brains' time (default 2000 ms a move)\n"
        "  -delay MS          pause between two brains' moves (default 500)\n"
        "  -save DIR          where finished games are saved as .psq (default .)\n"
        "  -level L           the brain's strength for people, 0..100 (INFO strength; default\n"
        "                     100 = full); < and > change it during play\n"
        "  -review-tc MS      the judge's time a position when r reviews the game (default 1000)\n"
        "  -opening-rule swap2  a swap2 opening: whoever starts as black proposes three stones\n"
        "                     (b takes black, a adds two stones, a cell plays as white)\n");
}

static const char *base_name(const char *cmd) {
    const char *end = cmd;
    while (*end && *end != ' ')
        end++;
    const char *start = cmd;
    for (const char *p = cmd; p < end; p++)
        if (*p == '/')
            start = p + 1;
    static char buf[64];
    size_t n = (size_t)(end - start) < sizeof buf - 1 ? (size_t)(end - start) : sizeof buf - 1;
    memcpy(buf, start, n);
    buf[n] = 0;
    return buf;
}

/* TURN[/MATCH], whole milliseconds, both given in full. */
static bool parse_tc(const char *v, int64_t *turn, int64_t *match) {
    char *end;
    if (!isdigit((unsigned char)*v))
        return false;
    long long t = strtoll(v, &end, 10);
    long long m = *match;
    if (*end == '/') {
        if (!isdigit((unsigned char)end[1]))
            return false;
        m = strtoll(end + 1, &end, 10);
    }
    if (*end || t > 86400000LL * 365 || m > 86400000LL * 365)
        return false;
    *turn = t;
    *match = m;
    return true;
}

/* key=value into an engine spec. */
static bool engine_kv(EngineSpec *e, const char *kv) {
    const char *eq = strchr(kv, '=');
    if (!eq)
        return false;
    size_t klen = (size_t)(eq - kv);
    const char *v = eq + 1;
    if (klen == 3 && !strncmp(kv, "cmd", 3))
        snprintf(e->cmd, sizeof e->cmd, "%s", v);
    else if (klen == 4 && !strncmp(kv, "name", 4))
        snprintf(e->name, sizeof e->name, "%s", v);
    else if (klen == 3 && !strncmp(kv, "dir", 3))
        snprintf(e->dir, sizeof e->dir, "%s", v);
    else if (klen == 2 && !strncmp(kv, "tc", 2))
        return parse_tc(v, &e->turn_ms, &e->match_ms);
    else if (klen > 7 && !strncmp(kv, "option.", 7) && e->option_count < ENGINE_MAX_OPTIONS) {
        snprintf(e->option_key[e->option_count], 64, "%.*s", (int)(klen - 7), kv + 7);
        snprintf(e->option_value[e->option_count], 256, "%s", v);
        e->option_count++;
    } else
        return false;
    return true;
}

static void engine_defaults(EngineSpec *e) {
    memset(e, 0, sizeof *e);
    e->turn_ms = e->match_ms = -1;
}

static bool parse_size(const char *v, int *w, int *h) {
    int a, b, used = 0;
    char x;
    if (sscanf(v, "%d%c%d%n", &a, &x, &b, &used) == 3 && (x == 'x' || x == 'X' || x == ',') &&
        !v[used] && isdigit((unsigned char)*v))
        *w = a, *h = b;
    else if (sscanf(v, "%d%n", &a, &used) == 1 && !v[used] && isdigit((unsigned char)*v))
        *w = *h = a;
    else
        return false;
    return *w >= BOARD_MIN_SIZE && *h >= BOARD_MIN_SIZE && *w <= BOARD_MAX_SIZE &&
           *h <= BOARD_MAX_SIZE;
}

/* A whole number in [lo, hi] for option opt, or a message naming both. */
static bool opt_int(const char *opt, const char *v, long long lo, long long hi, long long *out) {
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (!*v || *end || errno || x < lo || x > hi) {
        fprintf(stderr, "quinto-manager: %s expects a whole number from %lld to %lld, not '%s'\n", opt,
                lo, hi, v);
        return false;
    }
    *out = x;
    return true;
}

static bool opt_real(const char *opt, const char *v, double *out) {
    char *end;
    double x = strtod(v, &end);
    if (!*v || *end || x != x) {
        fprintf(stderr, "quinto-manager: %s expects a number, not '%s'\n", opt, v);
        return false;
    }
    *out = x;
    return true;
}

/* An option's value: present, and not the next option. */
#define NEED_ARG()                                                                                 \
    do {                                                                                           \
        if (i + 1 >= argc || (argv[i + 1][0] == '-' && isalpha((unsigned char)argv[i + 1][1]))) { \
            fprintf(stderr, "quinto-manager: %s needs a value\n", a);                              \
            return 2;                                                                              \
        }                                                                                          \
    } while (0)

/* Set *dst from the next argument as a whole number in [lo, hi]. */
#define INT_ARG(dst, lo, hi)                                                                       \
    do {                                                                                           \
        NEED_ARG();                                                                                \
        long long v_;                                                                              \
        if (!opt_int(a, argv[++i], (lo), (hi), &v_))                                               \
            return 2;                                                                              \
        (dst) = v_;                                                                                \
    } while (0)

/* Before the first game: every output path can be written (folders made),
 * and every engine starts and answers START. A message and false if not. */
static bool preflight(const TourneyConfig *cfg, const EngineSpec *extra, const char *save_dir) {
    const char *dirs[3] = {cfg->psq_dir, cfg->sgf_dir, save_dir};
    const char *dir_opts[3] = {"-psq", "-sgf", "-save"};
    for (int i = 0; i < 3; i++)
        if (dirs[i] && !make_dirs(dirs[i])) {
            fprintf(stderr, "quinto-manager: cannot write games to %s %s: %s\n", dir_opts[i], dirs[i],
                    strerror(errno));
            return false;
        }
    if (cfg->results_path) {
        char parent[PATH_MAX];
        snprintf(parent, sizeof parent, "%s", cfg->results_path);
        char *slash = strrchr(parent, '/');
        if (slash && slash != parent) {
            *slash = 0;
            if (!make_dirs(parent)) {
                fprintf(stderr, "quinto-manager: cannot write -results %s: %s\n", cfg->results_path,
                        strerror(errno));
                return false;
            }
        }
        FILE *f = fopen(cfg->results_path, "a");
        if (!f) {
            fprintf(stderr, "quinto-manager: cannot write -results %s: %s\n", cfg->results_path,
                    strerror(errno));
            return false;
        }
        fclose(f);
    }
    for (int k = 0; k <= cfg->engine_count; k++) {
        const EngineSpec *e = k < cfg->engine_count ? &cfg->engines[k] : extra;
        if (!e)
            continue;
        bool seen = false; /* the same command and settings are probed once */
        for (int j = 0; j < k && j < cfg->engine_count; j++)
            seen |= !strcmp(cfg->engines[j].cmd, e->cmd) && !strcmp(cfg->engines[j].dir, e->dir);
        if (seen)
            continue;
        char err[512];
        if (!engine_probe(&cfg->game, e, err, sizeof err)) {
            fprintf(stderr, "quinto-manager: engine %s (%s) cannot start: %s\n", e->name, e->cmd, err);
            return false;
        }
    }
    return true;
}

/* quinto-manager review GAME: read the file, then review_run. */
static int review_main(const char *file, const TourneyConfig *cfg, bool tc_given, int threshold,
                       int game_no) {
    FILE *f = fopen(file, "r");
    if (!f) {
        fprintf(stderr, "quinto-manager review: cannot read %s: %s\n", file, strerror(errno));
        return 2;
    }
    size_t cap = 1 << 20, n = 0;
    char *text = malloc(cap + 1);
    if (!text) {
        fclose(f);
        return 2;
    }
    n = fread(text, 1, cap, f);
    text[n] = 0;
    fclose(f);
    static Record game;
    char err[256];
    bool ok = review_parse_game(text, game_no, cfg->game.width, cfg->game.height, cfg->game.rule,
                                &game, err, sizeof err);
    free(text);
    if (!ok) {
        fprintf(stderr, "quinto-manager review: %s: %s\n", file, err);
        return 2;
    }
    ReviewConfig rc = {0};
    rc.judge = cfg->engines[0];
    rc.turn_ms = tc_given ? cfg->game.turn_ms : 1000;
    rc.threshold = threshold;
    rc.out = stdout;
    return review_run(&rc, &game);
}

/* quinto-manager stats FILE...: every results line read; a line that is not
 * one is named and left out, and the exit status says so. */
static int stats_main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "quinto-manager stats: name one or more -results files\n");
        return 2;
    }
    ResultsPool rp;
    pool_init(&rp);
    int status = 0;
    char *line = NULL;
    size_t cap = 0;
    for (int i = 2; i < argc; i++) {
        FILE *f = fopen(argv[i], "r");
        if (!f) {
            fprintf(stderr, "quinto-manager stats: %s: %s\n", argv[i], strerror(errno));
            status = 1;
            continue;
        }
        char err[256];
        for (int no = 1; getline(&line, &cap, f) >= 0; no++)
            if (!pool_add_line(&rp, i, line, err, sizeof err)) {
                fprintf(stderr, "quinto-manager stats: %s:%d: %s (left out)\n", argv[i], no, err);
                status = 1;
            }
        fclose(f);
    }
    free(line);
    if (rp.games == 0) {
        fprintf(stderr, "quinto-manager stats: no games in %s\n", argc == 3 ? argv[2] : "these files");
        status = 1;
    } else {
        printf("%d game%s from %d file%s\n", rp.games, rp.games == 1 ? "" : "s", argc - 2, argc == 3 ? "" : "s");
    }
    pool_print(&rp, stdout);
    pool_free(&rp);
    return status;
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    if (argc > 1 && !strcmp(argv[1], "stats"))
        return stats_main(argc, argv);
    static TourneyConfig cfg;
    static PuzzleConfig pz;
    memset(&cfg, 0, sizeof cfg);
    cfg.game.rule = RULE_FREESTYLE;
    cfg.game.width = cfg.game.height = 15;
    cfg.game.turn_ms = 1000;
    cfg.game.tolerance_ms = 1000;
    cfg.game.start_timeout_ms = 30000;
    cfg.concurrency = 1;
    cfg.out = stdout;
    cfg.live = isatty(STDOUT_FILENO);
    cfg.seed = (uint64_t)time(NULL);
    int i = 1;
    bool puzzles = false, play = false, watch = false, review = false;
    const char *review_file = NULL;
    int threshold = 600, game_no = 0;
    bool make_openings = false, balance_flag = false;
    int open_count = 20, open_depth = 8, open_max_ev = 150;
    const char *open_out = NULL;
    const char *human = NULL, *save_dir = NULL;
    int delay_ms = 500, level = 100, review_ms = 1000;
    bool tc_given = false;
    if (argc > 1 && argv[1][0] != '-') {
        if (!strcmp(argv[1], "match") || !strcmp(argv[1], "roundrobin"))
            cfg.mode = MODE_ROUNDROBIN;
        else if (!strcmp(argv[1], "gauntlet"))
            cfg.mode = MODE_GAUNTLET;
        else if (!strcmp(argv[1], "puzzles"))
            puzzles = true;
        else if (!strcmp(argv[1], "play"))
            play = true;
        else if (!strcmp(argv[1], "watch"))
            watch = true;
        else if (!strcmp(argv[1], "openings"))
            make_openings = true;
        else if (!strcmp(argv[1], "review")) {
            review = true;
            if (argc < 3 || argv[2][0] == '-') {
                fprintf(stderr, "quinto-manager review: name the game (a .psq, an SGF, a -results "
                                "file with -game K, or a testdata line in a file)\n");
                return 2;
            }
            review_file = argv[2];
        }
        else if (!strcmp(argv[1], "help")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "quinto-manager: unknown mode '%s'\n", argv[1]);
            usage(stderr);
            return 2;
        }
        i = review ? 3 : 2;
    }
    EngineSpec each;
    engine_defaults(&each);
    bool have_each = false, have_defender = false;
    const char *openings = NULL;
    int64_t defender_tc = 300;
    int movecap = -1;
    pz.first = 0;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-engine") || !strcmp(a, "-defender") || !strcmp(a, "-each")) {
            EngineSpec *e;
            if (!strcmp(a, "-each"))
                e = &each, have_each = true;
            else if (!strcmp(a, "-defender"))
                e = &pz.defender, engine_defaults(e), have_defender = true;
            else {
                if (cfg.engine_count >= MAX_ENGINES) {
                    fprintf(stderr, "quinto-manager: at most %d engines\n", MAX_ENGINES);
                    return 2;
                }
                e = &cfg.engines[cfg.engine_count++];
                engine_defaults(e);
            }
            while (i + 1 < argc && argv[i + 1][0] != '-') {
                if (!engine_kv(e, argv[++i])) {
                    if (!strchr(argv[i], '='))
                        fprintf(stderr,
                                "quinto-manager: bad engine setting '%s': settings are KEY=VALUE "
                                "(cmd, name, dir, tc, option.KEY); did you mean cmd=%s?\n",
                                argv[i], argv[i]);
                    else
                        fprintf(stderr,
                                "quinto-manager: bad engine setting '%s' (cmd=, name=, dir=, "
                                "tc=TURN[/MATCH], option.KEY=VALUE)\n",
                                argv[i]);
                    return 2;
                }
            }
        } else if (!strcmp(a, "-rule")) {
            NEED_ARG();
            if (!rule_parse(argv[++i], &cfg.game.rule)) {
                fprintf(stderr, "quinto-manager: unknown rule '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(a, "-size")) {
            NEED_ARG();
            if (!parse_size(argv[++i], &cfg.game.width, &cfg.game.height)) {
                fprintf(stderr, "quinto-manager: bad size '%s' (5..128, or WxH)\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(a, "-tc")) {
            NEED_ARG();
            tc_given = true;
            if (!parse_tc(argv[++i], &cfg.game.turn_ms, &cfg.game.match_ms)) {
                fprintf(stderr, "quinto-manager: bad time control '%s' (TURN[/MATCH] ms)\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(a, "-defender-tc")) {
            INT_ARG(defender_tc, 0, 86400000);
        } else if (!strcmp(a, "-start-timeout")) {
            INT_ARG(cfg.game.start_timeout_ms, 1, 3600000);
        } else if (!strcmp(a, "-tolerance")) {
            INT_ARG(cfg.game.tolerance_ms, 0, 86400000);
        } else if (!strcmp(a, "-memory")) {
            long long mib;
            INT_ARG(mib, 1, 1 << 20);
            cfg.game.max_memory = (uint64_t)mib << 20;
        } else if (!strcmp(a, "-openings") || !strcmp(a, "-file")) {
            NEED_ARG();
            openings = argv[++i];
        } else if (!strcmp(a, "-random")) {
            cfg.random_order = true;
        } else if (!strcmp(a, "-seed")) {
            long long seed;
            INT_ARG(seed, 0, LLONG_MAX);
            cfg.seed = (uint64_t)seed;
        } else if (!strcmp(a, "-games")) {
            INT_ARG(cfg.games, 1, 1000000);
        } else if (!strcmp(a, "-rounds")) {
            INT_ARG(cfg.rounds, 1, 1000000);
        } else if (!strcmp(a, "-concurrency") || !strcmp(a, "-j")) {
            INT_ARG(cfg.concurrency, 1, 64);
        } else if (!strcmp(a, "-sprt")) {
            cfg.sprt_on = true;
            cfg.sprt = (SprtParams){0, 10, 0.05, 0.05};
            while (i + 1 < argc && argv[i + 1][0] != '-') {
                const char *kv = argv[++i];
                double v;
                if (!strchr(kv, '=') || !opt_real("-sprt", strchr(kv, '=') + 1, &v))
                    return 2;
                if (!strncmp(kv, "elo0=", 5))
                    cfg.sprt.elo0 = v;
                else if (!strncmp(kv, "elo1=", 5))
                    cfg.sprt.elo1 = v;
                else if (!strncmp(kv, "alpha=", 6))
                    cfg.sprt.alpha = v;
                else if (!strncmp(kv, "beta=", 5))
                    cfg.sprt.beta = v;
                else {
                    fprintf(stderr, "quinto-manager: bad SPRT setting '%s' (elo0=, elo1=, alpha=, beta=)\n", kv);
                    return 2;
                }
            }
            if (!(cfg.sprt.elo0 < cfg.sprt.elo1) || !(cfg.sprt.alpha > 0 && cfg.sprt.alpha < 0.5) ||
                !(cfg.sprt.beta > 0 && cfg.sprt.beta < 0.5)) {
                fprintf(stderr,
                        "quinto-manager: -sprt needs elo0 < elo1 and alpha, beta between 0 and 0.5 "
                        "(got elo0=%g elo1=%g alpha=%g beta=%g)\n",
                        cfg.sprt.elo0, cfg.sprt.elo1, cfg.sprt.alpha, cfg.sprt.beta);
                return 2;
            }
        } else if (!strcmp(a, "-psq")) {
            NEED_ARG();
            cfg.psq_dir = argv[++i];
        } else if (!strcmp(a, "-sgf")) {
            NEED_ARG();
            cfg.sgf_dir = argv[++i];
        } else if (!strcmp(a, "-results")) {
            NEED_ARG();
            cfg.results_path = argv[++i];
        } else if (!strcmp(a, "-suspend")) {
            cfg.game.suspend = true;
        } else if (!strcmp(a, "-reuse")) {
            cfg.reuse = true;
        } else if (!strcmp(a, "-begin")) {
            cfg.game.use_begin = true;
        } else if (!strcmp(a, "-movecap")) {
            INT_ARG(movecap, 1, 128 * 128);
        } else if (!strcmp(a, "-first")) {
            INT_ARG(pz.first, 0, INT_MAX);
        } else if (!strcmp(a, "-limit")) {
            INT_ARG(pz.limit, 0, INT_MAX);
        } else if (!strcmp(a, "-stderr")) {
            NEED_ARG();
            cfg.game.stderr_dir = argv[++i];
        } else if (!strcmp(a, "-human")) {
            NEED_ARG();
            human = argv[++i];
        } else if (!strcmp(a, "-delay")) {
            INT_ARG(delay_ms, 0, 600000);
        } else if (!strcmp(a, "-level")) {
            INT_ARG(level, 0, 100);
        } else if (!strcmp(a, "-review-tc")) {
            INT_ARG(review_ms, 1, 600000);
        } else if (!strcmp(a, "-save")) {
            NEED_ARG();
            save_dir = argv[++i];
        } else if (!strcmp(a, "-opening-rule")) {
            NEED_ARG();
            if (!strcmp(argv[++i], "swap2"))
                cfg.game.swap2 = true;
            else if (strcmp(argv[i], "none") && strcmp(argv[i], "free")) {
                fprintf(stderr, "quinto-manager: -opening-rule is swap2 or none\n");
                return 2;
            }
        } else if (!strcmp(a, "-balance")) {
            balance_flag = true;
        } else if (!strcmp(a, "-count")) {
            INT_ARG(open_count, 1, 100000);
        } else if (!strcmp(a, "-depth")) {
            INT_ARG(open_depth, 1, 60);
        } else if (!strcmp(a, "-max-ev")) {
            INT_ARG(open_max_ev, 0, 30000);
        } else if (!strcmp(a, "-out")) {
            NEED_ARG();
            open_out = argv[++i];
        } else if (!strcmp(a, "-threshold")) {
            INT_ARG(threshold, 1, 30000);
        } else if (!strcmp(a, "-game")) {
            INT_ARG(game_no, 1, INT_MAX);
        } else if (!strcmp(a, "-quiet")) {
            cfg.live = false;
        } else if (!strcmp(a, "-h") || !strcmp(a, "-help") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "quinto-manager: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if ((play || watch || review || make_openings) && cfg.engine_count == 0) {
        /* the brain beside this program */
        EngineSpec *e = &cfg.engines[cfg.engine_count++];
        engine_defaults(e);
        char self[900];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        self[n > 0 ? n : 0] = 0;
        char *slash = strrchr(self, '/');
        if (slash)
            slash[1] = 0;
        else
            self[0] = 0;
        snprintf(e->cmd, sizeof e->cmd, "%spbrain-quinto", self);
        snprintf(e->name, sizeof e->name, "Quinto");
    }
    for (int k = 0; k < cfg.engine_count; k++) {
        EngineSpec *e = &cfg.engines[k];
        if (have_each) {
            if (!e->dir[0])
                memcpy(e->dir, each.dir, sizeof e->dir);
            if (e->turn_ms < 0)
                e->turn_ms = each.turn_ms, e->match_ms = each.match_ms;
            for (int o = 0; o < each.option_count && e->option_count < ENGINE_MAX_OPTIONS; o++) {
                memcpy(e->option_key[e->option_count], each.option_key[o], 64);
                memcpy(e->option_value[e->option_count], each.option_value[o], 256);
                e->option_count++;
            }
        }
        if (!e->cmd[0]) {
            fprintf(stderr, "quinto-manager: engine %d has no cmd=\n", k + 1);
            return 2;
        }
        if (!e->name[0])
            snprintf(e->name, sizeof e->name, "%s", base_name(e->cmd));
        for (int j = 0; j < k; j++)
            if (!strcmp(cfg.engines[j].name, e->name))
                snprintf(e->name + strlen(e->name), sizeof e->name - strlen(e->name), "-%d", k + 1);
    }
    if (!preflight(&cfg, puzzles && have_defender ? &pz.defender : NULL, (play || watch) ? save_dir : NULL))
        return 2;
    if (review)
        return review_main(review_file, &cfg, tc_given, threshold, game_no);
    if (make_openings) {
        if (!balance_flag) {
            fprintf(stderr, "quinto-manager openings: say how: -balance (the brain's YXBALANCETWO)\n");
            return 2;
        }
        if (cfg.game.width != cfg.game.height) {
            fprintf(stderr, "quinto-manager openings: square boards only\n");
            return 2;
        }
        BalanceConfig bc = {0};
        bc.brain = cfg.engines[0];
        bc.rule = cfg.game.rule;
        bc.width = cfg.game.width;
        bc.height = cfg.game.height;
        bc.count = open_count;
        bc.turn_ms = tc_given ? cfg.game.turn_ms : 2000;
        bc.depth = open_depth;
        bc.max_ev = open_max_ev;
        bc.seed = cfg.seed;
        bc.log = stderr;
        bc.out = stdout;
        if (open_out && !(bc.out = fopen(open_out, "w"))) {
            fprintf(stderr, "quinto-manager openings: cannot write %s: %s\n", open_out, strerror(errno));
            return 2;
        }
        int st = balance_openings_run(&bc);
        if (open_out && fclose(bc.out) != 0) {
            fprintf(stderr, "quinto-manager openings: cannot write %s: %s\n", open_out, strerror(errno));
            return 2;
        }
        return st;
    }
    if (play || watch) {
        static PlayConfig pc;
        pc.rule = cfg.game.rule;
        pc.width = cfg.game.width;
        pc.height = cfg.game.height;
        const char *h = human ? human : watch ? "none" : "black";
        pc.human[BLACK] = !strcmp(h, "black") || !strcmp(h, "both");
        pc.human[WHITE] = !strcmp(h, "white") || !strcmp(h, "both");
        if (strcmp(h, "black") && strcmp(h, "white") && strcmp(h, "both") && strcmp(h, "none")) {
            fprintf(stderr, "quinto-manager: -human is black, white, both or none\n");
            return 2;
        }
        pc.engine[BLACK] = cfg.engines[0];
        pc.engine[WHITE] = cfg.engines[cfg.engine_count > 1 ? 1 : 0];
        if (pc.human[BLACK] && !pc.human[WHITE])
            pc.engine[WHITE] = cfg.engines[0];
        pc.hint = cfg.engines[0];
        pc.turn_ms = tc_given ? cfg.game.turn_ms : 2000;
        pc.match_ms = cfg.game.match_ms;
        pc.delay_ms = delay_ms;
        pc.swap2 = cfg.game.swap2;
        pc.strength = level;
        pc.review_ms = review_ms;
        pc.save_dir = save_dir;
        return play_run(&pc);
    }
    if (puzzles) {
        if (cfg.engine_count != 1 || !openings) {
            fprintf(stderr, "quinto-manager puzzles: one -engine and a -file are needed\n");
            return 2;
        }
        pz.solver = cfg.engines[0];
        if (!have_defender)
            pz.defender = pz.solver;
        snprintf(pz.defender.name, sizeof pz.defender.name, "defender");
        pz.file = openings;
        pz.move_cap = movecap > 0 ? movecap : 80;
        pz.solver_turn_ms = cfg.game.turn_ms;
        pz.defender_turn_ms = defender_tc;
        pz.tolerance_ms = cfg.game.tolerance_ms;
        pz.concurrency = cfg.concurrency;
        pz.results_path = cfg.results_path;
        pz.out = stdout;
        pz.live = cfg.live;
        return puzzles_run(&pz);
    }
    if (cfg.engine_count < 2) {
        fprintf(stderr, "quinto-manager: at least two -engine are needed\n");
        usage(stderr);
        return 2;
    }
    if (movecap > 0)
        cfg.game.move_cap = movecap;
    if (openings && cfg.game.swap2) {
        fprintf(stderr, "quinto-manager: -opening-rule swap2 starts from an empty board: no -openings\n");
        return 2;
    }
    if (openings) {
        char err[1024], path[PATH_MAX];
        if (!openings_find(openings, path, sizeof path, err, sizeof err) ||
            !openings_load(&cfg.openings, path, cfg.game.width, cfg.game.height, cfg.game.rule,
                           err, sizeof err)) {
            fprintf(stderr, "quinto-manager: %s\n", err);
            return 2;
        }
        for (int k = 0; k < cfg.openings.count; k++) {
            Record *r = &cfg.openings.list[k];
            if (r->width != cfg.game.width || r->height != cfg.game.height) {
                fprintf(stderr, "quinto-manager: opening %d is for %dx%d, the games are %dx%d\n",
                        k + 1, r->width, r->height, cfg.game.width, cfg.game.height);
                return 2;
            }
        }
        cfg.have_openings = true;
    }
    return tourney_run(&cfg);
}

/* protocol/tune.c — pbrain-quinto tune: fitting eval/'s numbers to games.
 *
 * Reads quinto-manager -results files (and label.py's judged positions) and
 * fits, by Adam on a held-out split: the structured weights of eval/weights.c
 * to the games' results (Texel), the table model's corrections of pattern
 * codes, pairs, threat masks and scalars (--table), or writes the quiet
 * positions for a stronger brain to judge (--quiet). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../eval/evaluate.h"
#include "codec.h"
#include "tools.h"

/* ---- tune: fit the eval weights to game results ---- */

typedef struct {
    float f[EVAL_FEATURES];
    float result; /* 1 the side to move won, 0 lost, 0.5 drawn */
} TuneSample;

typedef struct {
    TuneSample *s;
    size_t n, cap;
} TuneSet;

/* The next field of *s up to one of delims (strsep, which not every C
 * library has): NULL at the end. */
static char *next_field(char **s, const char *delims) {
    char *start = *s;
    if (!start)
        return NULL;
    char *end = start + strcspn(start, delims);
    if (*end) {
        *end = 0;
        *s = end + 1;
    } else
        *s = NULL;
    return start;
}

/* A quiet position: no five or open-four point for either side; `loose`
 * (positions to be judged by a stronger search) allows the opponent of the
 * side to move open-four points (a three to answer), no fives. */
static bool is_quiet(const Pos *p, bool loose) {
    int s = p->b.side, o = opponent(s);
    return !pos_count(p, s, P4_FIVE) && !pos_count(p, o, P4_FIVE) && !pos_count(p, s, P4_FLEX4) &&
           (loose || !pos_count(p, o, P4_FLEX4));
}

/* The quiet positions from the 9th stone on of one game given as
 * "x,y;x,y;..." with its result for black: fn(ctx, position, result for the
 * side to move) for each. */
typedef void (*QuietFn)(void *ctx, const Pos *p, float result);

/* The cells of "x,y;x,y;..." (modified) on b: how many, -1 for one off the board. */
static int parse_moves(const Board *b, char *moves, Move *seq) {
    int n = 0;
    for (char *t; (t = next_field(&moves, ";")) != NULL && n < BOARD_MAX_MOVES;) {
        int x, y;
        if (!codec_parse_xy(t, &x, &y) || !board_on(b, x, y))
            return -1;
        seq[n++] = board_move_at(b, x, y);
    }
    return n;
}

static void quiet_positions(Pos *p, int size, Rule rule, char *moves, float black_result, bool loose,
                            QuietFn fn, void *ctx) {
    pos_init(p, size, size, rule);
    Move seq[BOARD_MAX_MOVES];
    int n = parse_moves(&p->b, moves, seq);
    for (int k = 0; k + 1 < n; k++) {
        if (p->b.cell[seq[k]] != EMPTY)
            return;
        pos_play(p, seq[k]);
        if (k < 8 || !is_quiet(p, loose))
            continue;
        fn(ctx, p, p->b.side == BLACK ? black_result : 1 - black_result);
    }
}

/* The decided games of quinto-manager -results files: fn(ctx, moves, result
 * for black) for each (moves is the file's field, modifiable). Games given
 * twice count once (FNV-1a of the move list) when `unique`. Returns the
 * number of games, -1 when a file cannot be read; *repeats counts the
 * skipped ones. */
static int read_games(int nfiles, char **files, bool unique, int *repeats,
                      void (*fn)(void *ctx, char *moves, float black_result), void *ctx) {
    static char line[1 << 16];
    int games = 0;
    size_t hcap = 1 << 20;
    uint64_t *hashes = unique ? calloc(hcap, sizeof *hashes) : NULL;
    if (unique && !hashes)
        return -1;
    *repeats = 0;
    for (int a = 0; a < nfiles; a++) {
        FILE *f = fopen(files[a], "r");
        if (!f) {
            fprintf(stderr, "tune: cannot read %s\n", files[a]);
            free(hashes);
            return -1;
        }
        while (fgets(line, sizeof line, f)) {
            char *col[8], *rest = line;
            int nc = 0;
            while (nc < 8 && (col[nc] = next_field(&rest, "\t\n")) != NULL)
                nc++;
            /* game opening black white result reason detail moves: decided games only */
            if (nc < 8 || (strcmp(col[5], "five") && strcmp(col[5], "board full")))
                continue;
            float res = !strcmp(col[4], "1-0") ? 1.0f : !strcmp(col[4], "0-1") ? 0.0f : 0.5f;
            if (unique) {
                uint64_t h = 1469598103934665603ull;
                for (const char *c = col[7]; *c; c++)
                    h = (h ^ (unsigned char)*c) * 1099511628211ull;
                h |= 1;
                size_t slot = (size_t)(h % hcap);
                while (hashes[slot] && hashes[slot] != h)
                    slot = (slot + 1) % hcap;
                if (hashes[slot]) {
                    ++*repeats;
                    continue;
                }
                if (games < (int)(hcap / 2))
                    hashes[slot] = h;
            }
            fn(ctx, col[7], res);
            games++;
        }
        fclose(f);
    }
    free(hashes);
    return games;
}

static void tune_add_position(void *ctx, const Pos *p, float result) {
    TuneSet *set = ctx;
    if (set->n == set->cap) {
        size_t cap = set->cap ? 2 * set->cap : 65536;
        TuneSample *ns = realloc(set->s, cap * sizeof *ns);
        if (!ns)
            return;
        set->s = ns, set->cap = cap;
    }
    eval_features(p, set->s[set->n].f);
    set->s[set->n++].result = result;
}

typedef struct {
    Pos *p;
    int size;
    Rule rule;
    void *set;
    QuietFn add;
} GameSink;

static void sink_game(void *ctx, char *moves, float black_result) {
    GameSink *g = ctx;
    quiet_positions(g->p, g->size, g->rule, moves, black_result, false, g->add, g->set);
}

/* The model's win probability for the side to move: 1/(1+e^(-eval/k)). */
static double tune_prob(const double *w, const float *f, double k) {
    double v = 0;
    for (int i = 0; i < EVAL_FEATURES; i++)
        v += w[i] * f[i];
    return 1 / (1 + exp(-v / k));
}

/* Mean squared error of the win probability; every tenth
 * sample is held out (valid) when `part` is 1, only those when 2, all when 0. */
static double tune_error(const TuneSet *set, const double *w, double k, int part) {
    double e = 0;
    size_t n = 0;
    for (size_t i = 0; i < set->n; i++) {
        if ((part == 1 && i % 10 == 0) || (part == 2 && i % 10 != 0))
            continue;
        double r = tune_prob(w, set->s[i].f, k) - set->s[i].result;
        e += r * r, n++;
    }
    return n ? e / (double)n : 0;
}

static void tune_print(const char *name, const double *w, int from, int count) {
    printf("%s {", name);
    for (int i = 0; i < count; i++)
        printf("%s%.0f", i ? ", " : "", w[from + i]);
    printf("},\n");
}

/* ---- tune --table: a value for every pattern code that occurs ----
 * The model: eval_static (the structured weights) plus, for every empty cell
 * and colour, a correction of its pattern code's value (the table entry
 * pcode_eval[table][code] becomes free). Freestyle-like rules share one
 * correction table for both colours (their pattern tables are the same);
 * renju has one per colour. Fitted with Adam on the win probability's squared
 * error, an L2 pull towards the structured value (0 correction), and the
 * corrections of the iteration with the least held-out error kept. */

typedef struct {
    uint16_t idx;
    int8_t v;
} TableEntry;

typedef struct {
    float base, result;
    uint32_t first;
    uint16_t count;
    bool held; /* held out: every tenth game, whole (a game's positions are alike) */
    float dense[6]; /* the scalar weights' features: windows of 1..4 stones, tempo, colour */
} TableSample;

typedef struct {
    TableSample *s;
    size_t n, cap;
    TableEntry *e;
    size_t ne, ecap;
    bool per_colour;
    bool holding; /* the game being added is held out */
    int games;
} TableSet;

static bool table_push_entry(TableSet *set, uint16_t idx, int v) {
    if (set->ne == set->ecap) {
        size_t cap = set->ecap ? 2 * set->ecap : 1 << 20;
        TableEntry *ne = realloc(set->e, cap * sizeof *ne);
        if (!ne)
            return false;
        set->e = ne, set->ecap = cap;
    }
    set->e[set->ne].idx = idx;
    set->e[set->ne++].v = (int8_t)(v > 127 ? 127 : v < -127 ? -127 : v);
    return true;
}

/* Each code's six direction pairs (pcode_pairs), once. */
enum { PAIRS = PCODE_PAIRS };
static uint8_t code_pairs[PCODE_COUNT][6];
static void code_pairs_init(void) {
    static bool done;
    for (int pc = 0; !done && pc < PCODE_COUNT; pc++) {
        int q[6];
        pcode_pairs(pc, q);
        for (int k = 0; k < 6; k++)
            code_pairs[pc][k] = (uint8_t)q[k];
    }
    done = true;
}

static void table_add_position(TableSet *set, const Pos *p, float result) {
    static int count[2 * PCODE_COUNT + THREAT_MASKS + 2 * PAIRS];
    static uint16_t touched[2 * PCODE_COUNT + THREAT_MASKS + 2 * PAIRS];
    static uint8_t mark[2 * PCODE_COUNT + THREAT_MASKS + 2 * PAIRS];
    int nt = 0;
    int codes = (set->per_colour ? 2 : 1) * PCODE_COUNT, pairs0 = codes + THREAT_MASKS;
    const Board *b = &p->b;
    int sg = b->side == BLACK ? 1 : -1;
    for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++) {
            int m = board_move_at(b, x, y);
            if (b->cell[m] != EMPTY)
                continue;
            for (int c = 0; c < 2; c++) {
                if (p->c[m].p4[c] == P4_FORBID)
                    continue; /* worth nothing, whatever the table says */
                int pc = p->c[m].pcode[c], sv = c == 0 ? sg : -sg; /* black's cells count for black */
                int idx = (set->per_colour ? c * PCODE_COUNT : 0) + pc;
                if (!mark[idx])
                    mark[idx] = 1, touched[nt++] = (uint16_t)idx;
                count[idx] += sv;
                for (int k = 0; k < 6; k++) {
                    int pi = pairs0 + (set->per_colour ? c * PAIRS : 0) + code_pairs[pc][k];
                    if (!mark[pi])
                        mark[pi] = 1, touched[nt++] = (uint16_t)pi;
                    count[pi] += sv;
                }
            }
        }
    if (set->n == set->cap) {
        size_t cap = set->cap ? 2 * set->cap : 65536;
        TableSample *ns = realloc(set->s, cap * sizeof *ns);
        if (!ns)
            return;
        set->s = ns, set->cap = cap;
    }
    TableSample *t = &set->s[set->n];
    t->base = (float)eval_static(p);
    t->result = result;
    t->first = (uint32_t)set->ne;
    t->count = 0;
    t->held = set->holding;
    float f[EVAL_FEATURES];
    eval_features(p, f);
    for (int i = 0; i < 4; i++)
        t->dense[i] = f[FEAT_WINDOW + i];
    t->dense[4] = f[FEAT_TEMPO];
    t->dense[5] = f[FEAT_BLACK];
    for (int i = 0; i < nt; i++) {
        int idx = touched[i];
        if (count[idx] && table_push_entry(set, (uint16_t)idx, count[idx]))
            t->count++;
        count[idx] = 0, mark[idx] = 0;
    }
    /* the threat mask's value: one parameter per mask, after the codes */
    if (table_push_entry(set, (uint16_t)(codes + eval_threat_mask(p)), 1))
        t->count++;
    set->n++;
}

static void table_add_quiet(void *ctx, const Pos *p, float result) {
    table_add_position(ctx, p, result);
}

/* A game for the table fit: every tenth game is held out whole. */
static void table_add_game(void *ctx, char *moves, float black_result) {
    GameSink *g = ctx;
    TableSet *set = g->set;
    set->holding = set->games++ % 10 == 0;
    quiet_positions(g->p, g->size, g->rule, moves, black_result, false, table_add_quiet, set);
}

static int table_dense0; /* index of the first scalar weight's correction */

static double table_value(const TableSet *set, const TableSample *t, const double *d) {
    double v = t->base;
    const TableEntry *e = set->e + t->first;
    for (int j = 0; j < t->count; j++)
        v += d[e[j].idx] * e[j].v;
    for (int j = 0; j < 6; j++)
        v += d[table_dense0 + j] * t->dense[j];
    return v;
}

/* Mean squared error: part 1 the training samples, 2 the held-out games, 0 all. */
static double table_error(const TableSet *set, const double *d, double k, int part) {
    double err = 0;
    size_t n = 0;
    for (size_t i = 0; i < set->n; i++) {
        if ((part == 1 && set->s[i].held) || (part == 2 && !set->s[i].held))
            continue;
        double q = 1 / (1 + exp(-table_value(set, &set->s[i], d) / k)) - set->s[i].result;
        err += q * q, n++;
    }
    return n ? err / (double)n : 0;
}

/* --quiet: every quiet position of the games as "GAME\tRESULT\tMOVES" (the
 * game's number, black's result, the moves up to the position), for a
 * stronger brain to judge (tournaments/scripts/label.py). */
typedef struct {
    FILE *out;
    int game;
    long written;
} QuietDump;

static void dump_quiet(void *ctx, const Pos *p, float result) {
    QuietDump *q = ctx;
    fprintf(q->out, "%d\t%g\t", q->game, p->b.side == BLACK ? result : 1 - result);
    for (int i = 0; i < p->b.ply; i++) {
        Move m = p->b.history[i];
        fprintf(q->out, "%s%d,%d", i ? ";" : "", board_x(&p->b, m), board_y(&p->b, m));
    }
    fputc('\n', q->out);
    q->written++;
}

static void dump_game(void *ctx, char *moves, float black_result) {
    GameSink *g = ctx;
    QuietDump *q = g->set;
    quiet_positions(g->p, g->size, g->rule, moves, black_result, true, dump_quiet, q);
    q->game++;
}

/* Judged positions ("GAME\tRESULT\tEV\tMOVES", label.py's output: EV the
 * judge's value for the side to move; a mate, +M7 or -M9, counts as +-mate,
 * or is left out when mate is 0): each quiet one goes to the table fit with
 * the target lambda * sigmoid(EV / scale) + (1 - lambda) * the game's result
 * for the side to move; every tenth game is held out. Returns the number of
 * games with a position used, -1 when a file cannot be read. */
static int read_judged(TableSet *set, Pos *p, int size, Rule rule, double lambda, double scale, double mate,
                       int nfiles, char **files, long *skipped) {
    static char line[1 << 16];
    int games = 0, last = -1;
    *skipped = 0;
    for (int a = 0; a < nfiles; a++) {
        FILE *f = fopen(files[a], "r");
        if (!f) {
            fprintf(stderr, "tune: cannot read %s\n", files[a]);
            return -1;
        }
        while (fgets(line, sizeof line, f)) {
            char *rest = line, *col[4];
            int nc = 0;
            while (nc < 4 && (col[nc] = next_field(&rest, "\t\n")) != NULL)
                nc++;
            if (nc < 4 || !*col[2]) {
                ++*skipped;
                continue;
            }
            int game = atoi(col[0]);
            double ev = atof(col[2]);
            if (strchr(col[2], 'M')) { /* a forced win: as `mate` (0: left out, the threat search's business) */
                if (mate <= 0) {
                    ++*skipped;
                    continue;
                }
                ev = strchr(col[2], '-') ? -mate : mate;
            }
            pos_init(p, size, size, rule);
            Move seq[BOARD_MAX_MOVES];
            int n = parse_moves(&p->b, col[3], seq);
            bool ok = n >= 0;
            for (int k = 0; ok && k < n; k++)
                if ((ok = p->b.cell[seq[k]] == EMPTY))
                    pos_play(p, seq[k]);
            if (!ok || !is_quiet(p, true)) {
                ++*skipped;
                continue;
            }
            if (game != last)
                games++, last = game;
            float black = (float)atof(col[1]);
            double res = p->b.side == BLACK ? black : 1 - black;
            double target = lambda / (1 + exp(-ev / scale)) + (1 - lambda) * res;
            set->holding = game % 10 == 0;
            table_add_position(set, p, (float)target);
        }
        fclose(f);
    }
    return games;
}

/* The built-in corrections as the fit's parameters (tune --table --refine). */
static void table_prior(Rule rule, bool per_colour, int pairs0, int dense0, double *prior) {
    int ncodes = (per_colour ? 2 : 1) * PCODE_COUNT;
    const CodeCorrection *c = eval_corrections(rule);
    for (; c && c->kind >= 0; c++) {
        int k = c->kind, i = c->index;
        if (k <= 2 && i >= 0 && i < PCODE_COUNT) {
            for (int col = 0; col < (per_colour ? 2 : 1); col++)
                if (k == 0 || k == col + 1)
                    prior[col * PCODE_COUNT + i] += c->value;
        } else if (k == 3 && i >= 0 && i < THREAT_MASKS) {
            prior[ncodes + i] += c->value;
        } else if (k == 4 && i >= 0 && i < 6) {
            prior[dense0 + i] += c->value;
        } else if (k == 5 && i >= 0 && i < 3 * PCODE_PAIRS) {
            int col = i / PCODE_PAIRS, q = i % PCODE_PAIRS;
            for (int cc = 0; cc < (per_colour ? 2 : 1); cc++)
                if (col == 0 || col == cc + 1)
                    prior[pairs0 + cc * PCODE_PAIRS + q] += c->value;
        }
    }
}

static int tool_tune_table(Rule rule, int size, const char *out_path, bool refine, double l2,
                           double lr, int iterations, double lambda, double scale, double mate,
                           int nfiles, char **files, const char *cmdline) {
    static Pos p;
    /* the fit starts from eval/weights.c's numbers alone; --refine starts
     * from the built-in corrections and pulls towards them instead of 0 */
    if (!refine)
        weights_without_corrections();
    code_pairs_init();
    TableSet set = {0};
    set.per_colour = rule == RULE_RENJU;
    int repeats = 0, games;
    if (lambda > 0) { /* judged positions */
        long skipped;
        games = read_judged(&set, &p, size, rule, lambda, scale, mate, nfiles, files, &skipped);
        if (skipped)
            printf("%ld lines skipped (no value, a mate, not quiet or not legal)\n", skipped);
    } else {
        GameSink sink = {&p, size, rule, &set, NULL};
        games = read_games(nfiles, files, true, &repeats, table_add_game, &sink);
    }
    if (games < 0)
        return 1;
    if (repeats)
        printf("%d repeated games skipped\n", repeats);
    if (set.n < 500) {
        fprintf(stderr, "tune: %zu positions from %d games: too few\n", set.n, games);
        free(set.s), free(set.e);
        return 1;
    }
    int ncodes = (set.per_colour ? 2 : 1) * PCODE_COUNT, pairs0 = ncodes + THREAT_MASKS;
    int dense0 = pairs0 + (set.per_colour ? 2 : 1) * PAIRS, np = dense0 + 6;
    table_dense0 = dense0;
    double *d = calloc((size_t)np, sizeof *d), *best_d = calloc((size_t)np, sizeof *d);
    double *g = calloc((size_t)np, sizeof *g), *m1 = calloc((size_t)np, sizeof *g),
           *m2 = calloc((size_t)np, sizeof *g);
    long *seen = calloc((size_t)np, sizeof *seen);
    if (!d || !best_d || !g || !m1 || !m2 || !seen) {
        fprintf(stderr, "tune: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < set.ne; i++)
        seen[set.e[i].idx]++;
    for (int j = 0; j < 6; j++)
        seen[dense0 + j] = 1;
    int occurring = 0, masks = 0;
    for (int j = 0; j < pairs0; j++)
        if (seen[j])
            j < ncodes ? occurring++ : masks++;
    double k = 50, best = 1e9;
    for (double c = 50; c < 5000; c *= 1.05) { /* the scale that fits the current weights */
        double e = table_error(&set, d, c, 0);
        if (e < best)
            best = e, k = c;
    }
    double start_held = table_error(&set, d, k, 2), best_held = start_held;
    int best_it = 0;
    printf("%zu quiet positions from %d games, %d codes and %d threat masks occur; scale %.0f; error "
           "%.5f (held out %.5f)\n",
           set.n, games, occurring, masks, k, best, start_held);
    size_t ntrain = 0;
    for (size_t i = 0; i < set.n; i++)
        ntrain += !set.s[i].held;
    for (int it = 1; it <= iterations; it++) {
        memset(g, 0, sizeof(double) * (size_t)np);
        for (size_t i = 0; i < set.n; i++) {
            if (set.s[i].held)
                continue;
            const TableSample *t = &set.s[i];
            double q = 1 / (1 + exp(-table_value(&set, t, d) / k));
            double c = 2 * (q - t->result) * q * (1 - q) / k;
            const TableEntry *e = set.e + t->first;
            for (int j = 0; j < t->count; j++)
                g[e[j].idx] += c * e[j].v;
            for (int j = 0; j < 6; j++)
                g[dense0 + j] += c * t->dense[j];
        }
        for (int j = 0; j < np; j++) {
            if (!seen[j])
                continue;
            /* single codes and masks are pulled to 0 by l2; the pairs and the
             * scalar weights, each seen in most positions, fit freely */
            double gj = g[j] / (double)ntrain + (j < pairs0 ? 2 * l2 * d[j] : 0);
            m1[j] = 0.9 * m1[j] + 0.1 * gj;
            m2[j] = 0.999 * m2[j] + 0.001 * gj * gj;
            double mh = m1[j] / (1 - pow(0.9, it)), vh = m2[j] / (1 - pow(0.999, it));
            d[j] -= lr * mh / (sqrt(vh) + 1e-8);
        }
        if (it % 25 == 0 || it == iterations) {
            double h = table_error(&set, d, k, 2);
            if (h < best_held) {
                best_held = h, best_it = it;
                memcpy(best_d, d, sizeof(double) * (size_t)np);
            }
            if (it % 25 == 0 || it == iterations) {
                printf("iteration %d: error %.5f (held out %.5f)\n", it, table_error(&set, d, k, 1), h);
                fflush(stdout);
            }
        }
    }
    if (refine) { /* the file holds the built-in corrections plus the fit's change */
        double *prior = calloc((size_t)np, sizeof *prior);
        if (!prior) {
            fprintf(stderr, "tune: out of memory\n");
            return 1;
        }
        table_prior(rule, set.per_colour, pairs0, dense0, prior);
        for (int j = 0; j < np; j++)
            best_d[j] += prior[j];
        free(prior);
    }
    FILE *o = fopen(out_path, "w");
    if (!o) {
        fprintf(stderr, "tune: cannot write %s\n", out_path);
        return 1;
    }
    int written = 0;
    fprintf(o, "/* Corrections for %s (eval/weights.c): {kind, index, value}; kind 0: a pattern\n"
               " * code of either colour, 1 black's, 2 white's, 3 a threat mask, 4 a scalar weight,\n"
               " * 5 a direction pair (colour * 196 + a * 14 + b, patterns a <= b; colour 0: both).\n"
               " * Made by: %s\n"
               " * %zu quiet positions from %d games; %d codes, %d masks occur; scale %.0f; held-out error\n"
               " * %.5f -> %.5f (iteration %d of %d, L2 %g, step %g); a code's value adds its\n"
               " * six direction pairs' corrections to its own. */\n",
            rule_name(rule), cmdline, set.n, games, occurring, masks, k, start_held, best_held, best_it,
            iterations, l2, lr);
    /* a code's own correction is what its rounded pairs leave over, so that
     * the file's values add up to the fit */
    for (int j = 0; j < pairs0; j++) {
        double v = best_d[j];
        if (j < ncodes) {
            int colour = set.per_colour ? j / PCODE_COUNT : 0, pc = j % PCODE_COUNT;
            for (int q = 0; q < 6; q++) {
                double pv = best_d[pairs0 + colour * PAIRS + code_pairs[pc][q]];
                v += pv - (double)lround(pv);
            }
        }
        long r = lround(v);
        if (!r)
            continue;
        if (j >= ncodes)
            fprintf(o, "{3, %d, %ld},\n", j - ncodes, r); /* a threat mask */
        else
            fprintf(o, "{%d, %d, %ld},\n", set.per_colour ? 1 + j / PCODE_COUNT : 0, j % PCODE_COUNT, r);
        written++;
    }
    for (int j = 0; j < (set.per_colour ? 2 : 1) * PAIRS; j++) { /* direction pairs */
        long r = lround(best_d[pairs0 + j]);
        if (r)
            fprintf(o, "{5, %d, %ld},\n", set.per_colour ? (1 + j / PAIRS) * PAIRS + j % PAIRS : j, r),
                written++;
    }
    for (int j = 0; j < 6; j++) { /* the scalar weights */
        long r = lround(best_d[dense0 + j]);
        if (r)
            fprintf(o, "{4, %d, %ld},\n", j, r), written++;
    }
    fclose(o);
    printf("held-out error %.5f -> %.5f at iteration %d; %d corrections written to %s\n", start_held,
           best_held, best_it, written, out_path);
    free(d), free(best_d), free(g), free(m1), free(m2), free(seen), free(set.s), free(set.e);
    return 0;
}

int tool_tune(int argc, char **argv) {
    Rule rule;
    int size = argc > 1 ? atoi(argv[1]) : 0;
    int iterations = 3000;
    if (argc < 3 || !rule_parse(argv[0], &rule) || size < BOARD_MIN_SIZE || size > BOARD_MAX_SIZE) {
        fprintf(stderr, "tune: RULE SIZE RESULTS.tsv... (quinto-manager -results files)\n");
        return 2;
    }
    if (!strcmp(argv[2], "--table")) { /* RULE SIZE --table OUT [--l2 X] [--iterations N] FILES */
        const char *out = argc > 3 ? argv[3] : NULL;
        double l2 = 1e-7, lr = 0.5, lambda = 0, scale = 200, mate = 0;
        int its = 600, a = 4;
        bool refine = false;
        for (; a + 1 < argc; a += 2)
            if (!strcmp(argv[a], "--refine"))
                refine = true, a--; /* a flag: no value */
            else if (!strcmp(argv[a], "--l2"))
                l2 = atof(argv[a + 1]);
            else if (!strcmp(argv[a], "--judged"))
                lambda = atof(argv[a + 1]);
            else if (!strcmp(argv[a], "--scale"))
                scale = atof(argv[a + 1]);
            else if (!strcmp(argv[a], "--mate"))
                mate = atof(argv[a + 1]);
            else if (!strcmp(argv[a], "--lr"))
                lr = atof(argv[a + 1]);
            else if (!strcmp(argv[a], "--iterations"))
                its = atoi(argv[a + 1]);
            else
                break;
        if (!out || a >= argc || its < 1 || lambda < 0 || lambda > 1 || scale <= 0 || mate < 0) {
            fprintf(stderr, "tune: RULE SIZE --table OUT.inc [--refine] [--l2 X] [--lr X] [--iterations N] RESULTS.tsv...\n"
                            "      RULE SIZE --table OUT.inc [...] --judged LAMBDA [--scale S] [--mate V] JUDGED.tsv...\n");
            return 2;
        }
        char cmd[1024];
        int n = snprintf(cmd, sizeof cmd, "pbrain-quinto tune");
        for (int i = 0; i < argc && n < (int)sizeof cmd - 1; i++) {
            const char *base = strrchr(argv[i], '/'); /* file names without their folders */
            n += snprintf(cmd + n, sizeof cmd - (size_t)n, " %s", i >= a && base ? base + 1 : argv[i]);
        }
        return tool_tune_table(rule, size, out, refine, l2, lr, its, lambda, scale, mate, argc - a, argv + a,
                               cmd);
    }
    if (!strcmp(argv[2], "--quiet")) { /* RULE SIZE --quiet OUT.tsv RESULTS.tsv... */
        FILE *o = argc > 4 ? fopen(argv[3], "w") : NULL;
        if (!o) {
            fprintf(stderr, "tune: RULE SIZE --quiet OUT.tsv RESULTS.tsv...: cannot write the output\n");
            return argc > 4 ? 1 : 2;
        }
        static Pos p;
        QuietDump q = {o, 0, 0};
        int repeats;
        GameSink sink = {&p, size, rule, &q, NULL};
        int games = read_games(argc - 4, argv + 4, true, &repeats, dump_game, &sink);
        bool bad = fclose(o) != 0 || games < 0;
        if (!bad)
            printf("%ld quiet positions from %d games (%d repeated games skipped) written to %s\n", q.written,
                   games, repeats, argv[3]);
        return bad;
    }
    static Pos p;
    TuneSet set = {0};
    int repeats;
    GameSink sink = {&p, size, rule, &set, tune_add_position};
    int games = read_games(argc - 2, argv + 2, false, &repeats, sink_game, &sink);
    if (games < 0) {
        free(set.s);
        return 1;
    }
    if (set.n < 1000) {
        fprintf(stderr, "tune: %zu positions from %d games: too few\n", set.n, games);
        free(set.s);
        return 1;
    }
    double w[EVAL_FEATURES], k = 50, best = 1e9;
    eval_weights(rule, w);
    for (double c = 50; c < 5000; c *= 1.05) { /* the scale that fits the current weights */
        double e = tune_error(&set, w, c, 0);
        if (e < best)
            best = e, k = c;
    }
    printf("%zu quiet positions from %d games; scale %.0f; error %.5f (held out %.5f)\n", set.n, games, k,
           best, tune_error(&set, w, k, 2));
    /* Adam on the training part, step 1 eval unit */
    double m1[EVAL_FEATURES] = {0}, m2[EVAL_FEATURES] = {0}, g[EVAL_FEATURES];
    for (int it = 1; it <= iterations; it++) {
        memset(g, 0, sizeof g);
        size_t n = 0;
        for (size_t i = 0; i < set.n; i++) {
            if (i % 10 == 0)
                continue;
            double q = tune_prob(w, set.s[i].f, k);
            double c = 2 * (q - set.s[i].result) * q * (1 - q) / k;
            for (int j = 0; j < EVAL_FEATURES; j++)
                g[j] += c * set.s[i].f[j];
            n++;
        }
        for (int j = 0; j < EVAL_FEATURES; j++) {
            if (j == FEAT_PATTERN + PAT_F5 || j == FEAT_P4 + P4_FIVE || j == FEAT_P4 + P4_FLEX4)
                continue; /* never seen in quiet positions */
            g[j] /= (double)n;
            m1[j] = 0.9 * m1[j] + 0.1 * g[j];
            m2[j] = 0.999 * m2[j] + 0.001 * g[j] * g[j];
            double mh = m1[j] / (1 - pow(0.9, it)), vh = m2[j] / (1 - pow(0.999, it));
            w[j] -= mh / (sqrt(vh) + 1e-8);
        }
        if (it % 500 == 0) {
            printf("iteration %d: error %.5f (held out %.5f)\n", it, tune_error(&set, w, k, 1),
                   tune_error(&set, w, k, 2));
            fflush(stdout);
        }
    }
    /* as an EVAL_WEIGHTS entry for eval/weights.c */
    char upper[16];
    snprintf(upper, sizeof upper, "%s", rule_name(rule));
    for (char *c = upper; *c; c++)
        *c = (char)toupper((unsigned char)*c);
    printf("[RULE_%s] = {\n    .window = {0, %.0f, %.0f, %.0f, %.0f, 100000},\n", upper,
           w[FEAT_WINDOW], w[FEAT_WINDOW + 1], w[FEAT_WINDOW + 2], w[FEAT_WINDOW + 3]);
    tune_print("    .pattern =", w, FEAT_PATTERN, PAT_COUNT);
    tune_print("    .p4 =", w, FEAT_P4, P4_COUNT);
    tune_print("    .threat =", w, FEAT_THREAT, 3);
    printf("    .tempo = %.0f, .black = %.0f,\n},\n", w[FEAT_TEMPO], w[FEAT_BLACK]);
    free(set.s);
    return 0;
}

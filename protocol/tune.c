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
int results_parse_moves(const Board *b, char *moves, Move *seq) {
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
    int n = results_parse_moves(&p->b, moves, seq);
    for (int k = 0; k + 1 < n; k++) {
        if (p->b.cell[seq[k]] != EMPTY)
            return;
        pos_play(p, seq[k]);
        if (k < 8 || !is_quiet(p, loose))
            continue;
        fn(ctx, p, p->b.side == BLACK ? black_result : 1 - black_result);
    }
}

static const char *game_black, *game_white; /* the names of the game results_read_games hands on */
int results_read_games(const char *tool, int nfiles, char **files, bool unique, int *repeats,
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
            fprintf(stderr, "%s: cannot read %s\n", tool, files[a]);
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
            game_black = col[2], game_white = col[3];
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
            int n = results_parse_moves(&p->b, col[3], seq);
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

/* ---- tune --table --policy NAME: the table fitted to a teacher's moves ----
 * For every loose-quiet position of the games (from the 9th stone) where the
 * brain named NAME was to move, each candidate move (teacher_candidates) is
 * played and the position after it added as a sample of the table model. The
 * model's probability of a move is the softmax over the candidates of minus
 * that position's value / T (T the temperature that fits the current table
 * best); the fit lowers the cross-entropy of the teacher's moves. Every tenth
 * game is held out. */
typedef struct {
    uint32_t first; /* the first candidate's sample */
    uint16_t n, target;
    bool held;
} PolicyGroup;

typedef struct {
    TableSet *set;
    PolicyGroup *g;
    size_t ng, gcap;
    Pos *p;
    int size;
    Rule rule;
    const char *teacher;
} PolicySink;

/* The legal cells of the engine's candidate area (not a renju black
 * forbidden point), at most 65535; *target the index of `played` among them
 * (-1: not there). */
static int teacher_candidates(Pos *p, Move played, Move *out, int *target) {
    Board *b = &p->b;
    int me = b->side - 1, n = 0;
    *target = -1;
    int nc;
    const Move *cand = board_candidates(b, &nc);
    for (int i = 0; i < nc && n < 65535; i++) {
        Move m = cand[i];
        if (p->c[m].p4[me] == P4_FORBID && rule_is_forbidden(b, m, p->rule))
            continue;
        if (m == played)
            *target = n;
        out[n++] = m;
    }
    return n;
}

static void policy_add_position(void *ctx, Move played, bool held) {
    PolicySink *ps = ctx;
    Pos *p = ps->p;
    TableSet *set = ps->set;
    Move cand[BOARD_MAX_CELLS];
    int target, nc = teacher_candidates(p, played, cand, &target);
    if (target < 0 || nc < 2)
        return;
    if (ps->ng == ps->gcap) {
        size_t cap = ps->gcap ? 2 * ps->gcap : 4096;
        PolicyGroup *ng = realloc(ps->g, cap * sizeof *ng);
        if (!ng)
            return;
        ps->g = ng, ps->gcap = cap;
    }
    size_t first = set->n;
    set->holding = held;
    for (int i = 0; i < nc; i++) {
        pos_play(p, cand[i]);
        table_add_position(set, p, 0);
        pos_undo(p);
    }
    if (set->n - first != (size_t)nc) { /* out of memory: the group is dropped */
        set->n = first;
        return;
    }
    ps->g[ps->ng++] = (PolicyGroup){(uint32_t)first, (uint16_t)nc, (uint16_t)target, held};
}

/* The positions of one game where the brain named `teacher` was to move,
 * from the 9th stone and quiet (`loose` as is_quiet): fn(ctx, the teacher's
 * move, held) with p set up before it; every tenth of the teacher's games
 * (counted in *games) is held out. */
typedef void (*TeacherFn)(void *ctx, Move played, bool held);
static void teacher_positions(Pos *p, int size, Rule rule, char *moves, const char *teacher, int *games,
                              bool loose, TeacherFn fn, void *ctx) {
    bool tb = !strcmp(game_black, teacher), tw = !strcmp(game_white, teacher);
    if (!tb && !tw)
        return;
    bool held = (*games)++ % 10 == 0;
    pos_init(p, size, size, rule);
    Move seq[BOARD_MAX_MOVES];
    int n = results_parse_moves(&p->b, moves, seq);
    for (int k = 0; k < n; k++) {
        if (p->b.cell[seq[k]] != EMPTY)
            return;
        if (k >= 8 && (p->b.side == BLACK ? tb : tw) && is_quiet(p, loose))
            fn(ctx, seq[k], held);
        pos_play(p, seq[k]);
    }
}

static void policy_add_game(void *ctx, char *moves, float black_result) {
    (void)black_result;
    PolicySink *ps = ctx;
    teacher_positions(ps->p, ps->size, ps->rule, moves, ps->teacher, &ps->set->games, true,
                      policy_add_position, ps);
}

/* The teacher's moves' mean cross-entropy under temperature t (part 1 the
 * training games, 2 the held-out ones, 0 all) and, in *top1, the share the
 * model ranks first. With g: adds the cross-entropy's gradient (part 1). */
static double policy_loss(const PolicySink *ps, const double *d, double t, int part, double *top1, double *g) {
    const TableSet *set = ps->set;
    static double v[65536];
    double loss = 0;
    size_t n = 0, first = 0;
    for (size_t i = 0; i < ps->ng; i++) {
        const PolicyGroup *q = &ps->g[i];
        if ((part == 1 && q->held) || (part == 2 && !q->held))
            continue;
        double best = -1e300, z = 0;
        for (int j = 0; j < q->n; j++) {
            v[j] = -table_value(set, &set->s[q->first + j], d) / t;
            best = v[j] > best ? v[j] : best;
        }
        for (int j = 0; j < q->n; j++)
            z += exp(v[j] - best);
        loss += log(z) - (v[q->target] - best), n++;
        first += v[q->target] >= best;
        if (!g)
            continue;
        for (int j = 0; j < q->n; j++) { /* dLoss/dValue = -(p - y) / t */
            double c = -(exp(v[j] - best) / z - (j == q->target)) / t;
            const TableSample *s = &set->s[q->first + j];
            const TableEntry *e = set->e + s->first;
            for (int k = 0; k < s->count; k++)
                g[e[k].idx] += c * e[k].v;
            for (int k = 0; k < 6; k++)
                g[table_dense0 + k] += c * s->dense[k];
        }
    }
    if (top1)
        *top1 = n ? (double)first / (double)n : 0;
    return n ? loss / (double)n : 0;
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

static int tool_tune_table(Rule rule, int size, const char *out_path, bool refine, bool keep_scalars,
                           double l2, double lr, int iterations, double lambda, double scale, double mate,
                           const char *teacher, int nfiles, char **files, const char *cmdline) {
    static Pos p;
    /* the fit starts from eval/weights.c's numbers alone; --refine starts
     * from the built-in corrections and pulls towards them instead of 0 */
    if (!refine)
        weights_without_corrections();
    code_pairs_init();
    TableSet set = {0};
    set.per_colour = rule == RULE_RENJU;
    int repeats = 0, games;
    PolicySink policy = {&set, NULL, 0, 0, &p, size, rule, teacher};
    if (teacher) { /* a teacher's moves */
        games = results_read_games("tune", nfiles, files, true, &repeats, policy_add_game, &policy);
        games = games < 0 ? games : set.games;
    } else if (lambda > 0) { /* judged positions */
        long skipped;
        games = read_judged(&set, &p, size, rule, lambda, scale, mate, nfiles, files, &skipped);
        if (skipped)
            printf("%ld lines skipped (no value, a mate, not quiet or not legal)\n", skipped);
    } else {
        GameSink sink = {&p, size, rule, &set, NULL};
        games = results_read_games("tune", nfiles, files, true, &repeats, table_add_game, &sink);
    }
    if (games < 0)
        return 1;
    if (repeats)
        printf("%d repeated games skipped\n", repeats);
    if (set.n < 500 || (teacher && policy.ng < 100)) {
        fprintf(stderr, "tune: %zu positions from %d games: too few\n", teacher ? policy.ng : set.n, games);
        free(set.s), free(set.e), free(policy.g);
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
    for (int j = 0; j < 6; j++) /* --keep-scalars: the scalar weights stay as built */
        seen[dense0 + j] = !keep_scalars;
    int occurring = 0, masks = 0;
    for (int j = 0; j < pairs0; j++)
        if (seen[j])
            j < ncodes ? occurring++ : masks++;
    double k = 50, best = 1e9, top1 = 0, held_top1 = 0;
    for (double c = teacher ? 5 : 50; c < 5000; c *= 1.05) { /* the scale that fits the current weights */
        double e = teacher ? policy_loss(&policy, d, c, 0, NULL, NULL) : table_error(&set, d, c, 0);
        if (e < best)
            best = e, k = c;
    }
    double start_held = teacher ? policy_loss(&policy, d, k, 2, &top1, NULL) : table_error(&set, d, k, 2);
    double best_held = start_held;
    int best_it = 0;
    if (teacher)
        printf("%zu positions where %s moved (%zu after candidate moves) from %d games, %d codes and %d threat "
               "masks occur; temperature %.0f; cross-entropy %.4f (held out %.4f, teacher's move first in %.1f%%)\n",
               policy.ng, teacher, set.n, games, occurring, masks, k, best, start_held, 100 * top1);
    else
        printf("%zu quiet positions from %d games, %d codes and %d threat masks occur; scale %.0f; error "
               "%.5f (held out %.5f)\n",
               set.n, games, occurring, masks, k, best, start_held);
    held_top1 = top1;
    size_t ntrain = 0;
    for (size_t i = 0; i < set.n; i++)
        ntrain += !set.s[i].held;
    size_t ntrain_groups = 0;
    for (size_t i = 0; i < policy.ng; i++)
        ntrain_groups += !policy.g[i].held;
    for (int it = 1; it <= iterations; it++) {
        memset(g, 0, sizeof(double) * (size_t)np);
        if (teacher) /* the cross-entropy's gradient, scaled like the squared error's */
            policy_loss(&policy, d, k, 1, NULL, g);
        for (size_t i = 0; i < set.n && !teacher; i++) {
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
            double gj = g[j] / (double)(teacher ? ntrain_groups : ntrain) + (j < pairs0 ? 2 * l2 * d[j] : 0);
            m1[j] = 0.9 * m1[j] + 0.1 * gj;
            m2[j] = 0.999 * m2[j] + 0.001 * gj * gj;
            double mh = m1[j] / (1 - pow(0.9, it)), vh = m2[j] / (1 - pow(0.999, it));
            d[j] -= lr * mh / (sqrt(vh) + 1e-8);
        }
        if (it % 25 == 0 || it == iterations) {
            double t1 = 0, h = teacher ? policy_loss(&policy, d, k, 2, &t1, NULL) : table_error(&set, d, k, 2);
            if (h < best_held) {
                best_held = h, best_it = it, held_top1 = t1;
                memcpy(best_d, d, sizeof(double) * (size_t)np);
            }
            if (teacher)
                printf("iteration %d: cross-entropy %.4f (held out %.4f, teacher's move first in %.1f%%)\n", it,
                       policy_loss(&policy, d, k, 1, NULL, NULL), h, 100 * t1);
            else
                printf("iteration %d: error %.5f (held out %.5f)\n", it, table_error(&set, d, k, 1), h);
            fflush(stdout);
        }
    }
    if (refine) { /* the file holds the built-in corrections plus the fit's change */
        /* the fit moved the played values; where a colour's codes are played
         * at a percent of the stored ones, counted from the open-one code
         * (renju black), its code and pair changes are stored at 100 / percent
         * of the fit's, so that play gives the fitted differences between
         * codes; every code of the colour then sits off the fit by the same
         * amount, (100 / percent - 1) times the open-one code's change */
        for (int col = 0; set.per_colour && col < 2; col++) {
            int pct = eval_code_pct(rule, col == 0 ? BLACK : WHITE);
            if (pct == 100)
                continue;
            int one = eval_code_pct_base();
            double d1 = best_d[col * PCODE_COUNT + one];
            for (int q = 0; q < 6; q++)
                d1 += best_d[pairs0 + col * PAIRS + code_pairs[one][q]];
            for (int j = 0; j < PCODE_COUNT; j++)
                best_d[col * PCODE_COUNT + j] *= 100.0 / pct;
            for (int j = 0; j < PAIRS; j++)
                best_d[pairs0 + col * PAIRS + j] *= 100.0 / pct;
            printf("%s's changes stored at 100/%d of the fit's (played at %d%%); its codes sit %+.1f off the fit\n",
                   col == 0 ? "black" : "white", pct, pct, (100.0 / pct - 1) * d1);
        }
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
               " * %zu %s from %d games; %d codes, %d masks occur; %s %.0f; held-out %s\n"
               " * %.5f -> %.5f (iteration %d of %d, L2 %g, step %g); a code's value adds its\n"
               " * six direction pairs' corrections to its own. */\n",
            rule_name(rule), cmdline, teacher ? policy.ng : set.n,
            teacher ? "positions with the teacher's move" : "quiet positions", games, occurring, masks,
            teacher ? "temperature" : "scale", k, teacher ? "cross-entropy" : "error", start_held, best_held,
            best_it, iterations, l2, lr);
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
    printf("held-out %s %.5f -> %.5f at iteration %d; %d corrections written to %s\n",
           teacher ? "cross-entropy" : "error", start_held, best_held, best_it, written, out_path);
    if (teacher)
        printf("held out: the teacher's move ranked first in %.1f%% of positions, was %.1f%%\n", 100 * held_top1,
               100 * top1);
    free(d), free(best_d), free(g), free(m1), free(m2), free(seen), free(set.s), free(set.e), free(policy.g);
    return 0;
}

/* ---- tune --ordering: the move-ordering scores fitted to a teacher's moves ----
 * A quiet move's order score is attack[own code] + defence[opponent's code]
 * at its cell (eval_move_score). For every quiet position of the games (from
 * the 9th stone; the opponent holds no five or open-four point) where the
 * brain named NAME was to move, the candidates are the legal cells of the
 * engine's candidate area; the model's probability of a move is the softmax
 * of its score / T, and the fit lowers the cross-entropy of the teacher's
 * moves, each score's change pulled to 0 by L2. Every tenth game is held
 * out. Writes order-RULE.inc's corrections (kinds 6 and 7). */
typedef struct {
    uint16_t *a, *d; /* per candidate: parameter indices of its attack and defence values */
    uint32_t *first; /* per position: its first candidate; first[n] the end */
    uint16_t *target;
    bool *held;
    size_t n, cap, nc, ccap;
    Pos *p;
    int size, games;
    Rule rule;
    bool per_colour;
    const char *teacher;
} OrderSet;

static bool order_grow(OrderSet *o, size_t need) {
    if (o->nc + need > o->ccap) {
        size_t cap = o->ccap ? o->ccap : 1 << 20;
        while (cap < o->nc + need)
            cap *= 2;
        uint16_t *a = realloc(o->a, cap * sizeof *a);
        if (a)
            o->a = a;
        uint16_t *d = realloc(o->d, cap * sizeof *d);
        if (d)
            o->d = d;
        if (!a || !d)
            return false;
        o->ccap = cap;
    }
    if (o->n + 2 > o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 65536;
        uint32_t *f = realloc(o->first, cap * sizeof *f);
        if (f)
            o->first = f;
        uint16_t *t = realloc(o->target, cap * sizeof *t);
        if (t)
            o->target = t;
        bool *h = realloc(o->held, cap * sizeof *h);
        if (h)
            o->held = h;
        if (!f || !t || !h)
            return false;
        o->cap = cap;
    }
    return true;
}

static void order_add_position(void *ctx, Move played, bool held) {
    OrderSet *o = ctx;
    Pos *p = o->p;
    int me = p->b.side - 1, op = 2 - p->b.side, target;
    Move cand[BOARD_MAX_CELLS];
    int nc = teacher_candidates(p, played, cand, &target);
    if (target < 0 || nc < 2 || !order_grow(o, (size_t)nc))
        return;
    size_t at = o->nc;
    for (int i = 0; i < nc; i++) {
        o->a[o->nc] = (uint16_t)((o->per_colour ? me * PCODE_COUNT : 0) + p->c[cand[i]].pcode[me]);
        o->d[o->nc++] = (uint16_t)((o->per_colour ? op * PCODE_COUNT : 0) + p->c[cand[i]].pcode[op]);
    }
    o->first[o->n] = (uint32_t)at;
    o->target[o->n] = (uint16_t)target;
    o->held[o->n++] = held;
    o->first[o->n] = (uint32_t)o->nc;
}

static void order_add_game(void *ctx, char *moves, float black_result) {
    (void)black_result;
    OrderSet *o = ctx;
    teacher_positions(o->p, o->size, o->rule, moves, o->teacher, &o->games, false, order_add_position, o);
}

/* Mean cross-entropy of the teacher's moves under scores base + d and
 * temperature t (part 1 training, 2 held out, 0 all); *top1 and *top10 the
 * shares ranked first and in the first ten; with g, adds the gradient. */
static double order_loss(const OrderSet *o, const double *base, const double *d, int half, double t, int part,
                         double *top1, double *top10, double *g) {
    static double v[65536];
    double loss = 0;
    size_t n = 0, first = 0, ten = 0;
    for (size_t i = 0; i < o->n; i++) {
        if ((part == 1 && o->held[i]) || (part == 2 && !o->held[i]))
            continue;
        size_t f = o->first[i];
        int nc = (int)(o->first[i + 1] - f), above = 0;
        double best = -1e300, z = 0;
        for (int j = 0; j < nc; j++) {
            int a = o->a[f + j], dd = half + o->d[f + j];
            v[j] = (base[a] + d[a] + base[dd] + d[dd]) / t;
            best = v[j] > best ? v[j] : best;
        }
        for (int j = 0; j < nc; j++) {
            z += exp(v[j] - best);
            above += v[j] > v[o->target[i]];
        }
        loss += log(z) - (v[o->target[i]] - best), n++;
        first += above == 0, ten += above < 10;
        if (!g)
            continue;
        for (int j = 0; j < nc; j++) { /* dLoss/dScore = (p - y) / t */
            double c = (exp(v[j] - best) / z - (j == o->target[i])) / t;
            g[o->a[f + j]] += c;
            g[half + o->d[f + j]] += c;
        }
    }
    if (top1)
        *top1 = n ? (double)first / (double)n : 0, *top10 = n ? (double)ten / (double)n : 0;
    return n ? loss / (double)n : 0;
}

static int tool_tune_ordering(Rule rule, int size, const char *out_path, const char *teacher, double l2, double lr,
                              int iterations, int nfiles, char **files, const char *cmdline) {
    static Pos p;
    OrderSet o = {0};
    o.p = &p, o.size = size, o.rule = rule, o.teacher = teacher;
    o.per_colour = rule == RULE_RENJU;
    int repeats = 0;
    if (results_read_games("tune", nfiles, files, true, &repeats, order_add_game, &o) < 0)
        return 1;
    if (o.n < 100) {
        fprintf(stderr, "tune: %zu positions where %s moved: too few\n", o.n, teacher);
        free(o.a), free(o.d), free(o.first), free(o.target), free(o.held);
        return 1;
    }
    /* parameters: attack values of (colour,) code, then defence values */
    int half = (o.per_colour ? 2 : 1) * PCODE_COUNT, np = 2 * half;
    double *base = calloc((size_t)np, sizeof *base), *d = calloc((size_t)np, sizeof *d),
           *best_d = calloc((size_t)np, sizeof *d), *g = calloc((size_t)np, sizeof *g),
           *m1 = calloc((size_t)np, sizeof *g), *m2 = calloc((size_t)np, sizeof *g);
    long *seen = calloc((size_t)np, sizeof *seen);
    if (!base || !d || !best_d || !g || !m1 || !m2 || !seen) {
        fprintf(stderr, "tune: out of memory\n");
        return 1;
    }
    for (int c = 0; c < (o.per_colour ? 2 : 1); c++)
        for (int pc = 0; pc < PCODE_COUNT; pc++) {
            int t = pattern_table(rule, c + 1);
            base[c * PCODE_COUNT + pc] = pcode_order[0][t][pc];
            base[half + c * PCODE_COUNT + pc] = pcode_order[1][t][pc];
        }
    for (size_t i = 0; i < o.nc; i++)
        seen[o.a[i]]++, seen[half + o.d[i]]++;
    double t = 1, best = 1e300, top1, top10, h1, h10;
    for (double c = 1; c < 2000; c *= 1.05) { /* the temperature that fits the current scores */
        double e = order_loss(&o, base, d, half, c, 0, NULL, NULL, NULL);
        if (e < best)
            best = e, t = c;
    }
    double start_held = order_loss(&o, base, d, half, t, 2, &top1, &top10, NULL), best_held = start_held;
    h1 = top1, h10 = top10;
    int best_it = 0;
    size_t ntrain = 0;
    for (size_t i = 0; i < o.n; i++)
        ntrain += !o.held[i];
    printf("%zu quiet positions where %s moved, %zu candidates; temperature %.1f; cross-entropy %.4f (held out "
           "%.4f: the teacher's move first in %.1f%%, in the first ten in %.1f%%)\n",
           o.n, teacher, o.nc, t, best, start_held, 100 * top1, 100 * top10);
    for (int it = 1; it <= iterations; it++) {
        memset(g, 0, sizeof(double) * (size_t)np);
        order_loss(&o, base, d, half, t, 1, NULL, NULL, g);
        for (int j = 0; j < np; j++) {
            if (!seen[j])
                continue;
            double gj = g[j] / (double)ntrain + 2 * l2 * d[j];
            m1[j] = 0.9 * m1[j] + 0.1 * gj;
            m2[j] = 0.999 * m2[j] + 0.001 * gj * gj;
            double mh = m1[j] / (1 - pow(0.9, it)), vh = m2[j] / (1 - pow(0.999, it));
            d[j] -= lr * mh / (sqrt(vh) + 1e-8);
            /* the score stays an int16 and a code never worse than nothing */
            d[j] = base[j] + d[j] > 30000 ? 30000 - base[j] : base[j] + d[j] < 0 ? -base[j] : d[j];
        }
        if (it % 25 == 0 || it == iterations) {
            double a1, a10, hl = order_loss(&o, base, d, half, t, 2, &a1, &a10, NULL);
            if (hl < best_held) {
                best_held = hl, best_it = it, h1 = a1, h10 = a10;
                memcpy(best_d, d, sizeof(double) * (size_t)np);
            }
            printf("iteration %d: cross-entropy %.4f (held out %.4f: first %.1f%%, in the first ten %.1f%%)\n", it,
                   order_loss(&o, base, d, half, t, 1, NULL, NULL, NULL), hl, 100 * a1, 100 * a10);
            fflush(stdout);
        }
    }
    FILE *f = fopen(out_path, "w");
    if (!f) {
        fprintf(stderr, "tune: cannot write %s\n", out_path);
        return 1;
    }
    fprintf(f, "/* Move-ordering corrections for %s (eval/weights.c): {kind, index, value}; kind 6\n"
               " * a code's attack value (the mover's code at the cell), 7 its defence value (the\n"
               " * opponent's); index colour * %d + code (colour 0: both, 1 black, 2 white).\n"
               " * Made by: %s\n"
               " * %zu quiet positions where %s moved (%d games); temperature %.1f; held-out cross-entropy\n"
               " * %.4f -> %.4f (iteration %d of %d, L2 %g, step %g); the teacher's move ranked first\n"
               " * %.1f%% -> %.1f%%, in the first ten %.1f%% -> %.1f%%. */\n",
            rule_name(rule), PCODE_COUNT, cmdline, o.n, teacher, o.games, t, start_held, best_held, best_it,
            iterations, l2, lr, 100 * top1, 100 * h1, 100 * top10, 100 * h10);
    int written = 0;
    for (int j = 0; j < np; j++) {
        long r = lround(best_d[j]);
        int k = j < half ? 6 : 7, i = j % half;
        if (r)
            fprintf(f, "{%d, %d, %ld},\n", k, o.per_colour ? (1 + i / PCODE_COUNT) * PCODE_COUNT + i % PCODE_COUNT : i,
                    r),
                written++;
    }
    bool bad = fclose(f) != 0;
    printf("held-out cross-entropy %.4f -> %.4f at iteration %d; the teacher's move first %.1f%% -> %.1f%%, in the "
           "first ten %.1f%% -> %.1f%%; %d corrections written to %s\n",
           start_held, best_held, best_it, 100 * top1, 100 * h1, 100 * top10, 100 * h10, written, out_path);
    free(base), free(d), free(best_d), free(g), free(m1), free(m2), free(seen);
    free(o.a), free(o.d), free(o.first), free(o.target), free(o.held);
    return bad;
}

/* The command line for a written file's head: "pbrain-quinto tune" and the
 * arguments, the files from argv[files] on without their folders. */
static void tune_cmdline(int argc, char **argv, int files, char *cmd, size_t cap) {
    int n = snprintf(cmd, cap, "pbrain-quinto tune");
    for (int i = 0; i < argc && n < (int)cap - 1; i++) {
        const char *base = strrchr(argv[i], '/');
        n += snprintf(cmd + n, cap - (size_t)n, " %s", i >= files && base ? base + 1 : argv[i]);
    }
}

int tool_tune(int argc, char **argv) {
    Rule rule;
    int size = argc > 1 ? atoi(argv[1]) : 0;
    int iterations = 3000;
    if (argc < 3 || !rule_parse(argv[0], &rule) || size < BOARD_MIN_SIZE || size > BOARD_MAX_SIZE) {
        fprintf(stderr, "tune: RULE SIZE RESULTS.tsv... (quinto-manager -results files)\n");
        return 2;
    }
    if (!strcmp(argv[2], "--table") || !strcmp(argv[2], "--ordering")) {
        /* RULE SIZE --table OUT [options] FILES, RULE SIZE --ordering OUT --policy NAME [options] FILES */
        bool ordering = !strcmp(argv[2], "--ordering");
        const char *out = argc > 3 ? argv[3] : NULL, *teacher = NULL;
        double l2 = ordering ? 1e-4 : 1e-7, lr = ordering ? 1 : 0.5, lambda = 0, scale = 200, mate = 0;
        int its = ordering ? 300 : 600, a = 4;
        bool refine = false, keep_scalars = false, table_only = false;
        for (; a + 1 < argc; a += 2)
            if (!strcmp(argv[a], "--refine"))
                refine = table_only = true, a--; /* a flag: no value */
            else if (!strcmp(argv[a], "--keep-scalars"))
                keep_scalars = table_only = true, a--;
            else if (!strcmp(argv[a], "--l2"))
                l2 = atof(argv[a + 1]);
            else if (!strcmp(argv[a], "--policy"))
                teacher = argv[a + 1];
            else if (!strcmp(argv[a], "--judged"))
                lambda = atof(argv[a + 1]), table_only = true;
            else if (!strcmp(argv[a], "--scale"))
                scale = atof(argv[a + 1]), table_only = true;
            else if (!strcmp(argv[a], "--mate"))
                mate = atof(argv[a + 1]), table_only = true;
            else if (!strcmp(argv[a], "--lr"))
                lr = atof(argv[a + 1]);
            else if (!strcmp(argv[a], "--iterations"))
                its = atoi(argv[a + 1]);
            else
                break;
        if (!out || a >= argc || its < 1 || lr <= 0 || l2 < 0 || lambda < 0 || lambda > 1 || scale <= 0 ||
            mate < 0 || (ordering && (!teacher || table_only))) {
            fprintf(stderr, "tune: RULE SIZE --table OUT.inc [--refine] [--keep-scalars] [--l2 X] [--lr X] [--iterations N] RESULTS.tsv...\n"
                            "      RULE SIZE --table OUT.inc [...] --judged LAMBDA [--scale S] [--mate V] JUDGED.tsv...\n"
                            "      RULE SIZE --table OUT.inc [...] --policy NAME RESULTS.tsv... (NAME's moves)\n"
                            "      RULE SIZE --ordering OUT.inc --policy NAME [--l2 X] [--lr X] [--iterations N] "
                            "RESULTS.tsv...\n");
            return 2;
        }
        char cmd[1024];
        tune_cmdline(argc, argv, a, cmd, sizeof cmd);
        if (ordering) {
            weights_init(rule);
            return tool_tune_ordering(rule, size, out, teacher, l2, lr, its, argc - a, argv + a, cmd);
        }
        return tool_tune_table(rule, size, out, refine, keep_scalars, l2, lr, its, lambda, scale, mate, teacher,
                               argc - a, argv + a, cmd);
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
        int games = results_read_games("tune", argc - 4, argv + 4, true, &repeats, dump_game, &sink);
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
    int games = results_read_games("tune", argc - 2, argv + 2, false, &repeats, sink_game, &sink);
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

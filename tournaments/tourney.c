/* tournaments/tourney.c */
#include "tourney.h"

#include <errno.h>
#include <signal.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../brain/util.h"
#include "../protocol/codec.h"
#include "process.h"
#include "records.h"

typedef struct {
    int a, b;          /* engine indices: a plays black when k is even */
    int k;             /* game number within the pair and round */
    int opening;       /* index into the openings */
    int number;        /* game number overall, from 1 */
    int pair;          /* the two games of one opening, colours swapped (-1: unpaired) */
} Task;

typedef struct {
    int games;     /* of the pair finished */
    double points; /* a's points in them */
} PairHalf;

typedef struct {
    int games, moves;
    double points;
    int64_t time_ms, max_ms;
    int losses[16];   /* by EndReason, as the loser */
    long peak_kib, uss_kib;
} EngineStats;

typedef struct {
    TourneyConfig *cfg;
    Task *tasks;
    int task_count, next, done;
    bool stop;
    PairStats *pairs; /* engine_count x engine_count */
    PairHalf *halves; /* per game pair */
    bool paired;      /* every game has its colour-swapped twin: pentanomial SPRT */
    EngineStats eng[MAX_ENGINES];
    pthread_mutex_t lock;
    FILE *results;
    int64_t t0;
    SprtResult sprt_state;  /* the decision, kept once made */
    double llr, llr_decided;
    int decided_after;      /* games when the test decided */
    int unplayed;           /* games a brain failed to start */
    int write_errors;       /* records that could not be written */
    int dropped;            /* games under way when the run was interrupted */
} Run;

static Record empty_opening;

/* Run fn(arg) on n threads (1..64) and wait for them all; on this thread if
 * none can be started. */
/* Ctrl-C (SIGINT) or SIGTERM during a run: the brains are killed at once
 * (they have process groups of their own: the terminal's signal does not
 * reach them), the games under way are dropped, the finished ones are kept
 * (their records were written as each ended) and the report is printed.
 * A second signal ends the manager at once. */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig) {
    interrupted = sig;
    children_kill_all();
    signal(sig, SIG_DFL);
}

static void run_workers(void *(*fn)(void *), void *arg, int n) {
    pthread_t th[64];
    int started = 0;
    if (n < 1)
        n = 1;
    interrupted = 0;
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    for (int i = 0; i < n && i < 64; i++)
        if (pthread_create(&th[i], NULL, fn, arg) == 0)
            started++;
    if (!started)
        fn(arg);
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    if (!interrupted) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
    }
}

static void progress(Run *r) {
    TourneyConfig *cfg = r->cfg;
    PairStats *p = &r->pairs[0 * cfg->engine_count + 1];
    int n = p->w + p->l + p->d;
    EloEstimate e = elo_estimate(p->w, p->l, p->d);
    char elo[64] = "";
    if (n && cfg->engine_count == 2) {
        if (isinf(e.margin))
            snprintf(elo, sizeof elo, "  Elo %+.0f", elo_shown(e.elo, 0));
        else
            snprintf(elo, sizeof elo, "  Elo %+.0f +/- %.0f", elo_shown(e.elo, 0), e.margin);
    }
    if (cfg->engine_count == 2)
        fprintf(cfg->out, "%sgames %d/%d  %s %d-%d-%d %s  score %.1f%%%s", cfg->live ? "\r" : "",
                r->done, r->task_count, cfg->engines[0].name, p->w, p->l, p->d, cfg->engines[1].name,
                n ? 100.0 * (p->w + 0.5 * p->d) / n : 0.0, elo);
    else
        fprintf(cfg->out, "%sgames %d/%d", cfg->live ? "\r" : "", r->done, r->task_count);
    if (cfg->sprt_on)
        fprintf(cfg->out, "  LLR %.2f", r->llr);
    fprintf(cfg->out, cfg->live ? "   " : "\n");
    fflush(cfg->out);
}

/* A record that could not be written: said on stderr, counted (exit 1). */
static void write_error(Run *r, int game, const char *path) {
    fprintf(stderr, "quinto-manager: game %d: cannot write %s: %s\n", game, path, strerror(errno));
    r->write_errors++;
}

static void game_done(Run *r, const Task *t, int black, int white, GameResult *res) {
    TourneyConfig *cfg = r->cfg;
    if (res->swapped) { /* swap2: the colours were chosen the other way round */
        int tmp = black;
        black = white;
        white = tmp;
    }
    const char *bn = cfg->engines[black].name, *wn = cfg->engines[white].name;
    r->done++;
    if (res->reason == END_START) {
        /* not a game: no score for anyone, and said so */
        r->unplayed++;
        const char *who = res->winner == WHITE ? bn : wn;
        fprintf(cfg->out, "%sgame %d: not played: %s failed to start: %s\n", cfg->live ? "\n" : "",
                t->number, who, res->detail);
        if (r->results)
            record_results_line(r->results, t->number, t->opening + 1, bn, wn, res);
        return;
    }
    /* pair statistics from a's view */
    PairStats *p = &r->pairs[t->a * cfg->engine_count + t->b];
    int a_colour = black == t->a ? BLACK : WHITE;
    double a_points = res->winner == 0 ? 0.5 : res->winner == a_colour ? 1 : 0;
    pair_stats_game(p, a_colour == BLACK, a_points);
    if (t->pair >= 0) {
        PairHalf *h = &r->halves[t->pair];
        h->points += a_points;
        if (++h->games == 2)
            p->penta[(int)(h->points * 2 + 0.5)]++;
    }
    int idx[3] = {0, black, white};
    for (int c = BLACK; c <= WHITE; c++) {
        EngineStats *e = &r->eng[idx[c]];
        e->games++;
        e->moves += res->replies[c];
        e->time_ms += res->time_ms[c];
        if (res->max_ms[c] > e->max_ms)
            e->max_ms = res->max_ms[c];
        if (res->peak_kib[c] > e->peak_kib)
            e->peak_kib = res->peak_kib[c];
        if (res->uss_kib[c] > e->uss_kib)
            e->uss_kib = res->uss_kib[c];
        e->points += res->winner == 0 ? 0.5 : res->winner == c ? 1 : 0;
        if (res->winner && res->winner != c)
            e->losses[res->reason]++;
    }
    if (r->results)
        record_results_line(r->results, t->number, t->opening + 1, bn, wn, res);
    char path[1400];
    if (r->results && (fflush(r->results) != 0 || ferror(r->results))) {
        write_error(r, t->number, cfg->results_path);
        clearerr(r->results);
    }
    if (cfg->psq_dir) {
        snprintf(path, sizeof path, "%s/game%04d.psq", cfg->psq_dir, t->number);
        if (!record_write_psq(path, &cfg->game, bn, wn, res))
            write_error(r, t->number, path);
    }
    if (cfg->sgf_dir) {
        snprintf(path, sizeof path, "%s/game%04d.sgf", cfg->sgf_dir, t->number);
        if (!record_write_sgf(path, &cfg->game, bn, wn, res))
            write_error(r, t->number, path);
    }
    if (!cfg->live) {
        char detail[sizeof res->detail + 32]; /* moves as the board names them: g5 */
        codec_cell_names(res->detail, cfg->game.height, detail, sizeof detail);
        fprintf(cfg->out, "game %d: %s vs %s: %s {%s%s%s}%s%s%s\n", t->number, bn, wn,
                record_result_text(res), end_reason_name(res->reason), detail[0] ? " " : "", detail,
                res->swap2_log[0] ? " [swap2: " : "", res->swap2_log, res->swap2_log[0] ? "]" : "");
    }
    if (cfg->sprt_on && cfg->engine_count == 2) {
        PairStats *q = &r->pairs[1];
        /* games already under way finish after the decision and may move
         * the ratio back inside the bounds: the decision stands */
        r->llr = r->paired ? sprt_llr_penta(q->penta, &cfg->sprt) : sprt_llr(q->w, q->l, q->d, &cfg->sprt);
        SprtResult st = sprt_decision(r->llr, &cfg->sprt);
        if (r->sprt_state == SPRT_CONTINUE && st != SPRT_CONTINUE) {
            r->sprt_state = st;
            r->llr_decided = r->llr;
            r->decided_after = q->w + q->l + q->d;
            r->stop = true;
        }
    }
    progress(r);
}

static void *worker(void *arg) {
    Run *r = arg;
    TourneyConfig *cfg = r->cfg;
    BrainSlot *slots = cfg->reuse ? calloc((size_t)cfg->engine_count, sizeof *slots) : NULL;
    for (;;) {
        pthread_mutex_lock(&r->lock);
        if (r->stop || interrupted || r->next >= r->task_count) {
            pthread_mutex_unlock(&r->lock);
            break;
        }
        Task t = r->tasks[r->next++];
        pthread_mutex_unlock(&r->lock);
        int black = t.k % 2 == 0 ? t.a : t.b, white = black == t.a ? t.b : t.a;
        const Record *op = cfg->have_openings ? &cfg->openings.list[t.opening] : &empty_opening;
        GameResult res;
        game_play(&cfg->game, &cfg->engines[black], &cfg->engines[white], op,
                  slots ? &slots[black] : NULL, slots ? &slots[white] : NULL, &res);
        if (interrupted) { /* its brains were killed: not a result */
            pthread_mutex_lock(&r->lock);
            r->dropped++;
            pthread_mutex_unlock(&r->lock);
            game_result_free(&res);
            break;
        }
        pthread_mutex_lock(&r->lock);
        game_done(r, &t, black, white, &res);
        pthread_mutex_unlock(&r->lock);
        game_result_free(&res);
    }
    if (slots) {
        for (int i = 0; i < cfg->engine_count; i++)
            brain_slot_close(&slots[i]);
        free(slots);
    }
    return NULL;
}

static void report(Run *r) {
    TourneyConfig *cfg = r->cfg;
    FILE *o = cfg->out;
    int n = cfg->engine_count;
    if (cfg->live)
        fprintf(o, "\n");
    fprintf(o, "\n%s %dx%d, %lld ms a move, %lld ms a game, %d game%s in %.1f s\n",
            rule_name(cfg->game.rule), cfg->game.width, cfg->game.height,
            (long long)cfg->game.turn_ms, (long long)cfg->game.match_ms, r->done, r->done == 1 ? "" : "s",
            (double)(now_ms() - r->t0) / 1000.0);
    /* rating table: each engine's performance against the field */
    if (n > 2) {
        fprintf(o, "\nRank  %-20s %6s %6s %6s %7s\n", "Name", "Elo", "+/-", "Games", "Score");
        int order[MAX_ENGINES];
        for (int i = 0; i < n; i++)
            order[i] = i;
        for (int i = 1; i < n; i++)
            for (int j = i; j > 0 && r->eng[order[j]].points / (r->eng[order[j]].games + 1e-9) >
                                        r->eng[order[j - 1]].points / (r->eng[order[j - 1]].games + 1e-9);
                 j--) {
                int t = order[j];
                order[j] = order[j - 1];
                order[j - 1] = t;
            }
        for (int k = 0; k < n; k++) {
            int i = order[k], w = 0, l = 0, d = 0;
            for (int j = 0; j < n; j++) {
                PairStats *p = &r->pairs[i * n + j], *q = &r->pairs[j * n + i];
                w += p->w + q->l, l += p->l + q->w, d += p->d + q->d;
            }
            EloEstimate e = elo_estimate(w, l, d);
            char margin[16];
            if (isinf(e.margin))
                snprintf(margin, sizeof margin, "inf");
            else
                snprintf(margin, sizeof margin, "%.0f", e.margin);
            fprintf(o, "%4d  %-20s %+6.0f %6s %6d %6.1f%%\n", k + 1, cfg->engines[i].name, e.elo,
                    margin, w + l + d, 100 * e.score);
        }
    }
    fprintf(o, "\n");
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            PairStats *p = &r->pairs[i * n + j];
            int g = p->w + p->l + p->d;
            if (!g)
                continue;
            pair_stats_print(o, cfg->engines[i].name, cfg->engines[j].name, p);
        }
    fprintf(o, "\n%-20s %6s %7s %7s %6s %6s %6s %6s %6s %6s %8s %8s\n", "Engine", "moves", "avg ms",
            "max ms", "time", "crash", "illeg", "forbid", "error", "badrep", "rss MiB", "uss MiB");
    for (int i = 0; i < n; i++) {
        EngineStats *e = &r->eng[i];
        char uss[32] = "-"; /* measured under -memory only */
        if (cfg->game.max_memory)
            snprintf(uss, sizeof uss, "%.1f", e->uss_kib / 1024.0);
        fprintf(o, "%-20s %6d %7.0f %7lld %6d %6d %6d %6d %6d %6d %8.1f %8s\n", cfg->engines[i].name,
                e->moves, e->moves ? (double)e->time_ms / e->moves : 0.0, (long long)e->max_ms,
                e->losses[END_TIME], e->losses[END_CRASH] + e->losses[END_START],
                e->losses[END_ILLEGAL], e->losses[END_FORBIDDEN], e->losses[END_ERROR],
                e->losses[END_BAD_REPLY] + e->losses[END_MEMORY], e->peak_kib / 1024.0, uss);
    }
    if (r->unplayed)
        fprintf(o, "\n%d game%s not played: a brain failed to start (not scored)\n", r->unplayed,
                r->unplayed == 1 ? "" : "s");
    if (r->write_errors)
        fprintf(o, "\n%d record%s could not be written\n", r->write_errors, r->write_errors == 1 ? "" : "s");
    if (interrupted)
        fprintf(o, "\ninterrupted (%s): %d game%s finished and kept, %d under way dropped, %d not started\n",
                interrupted == SIGINT ? "Ctrl-C" : "SIGTERM", r->done, r->done == 1 ? "" : "s",
                r->dropped, r->task_count - r->done - r->dropped);
    if (cfg->sprt_on) {
        double lo, hi;
        sprt_bounds(&cfg->sprt, &lo, &hi);
        fprintf(o, "\nSPRT elo0 %.1f elo1 %.1f alpha %.3f beta %.3f: LLR %.3f [%.3f, %.3f] %s",
                cfg->sprt.elo0, cfg->sprt.elo1, cfg->sprt.alpha, cfg->sprt.beta, r->llr, lo, hi,
                r->sprt_state == SPRT_ACCEPT_H1   ? "H1 accepted"
                : r->sprt_state == SPRT_ACCEPT_H0 ? "H0 accepted"
                                                  : "no decision");
        if (r->sprt_state != SPRT_CONTINUE)
            fprintf(o, " after %d games (LLR %.3f then)", r->decided_after, r->llr_decided);
        fputc('\n', o);
    }
    fflush(o);
}

int tourney_run(TourneyConfig *cfg) {
    int n = cfg->engine_count;
    if (n < 2)
        return 1;
    Run r;
    memset(&r, 0, sizeof r);
    r.cfg = cfg;
    pthread_mutex_init(&r.lock, NULL);
    r.pairs = calloc((size_t)(n * n), sizeof *r.pairs);
    int nop = cfg->have_openings ? cfg->openings.count : 1;
    if (cfg->have_openings && cfg->random_order)
        openings_shuffle(&cfg->openings, cfg->seed);
    int per_pair = cfg->games > 0 ? cfg->games : 2 * nop;
    int rounds = cfg->rounds > 0 ? cfg->rounds : 1;
    int pairs = cfg->mode == MODE_GAUNTLET ? n - 1 : n * (n - 1) / 2;
    r.task_count = pairs * per_pair * rounds;
    r.halves = calloc((size_t)(rounds * ((per_pair + 1) / 2) * n * n), sizeof *r.halves);
    r.paired = per_pair % 2 == 0;
    r.tasks = calloc((size_t)r.task_count, sizeof *r.tasks);
    int t = 0;
    for (int round = 0; round < rounds; round++)
        for (int k = 0; k < per_pair; k++)
            for (int a = 0; a < n; a++)
                for (int b = a + 1; b < n; b++) {
                    if (cfg->mode == MODE_GAUNTLET && a != 0)
                        continue;
                    Task *x = &r.tasks[t++];
                    x->a = a;
                    x->b = b;
                    x->k = k;
                    x->opening = (round * ((per_pair + 1) / 2) + k / 2) % nop;
                    x->number = t;
                    /* games k and k+1 (k even) of a round share an opening */
                    x->pair = k % 2 == 0 && k + 1 == per_pair
                                  ? -1
                                  : ((round * ((per_pair + 1) / 2) + k / 2) * n + a) * n + b;
                }
    /* the folders were made and the paths checked before (main.c's preflight) */
    if (cfg->results_path) {
        r.results = fopen(cfg->results_path, "w");
        if (!r.results) {
            fprintf(stderr, "quinto-manager: cannot write -results %s: %s\n", cfg->results_path,
                    strerror(errno));
            free(r.tasks), free(r.pairs), free(r.halves);
            return 2;
        }
        record_results_header(r.results);
    }
    if ((cfg->psq_dir && !make_dirs(cfg->psq_dir)) || (cfg->sgf_dir && !make_dirs(cfg->sgf_dir))) {
        fprintf(stderr, "quinto-manager: cannot make the records folder: %s\n", strerror(errno));
        if (r.results)
            fclose(r.results);
        free(r.tasks), free(r.pairs), free(r.halves);
        return 2;
    }
    r.t0 = now_ms();
    run_workers(worker, &r, cfg->concurrency);
    report(&r);
    if (r.results)
        fclose(r.results);
    free(r.tasks);
    free(r.pairs);
    free(r.halves);
    if (interrupted)
        return 128 + interrupted;
    return r.done && !r.unplayed && !r.write_errors ? 0 : 1;
}

/* ---- puzzles ---- */

typedef struct {
    int index;          /* in the file, from 1 */
    char text[400];     /* why, and the moves played */
} PuzzleFailure;

typedef struct {
    PuzzleConfig *cfg;
    Record *recs;
    int count, next, done, solved, defender_failed;
    int64_t time_ms;
    pthread_mutex_t lock;
    FILE *results;
    PuzzleFailure *failed; /* count entries at most */
    int nfailed;
} PuzzleRun;

static void *puzzle_worker(void *arg) {
    PuzzleRun *pr = arg;
    PuzzleConfig *cfg = pr->cfg;
    for (;;) {
        pthread_mutex_lock(&pr->lock);
        if (pr->next >= pr->count || interrupted) {
            pthread_mutex_unlock(&pr->lock);
            break;
        }
        int i = pr->next++;
        pthread_mutex_unlock(&pr->lock);
        const Record *rec = &pr->recs[i];
        int solver = rec->count % 2 == 0 ? BLACK : WHITE;
        GameConfig g = {0};
        g.rule = rec->rule;
        g.width = rec->width;
        g.height = rec->height;
        g.tolerance_ms = cfg->tolerance_ms;
        g.start_timeout_ms = 30000;
        g.no_renju_limit = true; /* a problem is solved by its five, however late */
        int stones = 0;
        for (int k = 0; k < rec->count; k++)
            stones += rec->x[k] >= 0;
        g.move_cap = stones + 2 * cfg->move_cap;
        EngineSpec s = cfg->solver, d = cfg->defender;
        s.turn_ms = cfg->solver_turn_ms;
        d.turn_ms = cfg->defender_turn_ms;
        s.match_ms = d.match_ms = 0;
        GameResult res;
        int64_t t0 = now_ms();
        game_play(&g, solver == BLACK ? &s : &d, solver == BLACK ? &d : &s, rec, NULL, NULL, &res);
        if (interrupted) { /* its brains were killed: not a result */
            game_result_free(&res);
            break;
        }
        int64_t spent = now_ms() - t0;
        bool ok = res.winner == solver && res.reason == END_FIVE;
        bool dfail = res.winner == solver && !ok;
        pthread_mutex_lock(&pr->lock);
        pr->done++;
        pr->solved += ok;
        pr->defender_failed += dfail;
        pr->time_ms += spent;
        if (pr->results)
            fprintf(pr->results, "%d\t%s\t%s\t%s\t%s\t%d\t%lld\t%s\n", cfg->first + i + 1,
                    ok ? "solved" : "failed", solver == BLACK ? "black" : "white",
                    end_reason_name(res.reason), res.detail[0] ? res.detail : "-",
                    res.moves->count - res.opening_stones, (long long)spent, rec->source);
        if (pr->results)
            fflush(pr->results);
        if (!ok && pr->failed) {
            PuzzleFailure *f = &pr->failed[pr->nfailed++];
            f->index = cfg->first + i + 1;
            int k = snprintf(f->text, sizeof f->text, "%s%s%s; played", end_reason_name(res.reason),
                             res.detail[0] ? " " : "", res.detail);
            for (int m = res.opening_stones; m < res.moves->count && k < (int)sizeof f->text - 12; m++)
                k += snprintf(f->text + k, sizeof f->text - (size_t)k, " %d,%d", res.moves->x[m],
                              res.moves->y[m]);
        }
        fprintf(cfg->out, "%spuzzles %d/%d  solved %d (%.1f%%)%s", cfg->live ? "\r" : "", pr->done,
                pr->count, pr->solved, 100.0 * pr->solved / pr->done, cfg->live ? "   " : "\n");
        fflush(cfg->out);
        pthread_mutex_unlock(&pr->lock);
        game_result_free(&res);
    }
    return NULL;
}

int puzzles_run(PuzzleConfig *cfg) {
    Openings all;
    char err[512];
    if (!openings_load(&all, cfg->file, 15, 15, RULE_FREESTYLE, err, sizeof err)) {
        fprintf(stderr, "puzzles: %s\n", err);
        return 1;
    }
    PuzzleRun pr;
    memset(&pr, 0, sizeof pr);
    pr.cfg = cfg;
    int first = cfg->first < all.count ? cfg->first : all.count;
    int count = all.count - first;
    if (cfg->limit > 0 && cfg->limit < count)
        count = cfg->limit;
    pr.recs = all.list + first;
    pr.count = count;
    pthread_mutex_init(&pr.lock, NULL);
    if (cfg->results_path)
        pr.results = fopen(cfg->results_path, "w");
    pr.failed = calloc((size_t)(count > 0 ? count : 1), sizeof *pr.failed);
    int64_t t0 = now_ms();
    run_workers(puzzle_worker, &pr, cfg->concurrency);
    if (cfg->live)
        fprintf(cfg->out, "\n");
    /* the failures, in file order, with the line each game took */
    for (int a = 1; a < pr.nfailed; a++)
        for (int b = a; b > 0 && pr.failed[b].index < pr.failed[b - 1].index; b--) {
            PuzzleFailure t = pr.failed[b];
            pr.failed[b] = pr.failed[b - 1];
            pr.failed[b - 1] = t;
        }
    enum { LIST_MAX = 40 };
    if (pr.nfailed)
        fprintf(cfg->out, "\nnot solved (line in the file: how the game ended; the moves played):\n");
    for (int a = 0; a < pr.nfailed && a < LIST_MAX; a++)
        fprintf(cfg->out, "  %d: %s\n", pr.failed[a].index, pr.failed[a].text);
    if (pr.nfailed > LIST_MAX)
        fprintf(cfg->out, "  ... and %d more (-results FILE lists every puzzle)\n", pr.nfailed - LIST_MAX);
    double each = pr.done ? (double)pr.time_ms / pr.done / 1000.0 : 0.0;
    double all_s = (double)(now_ms() - t0) / 1000.0;
    fprintf(cfg->out,
            "\n%s: %d of %d solved (%.1f%%) within %d moves, %lld ms a move against %lld ms; "
            "%d won otherwise (defender failed); %.*f s a puzzle, %.*f s in all\n",
            cfg->file, pr.solved, pr.done, pr.done ? 100.0 * pr.solved / pr.done : 0.0,
            cfg->move_cap, (long long)cfg->solver_turn_ms, (long long)cfg->defender_turn_ms,
            pr.defender_failed, each < 10 ? 2 : 1, each, all_s < 10 ? 2 : 1, all_s);
    if (interrupted)
        fprintf(cfg->out, "interrupted: %d of %d puzzles played\n", pr.done, pr.count);
    if (pr.results)
        fclose(pr.results);
    free(pr.failed);
    openings_free(&all);
    if (interrupted)
        return 128 + interrupted;
    return pr.done ? 0 : 1;
}

/* eval/position.c — incremental patterns, classes, counts and windows. */
#include "position.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "weights.h"

#ifdef QUINTO_PARANOID
#define ASSERT_POS(p) assert(pos_is_consistent(p))
#else
#define ASSERT_POS(p) ((void)0)
#endif

/* A window that runs off the board holds this: both counts stay non-zero
 * under any updates, so its value is always 0 and no update needs a check. */
enum { WINDOW_OFF = 0x66 };



/* Contribution of an empty cell to the counts and the value: add (+1) or
 * remove (-1). */
static inline void cell_account(Pos *p, int m, int sign) {
    p->p4count[0][p->c[m].p4[0]] += sign;
    p->p4count[1][p->c[m].p4[1]] += sign;
    p->pvalue += sign * (pcode_eval[p->table[0]][p->c[m].pcode[0]] -
                         pcode_eval[p->table[1]][p->c[m].pcode[1]]);
}

/* Both colours' patterns of empty cell m along d, from its line key. */
static inline uint8_t line_patterns(const Pos *p, int m, int d) {
    uint32_t key = p->c[m].key[d];
    unsigned pb = pattern_fast(p->table[0], BLACK, key);
    unsigned pw = pattern_fast(p->table[1], WHITE, key);
    return (uint8_t)(pb | pw << 4);
}

/* Pattern codes and threat classes of cell m from its four patterns. */
static inline void cell_derive(Pos *p, int m) {
    const uint8_t *q = p->c[m].pat;
    int cb = pattern_code(q[0] & 15, q[1] & 15, q[2] & 15, q[3] & 15);
    int cw = pattern_code(q[0] >> 4, q[1] >> 4, q[2] >> 4, q[3] >> 4);
    p->c[m].pcode[0] = (uint16_t)cb;
    p->c[m].pcode[1] = (uint16_t)cw;
    p->c[m].p4[0] = (uint8_t)pattern4_of(p->table[0], cb);
    p->c[m].p4[1] = (uint8_t)pattern4_of(p->table[1], cw);
}

/* An empty cell's line along d changed: re-derive its pattern, and only if
 * that differs its codes, classes, counts and value; the old fields go to
 * the undo frame f (if any). */
static inline void cell_update(Pos *p, int m, int d, UndoFrame *f) {
    uint8_t np = line_patterns(p, m, d);
    CellEval *ce = &p->c[m];
    if (np == ce->pat[d])
        return;
    if (f) {
        CellSave *cs = &f->cell[f->n++];
        cs->m = (uint16_t)m;
        memcpy(cs->pat, ce->pat, sizeof cs->pat);
        memcpy(cs->pcode, ce->pcode, sizeof cs->pcode);
        memcpy(cs->p4, ce->p4, sizeof cs->p4);
    }
    /* only the colour whose pattern changed gets a new code; its class count
     * and value move only where they changed (no -1/+1 round trip) */
    uint8_t op = ce->pat[d], diff = (uint8_t)(np ^ op);
    ce->pat[d] = np;
    const uint8_t *q = ce->pat;
    for (int c = 0; c < 2; c++) {
        int sh = 4 * c;
        if (!((diff >> sh) & 15))
            continue;
        int t = p->table[c];
        int code = pattern_code((q[0] >> sh) & 15, (q[1] >> sh) & 15, (q[2] >> sh) & 15, (q[3] >> sh) & 15);
        int old = ce->pcode[c];
        int32_t dv = pcode_eval[t][code] - pcode_eval[t][old];
        p->pvalue += c == 0 ? dv : -dv;
        ce->pcode[c] = (uint16_t)code;
        int np4 = pattern4_of(t, code), op4 = ce->p4[c];
        if (np4 != op4) {
            p->p4count[c][op4]--;
            p->p4count[c][np4]++;
            ce->p4[c] = (uint8_t)np4;
        }
    }
}

/* Recompute every field from the board into q (q->b must hold the board). */
static void recompute(Pos *q) {
    Board *b = &q->b;
    memset(q->p4count, 0, sizeof q->p4count);
    for (int i = 0; i < POS_UNDO_PLIES; i++)
        q->undo[i].ply = -1; /* saved fields are of the old rule or position */
    q->pvalue = 0;
    q->wsum = 0;
    for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++) {
            int m = board_move_at(b, x, y);
            for (int d = 0; d < DIR_COUNT; d++) {
                int off = b->dir[d];
                uint32_t key = 0;
                for (int k = 1; k <= 5; k++) {
                    key |= (uint32_t)b->cell[m - k * off] << (2 * (k - 1));
                    key |= (uint32_t)b->cell[m + k * off] << (10 + 2 * (k - 1));
                }
                q->c[m].key[d] = key;
            }
        }
    /* windows start at every cell of the array, walls included: a stone
     * updates the five windows through it without asking which are real */
    for (int m = 0; m < b->cell_count; m++)
        for (int d = 0; d < DIR_COUNT; d++) {
            int off = b->dir[d];
            bool real = b->cell[m] != WALL && m + 4 * off < b->cell_count && b->cell[m + 4 * off] != WALL;
            unsigned w = real ? 0 : WINDOW_OFF;
            for (int k = 0; k < 5 && m + k * off < b->cell_count; k++) {
                int c = b->cell[m + k * off];
                w += c == BLACK ? 1 : c == WHITE ? 16 : 0;
            }
            q->c[m].window[d] = (uint8_t)w;
            q->wsum += window_value_lut[q->rule][w & 255];
        }
    for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++) {
            int m = board_move_at(b, x, y);
            if (b->cell[m] != EMPTY)
                continue;
            for (int d = 0; d < DIR_COUNT; d++)
                q->c[m].pat[d] = line_patterns(q, m, d);
            cell_derive(q, m);
            cell_account(q, m, +1);
        }
}

void pos_set_rule(Pos *p, Rule rule) {
    weights_init(rule);
    p->rule = rule;
    p->table[0] = pattern_table(rule, BLACK);
    p->table[1] = pattern_table(rule, WHITE);
    /* freestyle patterns depend on 4 cells each side (checked by the tests);
     * the others see the fifth (overlines, caro's blocked fives) */
    p->reach = rule == RULE_FREESTYLE ? 4 : 5;
    recompute(p);
}

bool pos_init(Pos *p, int width, int height, Rule rule) {
    if (!board_init(&p->b, width, height))
        return false;
    pos_set_rule(p, rule);
    return true;
}

/* Colour c's stone on m appears in (or leaves) the line keys of the cells
 * up to five away along d. */
static inline void flip_line_keys(Pos *p, int m, int c, int d) {
    int off = p->b.dir[d];
    for (int k = 1; k <= 5; k++) {
        p->c[m - k * off].key[d] ^= (uint32_t)c << (10 + 2 * (k - 1));
        p->c[m + k * off].key[d] ^= (uint32_t)c << (2 * (k - 1));
    }
}

/* The five windows along d that hold m gain (wstep > 0) or lose a stone;
 * returns the change of the window sum. */
static inline int32_t step_windows(Pos *p, int m, int d, int wstep) {
    const int32_t *wv = window_value_lut[p->rule];
    int off = p->b.dir[d];
    int32_t delta = 0;
    for (int k = 0; k < 5; k++) {
        CellEval *ce = &p->c[m - k * off];
        unsigned w = ce->window[d], nw = (unsigned)((int)w + wstep);
        delta += wv[nw & 255] - wv[w & 255];
        ce->window[d] = (uint8_t)nw;
    }
    return delta;
}

/* Apply the key, pattern and window changes of colour c's stone appearing on
 * (sign +1) or leaving (sign -1) cell m; changed cells are saved in f (if any).
 * Patterns reach p->reach cells each side: only those cells are looked at.
 * The keys are flipped inside the pattern loop, not by flip_line_keys first:
 * the separate pass cost a quarter of the bench's speed. */
static inline void update_lines(Pos *p, int m, int c, int sign, UndoFrame *f) {
    const Board *b = &p->b;
    int wstep = (c == BLACK ? 1 : 16) * sign, reach = p->reach;
    int32_t wdelta = 0;
    for (int d = 0; d < DIR_COUNT; d++) {
        int off = b->dir[d];
        for (int k = 1; k <= reach; k++) {
            int lo = m - k * off, hi = m + k * off;
            p->c[lo].key[d] ^= (uint32_t)c << (10 + 2 * (k - 1));
            p->c[hi].key[d] ^= (uint32_t)c << (2 * (k - 1));
            if (b->cell[lo] == EMPTY)
                cell_update(p, lo, d, f);
            if (b->cell[hi] == EMPTY)
                cell_update(p, hi, d, f);
        }
        if (reach < 5) { /* the farthest cells' patterns cannot change */
            p->c[m - 5 * off].key[d] ^= (uint32_t)c << 18;
            p->c[m + 5 * off].key[d] ^= (uint32_t)c << 8;
        }
        wdelta += step_windows(p, m, d, wstep);
    }
    p->wsum += wdelta;
}

/* The undo of a saved move: keys and windows stepped back, the saved cells,
 * counts and sums put back (no pattern is looked up). */
static void restore_lines(Pos *p, int m, int c, const UndoFrame *f) {
    int wstep = c == BLACK ? -1 : -16;
    for (int d = 0; d < DIR_COUNT; d++) {
        flip_line_keys(p, m, c, d);
        step_windows(p, m, d, wstep);
    }
    for (int i = f->n - 1; i >= 0; i--) {
        const CellSave *cs = &f->cell[i];
        CellEval *ce = &p->c[cs->m];
        memcpy(ce->pat, cs->pat, sizeof cs->pat);
        memcpy(ce->pcode, cs->pcode, sizeof cs->pcode);
        memcpy(ce->p4, cs->p4, sizeof cs->p4);
    }
    memcpy(p->p4count, f->p4count, sizeof p->p4count);
    p->pvalue = f->pvalue;
    p->wsum = f->wsum;
}

void pos_play(Pos *p, Move m) {
    int c = p->b.side;
    UndoFrame *f = &p->undo[p->b.ply % POS_UNDO_PLIES];
    f->ply = p->b.ply;
    f->n = 0;
    f->pvalue = p->pvalue;
    f->wsum = p->wsum;
    memcpy(f->p4count, p->p4count, sizeof f->p4count);
    cell_account(p, m, -1);
    board_play(&p->b, m);
    update_lines(p, m, c, +1, f);
    ASSERT_POS(p);
}

void pos_pass(Pos *p) { board_pass(&p->b); }

void pos_undo(Pos *p) {
    Move m = board_last_move(&p->b);
    if (m == MOVE_PASS) {
        board_undo(&p->b);
        return;
    }
    int c = p->b.cell[m];
    board_undo(&p->b);
    UndoFrame *f = &p->undo[p->b.ply % POS_UNDO_PLIES];
    if (f->ply == p->b.ply) {
        restore_lines(p, m, c, f);
        f->ply = -1; /* used */
    } else {
        update_lines(p, m, c, -1, NULL);
        cell_account(p, m, +1); /* its own patterns were left as they were */
    }
    ASSERT_POS(p);
}

bool pos_is_consistent(const Pos *p) {
    const Board *b = &p->b;
    if (!board_is_consistent(b))
        return false;
    Pos *q = malloc(sizeof *q);
    if (!q)
        return false;
    memcpy(&q->b, b, sizeof *b);
    q->rule = p->rule;
    memcpy(q->table, p->table, sizeof q->table);
    recompute(q);
    bool ok = q->wsum == p->wsum && q->pvalue == p->pvalue &&
              memcmp(q->p4count, p->p4count, sizeof q->p4count) == 0;
    for (int y = 0; ok && y < b->height; y++)
        for (int x = 0; ok && x < b->width; x++) {
            int m = board_move_at(b, x, y);
            for (int d = 0; d < DIR_COUNT; d++) {
                ok &= q->c[m].key[d] == p->c[m].key[d];
                ok &= q->c[m].window[d] == p->c[m].window[d];
                if (b->cell[m] == EMPTY)
                    ok &= q->c[m].pat[d] == p->c[m].pat[d];
            }
            if (b->cell[m] == EMPTY)
                ok &= memcmp(q->c[m].pcode, p->c[m].pcode, sizeof q->c[m].pcode) == 0 &&
                      memcmp(q->c[m].p4, p->c[m].p4, sizeof q->c[m].p4) == 0;
        }
    free(q);
    return ok;
}

/* brain/board.c — padded board, play/undo, Zobrist key, candidate area. */
#include "board.h"

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Debug builds (make debug) recompute everything after every play and undo. */
#ifdef QUINTO_PARANOID
#define ASSERT_CONSISTENT(b) assert(board_is_consistent(b))
#else
#define ASSERT_CONSISTENT(b) ((void)0)
#endif

/* ---- Zobrist keys: generated once, deterministically, by splitmix64. ---- */

static uint64_t zob_stone[2][BOARD_MAX_CELLS];
static uint64_t zob_side;
static pthread_once_t zob_once = PTHREAD_ONCE_INIT;

static void zobrist_fill(void) {
    uint64_t s = 0x51A7C0DE2026ULL;
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < BOARD_MAX_CELLS; i++)
            zob_stone[c][i] = splitmix64(&s);
    zob_side = splitmix64(&s);
}

/* Thread-safe: boards are made on several threads (the manager's workers). */
static void zobrist_init(void) { pthread_once(&zob_once, zobrist_fill); }

uint64_t zobrist_stone(int colour, Move m) { return zob_stone[colour - 1][m]; }
uint64_t zobrist_side(void) { return zob_side; }

/* ---- Candidate neighbourhood ---- */

int board_neighbourhood(const Board *b, int offsets[64]) {
    int n = 0;
    for (int dy = -4; dy <= 4; dy++)
        for (int dx = -4; dx <= 4; dx++) {
            if (dx == 0 && dy == 0)
                continue;
            int ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
            bool square = ax <= 2 && ay <= 2;
            bool line = ax == 0 || ay == 0 || ax == ay;
            if (square || line)
                offsets[n++] = dy * b->stride + dx;
        }
    return n;
}

static inline void cand_add(Board *b, Move m) {
    b->cand_[b->cand_count_++] = m;
    b->cand_index_[m] = (uint16_t)b->cand_count_;
}

static inline void cand_remove(Board *b, Move m) {
    int i = b->cand_index_[m] - 1;
    Move last = b->cand_[--b->cand_count_];
    b->cand_[i] = last;
    b->cand_index_[last] = (uint16_t)(i + 1);
    b->cand_index_[m] = 0;
}

/* ---- Set-up ---- */

bool board_init(Board *b, int width, int height) {
    if (width < BOARD_MIN_SIZE || height < BOARD_MIN_SIZE || width > BOARD_MAX_SIZE ||
        height > BOARD_MAX_SIZE)
        return false;
    zobrist_init();
    b->width = width;
    b->height = height;
    b->stride = width + BOARD_PAD;
    b->cell_count = (height + 2 * BOARD_PAD) * b->stride + BOARD_PAD;
    b->dir[0] = 1;
    b->dir[1] = b->stride;
    b->dir[2] = b->stride + 1;
    b->dir[3] = b->stride - 1;
    b->neigh_count = board_neighbourhood(b, b->neigh);
    board_clear(b);
    return true;
}

void board_clear(Board *b) {
    memset(b->cell, WALL, sizeof b->cell);
    memset(b->near_, 0, sizeof b->near_);
    memset(b->cand_index_, 0, sizeof b->cand_index_);
    for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++)
            b->cell[board_move_at(b, x, y)] = EMPTY;
    b->cand_count_ = 0;
    b->cand_synced_ = 0;
    b->side = BLACK;
    b->ply = 0;
    b->stones = 0;
    b->key = 0;
}

/* ---- Play and undo ---- */

void board_play(Board *b, Move m) {
    assert(m < b->cell_count && b->cell[m] == EMPTY);
    int c = b->side;
    b->cell[m] = (uint8_t)c;
    b->key ^= zob_stone[c - 1][m] ^ zob_side;
    b->side = opponent(c);
    b->history[b->ply++] = m;
    b->stones++;
    ASSERT_CONSISTENT(b);
}

void board_sync_cands(Board *b) {
    while (b->cand_synced_ < b->ply) {
        Move m = b->history[b->cand_synced_++];
        if (m == MOVE_PASS)
            continue;
        if (b->cand_index_[m])
            cand_remove(b, m);
        for (int i = 0; i < b->neigh_count; i++) {
            int n = m + b->neigh[i];
            if (b->near_[n]++ == 0 && b->cell[n] == EMPTY)
                cand_add(b, (Move)n);
        }
    }
}

void board_pass(Board *b) {
    b->key ^= zob_side;
    b->side = opponent(b->side);
    b->history[b->ply++] = MOVE_PASS;
    ASSERT_CONSISTENT(b);
}

void board_undo(Board *b) {
    assert(b->ply > 0);
    Move m = b->history[--b->ply];
    int c = opponent(b->side);
    b->side = c;
    b->key ^= zob_side;
    bool synced = b->cand_synced_ > b->ply;
    if (synced)
        b->cand_synced_ = b->ply;
    if (m == MOVE_PASS)
        return;
    b->key ^= zob_stone[c - 1][m];
    b->stones--;
    b->cell[m] = EMPTY;
    if (!synced) {
        ASSERT_CONSISTENT(b);
        return;
    }
    for (int i = b->neigh_count - 1; i >= 0; i--) {
        int n = m + b->neigh[i];
        if (--b->near_[n] == 0 && b->cand_index_[n])
            cand_remove(b, (Move)n);
    }
    if (b->near_[m])
        cand_add(b, m);
    ASSERT_CONSISTENT(b);
}

/* ---- Consistency check ---- */

static bool consistent(const Board *b) {
    uint8_t near[BOARD_MAX_CELLS];
    memset(near, 0, (size_t)b->cell_count);
    uint64_t key = 0;
    int stones = 0, side = BLACK;
    for (int i = 0; i < b->ply; i++) {
        Move m = b->history[i];
        if (m != MOVE_PASS) {
            if (b->cell[m] != side)
                return false;
            key ^= zob_stone[side - 1][m];
        }
        key ^= zob_side;
        side = opponent(side);
    }
    if (side != b->side || key != b->key)
        return false;
    for (int m = 0; m < b->cell_count; m++) {
        int c = b->cell[m];
        bool inside = board_on(b, board_x(b, (Move)m), board_y(b, (Move)m)) &&
                      m % b->stride >= BOARD_PAD;
        if (inside != (c != WALL))
            return false;
        if (c == BLACK || c == WHITE) {
            stones++;
            for (int i = 0; i < b->neigh_count; i++)
                near[m + b->neigh[i]]++;
        }
    }
    if (stones != b->stones)
        return false;
    int cands = 0;
    for (int m = 0; m < b->cell_count; m++) {
        if (near[m] != b->near_[m])
            return false;
        bool cand = b->cell[m] == EMPTY && near[m] > 0;
        if (cand != (b->cand_index_[m] != 0))
            return false;
        if (cand) {
            cands++;
            if (b->cand_[b->cand_index_[m] - 1] != m)
                return false;
        }
    }
    return cands == b->cand_count_;
}

/* The check runs on a copy brought up to date: the board itself stays as
 * lazy as it was, so debug builds exercise the unsynchronised paths too. */
bool board_is_consistent(const Board *b) {
    Board *q = malloc(sizeof *q);
    if (!q)
        return false;
    memcpy(q, b, sizeof *q);
    board_sync_cands(q);
    bool ok = consistent(q);
    free(q);
    return ok;
}

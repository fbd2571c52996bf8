/* brain/board.h — the board: cells, play/undo, Zobrist key, candidate area.
 *
 * Cells live in a padded one-dimensional array. Row y, column x is at
 * (y + PAD) * stride + (x + PAD) with stride = width + PAD; the PAD cells at the
 * end of one row double as the left border of the next, and PAD rows of walls
 * lie above and below, so a scan of up to PAD steps in any of the four line
 * directions from a board cell never leaves the array and never needs a
 * coordinate test.
 *
 * Everything a search needs per move is kept incrementally by board_play and
 * board_undo: the stones, the Zobrist key (stones and side to move), the move
 * history, and the candidate area (empty cells near a stone) as an indexed set,
 * so move generation never scans the whole board.
 *
 * Pure: no I/O, no globals except the read-only Zobrist table.
 */
#ifndef QUINTO_BRAIN_BOARD_H
#define QUINTO_BRAIN_BOARD_H

#include <stdbool.h>
#include <stdint.h>

enum {
    BOARD_MIN_SIZE = 5,
    BOARD_MAX_SIZE = 128,
    BOARD_PAD = 5,          /* border width: line scans of up to 5 steps stay inside */
    BOARD_MAX_CELLS = (BOARD_MAX_SIZE + 2 * BOARD_PAD) * (BOARD_MAX_SIZE + BOARD_PAD) + BOARD_PAD,
    BOARD_MAX_MOVES = BOARD_MAX_SIZE * BOARD_MAX_SIZE + 64, /* stones plus passes */
};

/* Cell contents. BLACK and WHITE are also the two colours (players). */
typedef enum { EMPTY = 0, BLACK = 1, WHITE = 2, WALL = 3 } Cell;

static inline int opponent(int colour) { return 3 - colour; }

/* A move is a cell index into the padded array. Index 0 and 1 are always
 * walls, so they serve as "no move" and "pass". */
typedef uint16_t Move;
enum { MOVE_NONE = 0, MOVE_PASS = 1 };

/* The four line directions: horizontal, vertical, diagonal, anti-diagonal. */
enum { DIR_COUNT = 4 };

typedef struct Board {
    int width, height, stride;
    int cell_count;                 /* cells used in the padded array */
    int dir[DIR_COUNT];             /* offsets: 1, stride, stride + 1, stride - 1 */
    int side;                       /* colour to move */
    int ply;                        /* entries in history (stones + passes) */
    int stones;                     /* stones on the board */
    uint64_t key;                   /* Zobrist key of stones and side to move */
    uint8_t cell[BOARD_MAX_CELLS];
    /* The candidate area, kept lazily (private: read it through
     * board_candidates() and the accessors below, which bring it up to date):
     * board_play and board_undo leave it alone, and it catches up with the
     * moves played since it was last read when it is next read. A search
     * reads it at few of its nodes (the quiescence's deeper plies never),
     * so most plays and undos never touch it. */
    uint8_t near_[BOARD_MAX_CELLS];  /* number of stones whose neighbourhood covers the cell */
    uint16_t cand_index_[BOARD_MAX_CELLS]; /* position in cand_[] + 1, or 0 if not a candidate */
    Move cand_[BOARD_MAX_CELLS];     /* candidate area: empty cells with near_ > 0 */
    int cand_count_;
    int cand_synced_;                /* history entries applied to the candidate area */
    int neigh_count;                /* the candidate neighbourhood of a stone, as offsets */
    int neigh[64];
    Move history[BOARD_MAX_MOVES];
} Board;

/* Set up an empty width x height board (5..128 each), black to move.
 * Returns false (board untouched) for an unsupported size. */
bool board_init(Board *b, int width, int height);

/* Empty the board keeping its size. */
void board_clear(Board *b);

static inline Move board_move_at(const Board *b, int x, int y) {
    return (Move)((y + BOARD_PAD) * b->stride + x + BOARD_PAD);
}
static inline int board_x(const Board *b, Move m) { return m % b->stride - BOARD_PAD; }
static inline int board_y(const Board *b, Move m) { return m / b->stride - BOARD_PAD; }
static inline bool board_on(const Board *b, int x, int y) {
    return x >= 0 && y >= 0 && x < b->width && y < b->height;
}
static inline bool board_is_empty(const Board *b, Move m) { return b->cell[m] == EMPTY; }

/* Bring the candidate area up to date with the moves played (board.c). */
void board_sync_cands(Board *b);
/* The candidate area's catching up changes no state a caller can see: a
 * const board is brought up to date too (boards are never const objects). */
static inline void board_sync(const Board *b) {
    if (b->cand_synced_ != b->ply)
        board_sync_cands((Board *)b);
}
/* The candidate cells: empty cells within the neighbourhood of a stone (see
 * board_neighbourhood). The list is valid until the next play or undo; its
 * order depends on the path that led to the position. */
static inline const Move *board_candidates(const Board *b, int *count) {
    board_sync(b);
    *count = b->cand_count_;
    return b->cand_;
}
static inline Move board_candidate(const Board *b, int i) {
    board_sync(b);
    return b->cand_[i];
}
static inline int board_candidate_count(const Board *b) {
    board_sync(b);
    return b->cand_count_;
}
static inline bool board_is_candidate(const Board *b, Move m) {
    board_sync(b);
    return b->cand_index_[m] != 0;
}
/* How many stones have cell m in their neighbourhood. */
static inline int board_near(const Board *b, Move m) {
    board_sync(b);
    return b->near_[m];
}
static inline Move board_last_move(const Board *b) {
    return b->ply > 0 ? b->history[b->ply - 1] : MOVE_NONE;
}

/* Place a stone of the side to move on an empty cell m and pass the turn.
 * The caller guarantees m is an empty board cell (checked by assert). */
void board_play(Board *b, Move m);

/* Pass the turn without a stone (used for positions whose stone counts do
 * not alternate). */
void board_pass(Board *b);

/* Take back the last board_play or board_pass. ply must be > 0. */
void board_undo(Board *b);

/* Recompute key, stone count, near counts and the candidate set from the cells
 * and history, and compare them with the incremental copies. */
bool board_is_consistent(const Board *b);

/* Zobrist key of a colour's stone on a cell, and of white to move. */
uint64_t zobrist_stone(int colour, Move m);
uint64_t zobrist_side(void);

/* Offsets, relative to a stone, of the cells it makes candidates: every cell
 * within distance 2 (a 5x5 square) plus the cells 3 and 4 away along the four
 * lines. Exposed for the consistency check and the tests. */
int board_neighbourhood(const Board *b, int offsets[64]);

#endif

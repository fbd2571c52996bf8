/* search/params.h — every tunable number of search/, in one place.
 * A change to any of them changes the bench signature. */
#ifndef QUINTO_SEARCH_PARAMS_H
#define QUINTO_SEARCH_PARAMS_H

enum {
    /* ---- move generation and ordering (movegen.c, movepick.c) ---- */
    MAX_GEN = 512,                /* moves a node keeps (the best by score) */
    ORDER_SCORE_MUL = 8,          /* eval_move_score weight in the quiet order */
    ORDER_HISTORY_DIV = 32,       /* history / this is added to it */
    ORDER_KILLER1 = 720,          /* first killer bonus */
    ORDER_KILLER2 = 480,          /* second killer bonus */
    DEFENCE_OWN_FOUR = 100000,    /* defence list: our own fours first */
    DEFENCE_BLOCK = 50000,        /* then the cells that stop every open-four point */
    THREAT_CLASS_MUL = 1000,      /* solvers order by threat class, then move score */
    GEN_FOURS_MAX = 64,           /* fours a quiescence or VCF node keeps */

    /* ---- history (history.c) ---- */
    HISTORY_MAX = 16384,          /* history values stay within +-HISTORY_MAX */
    HISTORY_BONUS_MUL = 16,       /* bonus = depth^2 * this, at most HISTORY_MAX */

    /* ---- quiescence (search.c) ---- */
    QS_MAX_PLY = 20,              /* plies of fours in the quiescence */
    QS_FREE_PLY = 2,              /* quiescence plies before fours must be near the last own stone */
    QS_FREE_PLY_RENJU = 4,        /* the same in renju: the horizon side's second four anywhere
                                   * too (better against Rapfi: README, session 35) */
    QS_PLAIN_PLY = 6,             /* plies after which a four must also make a three or two */
    QS_TT_DEPTH = -1,             /* the depth the quiescence stores its results at */

    /* ---- main search (search.c) ---- */
    ASPIRATION_FROM = 5,          /* depth where aspiration windows start */
    ASPIRATION_DELTA = 160,
    ASPIRATION_FULL = 1000,       /* a window wider than this becomes the full one */
    LMR_MIN_DEPTH = 3,
    ROOT_LMR_MIN_DEPTH = 4,       /* root moves reduced from this depth, */
    ROOT_LMR_FROM = 4,            /* from this move on (one ply), */
    ROOT_LMR_FROM2 = 12,          /* two plies from this one */
    FORCED_EXT_TENTHS = 13,       /* the forced block of a five: extended 1.3 plies (Rapfi's) */
    FUTILITY_MAX_DEPTH = 6,       /* child futility up to this depth */
    FUTILITY_MARGIN = 300,        /* per depth */
    MOVECAP_BASE = 10,            /* quiet moves searched: base + per_depth * depth */
    MOVECAP_PER_DEPTH = 5,        /* (freestyle, standard: search.c's table, 3 + depth^1.32) */
    MOVECAP_DEPTHS = 32,          /* length of that table */
    MTDF_STEP = 16,               /* MTD(f): first step past a bound, doubling while it fails one way */
    MTDF_GRAIN = 8,               /* an iteration ends when the value is bracketed this tightly */
    RANDOM_MARGIN = 12,           /* root moves within this of the best may be chosen */
    SINGULAR_MIN_DEPTH = 7,       /* singular test from this depth (extension on the PV) */
    SINGULAR_TT_SLACK = 2,        /* the TT entry searched at least depth - this */
    SINGULAR_MARGIN = 4,          /* per depth: the other moves must stay this far below */

    /* ---- threat solvers (threat.c, engine.c) ---- */
    VCF_ROOT_DEPTH = 120,         /* own fours: problem VCFs run past 50 */
    VCF_ROOT_BUDGET = 2000000,    /* solver nodes for the root VCF */
    VCT_ROOT_MAX_DEPTH = 12,      /* own threats */
    VCT_ROOT_STEP_BUDGET = 200000,/* solver nodes for each VCT depth */
    VCT_VCF_DEPTH = 12,           /* VCF depth inside the VCT */
    ROOT_THREAT_TIME_DIV = 8,     /* the root VCF, then the VCT, get soft time / this each */
    VCF_FAIL_CACHE = 1 << 16,     /* entries of the VCF failure cache */

    /* ---- time (timeman.c) ---- */
    TIME_MARGIN_MS = 25,          /* kept back from every turn */
    TIME_MARGIN_DIV = 20,         /* plus turn / this, */
    TIME_MARGIN_MAX_MS = 500,     /* up to this */
    TIME_SOFT_PERCENT = 80,       /* no new iteration after this share of the hard limit */
    TIME_MOVES_BASE = 30,         /* match clock: moves still to play = base - stones / div */
    TIME_MOVES_STONES_DIV = 6,
    TIME_MOVES_MIN = 12,
    TIME_RESERVE_MS = 30,         /* match clock reserve: this + time left / div */
    TIME_RESERVE_DIV = 50,
    TIME_MAX_SHARE_DIV = 4,       /* no move takes more than a quarter of what is left */

    /* ---- memory (engine.c) ---- */
    MEMORY_RESERVE_MIB = 14,      /* code, stacks and tables outside the hash */
    MEMORY_THREAD_EXTRA_MIB = 1,  /* per thread, beside its SearchThread */
    MEMORY_SLACK_DIV = 10,        /* a tenth of the rest is left to allocator slack */
    HASH_DEFAULT_MIB = 256,       /* without a memory limit */
    TT_KIB_PER_MS = 32,           /* table a millisecond of a move can use (no hash_size given) */
    TT_PACE_MIN_MIB = 16,         /* the least table the pace gives */
    THREAD_STACK_MIB = 16,        /* stack of every search thread */
};

/* ---- the renju node (search.c, search_renju): Rapfi's shape ----
 * Fractional depths in plies; margins in Rapfi's evaluation units, times
 * RJ_EVAL_SCALE (our values are about six times its: session 64). The
 * numbers are Rapfi 0.43's renju ones (ideas, not code: its search/ab). */
#define RJ_EVAL_SCALE 6.0f
#define RJ_RAZOR_DEPTH 2.6f          /* razoring into the quiescence below this depth, */
#define RJ_RAZOR_A 0.17f             /* margin a*d*d + b*d + c */
#define RJ_RAZOR_B 14.0f
#define RJ_RAZOR_C 19.0f
#define RJ_FUTILITY 80.0f            /* child futility: this per ply of depth - 1 - improving, */
#define RJ_FUTILITY_NOTT 12.0f       /* less this at a cut node the table knows nothing of */
#define RJ_IIR_PV 0.32f              /* a PV node without a TT move is searched this much shallower */
#define RJ_IIR_TT 0.28f              /* with one: this per ply the entry is shallower, */
#define RJ_IIR_TT_MAX 3.6f           /* at most this */
#define RJ_FAIL_HIGH_BIAS (-9.0f)    /* a cut node this + per-ply * depth above beta is likely to */
#define RJ_FAIL_HIGH_PER_PLY 15.0f   /* fail high: its non-fours are a ply shallower */
#define RJ_FAIL_HIGH_THREAT 87.0f    /* (more when the opponent has an open-four point) */
#define RJ_TRIVIAL_DEPTH 4.3f        /* below this depth moves with no pattern at all are skipped */
#define RJ_DISTRACT_SELF 5           /* a defence farther than this from our last stone */
#define RJ_DISTRACT_OPP 4            /* and this from the opponent's distracts */
#define RJ_FORCED_EXT 1.3f           /* the forced block of a five */
#define RJ_SE_DEPTH 6.65f            /* singular test from this depth, */
#define RJ_SE_TT_SLACK 2.03f         /* the entry searched at least depth - this, */
#define RJ_SE_MARGIN 0.94f           /* sbeta = tt value - this * depth, */
#define RJ_SE_REDUCTION 0.54f        /* at this share of the depth; */
#define RJ_SE_DOUBLE 29              /* two plies when the others stay this (less 0.6 a ply, at most 9) below, */
#define RJ_SE_EXTRA_MAX 10.8f        /* while the path's extra extensions are below this; */
#define RJ_SE_NEG 1.5f               /* not singular but the entry is above beta: this shallower */
#define RJ_TTM_EXT_PV 0.25f          /* the TT move otherwise: on the PV, */
#define RJ_TTM_EXT_NONPV 0.08f       /* elsewhere, */
#define RJ_NEAR4_EXT4 0.24f          /* and when it is a four within 4 (6) of our last stone */
#define RJ_NEAR4_EXT6 0.05f
#define RJ_LMR_FACTOR 0.75f          /* reduction (f ln depth) * (f ln move number), */
#define RJ_CR_TRIVIAL_DISTRACT 0.063f /* plus ln(threat count) times this for moves of no pattern far off, */
#define RJ_CR_TRIVIAL 0.028f         /* of no pattern, */
#define RJ_CR_PLAIN 0.023f           /* of a small pattern, */
#define RJ_CR_IMPORTANT 0.007f       /* making a double two or stopping a three; */
#define RJ_NOKILLER_CUT 1.8f         /* plus this at a cut node but for a quiet killer, */
#define RJ_USELESS_OPP 1.93f         /* plus these for a defence that is not a four, far from */
#define RJ_USELESS_SELF 0.96f        /* the opponent's last stone, from ours (farther than */
#define RJ_USELESS_DIST 4            /* this); */
#define RJ_CONTINUOUS 0.53f          /* less this for a three (or near double two) after our three, */
#define RJ_FALSE_FORBID 1.05f        /* less this on a black forbidden point, */
#define RJ_HISTORY_DIV 12267.0f      /* less history / (this + the next above depth 5.4) */
#define RJ_HISTORY_DIV_DEEP 4380.0f
#define RJ_LMR_EXT1 34               /* a reduced move that fails high: a ply more when this */
#define RJ_LMR_EXT1_PER 11           /* (+ per ply reduced) above alpha, */
#define RJ_LMR_EXT2 288              /* two when this */
#define RJ_LMR_EXT2_PER 26
#define RJ_LMR_EXTRA_MAX 5.0f        /* (one at most once the path has this much extra) */

#endif

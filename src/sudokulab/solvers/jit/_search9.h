/* The standard 9x9 search of ``_search.c``: the same algorithm (naked and hidden singles to a fixpoint,
 * dom/wdeg or canonical branching) on another board, chosen automatically for standard 9x9 tables.
 *
 * Why another board: the general kernel keeps a digit mask per cell, so placing a digit updates 20 peers
 * one by one and finding hidden singles reads the 9 cells of every group; about 55,000 instructions a
 * 17-clue puzzle. Here a board is digit-major: for each digit, the cells where it may still go, as a
 * 128-bit vector of three 32-bit lanes, one per band (three rows of nine), each row in a 10-bit field
 * whose top bit is a guard. Placing a digit is one AND-NOT with its cell's peers; naked singles of all
 * 81 cells come from a bit-sliced count over the nine boards; and a digit's hidden singles in every row,
 * column and box come from a few whole-board operations: with a guard bit above each row,
 * ``(x | guard) - low`` subtracts one in every row at once without a borrow crossing rows, so
 * ``x & that`` is non-zero exactly in the rows with two or more places. Columns and boxes fold a band's
 * three rows (and, for columns, the three bands) into "at least one" and "at least two" masks.
 *
 * The fixpoint is the general kernel's (both apply naked and hidden singles in complete groups until
 * neither finds anything), and the branching cell is the same (canonical: the first open cell in
 * row-major order; else the first with two digits, or the fewest, or the fewest per failure weight),
 * so answers and node counts equal the general kernel's on the same tables; only which cells a
 * contradiction charges under dom/wdeg differs (a cell left without a digit charges its row, column
 * and box; a digit without a place charges that group), so wdeg's node counts may differ after a first
 * failure. ``tests/test_compiled.py`` runs both kernels side by side.
 *
 * GCC/Clang vector extensions (SSE2 on x86-64, NEON on ARM, plain code elsewhere); lane 3 stays zero. */

typedef uint32_t v4 __attribute__((vector_size(16)));
typedef uint64_t v2u64 __attribute__((vector_size(16))); /* the same 128 bits as two words */

struct Board9 {
    v4 digit[9]; /* where each digit may still go; a placed cell stays only in its digit's board */
    v4 placed;   /* the cells placed (their peers already cleared) */
};
typedef struct Board9 Board9;

#define FIELDS9 (0x1FFu | 0x1FFu << 10 | 0x1FFu << 20)
#define GUARDS9 (1u << 9 | 1u << 19 | 1u << 29)
#define LOWS9 (1u | 1u << 10 | 1u << 20)
#define BOXES9 (1u | 1u << 3 | 1u << 6) /* the first column of each box, in a folded 9-bit row */

static v4 CELL_BIT9[81], PEERS9[81], UNIT_MASK9[27];
static v4 PEERS_AT9[96]; /* PEERS9 by 32 * lane + bit: lanes 0 and 1 read as one 64-bit word index it by its bit */
static int8_t CELL_AT9[3][32]; /* (lane, bit) -> cell, -1 for a guard or an unused bit */
static uint8_t UNIT_CELLS9[27][9], CELL_UNITS9[81][3];
static const v4 ALL9 = {FIELDS9, FIELDS9, FIELDS9, 0};
static const v4 GUARD9 = {GUARDS9, GUARDS9, GUARDS9, 0};
static const v4 LOW9 = {LOWS9, LOWS9, LOWS9, 0};
static const v4 BOX9 = {BOXES9, BOXES9, BOXES9, 0};
static const v4 ROW9 = {0x1FF, 0x1FF, 0x1FF, 0};

enum { EMPTY_CELL9 = 27 }; /* a failure code >= this: a cell (code - 27) left with no digit, or two */

static void init_tables9(void) {
    memset(CELL_AT9, -1, sizeof CELL_AT9);
    for (int c = 0; c < 81; c++) {
        int r = c / 9, col = c % 9;
        v4 bit = {0, 0, 0, 0};
        bit[r / 3] = 1u << (10 * (r % 3) + col);
        CELL_BIT9[c] = bit;
        CELL_AT9[r / 3][10 * (r % 3) + col] = (int8_t)c;
        CELL_UNITS9[c][0] = (uint8_t)r;
        CELL_UNITS9[c][1] = (uint8_t)(9 + col);
        CELL_UNITS9[c][2] = (uint8_t)(18 + (r / 3) * 3 + col / 3);
    }
    int filled[27] = {0};
    for (int c = 0; c < 81; c++)
        for (int k = 0; k < 3; k++) {
            int u = CELL_UNITS9[c][k];
            UNIT_CELLS9[u][filled[u]++] = (uint8_t)c;
            UNIT_MASK9[u] |= CELL_BIT9[c];
        }
    for (int c = 0; c < 81; c++) {
        v4 peers = {0, 0, 0, 0};
        for (int k = 0; k < 3; k++) peers |= UNIT_MASK9[CELL_UNITS9[c][k]];
        PEERS9[c] = peers & ~CELL_BIT9[c];
        PEERS_AT9[32 * (c / 27) + 10 * ((c / 9) % 3) + c % 9] = PEERS9[c];
    }
}

#if defined(__SSE2__)
#include <emmintrin.h>
/* Whether a set has a cell: on SSE2 a compare and a byte mask, no lane moved to a register. */
INLINE int any9(v4 x) { return _mm_movemask_epi8(_mm_cmpeq_epi32((__m128i)x, _mm_setzero_si128())) != 0xFFFF; }
#else
INLINE int any9(v4 x) { return (x[0] | x[1] | x[2]) != 0; }
#endif

/* The first cell of a set in row-major order (the set is not empty). */
INLINE int first9(v4 x) {
    int lane = x[0] ? 0 : x[1] ? 1 : 2;
    return CELL_AT9[lane][__builtin_ctz(x[lane])];
}

INLINE u64 digits_of9(const Board9 *b, int cell) {
    int lane = cell / 27, shift = 10 * ((cell / 9) % 3) + cell % 9;
    u64 mask = 0;
    for (int d = 0; d < 9; d++) mask |= (u64)((b->digit[d][lane] >> shift) & 1u) << d;
    return mask;
}

/* The hidden singles of one digit's board in every row, column and box (placed cells included), or
 * ``*failed`` set to a group where the digit has no place. */
INLINE v4 hidden9(v4 x, int *failed) {
    v4 less = (x | GUARD9) - LOW9;   /* every row minus one, guards absorbing the borrows */
    v4 filled = less & GUARD9;       /* guard kept: the row has a place */
    if (any9(filled ^ GUARD9)) {
        v4 none = filled ^ GUARD9;
        int lane = none[0] ? 0 : none[1] ? 1 : 2;
        *failed = 3 * lane + __builtin_ctz(none[lane]) / 10;
        return x;
    }
    v4 crowded = (((x & less & ALL9) | GUARD9) - LOW9) & GUARD9; /* two places or more */
    v4 single = GUARD9 & ~crowded;
    v4 found = x & (single - (single >> 9));
    /* each band's three rows folded: columns with at least one place, and with two or more */
    v4 r0 = x & ROW9, r1 = (x >> 10) & ROW9, r2 = (x >> 20) & ROW9;
    v4 one = r0 | r1 | r2, two = (r0 & r1) | ((r0 | r1) & r2);
    uint32_t cols = one[0] | one[1] | one[2];
    uint32_t cols2 = two[0] | two[1] | two[2] | (one[0] & one[1]) | ((one[0] | one[1]) & one[2]);
    if (cols != 0x1FF) {
        *failed = 9 + __builtin_ctz(~cols & 0x1FF);
        return x;
    }
    uint32_t lone = cols & ~cols2;
    if (lone) {
        uint32_t spread = lone | lone << 10 | lone << 20;
        v4 wide = {spread, spread, spread, 0};
        found |= x & wide;
    }
    /* boxes: fold each band's columns three by three */
    v4 box = one | one >> 1 | one >> 2;
    v4 box2 = two | two >> 1 | two >> 2 | (one & one >> 1) | (one & one >> 2) | ((one >> 1) & (one >> 2));
    v4 gap = (box & BOX9) ^ BOX9;
    if (any9(gap)) {
        int lane = gap[0] ? 0 : gap[1] ? 1 : 2;
        *failed = 18 + 3 * lane + __builtin_ctz(gap[lane]) / 3;
        return x;
    }
    v4 alone = box & ~box2 & BOX9;
    if (any9(alone)) {
        v4 three = alone | alone << 1 | alone << 2;
        found |= x & (three | three << 10 | three << 20);
    }
    return found;
}

/* For a conflict inside one digit's new placements: the group two of them share. */
INLINE int shared_unit9(v4 cells) {
    for (int lane = 0; lane < 3; lane++)
        for (uint32_t m = cells[lane]; m; m &= m - 1) {
            int c = CELL_AT9[lane][__builtin_ctz(m)];
            v4 mates = PEERS9[c] & cells;
            if (any9(mates)) {
                int other = first9(mates);
                if (other / 9 == c / 9) return CELL_UNITS9[c][0];
                if (other % 9 == c % 9) return CELL_UNITS9[c][1];
                return CELL_UNITS9[c][2];
            }
        }
    return 0;
}

/* Place ``fresh[d]`` (cells per digit, each cell in one digit at most, each still open to its digit),
 * then singles to a fixpoint: SETTLED, a group (0..26: rows, columns, boxes) that failed, or
 * EMPTY_CELL9 + a cell left without a digit or asked for two. */
INLINE int settle9(Board9 *b, v4 fresh[9]) {
    v4 seen[9];
    for (int d = 0; d < 9; d++) seen[d] = ~b->digit[d]; /* differs from every board: check all at first */
    for (;;) {
        v4 all = {0, 0, 0, 0};
        for (int d = 0; d < 9; d++) {
            v4 cells = fresh[d];
            if (!any9(cells)) continue;
            v4 peers = {0, 0, 0, 0};
            for (u64 m = ((v2u64)cells)[0]; m; m &= m - 1) peers |= PEERS_AT9[__builtin_ctzll(m)];
            for (uint32_t m = cells[2]; m; m &= m - 1) peers |= PEERS_AT9[64 + __builtin_ctz(m)];
            if (any9(peers & cells)) return shared_unit9(cells);
            b->digit[d] &= ~peers;
            all |= cells;
        }
        for (int d = 0; d < 9; d++) b->digit[d] = (b->digit[d] & ~all) | fresh[d];
        b->placed |= all;
        v4 open = ALL9 & ~b->placed;
        if (!any9(open)) return SETTLED;
        v4 once = {0, 0, 0, 0}, twice = {0, 0, 0, 0};
        for (int d = 0; d < 9; d++) {
            twice |= once & b->digit[d];
            once |= b->digit[d];
        }
        v4 bare = open & ~once;
        if (any9(bare)) return EMPTY_CELL9 + first9(bare);
        v4 single = open & ~twice;
        if (any9(single)) { /* naked singles first: cheap to find; hidden ones once they run out */
            for (int d = 0; d < 9; d++) fresh[d] = single & b->digit[d];
            continue;
        }
        v4 claimed = {0, 0, 0, 0}, clash = {0, 0, 0, 0};
        int found = 0;
        for (int d = 0; d < 9; d++) {
            v4 x = b->digit[d];
            v4 mine = single & x;
            if (any9(x ^ seen[d])) {
                int failed = SETTLED;
                mine |= hidden9(x, &failed) & open;
                if (failed != SETTLED) return failed;
                seen[d] = x;
            }
            clash |= claimed & mine;
            claimed |= mine;
            fresh[d] = mine;
            found |= any9(mine);
        }
        if (any9(clash)) return EMPTY_CELL9 + first9(clash);
        if (!found) return SETTLED;
    }
}

INLINE void charge9(SearchObject *s, int failed) {
    i64 *weight = s->weight;
    if (failed >= EMPTY_CELL9) {
        for (int k = 0; k < 3; k++)
            for (int j = 0; j < 9; j++) weight[UNIT_CELLS9[CELL_UNITS9[failed - EMPTY_CELL9][k]][j]]++;
    } else {
        for (int j = 0; j < 9; j++) weight[UNIT_CELLS9[failed][j]]++;
    }
}

static int start9(SearchObject *s, const uint8_t *givens) {
    Board9 *b = s->boards;
    v4 fresh[9];
    for (int d = 0; d < 9; d++) {
        b->digit[d] = ALL9;
        fresh[d] = (v4){0, 0, 0, 0};
    }
    b->placed = (v4){0, 0, 0, 0};
    for (int c = 0; c < 81; c++)
        if (givens[c]) fresh[givens[c] - 1] |= CELL_BIT9[c];
    v4 given = {0, 0, 0, 0};
    for (int d = 0; d < 9; d++) given |= fresh[d];
    for (int d = 0; d < 9; d++) b->digit[d] = (b->digit[d] & ~given) | fresh[d];
    s->depth = 0;
    s->mode = EXPAND;
    s->nodes = 0;
    s->backtracks = 0;
    memcpy(s->weight, s->t->weight0, sizeof(i64) * 81);
    return settle9(b, fresh) == SETTLED;
}

/* The cell to branch on, or -1 when every cell is placed: the general kernel's choice (choose_any). */
INLINE int branch9(const Board9 *b, int canonical, int weighted, const i64 *weight) {
    v4 open = ALL9 & ~b->placed;
    if (!any9(open)) return -1;
    if (canonical) return first9(open);
    if (!weighted) {
        v4 one = {0, 0, 0, 0}, two = {0, 0, 0, 0}, three = {0, 0, 0, 0};
        for (int d = 0; d < 9; d++) {
            v4 x = b->digit[d] & open;
            three |= two & x;
            two |= one & x;
            one |= x;
        }
        v4 pair = two & ~three;
        if (any9(pair)) return first9(pair);
    }
    /* every open cell's digit count, bit-sliced: four boards of a binary counter */
    v4 c1 = {0, 0, 0, 0}, c2 = {0, 0, 0, 0}, c4 = {0, 0, 0, 0}, c8 = {0, 0, 0, 0};
    for (int d = 0; d < 9; d++) {
        v4 x = b->digit[d] & open, carry = c1 & x;
        c1 ^= x;
        v4 carry2 = c2 & carry;
        c2 ^= carry;
        c8 |= c4 & carry2;
        c4 ^= carry2;
    }
    int best = -1;
    i64 fewest = 65, heaviest = 1;
    for (int half = 0; half < 2; half++) { /* lanes 0 and 1 as one word, then lane 2 */
        u64 m = half ? open[2] : ((v2u64)open)[0];
        u64 p1 = half ? c1[2] : ((v2u64)c1)[0], p2 = half ? c2[2] : ((v2u64)c2)[0];
        u64 p4 = half ? c4[2] : ((v2u64)c4)[0], p8 = half ? c8[2] : ((v2u64)c8)[0];
        for (; m; m &= m - 1) {
            int k = __builtin_ctzll(m);
            int cell = CELL_AT9[half ? 2 : k >> 5][k & 31];
            i64 count = (i64)(((p1 >> k) & 1) | ((p2 >> k) & 1) << 1 | ((p4 >> k) & 1) << 2 | ((p8 >> k) & 1) << 3);
            i64 w = weighted ? weight[cell] : 1;
            if (count * heaviest < fewest * w) {
                fewest = count;
                heaviest = w;
                best = cell;
            }
        }
    }
    return best;
}

/* The 9x9 kernel's operations for the shared search (drive, in _search.c). */
INLINE int choose9(SearchObject *s, i64 depth, int canonical, int weighted, u64 *digits) {
    const Board9 *b = s->boards + depth;
    int best = branch9(b, canonical, weighted, s->weight);
    if (best >= 0) *digits = digits_of9(b, best);
    return best;
}

INLINE void copy9(SearchObject *s, i64 from, i64 to) { s->boards[to] = s->boards[from]; }

INLINE int try9(SearchObject *s, i64 level, int cell, u64 bit) {
    Board9 *b = s->boards + level;
    v4 fresh[9];
    for (int e = 0; e < 9; e++) {
        b->digit[e] &= ~CELL_BIT9[cell];
        fresh[e] = (v4){0, 0, 0, 0};
    }
    fresh[__builtin_ctzll(bit)] = CELL_BIT9[cell];
    return settle9(b, fresh);
}

static void solution9(const Board9 *b, uint8_t *digits) {
    for (int d = 0; d < 9; d++)
        for (int lane = 0; lane < 3; lane++)
            for (uint32_t m = b->digit[d][lane]; m; m &= m - 1)
                digits[CELL_AT9[lane][__builtin_ctz(m)]] = (uint8_t)(d + 1);
}

/* Whether tables are standard Sudoku's: every cell's peers its row, column and box, and the complete
 * groups (the only groups) the 9 rows, 9 columns and 9 boxes in some order. */
static int is_standard9(const TablesObject *t) {
    if (t->n != 9 || t->cells != 81 || t->nunits != 27 || t->ngroups != 27) return 0;
    for (int c = 0; c < 81; c++) {
        v4 peers = {0, 0, 0, 0};
        for (int j = 0; j < t->peer_count[c]; j++) peers |= CELL_BIT9[t->peers[c * t->width + j]];
        if (any9(peers ^ PEERS9[c])) return 0;
    }
    int seen[27] = {0};
    for (int u = 0; u < 27; u++) {
        v4 cells = {0, 0, 0, 0};
        for (int j = 0; j < 9; j++) cells |= CELL_BIT9[t->units[u * 9 + j]];
        int match = -1;
        for (int k = 0; k < 27; k++)
            if (!any9(cells ^ UNIT_MASK9[k])) match = k;
        if (match < 0 || seen[match]++) return 0;
    }
    return 1;
}

/* The exact score of a Connect Four position, by search: for boards too big for a table.
 *
 * A board is held as two bit sets of cols * (rows + 1) bits (column c's cells are bits
 * c * (rows + 1) upwards from its bottom; the bit above its top cell is always clear):
 * `mine`, the discs of the player to move, and `taken`, all the discs.
 *
 * The score, for the player to move, says who wins and when:
 *   a win whose last disc is played when m discs are on the board scores (cells + 1 - m) / 2
 *   (so the sooner the higher), a loss the opposite of the winner's score, a tie 0.
 * It is found by negamax with alpha-beta pruning over null windows (each search only asks
 * whether the score is above a value, and the bounds close on it by bisection), with
 *   - moves that give the opponent an immediate win left out, and an immediate loss seen
 *     without a search;
 *   - moves tried by the number of threats (cells that would complete a line) they make,
 *     centre columns first among equals;
 *   - a table of bounds already proved, kept between calls (same board size).
 * The method is the one Pascal Pons describes (http://blog.gamesolver.org); this code is
 * written for the judge, for any board of up to 64 bits and any length of line.
 */

#include <stdint.h>
#include <stdlib.h>

typedef uint64_t bits;

/* An entry of the table holds a bound of a board's score in its low byte (0: none; the
 * score + OFFSET for a lower bound, the score - OFFSET for an upper one) and, above it, the
 * bits of the board's hash that its place in the table does not give. The hash (the key
 * times an odd number) is one to one, so an entry names its board exactly. */
typedef uint64_t entry;

enum { OFFSET = 64, MOVE_MAX = 32, GAVE_UP = -1000 };

typedef struct {
    int rows, cols, connect, cells;
    int order[MOVE_MAX]; /* columns, centre first */
    bits bottom;         /* the bottom cell of each column */
    bits board;          /* every cell */
    entry *table;
    int log_size;        /* the table holds 2**log_size entries */
    long long nodes;     /* positions searched, for the benchmarks */
    long long budget;    /* the positions one score may search (then it gives up) */
    int gave_up;
} searcher;

static bits column_cells(const searcher *s, int c) {
    return (((bits)1 << s->rows) - 1) << (c * (s->rows + 1));
}

static bits shifted(bits x, int by) {
    if (by >= 64 || by <= -64) return 0;
    return by >= 0 ? x >> by : x << -by;
}

/* The empty cells that would complete a line of `discs` (playable now or not). A line
 * never runs through the row of clear bits above the columns, so none wraps around. */
static bits threats(const searcher *s, bits discs, bits taken) {
    const int steps[4] = {1, s->rows + 1, s->rows, s->rows + 2};
    bits found = 0;
    for (int d = 0; d < 4; d++)
        for (int gap = 0; gap < s->connect; gap++) {
            bits cells = s->board;
            for (int i = 0; i < s->connect && cells; i++)
                if (i != gap) cells &= shifted(discs, (i - gap) * steps[d]);
            found |= cells;
        }
    return found & s->board & ~taken;
}

/* The cells a disc may be dropped into now. */
static bits playable(const searcher *s, bits taken) {
    return (taken + s->bottom) & s->board;
}

static int popcount(bits x) { return __builtin_popcountll(x); }

/* The moves that do not let the opponent win at once (0 when every move does). */
static bits safe_moves(const searcher *s, bits mine, bits taken) {
    bits free = playable(s, taken);
    bits theirs = threats(s, mine ^ taken, taken);
    bits forced = free & theirs;
    if (forced) {
        if (forced & (forced - 1)) return 0; /* two to block: lost */
        free = forced;
    }
    return free & ~(theirs >> 1); /* not under a cell where they would win */
}

static bits hash(bits key) { return key * 0x9E3779B97F4A7C15ull; }

static entry *slot(searcher *s, bits h) { return &s->table[h >> (64 - s->log_size)]; }

/* The bound kept for the board of hash h, or 0. */
static int kept(searcher *s, bits h) {
    entry e = *slot(s, h);
    bits rest = h & ((~(bits)0) >> s->log_size);
    return (e >> 8) == rest ? (int8_t)(e & 0xff) : 0;
}

static void keep(searcher *s, bits h, int bound) {
    *slot(s, h) = ((h & ((~(bits)0) >> s->log_size)) << 8) | (uint8_t)(int8_t)bound;
}

/* The score if it lies in (alpha, beta); else a bound beyond the window on the same side.
 * The mover cannot win at once, and no one has won. */
static int negamax(searcher *s, bits mine, bits taken, int alpha, int beta) {
    if (--s->budget < 0) {
        s->gave_up = 1;
        return 0;
    }
    s->nodes++;
    int moves = popcount(taken);
    bits safe = safe_moves(s, mine, taken);
    if (!safe) return -(s->cells - moves) / 2;  /* the opponent wins next move */
    if (moves >= s->cells - 2) return 0;        /* no line left to make: a tie */
    int low = -(s->cells - 2 - moves) / 2;      /* they cannot win on their next move */
    if (alpha < low && (alpha = low) >= beta) return alpha;
    int high = (s->cells - 1 - moves) / 2;      /* nor can we on this one */
    bits h = hash(mine + taken); /* one to one: the discs and the columns' heights */
    int bound = kept(s, h);
    if (bound > 0) low = bound - OFFSET;
    if (bound < 0) high = bound + OFFSET;
    if (alpha < low && (alpha = low) >= beta) return alpha;
    if (beta > high && alpha >= (beta = high)) return beta;

    bits next[MOVE_MAX];
    int score[MOVE_MAX], n = 0;
    for (int i = 0; i < s->cols; i++) { /* by threats made, centre first among equals */
        bits move = safe & column_cells(s, s->order[i]);
        if (!move) continue;
        int made = popcount(threats(s, mine | move, taken | move));
        int j = n++;
        for (; j > 0 && score[j - 1] < made; j--) next[j] = next[j - 1], score[j] = score[j - 1];
        next[j] = move, score[j] = made;
    }
    for (int i = 0; i < n; i++) {
        bits after = taken | next[i];
        int v = -negamax(s, mine ^ taken, after, -beta, -alpha);
        if (s->gave_up) return 0; /* nothing found on the way is kept */
        if (v >= beta) {
            keep(s, h, v + OFFSET);
            return v;
        }
        if (v > alpha) alpha = v;
    }
    keep(s, h, alpha - OFFSET);
    return alpha;
}

/* A searcher for boards of this size, with a table of 2**log_size entries (NULL when the
 * board does not fit in 64 bits or memory is short). */
void *c4_new(int rows, int cols, int connect, int log_size) {
    if (rows < 1 || cols < 1 || cols > MOVE_MAX || cols * (rows + 1) > 64 || connect < 2
        || log_size < 10 || log_size > 48)
        return NULL;
    searcher *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->rows = rows, s->cols = cols, s->connect = connect, s->cells = rows * cols;
    for (int c = 0; c < cols; c++) {
        s->bottom |= (bits)1 << (c * (rows + 1));
        s->board |= column_cells(s, c);
    }
    for (int i = 0, far = 0; far < cols; far++) /* nearest the centre first: 3 2 4 1 5 0 6 */
        for (int c = 0; c < cols; c++)
            if (abs(2 * c - (cols - 1)) == far) s->order[i++] = c;
    s->log_size = log_size;
    s->table = calloc((size_t)1 << log_size, sizeof(entry));
    if (!s->table) {
        free(s);
        return NULL;
    }
    return s;
}

void c4_free(void *handle) {
    searcher *s = handle;
    if (s) free(s->table), free(s);
}

/* The positions searched so far. */
long long c4_nodes(void *handle) { return ((searcher *)handle)->nodes; }

/* The exact score of a position no one has won yet, for the player to move: `mine` their
 * discs, `taken` all the discs; GAVE_UP when it takes more than `budget` positions. */
int c4_score(void *handle, bits mine, bits taken, long long budget) {
    searcher *s = handle;
    s->budget = budget, s->gave_up = 0;
    int moves = popcount(taken);
    if (threats(s, mine, taken) & playable(s, taken)) return (s->cells + 1 - moves) / 2;
    int low = -(s->cells - moves) / 2, high = (s->cells + 1 - moves) / 2;
    while (low < high) { /* ask about values nearer 0 first: they are answered faster */
        int mid = low + (high - low) / 2;
        if (mid <= 0 && low / 2 < mid) mid = low / 2;
        else if (mid >= 0 && high / 2 > mid) mid = high / 2;
        int v = negamax(s, mine, taken, mid, mid + 1);
        if (s->gave_up) return GAVE_UP;
        if (v <= mid) high = v;
        else low = v;
    }
    return low;
}

/* The compiled search of ``backtrack-jit`` as a CPython extension: the same search as the numba
 * kernels (jit_kernels.py), ahead of time, so a process that solves imports neither numpy nor numba.
 *
 * Why C: a process using the numba kernels spends most of a second before its first puzzle (importing
 * numba, loading cached machine code; docs/jit.md); this module loads at once. The algorithm is the one
 * jit.py's docstring describes (bit-set candidates, naked and hidden singles to a fixpoint, dom/wdeg
 * or canonical branching), on the general rule tables (peers, complete groups, every group for
 * failure weights). Cage sums and thermometers are not here: jit.py sends such rules to numba.
 *
 * Standard Sudoku's tables (exactly the rows, columns and boxes of 9x9) take another board and kernel,
 * digit-major bit boards (_search9.h, included below), with the same fixpoint and branching, faster
 * (benchmarks/results/compiled.md). Every other rule set runs here. Hidden singles are swept only in
 * the complete groups whose cells changed (at most 64 groups; more: all).
 *
 * One file: an extension module is one translation unit, and the batch loop and the Python types
 * serve both kernels.
 *
 * Python interface (all tables and arrays through the buffer protocol; bytes, array.array or numpy):
 *   Tables(n, cells, width, peer_count, peers, peer_group, units, group_start, group_cells, weight0[, specialise])
 *       (specialise=False: standard 9x9 tables run on the general kernel too, to compare the two)
 *   Search(tables[, levels]): .start(givens) -> bool, .run(canonical, wdeg, budget) -> FOUND|EXHAUSTED|PAUSED,
 *       .solution() -> bytes, .nodes, .backtracks, .batch(...) -> next index (see batch's docstring).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

typedef uint64_t u64;
typedef int32_t i32;
typedef int64_t i64;

enum { EXPAND = 0, NEXT = 1 };
enum { FOUND = 0, EXHAUSTED = 1, PAUSED = 2 };
#define SETTLED (-1)
#define ONE ((u64)1)
#define INLINE static inline __attribute__((always_inline))

typedef struct {
    PyObject_HEAD
    int n, cells, width, nunits, ngroups;
    int standard9; /* standard Sudoku's tables: take the digit-major kernel (_search9.h) */
    int track;     /* at most 64 complete groups: sweep only those whose cells changed (unit_mask) */
    u64 *unit_mask; /* per cell, the complete groups it is in (bit u: unit u), when track */
    u64 full;
    i32 *peer_count, *peers, *peer_group, *units, *group_start, *group_cells;
    i64 *weight0;
} TablesObject;

typedef struct {
    PyObject_HEAD
    TablesObject *t;
    int capacity; /* levels allocated */
    u64 *cands;   /* capacity rows of cells + 1: the masks, then how many cells are single */
    struct Board9 *boards; /* instead of cands for standard 9x9 tables: capacity boards */
    i32 *fcell;
    u64 *frest;
    i64 *weight;
    i32 *queue;
    i64 depth, mode, nodes, backtracks, solution;
    double times[2]; /* the batch's current puzzle's start: wall and CPU clocks */
} SearchObject;

/* ---------- the kernel, written once over its sizes (constants in the 9x9 instantiation) ---------- */

/* Remove the digit of every queued cell from its peers, queueing the naked singles this makes; with
 * ``track``, the complete groups of every cell that changed are marked in ``*dirty`` (bit u: unit u).
 * SETTLED when the queue ran dry, or the group of a peer left with no digit. */
INLINE int drain(u64 *cand, i32 *queue, int head, int *pqueued, const TablesObject *t, int width, int track,
                 u64 *dirty) {
    int queued = *pqueued;
    u64 marked = track ? *dirty : 0;
    while (head < queued) {
        int cell = queue[head++];
        u64 keep = ~cand[cell];
        int count = t->peer_count[cell];
        const i32 *peers = t->peers + (size_t)cell * width;
        for (int j = 0; j < count; j++) {
            int peer = peers[j];
            u64 mask = cand[peer];
            u64 left = mask & keep;
            cand[peer] = left;
            if (left != mask) {
                if (track) marked |= t->unit_mask[peer];
                if ((left & (left - ONE)) == 0) {
                    if (left == 0) {
                        *pqueued = queued;
                        return t->peer_group[(size_t)cell * width + j];
                    }
                    queue[queued++] = peer;
                }
            }
        }
    }
    *pqueued = queued;
    if (track) *dirty = marked;
    return SETTLED;
}

/* One complete group's hidden singles: SETTLED, or u where a digit has no place or a cell two digits
 * that have no other place. The cells given a digit are queued (not yet drained). */
INLINE int hidden(u64 *cand, i32 *queue, int *pqueued, const TablesObject *t, int u, int n, int track, u64 *dirty) {
    const i32 *unit = t->units + (size_t)u * n;
    u64 once = 0, twice = 0, placed = 0;
    for (int j = 0; j < n; j++) {
        u64 mask = cand[unit[j]];
        twice |= once & mask;
        once |= mask;
        if ((mask & (mask - ONE)) == 0) placed |= mask;
    }
    if (once != t->full) return u;
    u64 single = once & ~twice & ~placed;
    if (single) {
        int queued = *pqueued;
        for (int j = 0; j < n; j++) {
            int cell = unit[j];
            u64 hit = cand[cell] & single;
            if (hit) {
                if (hit & (hit - ONE)) return u;
                cand[cell] = hit;
                if (track) *dirty |= t->unit_mask[cell];
                queue[queued++] = cell;
            }
        }
        *pqueued = queued;
    }
    return SETTLED;
}

/* Singles to a fixpoint from the ``queued`` cells at the head of ``queue``: SETTLED or the group of a
 * contradiction. ``cand[cells]`` counts the single cells; a full board skips the hidden singles. With
 * ``track`` (at most 64 complete groups) only the groups whose cells changed since they were last
 * looked at are swept (``dirty``, to begin with the groups of the cells the caller changed); else
 * all of them, round after round, until a round finds nothing. */
INLINE int propagate(u64 *cand, i32 *queue, int queued, const TablesObject *t, int n, int cells, int width,
                     int nunits, int track, u64 dirty) {
    int open_cells = (int)((u64)cells - cand[cells]);
    int failed = drain(cand, queue, 0, &queued, t, width, track, &dirty);
    if (track) {
        while (failed == SETTLED && dirty && queued < open_cells) {
            int u = __builtin_ctzll(dirty);
            dirty &= dirty - ONE;
            int head = queued;
            failed = hidden(cand, queue, &queued, t, u, n, 1, &dirty);
            if (failed == SETTLED && queued > head)
                failed = drain(cand, queue, head, &queued, t, width, 1, &dirty);
        }
    } else {
        while (failed == SETTLED && queued < open_cells) {
            int swept = queued;
            for (int u = 0; u < nunits && failed == SETTLED; u++) {
                int head = queued;
                failed = hidden(cand, queue, &queued, t, u, n, 0, &dirty);
                if (failed == SETTLED && queued > head)
                    failed = drain(cand, queue, head, &queued, t, width, 0, &dirty);
            }
            if (queued == swept) break;
        }
    }
    if (failed == SETTLED) cand[cells] += (u64)queued;
    return failed;
}

INLINE int start_impl(SearchObject *s, const uint8_t *givens, int n, int cells, int width, int nunits) {
    const TablesObject *t = s->t;
    u64 *cand = s->cands;
    int queued = 0;
    cand[cells] = 0;
    for (int cell = 0; cell < cells; cell++) {
        int digit = givens[cell];
        cand[cell] = digit ? ONE << (digit - 1) : t->full;
        if (digit || t->full == ONE) s->queue[queued++] = cell;
    }
    s->depth = 0;
    s->mode = EXPAND;
    s->nodes = 0;
    s->backtracks = 0;
    memcpy(s->weight, t->weight0, sizeof(i64) * cells);
    int track = t->track;
    return propagate(cand, s->queue, queued, t, n, cells, width, nunits, track,
                     nunits >= 64 ? ~(u64)0 : (ONE << nunits) - ONE) == SETTLED;
}

static int grow(SearchObject *s); /* after _search9.h, which sizes its boards */

/* The search both kernels share: a stack of boards, one level a branching cell (fcell) with the digits
 * it has left to try (frest), trying the last one on its own level's board. A kernel gives four
 * operations, inlined here as constants: choose the cell to branch on (-1: a solution; its digits in
 * *digits), copy a level's board to the next, try a digit at a cell on a level (SETTLED or the failure)
 * and charge a failure to dom/wdeg's weights. Up to ``budget`` nodes from the saved state: FOUND,
 * EXHAUSTED, PAUSED, or -1 (out of memory). */
typedef int (*choose_fn)(SearchObject *s, i64 depth, int canonical, int weighted, u64 *digits);
typedef void (*copy_fn)(SearchObject *s, i64 from, i64 to);
typedef int (*try_fn)(SearchObject *s, i64 level, int cell, u64 bit);
typedef void (*charge_fn)(SearchObject *s, int failed);

INLINE int drive(SearchObject *s, int canonical, int wdeg, i64 budget, choose_fn choose, copy_fn copy, try_fn try,
                 charge_fn charge) {
    i64 depth = s->depth, mode = s->mode, nodes = s->nodes, backtracks = s->backtracks;
    i64 spent = 0;
    int code = PAUSED;
    for (;;) {
        if (mode == EXPAND) {
            u64 digits = 0;
            int best = choose(s, depth, canonical, wdeg && backtracks > 0, &digits);
            if (best < 0) {
                s->solution = depth;
                depth -= 1;
                mode = NEXT;
                code = FOUND;
                break;
            }
            s->fcell[depth] = best;
            s->frest[depth] = digits;
            mode = NEXT;
            continue;
        }
        if (depth < 0) { code = EXHAUSTED; break; }
        u64 rest = s->frest[depth];
        if (rest == 0) { depth -= 1; continue; }
        if (spent >= budget) break;
        u64 bit = rest & (~rest + ONE);
        i64 target = depth;
        if (rest != bit) {
            if (depth + 1 >= s->capacity && grow(s) < 0) { code = -1; break; }
            target = depth + 1;
            copy(s, depth, target);
        }
        s->frest[depth] = rest ^ bit;
        nodes++;
        spent++;
        int failed = try(s, target, s->fcell[depth], bit);
        if (failed == SETTLED) {
            depth = target;
            mode = EXPAND;
        } else {
            backtracks++;
            if (wdeg) charge(s, failed);
            if (target == depth) depth -= 1;
        }
    }
    s->depth = depth;
    s->mode = mode;
    s->nodes = nodes;
    s->backtracks = backtracks;
    return code;
}

/* The general kernel's four operations (board: a row of cells + 1 masks per level). */
INLINE int choose_any(SearchObject *s, i64 depth, int canonical, int weighted, u64 *digits) {
    const int cells = s->t->cells;
    const u64 *row = s->cands + (size_t)depth * (cells + 1);
    const i64 *weight = s->weight;
    int best = -1;
    if (row[cells] == (u64)cells) {
        /* every cell has its digit: a solution */
    } else if (canonical) {
        for (int cell = 0; cell < cells; cell++) {
            u64 mask = row[cell];
            if (mask & (mask - ONE)) { best = cell; break; }
        }
    } else if (weighted) {
        i64 fewest = 65, heaviest = 1;
        for (int cell = 0; cell < cells; cell++) {
            u64 mask = row[cell];
            if (mask & (mask - ONE)) {
                i64 count = __builtin_popcountll(mask);
                if (count * heaviest < fewest * weight[cell]) {
                    fewest = count;
                    heaviest = weight[cell];
                    best = cell;
                }
            }
        }
    } else {
        int fewest = 65;
        for (int cell = 0; cell < cells; cell++) {
            u64 mask = row[cell];
            if (mask & (mask - ONE)) {
                int count = __builtin_popcountll(mask);
                if (count < fewest) {
                    fewest = count;
                    best = cell;
                    if (count == 2) break;
                }
            }
        }
    }
    if (best >= 0) *digits = row[best];
    return best;
}

INLINE void copy_any(SearchObject *s, i64 from, i64 to) {
    const size_t rows = (size_t)s->t->cells + 1;
    memcpy(s->cands + (size_t)to * rows, s->cands + (size_t)from * rows, sizeof(u64) * rows);
}

INLINE int try_any(SearchObject *s, i64 level, int cell, u64 bit) {
    const TablesObject *t = s->t;
    u64 *row = s->cands + (size_t)level * (t->cells + 1);
    row[cell] = bit;
    s->queue[0] = cell;
    return propagate(row, s->queue, 1, t, t->n, t->cells, t->width, t->nunits, t->track,
                     t->track ? t->unit_mask[cell] : 0);
}

INLINE void charge_any(SearchObject *s, int failed) {
    const TablesObject *t = s->t;
    for (int j = t->group_start[failed]; j < t->group_start[failed + 1]; j++) s->weight[t->group_cells[j]]++;
}

/* Standard 9x9 tables take the digit-major kernel of _search9.h; every other rule set this one. */
#include "_search9.h"

/* Double the levels of the stack. */
static int grow(SearchObject *s) {
    int capacity = s->capacity * 2;
    if (s->t->standard9) {
        Board9 *boards = PyMem_RawRealloc(s->boards, sizeof(Board9) * (size_t)capacity);
        if (!boards) return -1;
        s->boards = boards;
    } else {
        u64 *cands = PyMem_RawRealloc(s->cands, sizeof(u64) * (size_t)(s->t->cells + 1) * capacity);
        if (!cands) return -1;
        s->cands = cands;
    }
    i32 *fcell = PyMem_RawRealloc(s->fcell, sizeof(i32) * capacity);
    if (!fcell) return -1;
    s->fcell = fcell;
    u64 *frest = PyMem_RawRealloc(s->frest, sizeof(u64) * capacity);
    if (!frest) return -1;
    s->frest = frest;
    s->capacity = capacity;
    return 0;
}

static int start(SearchObject *s, const uint8_t *g) {
    const TablesObject *t = s->t;
    return t->standard9 ? start9(s, g) : start_impl(s, g, t->n, t->cells, t->width, t->nunits);
}
static int search(SearchObject *s, int canonical, int wdeg, i64 budget) {
    const TablesObject *t = s->t;
    return t->standard9 ? drive(s, canonical, wdeg, budget, choose9, copy9, try9, charge9)
                        : drive(s, canonical, wdeg, budget, choose_any, copy_any, try_any, charge_any);
}
static void solution(const SearchObject *s, uint8_t *digits) {
    if (s->t->standard9) {
        solution9(s->boards + s->solution, digits);
        return;
    }
    int cells = s->t->cells;
    const u64 *row = s->cands + (size_t)s->solution * (cells + 1);
    for (int c = 0; c < cells; c++) digits[c] = (uint8_t)(__builtin_ctzll(row[c]) + 1);
}

/* ---------- Tables ---------- */

static void *copy_buffer(Py_buffer *b, Py_ssize_t want_bytes, const char *what) {
    if (b->len != want_bytes) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, expected %zd", what, b->len, want_bytes);
        return NULL;
    }
    void *p = PyMem_Malloc(want_bytes ? want_bytes : 1);
    if (!p) { PyErr_NoMemory(); return NULL; }
    memcpy(p, b->buf, want_bytes);
    return p;
}

static void Tables_dealloc(TablesObject *self) {
    PyMem_Free(self->peer_count);
    PyMem_Free(self->peers);
    PyMem_Free(self->peer_group);
    PyMem_Free(self->units);
    PyMem_Free(self->group_start);
    PyMem_Free(self->group_cells);
    PyMem_Free(self->weight0);
    PyMem_Free(self->unit_mask);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Tables_init(TablesObject *self, PyObject *args, PyObject *kwds) {
    int n, cells, width, specialise = 1;
    Py_buffer b[7];
    if (!PyArg_ParseTuple(args, "iiiy*y*y*y*y*y*y*|p", &n, &cells, &width, &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
                          &b[6], &specialise))
        return -1;
    int ok = 0;
    if (n < 1 || n > 64 || cells < 1 || width < 0) {
        PyErr_SetString(PyExc_ValueError, "n must lie in 1..64, cells be positive");
        goto done;
    }
    self->n = n;
    self->cells = cells;
    self->width = width;
    self->full = n == 64 ? ~(u64)0 : (ONE << n) - ONE;
    if (b[3].len % (sizeof(i32) * n) || b[4].len < (Py_ssize_t)sizeof(i32)) {
        PyErr_SetString(PyExc_ValueError, "units must be n int32 each; group_start at least one");
        goto done;
    }
    self->nunits = (int)(b[3].len / (sizeof(i32) * n));
    self->ngroups = (int)(b[4].len / sizeof(i32)) - 1;
    if (!(self->peer_count = copy_buffer(&b[0], sizeof(i32) * cells, "peer_count"))) goto done;
    if (!(self->peers = copy_buffer(&b[1], sizeof(i32) * (Py_ssize_t)cells * width, "peers"))) goto done;
    if (!(self->peer_group = copy_buffer(&b[2], sizeof(i32) * (Py_ssize_t)cells * width, "peer_group"))) goto done;
    if (!(self->units = copy_buffer(&b[3], b[3].len, "units"))) goto done;
    if (!(self->group_start = copy_buffer(&b[4], b[4].len, "group_start"))) goto done;
    if (!(self->group_cells = copy_buffer(&b[5], sizeof(i32) * (Py_ssize_t)self->group_start[self->ngroups],
                                          "group_cells")))
        goto done;
    if (!(self->weight0 = copy_buffer(&b[6], sizeof(i64) * cells, "weight0"))) goto done;
    /* every index in range, so the kernel never reads outside its tables */
    for (Py_ssize_t i = 0; i < (Py_ssize_t)cells * width; i++) {
        int cell = (int)(i / width);
        if (i % width >= self->peer_count[cell]) continue;
        if (self->peers[i] < 0 || self->peers[i] >= cells || self->peer_group[i] < 0 ||
            self->peer_group[i] >= self->ngroups) {
            PyErr_SetString(PyExc_ValueError, "a peer or its group out of range");
            goto done;
        }
    }
    for (int c = 0; c < cells; c++)
        if (self->peer_count[c] < 0 || self->peer_count[c] > width) {
            PyErr_SetString(PyExc_ValueError, "a peer count out of range");
            goto done;
        }
    for (Py_ssize_t i = 0; i < (Py_ssize_t)self->nunits * n; i++)
        if (self->units[i] < 0 || self->units[i] >= cells) {
            PyErr_SetString(PyExc_ValueError, "a unit's cell out of range");
            goto done;
        }
    if (self->nunits > self->ngroups) {
        PyErr_SetString(PyExc_ValueError, "the complete groups come first among the groups");
        goto done;
    }
    for (int g = 0; g < self->ngroups; g++)
        if (self->group_start[g] < 0 || self->group_start[g] > self->group_start[g + 1]) {
            PyErr_SetString(PyExc_ValueError, "group_start must rise");
            goto done;
        }
    for (i32 j = 0; j < self->group_start[self->ngroups]; j++)
        if (self->group_cells[j] < 0 || self->group_cells[j] >= cells) {
            PyErr_SetString(PyExc_ValueError, "a group's cell out of range");
            goto done;
        }
    self->track = self->nunits <= 64;
    if (!(self->unit_mask = PyMem_Calloc(cells, sizeof(u64)))) {
        PyErr_NoMemory();
        goto done;
    }
    if (self->track)
        for (int u = 0; u < self->nunits; u++)
            for (int j = 0; j < n; j++) self->unit_mask[self->units[u * n + j]] |= ONE << u;
    self->standard9 = specialise && is_standard9(self);
    ok = 1;
done:
    for (int i = 0; i < 7; i++) PyBuffer_Release(&b[i]);
    return ok ? 0 : -1;
}

static PyObject *Tables_get_standard9(TablesObject *self, void *closure) { return PyBool_FromLong(self->standard9); }

static PyGetSetDef Tables_getset[] = {
    {"specialised", (getter)Tables_get_standard9, NULL, "whether the standard 9x9 kernel (_search9.h) runs these tables", NULL},
    {NULL}};

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sudokulab.solvers._search.Tables",
    .tp_basicsize = sizeof(TablesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The index tables of one rule set, copied in.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Tables_init,
    .tp_dealloc = (destructor)Tables_dealloc,
    .tp_getset = Tables_getset,
};

/* ---------- Search ---------- */

static void Search_dealloc(SearchObject *self) {
    PyMem_RawFree(self->cands); /* the stack: Raw, as grow() may run without the GIL (batch) */
    PyMem_RawFree(self->boards);
    PyMem_RawFree(self->fcell);
    PyMem_RawFree(self->frest);
    PyMem_Free(self->weight);
    PyMem_Free(self->queue);
    Py_XDECREF(self->t);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Search_init(SearchObject *self, PyObject *args, PyObject *kwds) {
    PyObject *t;
    int levels = 64;
    (void)kwds;
    if (!PyArg_ParseTuple(args, "O!|i", &TablesType, &t, &levels)) return -1;
    Py_INCREF(t);
    Py_XSETREF(self->t, (TablesObject *)t);
    int cells = self->t->cells;
    int capacity = levels < 1 ? 1 : cells + 1 < levels ? cells + 1 : levels; /* grows past it when needed */
    self->capacity = capacity;
    if (self->t->standard9)
        self->boards = PyMem_RawCalloc(capacity, sizeof(Board9));
    else
        self->cands = PyMem_RawCalloc((size_t)(cells + 1) * capacity, sizeof(u64));
    self->fcell = PyMem_RawCalloc(capacity, sizeof(i32));
    self->frest = PyMem_RawCalloc(capacity, sizeof(u64));
    self->weight = PyMem_Calloc(cells, sizeof(i64));
    self->queue = PyMem_Calloc(cells, sizeof(i32));
    if ((!self->cands && !self->boards) || !self->fcell || !self->frest || !self->weight || !self->queue) {
        PyErr_NoMemory();
        return -1;
    }
    self->mode = -1;
    return 0;
}

static PyObject *Search_start(SearchObject *self, PyObject *arg) {
    Py_buffer g;
    if (PyObject_GetBuffer(arg, &g, PyBUF_SIMPLE) < 0) return NULL;
    if (g.len != self->t->cells) {
        PyBuffer_Release(&g);
        return PyErr_Format(PyExc_ValueError, "givens: %zd bytes, expected %d", g.len, self->t->cells);
    }
    const uint8_t *digits = g.buf;
    for (int c = 0; c < self->t->cells; c++)
        if (digits[c] > self->t->n) {
            PyBuffer_Release(&g);
            return PyErr_Format(PyExc_ValueError, "givens must lie in 0..%d", self->t->n);
        }
    int ok = start(self, digits);
    PyBuffer_Release(&g);
    return PyBool_FromLong(ok);
}

static PyObject *Search_run(SearchObject *self, PyObject *args) {
    int canonical, wdeg;
    long long budget;
    if (!PyArg_ParseTuple(args, "ppL", &canonical, &wdeg, &budget)) return NULL;
    if (self->mode < 0) return PyErr_Format(PyExc_RuntimeError, "run before start");
    int code = search(self, canonical, wdeg, budget);
    if (code < 0) return PyErr_NoMemory();
    return PyLong_FromLong(code);
}

static PyObject *Search_solution(SearchObject *self, PyObject *unused) {
    int cells = self->t->cells;
    PyObject *out = PyBytes_FromStringAndSize(NULL, cells);
    if (!out) return NULL;
    solution(self, (uint8_t *)PyBytes_AS_STRING(out));
    return out;
}

static double clock_seconds(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int need(Py_buffer *b, Py_ssize_t bytes, const char *what) {
    if (b->len < bytes) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, at least %zd expected", what, b->len, bytes);
        return 0;
    }
    return 1;
}

/* batch(givens, start, wdeg, status, grids, wall, cpu, nodes, backtracks, limit, check_every, slice_seconds)
 * Solves puzzles from ``start`` until the slice's time is up; the index to resume from. givens: k * cells
 * uint8; status int8, grids k * cells uint8, wall and cpu float64, nodes and backtracks int64 (written).
 * A puzzle's wall clock runs from the end of the one before (``times``, kept across slices; reset_clock
 * sets it); its CPU seconds are the slice's, shared out by wall time. Status: 0 solved, 1 no solution, 2 time limit (``limit`` > 0 seconds a puzzle). */
static PyObject *Search_batch(SearchObject *self, PyObject *args) {
    Py_buffer gb, sb, grb, wb, cb, nb, bb;
    Py_ssize_t start_index;
    int wdeg;
    long long check_every;
    double limit, slice_seconds;
    if (!PyArg_ParseTuple(args, "y*npw*w*w*w*w*w*dLd", &gb, &start_index, &wdeg, &sb, &grb, &wb, &cb, &nb, &bb,
                          &limit, &check_every, &slice_seconds))
        return NULL;
    PyObject *result = NULL;
    int cells = self->t->cells;
    Py_ssize_t k = gb.len / cells;
    if (gb.len % cells) {
        PyErr_SetString(PyExc_ValueError, "givens: a whole number of puzzles");
        goto done;
    }
    if (!need(&sb, k, "status") || !need(&grb, k * cells, "grids") || !need(&wb, 8 * k, "wall") ||
        !need(&cb, 8 * k, "cpu") || !need(&nb, 8 * k, "nodes") || !need(&bb, 8 * k, "backtracks"))
        goto done;
    const uint8_t *givens = gb.buf;
    int8_t *status = sb.buf;
    uint8_t *grids = grb.buf;
    double *wall = wb.buf, *cpu = cb.buf;
    i64 *nodes = nb.buf, *backtracks = bb.buf;
    for (Py_ssize_t j = start_index * cells; j < k * cells; j++) /* all first: the loop runs without the GIL */
        if (givens[j] > self->t->n) {
            PyErr_Format(PyExc_ValueError, "givens must lie in 0..%d", self->t->n);
            goto done;
        }
    int out_of_memory = 0;
    Py_ssize_t i = start_index;
    double spent, spent_cpu;
    /* Without the GIL: another thread (bench's bookkeeping of the last batch) runs meanwhile. So the CPU
     * clock is this thread's, and one Search is not to be used by two threads at once. */
    Py_BEGIN_ALLOW_THREADS
    double began = clock_seconds(CLOCK_MONOTONIC), began_cpu = clock_seconds(CLOCK_THREAD_CPUTIME_ID);
    double slice_end = began + slice_seconds;
    while (i < k && !out_of_memory) {
        int code = PAUSED;
        if (self->mode < 0) code = start(self, givens + i * cells) ? PAUSED : EXHAUSTED;
        while (code == PAUSED) {
            code = search(self, 0, wdeg, check_every);
            if (code < 0) {
                out_of_memory = 1;
                break;
            }
            if (code == PAUSED) {
                double now = clock_seconds(CLOCK_MONOTONIC);
                if (limit > 0.0 && now - self->times[0] >= limit) break;
                if (now >= slice_end) goto slice_done;
            }
        }
        if (out_of_memory) break;
        if (code == FOUND) {
            status[i] = 0;
            solution(self, grids + i * cells);
        } else {
            status[i] = code == EXHAUSTED ? 1 : 2;
        }
        nodes[i] = self->nodes;
        backtracks[i] = self->backtracks;
        double now = clock_seconds(CLOCK_MONOTONIC);
        wall[i] = now - self->times[0];
        self->times[0] = now;
        self->mode = -1;
        i++;
        if (now >= slice_end) break;
    }
slice_done:;
    /* The CPU clock is a system call (the wall clock is not): read once a slice, and the slice's CPU
     * time shared among its puzzles in proportion to their wall times. */
    spent = clock_seconds(CLOCK_MONOTONIC) - began;
    spent_cpu = clock_seconds(CLOCK_THREAD_CPUTIME_ID) - began_cpu;
    Py_END_ALLOW_THREADS
    if (out_of_memory) {
        PyErr_NoMemory();
        goto done;
    }
    double ratio = spent > 0 ? spent_cpu / spent : 1.0;
    for (Py_ssize_t j = start_index; j < i; j++) cpu[j] = wall[j] * ratio;
    result = PyLong_FromSsize_t(i);
done:
    PyBuffer_Release(&gb);
    PyBuffer_Release(&sb);
    PyBuffer_Release(&grb);
    PyBuffer_Release(&wb);
    PyBuffer_Release(&cb);
    PyBuffer_Release(&nb);
    PyBuffer_Release(&bb);
    return result;
}

static PyObject *Search_reset_clock(SearchObject *self, PyObject *unused) {
    self->times[0] = clock_seconds(CLOCK_MONOTONIC);
    self->times[1] = clock_seconds(CLOCK_THREAD_CPUTIME_ID);
    self->mode = -1;
    Py_RETURN_NONE;
}

static PyObject *Search_get_nodes(SearchObject *self, void *c) { return PyLong_FromLongLong(self->nodes); }
static PyObject *Search_get_backtracks(SearchObject *self, void *c) { return PyLong_FromLongLong(self->backtracks); }

static PyMethodDef Search_methods[] = {
    {"start", (PyCFunction)Search_start, METH_O, "Place the givens (cells bytes) and settle: False on a contradiction."},
    {"run", (PyCFunction)Search_run, METH_VARARGS, "run(canonical, wdeg, budget): FOUND, EXHAUSTED or PAUSED."},
    {"solution", (PyCFunction)Search_solution, METH_NOARGS, "The solution FOUND last, as digits (bytes)."},
    {"batch", (PyCFunction)Search_batch, METH_VARARGS, "A slice of the batch loop; the index to resume from."},
    {"reset_clock", (PyCFunction)Search_reset_clock, METH_NOARGS, "Start a batch: clocks now, no puzzle open."},
    {NULL}};

static PyGetSetDef Search_getset[] = {
    {"nodes", (getter)Search_get_nodes, NULL, "digits tried at a branching cell", NULL},
    {"backtracks", (getter)Search_get_backtracks, NULL, "tries whose propagation failed", NULL},
    {NULL}};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sudokulab.solvers._search.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One resumable search over a Tables.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_search",
                                    "backtrack-jit's search, compiled ahead of time (see _search.c).", -1, NULL};

PyMODINIT_FUNC PyInit__search(void) {
    init_tables9();
    if (PyType_Ready(&TablesType) < 0 || PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&TablesType);
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Tables", (PyObject *)&TablesType) < 0 ||
        PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0 || PyModule_AddIntConstant(m, "FOUND", FOUND) < 0 ||
        PyModule_AddIntConstant(m, "EXHAUSTED", EXHAUSTED) < 0 || PyModule_AddIntConstant(m, "PAUSED", PAUSED) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

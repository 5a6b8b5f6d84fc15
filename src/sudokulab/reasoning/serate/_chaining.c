/* SE's chaining rules compiled: the same algorithm as chaining.py, chain_hints.py and potentials.py,
 * step for step (those modules are the reference; tests/reasoning/test_serate.py holds the two to the
 * same hints). Built at install time where a compiler is there (setup.py, optional); without it the
 * Python port runs, slower.
 *
 * One entry point, hints(values, cands, multiple, dynamic, nishio, level): every hint of one chaining
 * rule on a grid, sorted and deduplicated as SE does, each as a tuple (see make_result). Inside,
 * potentials are nodes of an arena (code, cause, parents); a nested level's inner rules run on the
 * grid as the chain left it, and what they strike comes back as "off" nodes whose parents are the
 * chain's nodes the hint rests on. An inner rule's own nodes are released once its strikes are
 * taken: a nested chain is remembered only by its complexity and its key (SE's FullChain). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NCODES 1620
#define NAKED 0
#define ADVANCED 4
#define NOCAUSE -1

static int REG[27][9], CREG[81][3], CIDX[81][3], HOUSE[81][20];
static uint16_t INSIDE[27][27];
static uint8_t INHOUSE[81][81];
static int PAIRI[36], PAIRJ[36], PAIRIDX[9][9];

static void init_tables(void) {
    for (int b = 0; b < 9; b++)
        for (int i = 0; i < 9; i++) REG[b][i] = 9 * (3 * (b / 3) + i / 3) + 3 * (b % 3) + i % 3;
    for (int r = 0; r < 9; r++)
        for (int i = 0; i < 9; i++) REG[9 + r][i] = 9 * r + i;
    for (int c = 0; c < 9; c++)
        for (int i = 0; i < 9; i++) REG[18 + c][i] = 9 * i + c;
    for (int c = 0; c < 81; c++) {
        CREG[c][0] = (c / 27) * 3 + (c % 9) / 3;
        CREG[c][1] = 9 + c / 9;
        CREG[c][2] = 18 + c % 9;
        for (int k = 0; k < 3; k++)
            for (int i = 0; i < 9; i++)
                if (REG[CREG[c][k]][i] == c) CIDX[c][k] = i;
    }
    for (int c = 0; c < 81; c++) {
        int n = 0;
        uint8_t seen[81] = {0};
        seen[c] = 1;
        for (int k = 0; k < 3; k++)
            for (int i = 0; i < 9; i++) {
                int o = REG[CREG[c][k]][i];
                if (!seen[o]) { seen[o] = 1; HOUSE[c][n++] = o; INHOUSE[c][o] = 1; }
            }
    }
    for (int a = 0; a < 27; a++)
        for (int b = 0; b < 27; b++) {
            uint16_t m = 0;
            for (int i = 0; i < 9; i++)
                for (int j = 0; j < 9; j++)
                    if (REG[a][i] == REG[b][j]) m |= (uint16_t)(1 << i);
            INSIDE[a][b] = m;
        }
    int n = 0;  /* pairs in SE's order: by the value of their bit mask */
    for (int j = 0; j < 9; j++)
        for (int i = 0; i < j; i++) { PAIRI[n] = i; PAIRJ[n] = j; PAIRIDX[i][j] = n; n++; }
}

static inline int popcount(unsigned x) { return __builtin_popcount(x); }
static inline int lowbit(unsigned x) { return __builtin_ctz(x); }
static inline int code_of(int cell, int v, int on) { return ((cell * 10 + v) << 1) | on; }
static inline int cell_of(int code) { return (code >> 1) / 10; }
static inline int value_of(int code) { return (code >> 1) % 10; }

typedef struct { uint16_t c[81]; uint16_t p[270]; uint8_t v[81]; } Grid;

static inline void strike(Grid *g, int cell, int v) {
    uint16_t b = (uint16_t)(1 << v);
    if (g->c[cell] & b) {
        g->c[cell] &= (uint16_t)~b;
        for (int k = 0; k < 3; k++) g->p[CREG[cell][k] * 10 + v] &= (uint16_t)~(1 << CIDX[cell][k]);
    }
}

/* --- The arena of nodes (potentials). ---------------------------------------------------------------- */

typedef struct { int16_t code; int8_t cause; int32_t np, po; int32_t ncx; uint64_t nkey; } Node;

static Node *NODES;
static int NN, NCAP;
static int32_t *PAR;
static int NP, PCAP;
static int FAILED; /* a memory failure or SE's "parent not found": the call raises */

static int new_node(int code, int cause, const int32_t *parents, int np, int ncx, uint64_t nkey) {
    if (NN == NCAP) {
        int cap = NCAP ? NCAP * 2 : 65536;
        Node *grown = realloc(NODES, sizeof(Node) * (size_t)cap);
        if (!grown) { FAILED = 1; return 0; }
        NODES = grown; NCAP = cap;
    }
    while (NP + np > PCAP) {
        int cap = PCAP ? PCAP * 2 : 262144;
        int32_t *grown = realloc(PAR, sizeof(int32_t) * (size_t)cap);
        if (!grown) { FAILED = 1; return 0; }
        PAR = grown; PCAP = cap;
    }
    Node *n = &NODES[NN];
    n->code = (int16_t)code; n->cause = (int8_t)cause; n->np = np; n->po = NP; n->ncx = ncx; n->nkey = nkey;
    if (np) memcpy(PAR + NP, parents, sizeof(int32_t) * (size_t)np);
    NP += np;
    return NN++;
}

static inline int first_parent(int id) { return NODES[id].np ? PAR[NODES[id].po] : -1; }

/* SE's isParent: whether code is on child's line of first parents (child itself left out). */
static int is_parent(int child, int code) {
    int p = first_parent(child);
    while (p >= 0) {
        if (NODES[p].code == code) return 1;
        p = first_parent(p);
    }
    return 0;
}

/* --- Ancestors, chains, keys. ---------------------------------------------------------------------- */

static int32_t SEEN[NCODES];
static int32_t STAMP;
static int32_t *QUEUE;
static int QCAP;

static int queue_room(int n) {
    if (n <= QCAP) return 1;
    int cap = QCAP ? QCAP : 4096;
    while (cap < n) cap *= 2;
    int32_t *grown = realloc(QUEUE, sizeof(int32_t) * (size_t)cap);
    if (!grown) { FAILED = 1; return 0; }
    QUEUE = grown; QCAP = cap;
    return 1;
}

static int next_stamp(void) {
    if (++STAMP == INT32_MAX) { memset(SEEN, 0, sizeof SEEN); STAMP = 1; }
    return STAMP;
}

/* Breadth first from a node, each code expanded once (SE's getChain / getAncestorCount): the nodes
 * expanded, in order, written to QUEUE[0..n). Returns n. */
static int chain_of(int target) {
    int stamp = next_stamp();
    int head = 0, tail = 0, out = 0;
    /* the queue holds candidates; expanded ones are compacted to the front as they are met */
    if (!queue_room(64)) return 0;
    QUEUE[tail++] = target;
    while (head < tail) {
        int id = QUEUE[head++];
        int code = NODES[id].code;
        if (SEEN[code] == stamp) continue;
        SEEN[code] = stamp;
        int np = NODES[id].np;
        if (!queue_room(tail + np + 1)) return 0;
        QUEUE[out++] = id; /* out <= head - 1 < tail: never overwrites a pending entry */
        memcpy(QUEUE + tail, PAR + NODES[id].po, sizeof(int32_t) * (size_t)np);
        tail += np;
    }
    return out;
}

static int ancestor_count(int target) { return chain_of(target); }

static double length_bonus(int complexity) {
    double added = 0.0;
    int ceil = 4, length = complexity - 2, odd = 0;
    while (length > ceil) {
        added += 0.1;
        ceil = !odd ? ceil * 3 / 2 : ceil * 4 / 3;
        odd = !odd;
    }
    return added;
}

/* --- Hints. ------------------------------------------------------------------------------------------ */

enum { FORCING, CYCLE, BINARY, CELLCHAIN, REGIONCHAIN };

typedef struct {
    int kind, is_x, is_y, absurd, sort_key;
    double difficulty;
    int complexity, flat;
    int nt;
    int32_t t[9];
    int nrem;
    uint8_t rcell[81];
    uint16_t rmask[81];
    int cell, value;
    int extra;  /* forcing: the target's ancestor count; cycle: its cells; region: the region */
    uint64_t rhash;
} Hint;

typedef struct { Hint *h; int n, cap; } Hints;

static Hint *hint_new(Hints *hs) {
    if (hs->n == hs->cap) {
        int cap = hs->cap ? hs->cap * 2 : 64;
        Hint *grown = realloc(hs->h, sizeof(Hint) * (size_t)cap);
        if (!grown) { FAILED = 1; return NULL; }
        hs->h = grown; hs->cap = cap;
    }
    Hint *h = &hs->h[hs->n++];
    memset(h, 0, offsetof(Hint, rcell));
    h->cell = -1; h->value = 0; h->nrem = 0; h->extra = 0;
    return h;
}

static void hint_remove(Hint *h, int cell, uint16_t mask) { /* cells kept ascending */
    if (!mask) return;
    int i = 0;
    while (i < h->nrem && h->rcell[i] < cell) i++;
    if (i < h->nrem && h->rcell[i] == cell) { h->rmask[i] |= mask; return; }
    memmove(h->rcell + i + 1, h->rcell + i, (size_t)(h->nrem - i));
    memmove(h->rmask + i + 1, h->rmask + i, sizeof(uint16_t) * (size_t)(h->nrem - i));
    h->rcell[i] = (uint8_t)cell; h->rmask[i] = mask; h->nrem++;
}

/* Complexity: the ancestors of the targets that count (a cycle counts only its first), plus each
 * distinct nested chain among every target's ancestors. */
static int hint_complexity(Hint *h) {
    int flat = 0;
    int counted = h->kind == CYCLE ? 1 : h->nt;
    for (int i = 0; i < counted; i++) flat += ancestor_count(h->t[i]);
    uint64_t keys[256];
    int nkeys = 0, nested = 0;
    for (int i = 0; i < h->nt; i++) {
        int n = chain_of(h->t[i]);
        for (int j = 0; j < n; j++) {
            const Node *node = &NODES[QUEUE[j]];
            if (!node->nkey) continue;
            int known = 0;
            for (int k = 0; k < nkeys; k++)
                if (keys[k] == node->nkey) { known = 1; break; }
            if (!known) {
                if (nkeys < 256) keys[nkeys++] = node->nkey;
                nested += node->ncx;
            }
        }
    }
    h->flat = flat;
    return flat + nested;
}

static uint64_t fnv(uint64_t h, uint64_t x) { return (h ^ x) * 1099511628211ULL; }

/* SE's FullChain: the targets, and each one's chain, as one 64-bit key (never 0). */
static uint64_t hint_key(const Hint *h) {
    uint64_t k = 1469598103934665603ULL;
    for (int i = 0; i < h->nt; i++) k = fnv(k, (uint64_t)NODES[h->t[i]].code + 7);
    for (int i = 0; i < h->nt; i++) {
        int n = chain_of(h->t[i]);
        for (int j = 0; j < n; j++) k = fnv(k, (uint64_t)NODES[QUEUE[j]].code + 1);
        k = fnv(k, 99991);
    }
    return k ? k : 1;
}

static void hint_rate(Hint *h, double base) {
    h->complexity = hint_complexity(h);
    h->difficulty = base + length_bonus(h->complexity);
    uint64_t k = 1469598103934665603ULL;
    for (int i = 0; i < h->nrem; i++) k = fnv(fnv(k, h->rcell[i]), h->rmask[i]);
    h->rhash = k;
}

static int same_strikes(const Hint *a, const Hint *b) {
    return a->rhash == b->rhash && a->nrem == b->nrem && !memcmp(a->rcell, b->rcell, (size_t)a->nrem)
           && !memcmp(a->rmask, b->rmask, sizeof(uint16_t) * (size_t)a->nrem);
}

static int hint_before(const Hint *a, const Hint *b) {
    if (a->difficulty != b->difficulty) return a->difficulty < b->difficulty;
    if (a->complexity != b->complexity) return a->complexity < b->complexity;
    return a->sort_key < b->sort_key;
}

/* Sort (stably, SE's Collections.sort) and keep the first of each set of strikes. */
static void hints_finish(Hints *hs) {
    int n = hs->n;
    if (n <= 1) return;
    Hint *tmp = malloc(sizeof(Hint) * (size_t)n);
    if (!tmp) { FAILED = 1; return; }
    for (int width = 1; width < n; width *= 2) { /* bottom-up merge sort: stable */
        for (int lo = 0; lo < n; lo += 2 * width) {
            int mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi) tmp[k++] = hint_before(&hs->h[j], &hs->h[i]) ? hs->h[j++] : hs->h[i++];
            while (i < mid) tmp[k++] = hs->h[i++];
            while (j < hi) tmp[k++] = hs->h[j++];
        }
        memcpy(hs->h, tmp, sizeof(Hint) * (size_t)n);
    }
    free(tmp);
    int kept = 0;
    for (int i = 0; i < n; i++) {
        int dup = 0;
        for (int j = 0; j < kept && !dup; j++) dup = same_strikes(&hs->h[j], &hs->h[i]);
        if (!dup) { if (kept != i) hs->h[kept] = hs->h[i]; kept++; }
    }
    hs->n = kept;
}

/* --- The rules. -------------------------------------------------------------------------------------- */

typedef struct { int multiple, dynamic, nishio, level; double difficulty; } Rule;

static Rule make_rule(int multiple, int dynamic, int nishio, int level) {
    Rule r = {multiple, dynamic, nishio, level, 0.0};
    if (level >= 2) r.difficulty = 9.5 + 0.5 * (level - 2);
    else if (level > 0) r.difficulty = 8.5 + 0.5 * level;
    else if (nishio) r.difficulty = 7.5;
    else if (dynamic) r.difficulty = 8.5;
    else if (multiple) r.difficulty = 8.0;
    return r;
}

static void chaining_hints(const Rule *rule, Grid *g, Hints *out);

/* --- Links. ------------------------------------------------------------------------------------------ */

typedef struct { int code, cause; } Link;

/* What an "on" potential turns off, in SE's order (its getOnToOff). */
static int on_to_off(const Grid *g, int code, int y, Link *out) {
    int cell = cell_of(code), v = value_of(code), n = 0;
    if (y) {
        unsigned m = g->c[cell] & ~(1u << v);
        while (m) { int w = lowbit(m); m &= m - 1; out[n].code = code_of(cell, w, 0); out[n].cause = NAKED; n++; }
    }
    uint8_t seen[81];
    memset(seen, 0, sizeof seen);
    for (int k = 0; k < 3; k++) {
        int r = CREG[cell][k];
        unsigned places = g->p[r * 10 + v];
        while (places) {
            int i = lowbit(places); places &= places - 1;
            int other = REG[r][i];
            if (other != cell && !seen[other]) {
                seen[other] = 1; out[n].code = code_of(other, v, 0); out[n].cause = 1 + k; n++;
            }
        }
    }
    return n;
}

typedef struct { int code, cause, np; int32_t parents[10]; } OnLink;

/* What an "off" potential turns on (its getOffToOn); with a source grid, each also rests on the
 * candidates struck since then in its cell or region (their nodes from offs). */
static int off_to_on(const Grid *g, int pid, const Grid *source, const int32_t *offs, int y, int x, OnLink *out) {
    int code = NODES[pid].code, cell = cell_of(code), v = value_of(code), n = 0;
    if (y) {
        unsigned m = g->c[cell];
        if (popcount(m) == 2) {
            int w = lowbit(m & ~(1u << v));
            OnLink *o = &out[n++];
            o->code = code_of(cell, w, 1); o->cause = NAKED; o->np = 0; o->parents[o->np++] = pid;
            if (source) {
                unsigned gone = source->c[cell] & ~m;
                while (gone) {
                    int u = lowbit(gone); gone &= gone - 1;
                    int q = offs[code_of(cell, u, 0)];
                    if (q < 0) { FAILED = 2; return 0; }
                    o->parents[o->np++] = q;
                }
            }
        }
    }
    if (x) {
        for (int k = 0; k < 3; k++) {
            int r = CREG[cell][k], base = r * 10 + v;
            unsigned places = g->p[base];
            if (popcount(places) != 2) continue;
            int i1 = lowbit(places), other = REG[r][i1];
            if (other == cell) other = REG[r][lowbit(places & (places - 1))];
            int c2 = code_of(other, v, 1);
            int dup = 0;
            for (int j = 0; j < n; j++) dup |= out[j].code == c2;
            OnLink tmp;
            tmp.code = c2; tmp.cause = 1 + k; tmp.np = 0; tmp.parents[tmp.np++] = pid;
            if (source) {
                unsigned gone = source->p[base] & ~places;
                while (gone) {
                    int i = lowbit(gone); gone &= gone - 1;
                    int q = offs[code_of(REG[r][i], v, 0)];
                    if (q < 0) { FAILED = 2; return 0; }
                    if (tmp.np < 10) tmp.parents[tmp.np++] = q;
                }
            }
            if (!dup) out[n++] = tmp;
        }
    }
    return n;
}

/* --- Forcing chains and cycles (SE's unary chaining). ----------------------------------------------- */

typedef struct { int32_t *a; int n, cap; } Ids;

static int ids_push(Ids *s, int32_t id) {
    if (s->n == s->cap) {
        int cap = s->cap ? s->cap * 2 : 256;
        int32_t *grown = realloc(s->a, sizeof(int32_t) * (size_t)cap);
        if (!grown) { FAILED = 1; return 0; }
        s->a = grown; s->cap = cap;
    }
    s->a[s->n++] = id;
    return 1;
}

static void cycles(const Grid *g, int src, int y, int x, Ids *found) {
    static int32_t to_on[NCODES];
    Ids pon = {0}, poff = {0};
    for (int i = 0; i < NCODES; i++) to_on[i] = -1;
    to_on[NODES[src].code] = src;
    int src_code = NODES[src].code;
    ids_push(&pon, src);
    int hon = 0, hoff = 0, length = 0;
    Link links[32];
    OnLink ons[4];
    while (hon < pon.n || hoff < poff.n) {
        length++;
        while (hon < pon.n) {
            int p = pon.a[hon++];
            int n = on_to_off(g, NODES[p].code, y, links);
            for (int i = 0; i < n; i++)
                if (!is_parent(p, links[i].code)) ids_push(&poff, new_node(links[i].code, links[i].cause, &p, 1, 0, 0));
        }
        length++;
        while (hoff < poff.n) {
            int p = poff.a[hoff++];
            int n = off_to_on(g, p, NULL, NULL, y, x, ons);
            for (int i = 0; i < n; i++) {
                int c = ons[i].code;
                if (length >= 4 && c == src_code) ids_push(found, new_node(c, ons[i].cause, &p, 1, 0, 0));
                if (to_on[c] < 0) {
                    int id = new_node(c, ons[i].cause, &p, 1, 0, 0);
                    to_on[c] = id;
                    ids_push(&pon, id);
                }
            }
        }
        if (FAILED) break;
    }
    free(pon.a); free(poff.a);
}

static void forcing(const Grid *g, int src, int y, Ids *chains) {
    static int32_t to_on[NCODES], to_off[NCODES];
    Ids pon = {0}, poff = {0};
    for (int i = 0; i < NCODES; i++) to_on[i] = to_off[i] = -1;
    int sc = NODES[src].code, opposite = sc ^ 1;
    if (sc & 1) { to_on[sc] = src; ids_push(&pon, src); } else { to_off[sc] = src; ids_push(&poff, src); }
    int hon = 0, hoff = 0;
    Link links[32];
    OnLink ons[4];
    while (hon < pon.n || hoff < poff.n) {
        while (hon < pon.n) {
            int p = pon.a[hon++];
            int n = on_to_off(g, NODES[p].code, y, links);
            for (int i = 0; i < n; i++) {
                int c = links[i].code, made = -1;
                if (c == opposite) {
                    int known = 0;
                    for (int j = 0; j < chains->n; j++) known |= NODES[chains->a[j]].code == c;
                    if (!known) { made = new_node(c, links[i].cause, &p, 1, 0, 0); ids_push(chains, made); }
                }
                if (!is_parent(p, c) && to_off[c] < 0) {
                    int id = made >= 0 ? made : new_node(c, links[i].cause, &p, 1, 0, 0);
                    to_off[c] = id;
                    ids_push(&poff, id);
                }
            }
        }
        while (hoff < poff.n) {
            int p = poff.a[hoff++];
            int n = off_to_on(g, p, NULL, NULL, y, 1, ons);
            for (int i = 0; i < n; i++) {
                int c = ons[i].code, made = -1;
                if (c == opposite) {
                    int known = 0;
                    for (int j = 0; j < chains->n; j++) known |= NODES[chains->a[j]].code == c;
                    if (!known) { made = new_node(c, ons[i].cause, &p, 1, 0, 0); ids_push(chains, made); }
                }
                if (to_on[c] < 0) {
                    int id = made >= 0 ? made : new_node(c, ons[i].cause, &p, 1, 0, 0);
                    to_on[c] = id;
                    ids_push(&pon, id);
                }
            }
        }
        if (FAILED) break;
    }
    free(pon.a); free(poff.a);
}

/* The cycle the other way round (SE's getReversedCycle): its first node returned. */
static int reversed_cycle(int origin) {
    int line[2048], n = 0;
    for (int p = origin; p >= 0 && n < 2048; p = first_parent(p)) line[n++] = p;
    int prev = -1;
    for (int i = 0; i < n; i++) { /* origin's end first: it has no parent */
        const Node *o = &NODES[line[i]];
        int32_t par = prev;
        prev = new_node(o->code ^ 1, o->cause, &par, prev >= 0 ? 1 : 0, 0, 0);
    }
    return prev;
}

static void cycle_hint(const Rule *rule, const Grid *g, int dst_on, int y, int x, Hints *out) {
    uint8_t incycle[81];
    memset(incycle, 0, sizeof incycle);
    int ncells = 0;
    for (int p = dst_on; NODES[p].np; p = first_parent(p)) {
        int c = cell_of(NODES[p].code);
        if (!incycle[c]) { incycle[c] = 1; ncells++; }
    }
    static int32_t fwd[NCODES], bwd[NCODES];
    static int32_t stamp;
    stamp++;
    int order[NCODES], no = 0;
    for (int p = dst_on; NODES[p].np; p = first_parent(p)) {
        int code = NODES[p].code, v = value_of(code), on = code & 1;
        for (int i = 0; i < 20; i++) {
            int c = HOUSE[cell_of(code)][i];
            if (incycle[c] || !(g->c[c] >> v & 1)) continue;
            int oc = code_of(c, v, 0);
            if (on) { if (fwd[oc] != stamp) { fwd[oc] = stamp; if (no < NCODES) order[no++] = oc; } }
            else bwd[oc] = stamp;
        }
    }
    Hint *h = hint_new(out);
    if (!h) return;
    h->kind = CYCLE; h->is_x = x; h->is_y = y; h->sort_key = x && y ? 4 : y ? 3 : 2;
    for (int i = 0; i < no; i++)
        if (bwd[order[i]] == stamp) hint_remove(h, cell_of(order[i]), (uint16_t)(1 << value_of(order[i])));
    if (!h->nrem) { out->n--; return; }
    h->nt = 2; h->t[0] = dst_on; h->t[1] = reversed_cycle(dst_on);
    h->extra = ncells;
    hint_rate(h, x && y ? 7.0 : 6.5);
    (void)rule;
}

static void forcing_hint(const Grid *g, int target, int y, int x, Hints *out) {
    int code = NODES[target].code, cell = cell_of(code), v = value_of(code);
    Hint *h = hint_new(out);
    if (!h) return;
    h->kind = FORCING; h->is_x = x; h->is_y = y; h->sort_key = x && y ? 4 : y ? 3 : 2;
    if (!(code & 1)) hint_remove(h, cell, (uint16_t)(1 << v));
    else {
        hint_remove(h, cell, (uint16_t)(g->c[cell] & ~(1u << v)));
        h->cell = cell; h->value = v;
    }
    if (!h->nrem) { out->n--; return; }
    h->nt = 1; h->t[0] = target;
    h->extra = ancestor_count(target);
    hint_rate(h, x && y ? 7.0 : 6.6);
}

static void unary_chains(const Rule *rule, const Grid *g, int y, int x, Hints *out) {
    for (int cell = 0; cell < 81; cell++) {
        if (g->v[cell] || popcount(g->c[cell]) <= 1) continue;
        unsigned m = g->c[cell];
        while (m) {
            int v = lowbit(m); m &= m - 1;
            if (popcount(g->c[cell]) > 2 && !x) continue;
            int src = new_node(code_of(cell, v, 1), NOCAUSE, NULL, 0, 0, 0);
            Ids found = {0}, chains = {0};
            cycles(g, src, y, x, &found);
            if (x) {
                forcing(g, src, y, &chains);
                int off = new_node(code_of(cell, v, 0), NOCAUSE, NULL, 0, 0, 0);
                forcing(g, off, y, &chains);
            }
            for (int i = 0; i < found.n && !FAILED; i++) cycle_hint(rule, g, found.a[i], y, x, out);
            for (int i = 0; i < chains.n && !FAILED; i++) forcing_hint(g, chains.a[i], y, x, out);
            free(found.a); free(chains.a);
            if (FAILED) return;
        }
    }
}

/* --- Following an assumption (SE's doChaining). ---------------------------------------------------- */

typedef struct {
    int32_t map[NCODES];   /* code -> node, -1: not reached */
    int32_t ons[810], offs[810];
    int non, noff;
    int absurd_on, absurd_off;
} Follow;

static Follow *follow_new(int start_code, int start_node) {
    Follow *f = malloc(sizeof(Follow));
    if (!f) { FAILED = 1; return NULL; }
    for (int i = 0; i < NCODES; i++) f->map[i] = -1;
    f->non = f->noff = 0; f->absurd_on = f->absurd_off = -1;
    f->map[start_code] = start_node;
    if (start_code & 1) f->ons[f->non++] = start_node; else f->offs[f->noff++] = start_node;
    return f;
}

static int advanced(const Rule *rule, Grid *g, const Grid *source, Follow *f, Ids *made);

static void follow_run(const Rule *rule, Grid *g, Follow *f) {
    Grid source = *g;
    int y = !rule->nishio, hon = 0, hoff = 0;
    Link links[32];
    OnLink ons[4];
    for (;;) {
        if (hon < f->non) {
            int p = f->ons[hon++];
            int n = on_to_off(g, NODES[p].code, y, links);
            for (int i = 0; i < n; i++) {
                int c = links[i].code;
                if (f->map[c ^ 1] >= 0) {
                    f->absurd_on = f->map[c ^ 1];
                    f->absurd_off = new_node(c, links[i].cause, &p, 1, 0, 0);
                    *g = source;
                    return;
                }
                if (f->map[c] < 0) {
                    int id = new_node(c, links[i].cause, &p, 1, 0, 0);
                    f->map[c] = id;
                    f->offs[f->noff++] = id;
                }
            }
        } else if (hoff < f->noff) {
            int p = f->offs[hoff++];
            int n = off_to_on(g, p, &source, f->map, y, 1, ons);
            if (rule->dynamic) strike(g, cell_of(NODES[p].code), value_of(NODES[p].code));
            for (int i = 0; i < n; i++) {
                int c = ons[i].code;
                if (f->map[c ^ 1] >= 0) {
                    f->absurd_on = new_node(c, ons[i].cause, ons[i].parents, ons[i].np, 0, 0);
                    f->absurd_off = f->map[c ^ 1];
                    *g = source;
                    return;
                }
                if (f->map[c] < 0) {
                    int id = new_node(c, ons[i].cause, ons[i].parents, ons[i].np, 0, 0);
                    f->map[c] = id;
                    f->ons[f->non++] = id;
                }
            }
        }
        if (FAILED) break;
        if (hon == f->non && hoff == f->noff) {
            if (rule->level <= 0) break;
            Ids made = {0};
            advanced(rule, g, &source, f, &made);
            for (int i = 0; i < made.n; i++) {
                int c = NODES[made.a[i]].code;
                if (f->map[c] < 0) { f->map[c] = made.a[i]; f->offs[f->noff++] = made.a[i]; }
            }
            free(made.a);
            if (hoff == f->noff || FAILED) break;
        }
    }
    *g = source;
}

/* --- Multiple, dynamic and Nishio chains. ----------------------------------------------------------- */

static void reduce(Hint *h, const Grid *g, int target, int flip) {
    int code = NODES[target].code, cell = cell_of(code), v = value_of(code);
    int on = (code & 1) != flip;
    if (on) hint_remove(h, cell, (uint16_t)(g->c[cell] & ~(1u << v)));
    else hint_remove(h, cell, (uint16_t)(1 << v));
}

static void binary_hint(const Rule *rule, const Grid *g, Hints *out, int source_code, int dst_on, int dst_off,
                        int absurd, int strike_node, int flip) {
    Hint *h = hint_new(out);
    if (!h) return;
    h->kind = BINARY; h->is_x = h->is_y = 1; h->absurd = absurd; h->sort_key = absurd ? 7 : 1;
    reduce(h, g, strike_node, flip);
    if (!h->nrem) { out->n--; return; }
    if (rule->nishio || absurd) {
        if (!(source_code & 1)) { h->cell = cell_of(source_code); h->value = value_of(source_code); }
    } else if (NODES[dst_on].code & 1) {
        h->cell = cell_of(NODES[dst_on].code); h->value = value_of(NODES[dst_on].code);
    }
    h->nt = 2; h->t[0] = dst_on; h->t[1] = dst_off;
    hint_rate(h, rule->difficulty);
}

static void set_hint(const Rule *rule, const Grid *g, Hints *out, int kind, int target, Follow **branches, int nb,
                     int extra) {
    Hint *h = hint_new(out);
    if (!h) return;
    h->kind = kind; h->is_x = h->is_y = 1; h->sort_key = kind == CELLCHAIN ? 5 : 6; h->extra = extra;
    reduce(h, g, target, 0);
    if (!h->nrem) { out->n--; return; }
    int code = NODES[target].code;
    h->nt = nb;
    for (int i = 0; i < nb; i++) h->t[i] = branches[i]->map[code];
    if (NODES[h->t[0]].code & 1) { h->cell = cell_of(code); h->value = value_of(code); }
    hint_rate(h, rule->difficulty);
}

typedef struct { Follow *on[NCODES]; Follow **all; int nall, capall; } Follows;

static Follow *on_follow(const Rule *rule, Grid *g, Follows *fs, int cell, int v) {
    int code = code_of(cell, v, 1);
    if (fs->on[code]) return fs->on[code];
    int start = new_node(code, NOCAUSE, NULL, 0, 0, 0);
    Follow *f = follow_new(code, start);
    if (!f) return NULL;
    follow_run(rule, g, f);
    fs->on[code] = f;
    if (fs->nall == fs->capall) {
        int cap = fs->capall ? fs->capall * 2 : 64;
        Follow **grown = realloc(fs->all, sizeof(Follow *) * (size_t)cap);
        if (!grown) { FAILED = 1; return f; }
        fs->all = grown; fs->capall = cap;
    }
    fs->all[fs->nall++] = f;
    return f;
}

static void region_chains(const Rule *rule, Grid *g, Hints *out, Follows *fs, int cell, int v, Follow *mine) {
    for (int k = 0; k < 3; k++) {
        int r = CREG[cell][k];
        unsigned places = g->p[r * 10 + v];
        int size = popcount(places);
        if (!(size == 2 || (rule->multiple && size > 2))) continue;
        if (REG[r][lowbit(places)] != cell) continue;
        Follow *branches[9];
        int nb = 0;
        unsigned m = places;
        while (m) {
            int i = lowbit(m); m &= m - 1;
            int other = REG[r][i];
            branches[nb++] = other == cell ? mine : on_follow(rule, g, fs, other, v);
            if (FAILED) return;
        }
        for (int pass = 0; pass < 2; pass++) {
            const Follow *first = branches[0];
            int n = pass ? first->noff : first->non;
            for (int j = 0; j < n; j++) {
                int id = pass ? first->offs[j] : first->ons[j], code = NODES[id].code, common = 1;
                for (int b = 1; b < nb && common; b++) common = branches[b]->map[code] >= 0;
                if (common) set_hint(rule, g, out, REGIONCHAIN, id, branches, nb, r);
            }
        }
    }
}

static void multiple_chains(const Rule *rule, Grid *g, Hints *out) {
    Follows *fs = calloc(1, sizeof(Follows));
    if (!fs) { FAILED = 1; return; }
    for (int cell = 0; cell < 81 && !FAILED; cell++) {
        if (g->v[cell]) continue;
        unsigned cands = g->c[cell];
        int size = popcount(cands);
        if (!(size > 2 || (size > 1 && rule->dynamic))) continue;
        Follow *branches[9];
        int nb = 0;
        unsigned m = cands;
        while (m && !FAILED) {
            int v = lowbit(m); m &= m - 1;
            int dbl = size >= 3 && !rule->nishio && rule->dynamic, contradiction = rule->dynamic || rule->nishio;
            Follow *on = on_follow(rule, g, fs, cell, v);
            if (!on) break;
            int on_code = code_of(cell, v, 1), off_code = code_of(cell, v, 0);
            if (contradiction && on->absurd_on >= 0)
                binary_hint(rule, g, out, on_code, on->absurd_on, on->absurd_off, 1, on->map[on_code], 1);
            if (!dbl && !contradiction) { /* the static rule reads nothing of the "off" chain */
                if (!rule->nishio) region_chains(rule, g, out, fs, cell, v, on);
                branches[nb++] = on;
                continue;
            }
            int start = new_node(off_code, NOCAUSE, NULL, 0, 0, 0);
            Follow *off = follow_new(off_code, start);
            if (!off) break;
            follow_run(rule, g, off);
            if (contradiction && off->absurd_on >= 0)
                binary_hint(rule, g, out, off_code, off->absurd_on, off->absurd_off, 1, start, 1);
            if (dbl) {
                for (int j = 0; j < on->non; j++) {
                    int id = on->ons[j], other = off->map[NODES[id].code];
                    if (other >= 0) binary_hint(rule, g, out, on_code, id, other, 0, id, 0);
                }
                for (int j = 0; j < on->noff; j++) {
                    int id = on->offs[j], other = off->map[NODES[id].code];
                    if (other >= 0) binary_hint(rule, g, out, off_code, id, other, 0, other, 0);
                }
            }
            free(off);
            if (!rule->nishio) region_chains(rule, g, out, fs, cell, v, on);
            branches[nb++] = on;
        }
        if (FAILED) break;
        if (!rule->nishio && (size == 2 || (rule->multiple && size > 2))) {
            for (int pass = 0; pass < 2; pass++) {
                const Follow *first = branches[0];
                int n = pass ? first->noff : first->non;
                for (int j = 0; j < n; j++) {
                    int id = pass ? first->offs[j] : first->ons[j], code = NODES[id].code, common = 1;
                    for (int b = 1; b < nb && common; b++) common = branches[b]->map[code] >= 0;
                    if (common) set_hint(rule, g, out, CELLCHAIN, id, branches, nb, cell);
                }
            }
        }
    }
    for (int i = 0; i < fs->nall; i++) free(fs->all[i]);
    free(fs->all);
    free(fs);
}

static void chaining_hints(const Rule *rule, Grid *g, Hints *out) {
    if (rule->multiple || rule->dynamic) multiple_chains(rule, g, out);
    else {
        unary_chains(rule, g, 0, 1, out);
        unary_chains(rule, g, 1, 0, out);
        unary_chains(rule, g, 1, 1, out);
    }
    if (!FAILED) hints_finish(out);
}

/* --- The rule parents of a chain hint (SE's collectRuleParents). ----------------------------------- */

static int chain_rule_parents(const Hint *h, const Grid *initial, const Grid *current, int *out) {
    static int32_t got[NCODES];
    static int32_t stamp;
    stamp++;
    int n = 0;
    for (int t = 0; t < h->nt; t++) {
        int count = chain_of(h->t[t]);
        for (int j = 0; j < count; j++) {
            const Node *p = &NODES[QUEUE[j]];
            int cause = p->cause;
            if (cause == NOCAUSE) {
                if (h->kind == CELLCHAIN) cause = NAKED;
                else if (h->kind == REGIONCHAIN) cause = 1 + h->extra / 9;
            }
            if (!(p->code & 1) || cause == NOCAUSE) continue;
            int cell = cell_of(p->code), v = value_of(p->code);
            if (cause == NAKED) {
                unsigned gone = initial->c[cell] & ~current->c[cell];
                while (gone) {
                    int u = lowbit(gone); gone &= gone - 1;
                    int c = code_of(cell, u, 0);
                    if (got[c] != stamp) { got[c] = stamp; out[n++] = c; }
                }
            } else {
                int r = CREG[cell][cause - 1];
                for (int i = 0; i < 9; i++) {
                    int o = REG[r][i];
                    if ((initial->c[o] >> v & 1) && !(current->c[o] >> v & 1)) {
                        int c = code_of(o, v, 0);
                        if (got[c] != stamp) { got[c] = stamp; out[n++] = c; }
                    }
                }
            }
        }
    }
    return n;
}

/* --- A nested level's inner rules (SE's getAdvancedPotentials). ------------------------------------ */

typedef struct { int code, np, ncx; uint64_t nkey; int parents[NCODES]; } Strike;

typedef struct { Strike *s; int n, cap; } Strikes;

static Strike *strike_new(Strikes *ss) {
    if (ss->n == ss->cap) {
        int cap = ss->cap ? ss->cap * 2 : 16;
        Strike *grown = realloc(ss->s, sizeof(Strike) * (size_t)cap);
        if (!grown) { FAILED = 1; return NULL; }
        ss->s = grown; ss->cap = cap;
    }
    return &ss->s[ss->n++];
}

static void add_strikes(Strikes *ss, const int *rp, int nrp, int cell, unsigned mask, int ncx, uint64_t nkey) {
    while (mask) {
        int v = lowbit(mask); mask &= mask - 1;
        Strike *s = strike_new(ss);
        if (!s) return;
        s->code = code_of(cell, v, 0); s->np = nrp; s->ncx = ncx; s->nkey = nkey;
        memcpy(s->parents, rp, sizeof(int) * (size_t)nrp);
    }
}

static int empty_count(const Grid *g, int r) {
    int n = 0;
    for (int i = 0; i < 9; i++) n += !g->v[REG[r][i]];
    return n;
}

/* pointing and claiming whose first region's places changed (intersections._changed_locking) */
static void inner_locking(const Grid *g, const Grid *s, const uint8_t *chpos, Strikes *ss) {
    static const int kinds[4][2] = {{0, 2}, {0, 1}, {2, 0}, {1, 0}};
    int rp[81];
    for (int kp = 0; kp < 4; kp++)
        for (int a = 0; a < 9; a++) {
            int r1 = kinds[kp][0] * 9 + a;
            for (int b = 0; b < 9; b++) {
                int r2 = kinds[kp][1] * 9 + b;
                if (!INSIDE[r1][r2]) continue;
                for (int v = 1; v <= 9; v++) {
                    if (!chpos[r1 * 10 + v]) continue;
                    unsigned places = g->p[r1 * 10 + v];
                    if (popcount(places) <= 1 || (places & ~INSIDE[r1][r2])) continue;
                    unsigned outside = g->p[r2 * 10 + v] & ~INSIDE[r2][r1];
                    if (!outside) continue;
                    int nrp = 0;
                    for (int i = 0; i < 9; i++) {
                        int c = REG[r1][i];
                        if ((s->c[c] >> v & 1) && !(g->c[c] >> v & 1) && !(INSIDE[r1][r2] >> i & 1))
                            rp[nrp++] = code_of(c, v, 0);
                    }
                    if (!nrp) continue;
                    while (outside) {
                        int i = lowbit(outside); outside &= outside - 1;
                        add_strikes(ss, rp, nrp, REG[r2][i], 1u << v, 0, 0);
                    }
                }
            }
        }
}

static void inner_hidden_pairs(const Grid *g, const Grid *s, const uint8_t *chpos, Strikes *ss) {
    static const int order[3] = {0, 2, 1};
    int rp[81];
    for (int ko = 0; ko < 3; ko++)
        for (int a = 0; a < 9; a++) {
            int r = order[ko] * 9 + a, any = 0;
            for (int v = 1; v <= 9; v++) any |= chpos[r * 10 + v];
            if (!any || empty_count(g, r) <= 4) continue;
            for (int j = 0; j < 9; j++) {
                unsigned mj = g->p[r * 10 + j + 1];
                if (popcount(mj) != 2) continue;
                for (int i = 0; i < j; i++) {
                    if (g->p[r * 10 + i + 1] != mj) continue;
                    int v1 = i + 1, v2 = j + 1;
                    if (!chpos[r * 10 + v1] && !chpos[r * 10 + v2]) continue;
                    unsigned vmask = (1u << v1) | (1u << v2);
                    int any_rem = 0;
                    for (unsigned m = mj; m; m &= m - 1) any_rem |= (g->c[REG[r][lowbit(m)]] & ~vmask) != 0;
                    if (!any_rem) continue;
                    int nrp = 0;
                    for (int k = 0; k < 9; k++) {
                        if (mj >> k & 1) continue;
                        int c = REG[r][k];
                        if (s->c[c] >> v1 & 1) rp[nrp++] = code_of(c, v1, 0);
                        if (s->c[c] >> v2 & 1) rp[nrp++] = code_of(c, v2, 0);
                    }
                    if (!nrp) continue;
                    for (int k = 0; k < 9; k++) {
                        if (!(mj >> k & 1)) continue;
                        int c = REG[r][k];
                        add_strikes(ss, rp, nrp, c, g->c[c] & ~vmask, 0, 0);
                    }
                }
            }
        }
}

static void inner_naked_pairs(const Grid *g, const Grid *s, const uint8_t *chcell, Strikes *ss) {
    static const int order[3] = {0, 2, 1};
    int rp[81];
    for (int ko = 0; ko < 3; ko++)
        for (int a = 0; a < 9; a++) {
            int r = order[ko] * 9 + a, any = 0;
            for (int i = 0; i < 9; i++) any |= chcell[REG[r][i]];
            if (!any) continue;
            int checked = 0;
            for (int j = 0; j < 9; j++) {
                unsigned mj = g->c[REG[r][j]];
                if (popcount(mj) != 2) continue;
                for (int i = 0; i < j; i++) {
                    int ci = REG[r][i], cj = REG[r][j];
                    if (g->c[ci] != mj || (!chcell[ci] && !chcell[cj])) continue;
                    if (!checked) { checked = empty_count(g, r) >= 4 ? 1 : -1; }
                    if (checked < 0) continue;
                    int any_rem = 0;
                    for (int k = 0; k < 9; k++) {
                        int c = REG[r][k];
                        if (c != ci && c != cj && (g->c[c] & mj)) any_rem = 1;
                    }
                    if (!any_rem) continue;
                    int nrp = 0;
                    int pair[2] = {ci, cj};
                    for (int q = 0; q < 2; q++)
                        for (int u = 1; u <= 9; u++)
                            if ((s->c[pair[q]] >> u & 1) && !(mj >> u & 1)) rp[nrp++] = code_of(pair[q], u, 0);
                    if (!nrp) continue;
                    for (int k = 0; k < 9; k++) {
                        int c = REG[r][k];
                        if (c != ci && c != cj) add_strikes(ss, rp, nrp, c, g->c[c] & mj, 0, 0);
                    }
                }
            }
        }
}

static void inner_x_wings(const Grid *g, const Grid *s, const uint8_t *chpos, Strikes *ss) {
    int counts[10] = {0};
    for (int c = 0; c < 81; c++) counts[g->v[c]]++;
    int rp[81];
    for (int pass = 0; pass < 2; pass++) {
        int base = pass ? 9 : 18, cover = pass ? 18 : 9;  /* columns first */
        for (int w = 0; w < 36; w++) {
            int i = PAIRI[w], j = PAIRJ[w], b1 = base + i, b2 = base + j;
            for (int v = 1; v <= 9; v++) {
                unsigned m = g->p[b1 * 10 + v];
                if (popcount(m) != 2 || g->p[b2 * 10 + v] != m) continue;
                if (!chpos[b1 * 10 + v] && !chpos[b2 * 10 + v]) continue;
                if (counts[v] + 4 > 9) continue;
                unsigned bases = (1u << i) | (1u << j);
                int covers[2] = {cover + lowbit(m), cover + lowbit(m & (m - 1))};
                int any_rem = 0;
                for (int q = 0; q < 2; q++) any_rem |= (g->p[covers[q] * 10 + v] & ~bases) != 0;
                if (!any_rem) continue;
                int nrp = 0;
                int bl[2] = {b1, b2};
                for (int q = 0; q < 2; q++)
                    for (int k = 0; k < 9; k++) {
                        int c = REG[bl[q]][k];
                        if ((s->c[c] >> v & 1) && !(g->c[c] >> v & 1) && !(m >> k & 1)) rp[nrp++] = code_of(c, v, 0);
                    }
                if (!nrp) continue;
                /* the strikes as SE's removable map: cells of the cover lines, in the order of the cover
                 * lines then their indexes; add_strikes sorts nothing, so gather and sort by cell */
                int cells[18], nc = 0;
                for (int q = 0; q < 2; q++) {
                    unsigned out = g->p[covers[q] * 10 + v] & ~bases;
                    while (out) { int k = lowbit(out); out &= out - 1; cells[nc++] = REG[covers[q]][k]; }
                }
                for (int a = 1; a < nc; a++)
                    for (int b = a; b > 0 && cells[b - 1] > cells[b]; b--) { int t = cells[b]; cells[b] = cells[b - 1]; cells[b - 1] = t; }
                for (int a = 0; a < nc; a++) add_strikes(ss, rp, nrp, cells[a], 1u << v, 0, 0);
            }
        }
    }
}

/* The strikes of one hint list of a chain rule, as advanced potentials of the outer chain. */
static void chain_strikes(const Hints *hs, const Grid *g, const Grid *s, Strikes *ss) {
    int *rp = malloc(sizeof(int) * NCODES);
    if (!rp) { FAILED = 1; return; }
    for (int i = 0; i < hs->n && !FAILED; i++) {
        const Hint *h = &hs->h[i];
        int nrp = chain_rule_parents(h, s, g, rp);
        if (!nrp) continue;
        uint64_t key = hint_key(h);
        for (int k = 0; k < h->nrem; k++) add_strikes(ss, rp, nrp, h->rcell[k], h->rmask[k], h->complexity, key);
    }
    free(rp);
}

static int advanced(const Rule *rule, Grid *g, const Grid *source, Follow *f, Ids *made) {
    uint8_t chpos[270], chcell[81];
    for (int i = 0; i < 270; i++) chpos[i] = g->p[i] != source->p[i];
    for (int i = 0; i < 81; i++) chcell[i] = g->c[i] != source->c[i];
    Strikes ss = {0};
    int level = rule->level;
    Rule inner[2];
    int ninner = 0;
    if (level < 4) {
        if (level >= 2) inner[ninner++] = make_rule(0, 0, 0, 0);
        if (level >= 3) inner[ninner++] = make_rule(1, 0, 0, 0);
    } else {
        inner[ninner++] = make_rule(1, 1, 0, 0);
        if (level >= 5) inner[ninner++] = make_rule(1, 1, 0, level - 3);
    }
    for (int step = 0; step < 4 + ninner && !ss.n && !FAILED; step++) {
        switch (step) {
        case 0: inner_locking(g, source, chpos, &ss); break;
        case 1: inner_hidden_pairs(g, source, chpos, &ss); break;
        case 2: inner_naked_pairs(g, source, chcell, &ss); break;
        case 3: inner_x_wings(g, source, chpos, &ss); break;
        default: {
            int mark_n = NN, mark_p = NP;
            Hints hs = {0};
            chaining_hints(&inner[step - 4], g, &hs);
            if (!FAILED) chain_strikes(&hs, g, source, &ss);
            free(hs.h);
            NN = mark_n; NP = mark_p;  /* the inner chains' nodes go; their strikes stay */
        }
        }
    }
    int32_t parents[NCODES];
    for (int i = 0; i < ss.n && !FAILED; i++) {
        Strike *st = &ss.s[i];
        int np = 0;
        for (int k = 0; k < st->np; k++) {
            int q = f->map[st->parents[k]];
            if (q < 0) { FAILED = 2; break; }
            parents[np++] = q;
        }
        if (FAILED) break;
        ids_push(made, new_node(st->code, ADVANCED, parents, np, st->ncx, st->nkey));
    }
    free(ss.s);
    return made->n;
}

/* --- Aligned exclusion (exclusion.py's first hint). ------------------------------------------------ */

typedef struct { uint64_t lo, hi; } Set81;
static inline void set_add(Set81 *s, int c) { if (c < 64) s->lo |= 1ULL << c; else s->hi |= 1ULL << (c - 64); }
static inline int set_has(const Set81 *s, int c) { return c < 64 ? (int)(s->lo >> c & 1) : (int)(s->hi >> (c - 64) & 1); }
static inline int set_count(Set81 s) { return __builtin_popcountll(s.lo) + __builtin_popcountll(s.hi); }
static inline Set81 set_and(Set81 a, Set81 b) { Set81 r = {a.lo & b.lo, a.hi & b.hi}; return r; }

/* The values of each chosen cell that no allowed combination uses; 1 when one is left out. */
static int excluded(const uint16_t *cands, const int *cells, int size, const uint16_t *excl, int nexcl,
                    uint16_t *gone) {
    int vals[3][9], nv[3];
    for (int i = 0; i < size; i++) {
        nv[i] = 0;
        for (unsigned m = cands[cells[i]]; m; m &= m - 1) vals[i][nv[i]++] = lowbit(m);
    }
    int sees01 = INHOUSE[cells[0]][cells[1]], sees02 = size > 2 && INHOUSE[cells[0]][cells[2]],
        sees12 = size > 2 && INHOUSE[cells[1]][cells[2]];
    uint16_t used[3] = {0, 0, 0};
    int n2 = size > 2 ? nv[2] : 1;
    for (int a = 0; a < nv[0]; a++)
        for (int b = 0; b < nv[1]; b++) {
            int va = vals[0][a], vb = vals[1][b];
            if (va == vb && sees01) continue;
            for (int c = 0; c < n2; c++) {
                int vc = size > 2 ? vals[2][c] : 0;
                if (size > 2 && ((va == vc && sees02) || (vb == vc && sees12))) continue;
                uint16_t combo = (uint16_t)((1u << va) | (1u << vb) | (size > 2 ? 1u << vc : 0));
                int ok = 1;
                for (int e = 0; e < nexcl && ok; e++) ok = (excl[e] & ~combo) != 0;
                if (!ok) continue;
                used[0] |= (uint16_t)(1u << va); used[1] |= (uint16_t)(1u << vb);
                if (size > 2) used[2] |= (uint16_t)(1u << vc);
            }
        }
    int any = 0;
    for (int i = 0; i < size; i++) { gone[i] = cands[cells[i]] & (uint16_t)~used[i]; any |= gone[i] != 0; }
    return any;
}

static PyObject *py_aligned_exclusion(PyObject *self, PyObject *args) {
    Py_buffer cb;
    int degree;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*i", &cb, &degree)) return NULL;
    if (cb.len != 162 || degree < 2 || degree > 3) {
        PyBuffer_Release(&cb);
        PyErr_SetString(PyExc_ValueError, "81 little-endian 16-bit masks, degree 2 or 3");
        return NULL;
    }
    uint16_t cands[81];
    const uint8_t *b = cb.buf;
    for (int c = 0; c < 81; c++) cands[c] = (uint16_t)(b[2 * c] | b[2 * c + 1] << 8);
    PyBuffer_Release(&cb);
    int chosen[81], nchosen = 0, excl[81][20], nexcl[81], isc[81];
    Set81 bits[81];
    memset(isc, 0, sizeof isc);
    for (int c = 0; c < 81; c++) {
        if (popcount(cands[c]) < 2) continue;
        int single = 0, n = 0;
        Set81 s = {0, 0};
        for (int i = 0; i < 20; i++) {
            int o = HOUSE[c][i], size = popcount(cands[o]);
            if (size == 1) single = 1;
            else if (size >= 2 && size <= degree) { excl[c][n++] = o; set_add(&s, o); }
        }
        if (!single && n) { chosen[nchosen++] = c; nexcl[c] = n; bits[c] = s; isc[c] = 1; }
    }
    if (nchosen < degree) Py_RETURN_NONE;
    for (int j = 1; j < nchosen; j++)
        for (int i = 0; i < j; i++) { /* SE's pair order: by the value of the pair's bit mask */
            int c0 = chosen[i], c1 = chosen[j];
            Set81 pair = set_and(bits[c0], bits[c1]);
            if (set_count(pair) < 2) continue;
            int area[40], na = 0;
            if (degree == 3) {
                int seen[81] = {0};
                for (int q = 0; q < 2; q++) {
                    int cc = q ? c1 : c0;
                    for (int e = 0; e < nexcl[cc]; e++) {
                        int o = excl[cc][e];
                        if (!seen[o]) { seen[o] = 1; if (isc[o] && o != c0 && o != c1) area[na++] = o; }
                    }
                }
                if (na < 1) continue;
            }
            int ntails = degree == 3 ? na : 1;
            for (int t = 0; t < ntails; t++) {
                int cells[3] = {c0, c1, degree == 3 ? area[t] : 0};
                Set81 common = degree == 3 ? set_and(pair, bits[area[t]]) : pair;
                if (set_count(common) < 2) continue;
                uint16_t ex[20];
                int ne = 0;
                for (int e = 0; e < nexcl[c0]; e++)
                    if (set_has(&common, excl[c0][e])) ex[ne++] = cands[excl[c0][e]];
                uint16_t gone[3];
                if (!excluded(cands, cells, degree, ex, ne, gone)) continue;
                PyObject *out = PyList_New(0);
                if (!out) return NULL;
                for (int q = 0; q < degree; q++) {
                    if (!gone[q]) continue;
                    PyObject *item = Py_BuildValue("(ii)", cells[q], gone[q]);
                    if (!item || PyList_Append(out, item) < 0) { Py_XDECREF(item); Py_DECREF(out); return NULL; }
                    Py_DECREF(item);
                }
                return out;
            }
        }
    Py_RETURN_NONE;
}

/* --- Python. --------------------------------------------------------------------------------------- */

static PyObject *make_result(const Hints *hs) {
    PyObject *list = PyList_New(hs->n);
    if (!list) return NULL;
    for (int i = 0; i < hs->n; i++) {
        const Hint *h = &hs->h[i];
        PyObject *rem = PyTuple_New(h->nrem);
        if (!rem) { Py_DECREF(list); return NULL; }
        for (int k = 0; k < h->nrem; k++)
            PyTuple_SET_ITEM(rem, k, Py_BuildValue("(ii)", h->rcell[k], h->rmask[k]));
        PyObject *item = Py_BuildValue("(iiiiidiNiiii)", h->kind, h->is_x, h->is_y, h->absurd, h->sort_key,
                                       h->difficulty, h->complexity, rem, h->cell, h->value, h->extra, h->flat);
        if (!item) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

static PyObject *py_hints(PyObject *self, PyObject *args) {
    Py_buffer values, cands;
    int multiple, dynamic, nishio, level;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*pppi", &values, &cands, &multiple, &dynamic, &nishio, &level)) return NULL;
    if (values.len != 81 || cands.len != 162) {
        PyBuffer_Release(&values); PyBuffer_Release(&cands);
        PyErr_SetString(PyExc_ValueError, "81 values and 81 little-endian 16-bit masks");
        return NULL;
    }
    Grid g;
    const uint8_t *vb = values.buf, *cb = cands.buf;
    for (int c = 0; c < 81; c++) { g.v[c] = vb[c]; g.c[c] = (uint16_t)(cb[2 * c] | cb[2 * c + 1] << 8); }
    PyBuffer_Release(&values); PyBuffer_Release(&cands);
    memset(g.p, 0, sizeof g.p);
    for (int c = 0; c < 81; c++)
        for (int v = 1; v <= 9; v++)
            if (g.c[c] >> v & 1)
                for (int k = 0; k < 3; k++) g.p[CREG[c][k] * 10 + v] |= (uint16_t)(1 << CIDX[c][k]);
    Rule rule = make_rule(multiple, dynamic, nishio, level);
    Hints hs = {0};
    FAILED = 0; NN = 0; NP = 0;
    PyObject *result = NULL;
    chaining_hints(&rule, &g, &hs);  /* the GIL stays held: the arena is the module's */
    if (FAILED == 2) PyErr_SetString(PyExc_RuntimeError, "parent not found");
    else if (FAILED) PyErr_NoMemory();
    else result = make_result(&hs);
    free(hs.h);
    NN = 0; NP = 0;
    return result;
}

static PyMethodDef METHODS[] = {
    {"hints", py_hints, METH_VARARGS,
     "hints(values, cands, multiple, dynamic, nishio, level): every hint of one of SE's chaining rules"},
    {"aligned_exclusion", py_aligned_exclusion, METH_VARARGS,
     "aligned_exclusion(cands, degree): the first aligned pair (triplet) exclusion's strikes, or None"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_chaining",
                                    "SE's chaining rules compiled (the Python port is in chaining.py).", -1, METHODS,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__chaining(void) {
    init_tables();
    return PyModule_Create(&MODULE);
}

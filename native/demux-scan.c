/*
 * The index fast paths' hot loop in C (src/service/tools/demux/native-scan.ts calls it;
 * index-handlers.ts is the JavaScript it follows, byte for byte). For a single-end lane whose
 * indexes are in the read headers (`@... 1:N:0:ACGTACGT[+TTGGCCAA]`) or in I1/I2 files read in
 * step with R1, it walks the records of the current chunks, reads each index as the JavaScript
 * handlers do, and for every read assigned to a sample appends the same copy operation
 * (copy-ops.ts) and counts. It stops, leaving the record to the JavaScript reader and handler,
 * at anything else: a record the reader would treat otherwise (not "@", no "+" line, a quality
 * line of another length, a record cut by a chunk's end), a read without a sample (index
 * hopping, and undetermined reads while JavaScript still keeps the diagnosis sample; after that
 * a single index's undetermined reads are taken here and their codes handed back for the
 * unknown tally), a full batch or the read limit. So every byte written and every count is what
 * the JavaScript path gives.
 */
#include "demux-native.h"

#define KEY_MASK 0xffff
#define MISMATCH_SHIFT 16

/* Why a scan stopped (state[4]). */
enum { STOP_LIMIT = 0, STOP_RECORD = 1, STOP_FULL = 2 };

typedef struct {
  int32_t *index0, *index1; /* lookup tables: code -> (key + 1) | (mismatches << 16) */
  size_t len0, len1;
  int span0, span1;
  int32_t *single, *pairs; /* key (or i7 key * n1 + i5 key) -> sample, -1 none */
  size_t len_single, len_pairs;
  int n1;
  int32_t *files; /* sample -> output file */
  size_t samples;
  double *counts, *one, *two;
  napi_ref refs[8];
  int nrefs;
} Context;

static uint8_t base5[256];

static void finalize(napi_env env, void *data, void *hint) {
  (void)hint;
  Context *c = data;
  for (int i = 0; i < c->nrefs; i++) napi_delete_reference(env, c->refs[i]);
  free(c);
}

/*
 * context(index0, span0, index1|null, span1, single|null, pairs|null, n1, files, counts, one, two)
 * The typed arrays are kept referenced (their memory does not move) for the context's life.
 */
static napi_value Context_(napi_env env, napi_callback_info info) {
  size_t argc = 11;
  napi_value a[11];
  napi_get_cb_info(env, info, &argc, a, NULL, NULL);
  if (argc != 11) return fail(env, "context: 11 arguments");
  Context *c = calloc(1, sizeof(Context));
  if (!c) return fail(env, "context: out of memory");
  napi_valuetype t;
  int ok = typed(env, a[0], napi_int32_array, (void **)&c->index0, &c->len0);
  napi_get_value_int32(env, a[1], &c->span0);
  napi_typeof(env, a[2], &t);
  if (t != napi_null) ok = ok && typed(env, a[2], napi_int32_array, (void **)&c->index1, &c->len1);
  napi_get_value_int32(env, a[3], &c->span1);
  napi_typeof(env, a[4], &t);
  if (t != napi_null) ok = ok && typed(env, a[4], napi_int32_array, (void **)&c->single, &c->len_single);
  napi_typeof(env, a[5], &t);
  if (t != napi_null) ok = ok && typed(env, a[5], napi_int32_array, (void **)&c->pairs, &c->len_pairs);
  napi_get_value_int32(env, a[6], &c->n1);
  size_t nc, no, nt;
  ok = ok && typed(env, a[7], napi_int32_array, (void **)&c->files, &c->samples);
  ok = ok && typed(env, a[8], napi_float64_array, (void **)&c->counts, &nc);
  ok = ok && typed(env, a[9], napi_float64_array, (void **)&c->one, &no);
  ok = ok && typed(env, a[10], napi_float64_array, (void **)&c->two, &nt);
  ok = ok && (c->single != NULL) != (c->pairs != NULL) && (c->index1 != NULL) == (c->pairs != NULL);
  ok = ok && nc == c->samples && no == c->samples && nt == c->samples && c->span0 > 0;
  if (!ok) {
    free(c);
    return fail(env, "context: unexpected arguments");
  }
  for (int i = 0; i < 11; i++) {
    napi_typeof(env, a[i], &t);
    if (t == napi_object) napi_create_reference(env, a[i], 1, &c->refs[c->nrefs++]);
    if (c->nrefs == 8) break;
  }
  napi_value ext;
  napi_create_external(env, c, finalize, NULL, &ext);
  return ext;
}

/* The code of `span` bases at b[from...], in base 5 (A C G T, anything else 4). */
static inline int64_t code_at(const uint8_t *b, int from, int span) {
  int64_t code = 0;
  for (int k = from; k < from + span; k++) code = code * 5 + base5[b[k]];
  return code;
}

/*
 * The record at p, exactly as FastqReader.next() cuts it: 1 with its header's, sequence's and
 * quality's newlines, or 0 when the reader would treat it otherwise (then JavaScript does).
 */
static inline int cut(const uint8_t *b, int p, int end, int *h1, int *s1, int *q1) {
  if (p >= end || b[p] != '@') return 0;
  const uint8_t *nl = memchr(b + p, '\n', (size_t)(end - p));
  if (!nl) return 0;
  *h1 = (int)(nl - b);
  if (*h1 + 1 >= end) return 0;
  nl = memchr(b + *h1 + 1, '\n', (size_t)(end - *h1 - 1));
  if (!nl) return 0;
  *s1 = (int)(nl - b);
  const int plus = *s1 + 1;
  if (plus + 1 >= end || b[plus] != '+') return 0;
  /* The "+" line ends at its newline (bare, CRLF, or repeating the read's name). */
  nl = b[plus + 1] == '\n' ? b + plus + 1 : memchr(b + plus + 1, '\n', (size_t)(end - plus - 1));
  if (!nl) return 0;
  *q1 = (int)(nl - b) + 1 + (*s1 - *h1 - 1);
  return *q1 < end && b[*q1] == '\n';
}

/*
 * The sample of a read's index entries (e1 for dual indexes, else 0), as the handlers' tables
 * say; -1 when none (undetermined or hopping: JavaScript tallies those).
 */
static inline int sample_of(const Context *c, int32_t e0, int32_t e1) {
  const int k0 = (e0 & KEY_MASK) - 1;
  int sample;
  if (c->pairs) {
    const int64_t pair = (int64_t)k0 * c->n1 + ((e1 & KEY_MASK) - 1);
    if (pair < 0 || pair >= (int64_t)c->len_pairs) return -1;
    sample = c->pairs[pair];
  } else {
    if (k0 < 0 || (size_t)k0 >= c->len_single) return -1;
    sample = c->single[k0];
  }
  return sample < 0 || (size_t)sample >= c->samples ? -1 : sample;
}

/* Counts a read of `sample` (and its mismatches) and appends its copy operation; the new n. */
static inline int take(Context *c, int32_t *ops, int n, int sample, int32_t e0, int32_t e1, int32_t chunk, int from,
                       int to) {
  c->counts[sample]++;
  const int mm = (e0 >> MISMATCH_SHIFT) + (e1 > 0 ? e1 >> MISMATCH_SHIFT : 0);
  if (mm == 1) c->one[sample]++;
  else if (mm > 1) c->two[sample]++;
  ops[n] = c->files[sample];
  ops[n + 1] = chunk;
  ops[n + 2] = from;
  ops[n + 3] = to;
  return n + 4;
}

/*
 * scan(context, buf, ops, state, chunk[, unknown]): state is an Int32Array
 * [pos, end, limit, n, reason, reads, undetermined file, undetermined]; in: the reader's
 * position and end in buf, the most records to take, the operations already in `ops`, and for a
 * single index the file undetermined reads go to (-1: leave them to JavaScript, which keeps the
 * first ones as the diagnosis sample); out: the position after the last record taken, `n`, why
 * it stopped, the records taken, and of them the undetermined ones, whose index codes (-1 for a
 * field too short to read, which is not tallied) are in `unknown` (a Float64Array) in order, for
 * JavaScript's unknown-barcode tally.
 */
static napi_value Scan(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value a[6];
  napi_get_cb_info(env, info, &argc, a, NULL, NULL);
  Context *c;
  uint8_t *b;
  int32_t *ops, *st;
  double *unknown = NULL;
  size_t blen, cap, slen, ucap = 0;
  int32_t chunk;
  if ((argc != 5 && argc != 6) || napi_get_value_external(env, a[0], (void **)&c) != napi_ok ||
      !typed(env, a[1], napi_uint8_array, (void **)&b, &blen) ||
      !typed(env, a[2], napi_int32_array, (void **)&ops, &cap) ||
      !typed(env, a[3], napi_int32_array, (void **)&st, &slen) || slen < 6 ||
      napi_get_value_int32(env, a[4], &chunk) != napi_ok ||
      (argc == 6 && !typed(env, a[5], napi_float64_array, (void **)&unknown, &ucap)))
    return fail(env, "scan: unexpected arguments");
  int p = st[0], end = st[1], limit = st[2], n = st[3], reads = 0, reason = STOP_LIMIT, u = 0;
  if (end > (int)blen || p < 0) return fail(env, "scan: position outside the buffer");
  const int two = c->pairs != NULL;
  /* Undetermined reads are taken here only for a single index, when asked and with room. */
  const int und = !two && unknown != NULL && slen >= 8 ? st[6] : -1;
  while (reads < limit) {
    if ((size_t)n + 4 > cap) {
      reason = STOP_FULL;
      break;
    }
    reason = STOP_RECORD;
    int h1, s1, q1;
    if (!cut(b, p, end, &h1, &s1, &q1)) break;
    /* The header's index field, as makeHeaderHandler reads it. */
    int e = h1;
    if (b[e - 1] == '\r') e--;
    int k = e - 1;
    while (k > p) {
      const uint8_t ch = b[k];
      if (ch == ':' || ch == ' ') break;
      k--;
    }
    int s7 = h1, mid = h1, fend = h1;
    if (b[k] == ':') {
      int pp = e, i = k + 1;
      for (; i < e; i++) {
        const uint8_t ch = b[i];
        if (ch == '+') pp = i;
        else if (ch < 65 || ch > 90) break;
      }
      if (i == e) {
        s7 = k + 1;
        mid = pp;
        fend = e;
      }
    }
    int32_t e0 = 0, e1 = 0;
    int64_t code = -1;
    if (mid - s7 >= c->span0) {
      code = code_at(b, s7, c->span0);
      if (code >= (int64_t)c->len0) break;
      e0 = c->index0[code];
    }
    if (e0 <= 0) {
      /* Undetermined (no entry, an ambiguous one, or no field to read): as the handler's. */
      if (und < 0 || (size_t)u >= ucap) break;
      unknown[u++] = (double)code;
      ops[n] = und;
      ops[n + 1] = chunk;
      ops[n + 2] = p;
      ops[n + 3] = q1 + 1;
      n += 4;
      p = q1 + 1;
      reads++;
      reason = STOP_LIMIT;
      continue;
    }
    if (two) {
      const int s5 = mid < fend ? mid + 1 : fend;
      if (fend - s5 < c->span1) break;
      code = code_at(b, s5, c->span1);
      if (code >= (int64_t)c->len1) break;
      e1 = c->index1[code];
      if (e1 <= 0) break;
    }
    const int sample = sample_of(c, e0, e1);
    if (sample < 0) break;
    n = take(c, ops, n, sample, e0, e1, chunk, p, q1 + 1);
    p = q1 + 1;
    reads++;
    reason = STOP_LIMIT;
  }
  st[0] = p;
  st[3] = n;
  st[4] = reason;
  st[5] = reads;
  if (slen >= 8) st[7] = u;
  return NULL;
}

/* The lookup of an index read's sequence line [from, to), as makeIndexReadHandler reads it. */
static inline int32_t index_entry(const uint8_t *b, int from, int to, const int32_t *table, size_t len, int span) {
  if (to > from && b[to - 1] == '\r') to--;
  if (to - from < span) return 0;
  const int64_t code = code_at(b, from, span);
  return code < (int64_t)len ? table[code] : 0;
}

/*
 * scanIndexReads(context, r1, i1, i2|null, ops, state, chunk): the same for a single-end lane
 * whose indexes come as I1 (and I2) files, the three read in step; state is an Int32Array
 * [r1 pos, r1 end, i1 pos, i1 end, i2 pos, i2 end, limit, n, reason, reads] (positions in and
 * out). It never takes a record on which the reads' names are compared (the caller's limit).
 */
static napi_value ScanIndexReads(napi_env env, napi_callback_info info) {
  size_t argc = 7;
  napi_value a[7];
  napi_get_cb_info(env, info, &argc, a, NULL, NULL);
  Context *c;
  uint8_t *b, *x, *y = NULL;
  int32_t *ops, *st;
  size_t blen, xlen, ylen = 0, cap, slen;
  int32_t chunk;
  napi_valuetype t = napi_null;
  if (argc == 7) napi_typeof(env, a[3], &t);
  if (argc != 7 || napi_get_value_external(env, a[0], (void **)&c) != napi_ok ||
      !typed(env, a[1], napi_uint8_array, (void **)&b, &blen) ||
      !typed(env, a[2], napi_uint8_array, (void **)&x, &xlen) ||
      (t != napi_null && !typed(env, a[3], napi_uint8_array, (void **)&y, &ylen)) ||
      !typed(env, a[4], napi_int32_array, (void **)&ops, &cap) ||
      !typed(env, a[5], napi_int32_array, (void **)&st, &slen) || slen < 10 ||
      napi_get_value_int32(env, a[6], &chunk) != napi_ok || (y == NULL) != (c->pairs == NULL))
    return fail(env, "scanIndexReads: unexpected arguments");
  int p = st[0], end = st[1], ip = st[2], iend = st[3], jp = st[4], jend = st[5];
  const int limit = st[6];
  int n = st[7], reads = 0, reason = STOP_LIMIT;
  if (p < 0 || end > (int)blen || ip < 0 || iend > (int)xlen || (y && (jp < 0 || jend > (int)ylen)))
    return fail(env, "scanIndexReads: position outside a buffer");
  while (reads < limit) {
    if ((size_t)n + 4 > cap) {
      reason = STOP_FULL;
      break;
    }
    reason = STOP_RECORD;
    int h1, s1, q1, ih1, is1, iq1, jh1 = 0, js1 = 0, jq1 = 0;
    if (!cut(b, p, end, &h1, &s1, &q1) || !cut(x, ip, iend, &ih1, &is1, &iq1)) break;
    if (y && !cut(y, jp, jend, &jh1, &js1, &jq1)) break;
    const int32_t e0 = index_entry(x, ih1 + 1, is1, c->index0, c->len0, c->span0);
    if (e0 <= 0) break;
    int32_t e1 = 0;
    if (y) {
      e1 = index_entry(y, jh1 + 1, js1, c->index1, c->len1, c->span1);
      if (e1 <= 0) break;
    }
    const int sample = sample_of(c, e0, e1);
    if (sample < 0) break;
    n = take(c, ops, n, sample, e0, e1, chunk, p, q1 + 1);
    p = q1 + 1;
    ip = iq1 + 1;
    if (y) jp = jq1 + 1;
    reads++;
    reason = STOP_LIMIT;
  }
  st[0] = p;
  st[2] = ip;
  st[4] = jp;
  st[7] = n;
  st[8] = reason;
  st[9] = reads;
  return NULL;
}

void demux_register_scan(napi_env env, napi_value exports) {
  memset(base5, 4, sizeof base5);
  base5['A'] = base5['a'] = 0;
  base5['C'] = base5['c'] = 1;
  base5['G'] = base5['g'] = 2;
  base5['T'] = base5['t'] = 3;
  napi_value f;
  napi_create_function(env, "context", NAPI_AUTO_LENGTH, Context_, NULL, &f);
  napi_set_named_property(env, exports, "context", f);
  napi_create_function(env, "scan", NAPI_AUTO_LENGTH, Scan, NULL, &f);
  napi_set_named_property(env, exports, "scan", f);
  napi_create_function(env, "scanIndexReads", NAPI_AUTO_LENGTH, ScanIndexReads, NULL, &f);
  napi_set_named_property(env, exports, "scanIndexReads", f);
}

/*
 * The output's plain copies in C (src/service/tools/demux/copy-ops.ts runs the rest): chunk bytes
 * into a file's block while they fit, exactly where the JavaScript loop would put them. (Writing
 * them straight from the chunks with pwritev(2), one iovec per record, was slower: see
 * docs/benchmarks.md, "Blocks again".)
 */
#include "demux-native.h"

#define MAX_FILES 4096
#define MAX_CHUNKS 4096

/* The call's arguments: ops, from, n, blocks, lens, chunks. */
typedef struct {
  int32_t *ops, *lens;
  int32_t from, n;
  uint32_t nblocks, nchunks;
  uint8_t **block, **chunk;
  size_t *blen, *clen;
} copy_args;

static void release_args(copy_args *c) {
  free(c->block);
  free(c->blen);
}

/* Reads a[0..5]; 0 (with an exception pending) when they are not what copy-ops.ts passes. */
static int read_args(napi_env env, napi_value *a, copy_args *c, const char *name) {
  size_t nops, nlens;
  memset(c, 0, sizeof *c);
  if (!typed(env, a[0], napi_int32_array, (void **)&c->ops, &nops) ||
      napi_get_value_int32(env, a[1], &c->from) != napi_ok || napi_get_value_int32(env, a[2], &c->n) != napi_ok ||
      !typed(env, a[4], napi_int32_array, (void **)&c->lens, &nlens) ||
      napi_get_array_length(env, a[3], &c->nblocks) != napi_ok ||
      napi_get_array_length(env, a[5], &c->nchunks) != napi_ok || c->from < 0 || c->n < c->from ||
      (size_t)c->n > nops || c->nblocks > MAX_FILES || c->nchunks > MAX_CHUNKS || nlens < c->nblocks) {
    napi_throw_error(env, NULL, name);
    return 0;
  }
  /* Per call, not static: the parsing thread and the output thread may both call it. */
  c->block = malloc((c->nblocks + c->nchunks + 1) * sizeof(uint8_t *));
  c->blen = malloc((c->nblocks + c->nchunks + 1) * sizeof(size_t));
  if (!c->block || !c->blen) {
    release_args(c);
    napi_throw_error(env, NULL, "copy: out of memory");
    return 0;
  }
  c->chunk = c->block + c->nblocks;
  c->clen = c->blen + c->nblocks;
  for (uint32_t k = 0; k < c->nblocks; k++) {
    napi_value v;
    napi_get_element(env, a[3], k, &v);
    if (!typed(env, v, napi_uint8_array, (void **)&c->block[k], &c->blen[k])) {
      release_args(c);
      napi_throw_error(env, NULL, "copy: a block is not bytes");
      return 0;
    }
  }
  for (uint32_t k = 0; k < c->nchunks; k++) {
    napi_value v;
    napi_get_element(env, a[5], k, &v);
    if (!typed(env, v, napi_uint8_array, (void **)&c->chunk[k], &c->clen[k])) c->chunk[k] = NULL, c->clen[k] = 0;
  }
  return 1;
}

/* The plain copy at ops[i] when C may run it: its file, chunk and span; else 0. */
static int plain_copy(const copy_args *c, int i, int32_t *file, int32_t *source, int32_t *start, int32_t *stop) {
  *file = c->ops[i], *source = c->ops[i + 1], *start = c->ops[i + 2], *stop = c->ops[i + 3];
  if (*source < 0 || *file < 0 || (uint32_t)*file >= c->nblocks || (uint32_t)*source >= c->nchunks ||
      !c->chunk[*source])
    return 0;
  return *start >= 0 && *stop >= *start && (size_t)*stop <= c->clen[*source] && c->lens[*file] >= 0;
}

static napi_value int_value(napi_env env, int32_t v) {
  napi_value result;
  napi_create_int32(env, v, &result);
  return result;
}

/*
 * copy(ops, from, n, blocks, lens, chunks): runs copy-ops.ts's operations from `from` while each
 * is a plain copy (chunk bytes [a, b) to a file) that fits its file's block: `blocks[file]` is
 * the writer's buffer, `lens[file]` its length so far (updated). Returns where it stopped: `n`,
 * or an operation for JavaScript (a literal, a reservation, or a copy that needs the block
 * written first).
 */
static napi_value Copy(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value a[6];
  napi_get_cb_info(env, info, &argc, a, NULL, NULL);
  copy_args c;
  if (argc != 6 || !read_args(env, a, &c, "copy: unexpected arguments")) return NULL;
  int i = c.from;
  for (; i + 3 < c.n; i += 4) {
    int32_t file, source, start, stop;
    if (!plain_copy(&c, i, &file, &source, &start, &stop)) break;
    const size_t len = (size_t)(stop - start);
    if ((size_t)c.lens[file] + len > c.blen[file]) break;
    memcpy(c.block[file] + c.lens[file], c.chunk[source] + start, len);
    c.lens[file] += (int32_t)len;
  }
  release_args(&c);
  return int_value(env, i);
}

void demux_register_copy(napi_env env, napi_value exports) {
  napi_value f;
  napi_create_function(env, "copy", NAPI_AUTO_LENGTH, Copy, NULL, &f);
  napi_set_named_property(env, exports, "copy", f);
}

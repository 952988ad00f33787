/*
 * The output's plain copies in C (src/service/tools/demux/copy-ops.ts runs the rest): chunk bytes
 * into a file's block while they fit, exactly where the JavaScript loop would put them.
 */
#include "demux-native.h"

/*
 * copy(ops, from, n, blocks, lens, chunks): runs copy-ops.ts's operations from `from` while each
 * is a plain copy (chunk bytes [a, b) to a file) that fits its file's block: `blocks[file]` is
 * the writer's buffer, `lens[file]` its length so far (updated). Returns where it stopped: `n`,
 * or an operation for JavaScript (a literal, a reservation, or a copy that needs the block
 * written first).
 */
#define MAX_FILES 4096
#define MAX_CHUNKS 4096
static napi_value Copy(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value a[6];
  napi_get_cb_info(env, info, &argc, a, NULL, NULL);
  int32_t *ops, *lens;
  size_t nops, nlens;
  int32_t from, n;
  uint32_t nblocks, nchunks;
  if (argc != 6 || !typed(env, a[0], napi_int32_array, (void **)&ops, &nops) ||
      napi_get_value_int32(env, a[1], &from) != napi_ok || napi_get_value_int32(env, a[2], &n) != napi_ok ||
      !typed(env, a[4], napi_int32_array, (void **)&lens, &nlens) ||
      napi_get_array_length(env, a[3], &nblocks) != napi_ok || napi_get_array_length(env, a[5], &nchunks) != napi_ok ||
      from < 0 || n < from || (size_t)n > nops || nblocks > MAX_FILES || nchunks > MAX_CHUNKS || nlens < nblocks)
    return fail(env, "copy: unexpected arguments");
  /* Per call, not static: the parsing thread and the output thread may both call it. */
  uint8_t **block = malloc((nblocks + nchunks + 1) * sizeof(uint8_t *));
  size_t *blen = malloc((nblocks + nchunks + 1) * sizeof(size_t));
  if (!block || !blen) {
    free(block);
    free(blen);
    return fail(env, "copy: out of memory");
  }
  uint8_t **chunk = block + nblocks;
  size_t *clen = blen + nblocks;
  for (uint32_t k = 0; k < nblocks; k++) {
    napi_value v;
    napi_get_element(env, a[3], k, &v);
    if (!typed(env, v, napi_uint8_array, (void **)&block[k], &blen[k])) {
      free(block);
      free(blen);
      return fail(env, "copy: a block is not bytes");
    }
  }
  for (uint32_t k = 0; k < nchunks; k++) {
    napi_value v;
    napi_get_element(env, a[5], k, &v);
    if (!typed(env, v, napi_uint8_array, (void **)&chunk[k], &clen[k])) chunk[k] = NULL, clen[k] = 0;
  }
  int i = from;
  for (; i + 3 < n; i += 4) {
    const int32_t file = ops[i], source = ops[i + 1], start = ops[i + 2], stop = ops[i + 3];
    if (source < 0 || file < 0 || (uint32_t)file >= nblocks || (uint32_t)source >= nchunks || !chunk[source]) break;
    if (start < 0 || stop < start || (size_t)stop > clen[source]) break;
    const size_t len = (size_t)(stop - start);
    if (lens[file] < 0 || (size_t)lens[file] + len > blen[file]) break;
    memcpy(block[file] + lens[file], chunk[source] + start, len);
    lens[file] += (int32_t)len;
  }
  free(block);
  free(blen);
  napi_value result;
  napi_create_int32(env, i, &result);
  return result;
}

void demux_register_copy(napi_env env, napi_value exports) {
  napi_value f;
  napi_create_function(env, "copy", NAPI_AUTO_LENGTH, Copy, NULL, &f);
  napi_set_named_property(env, exports, "copy", f);
}

/*
 * What the demultiplexer's native files share (demux-scan.c, demux-copy.c, demux-module.c):
 * checked access to typed arrays and errors thrown into JavaScript.
 */
#ifndef LANEWAY_DEMUX_NATIVE_H
#define LANEWAY_DEMUX_NATIVE_H
#include <node_api.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* 1 when v is a typed array of the wanted type: its data and length (elements). */
static inline int typed(napi_env env, napi_value v, napi_typedarray_type want, void **data, size_t *len) {
  bool is = false;
  if (napi_is_typedarray(env, v, &is) != napi_ok || !is) return 0;
  napi_typedarray_type type;
  napi_value ab;
  size_t off;
  if (napi_get_typedarray_info(env, v, &type, len, data, &ab, &off) != napi_ok) return 0;
  return type == want;
}

static inline napi_value fail(napi_env env, const char *message) {
  napi_throw_error(env, NULL, message);
  return NULL;
}

void demux_register_scan(napi_env env, napi_value exports);
void demux_register_copy(napi_env env, napi_value exports);
#endif

/*
 * The demultiplexer's native module (src/service/tools/demux/native-module.ts loads it): the
 * index fast paths' scans (demux-scan.c) and the output's copies (demux-copy.c). Built by
 * native/build.mjs (node-gyp, at `npm ci`); context-aware, so every thread may load it.
 */
#include "demux-native.h"

NAPI_MODULE_INIT() {
  demux_register_scan(env, exports);
  demux_register_copy(env, exports);
  return exports;
}

/*
 * A speed floor for the header single-index row of demux-index.bench.ts (issue 21 item 3), not an
 * engine: what one thread of C needs to do the same work on the same lane. It reads R1 in 4 MiB
 * blocks, cuts 4-line records with memchr, reads the 8 bases after the header's last ':' as a
 * base-5 code, looks the code up in a table of every sheet barcode and its 1-mismatch variants,
 * and appends the record to its sample's 1 MiB block (Undetermined otherwise), written with
 * write(2) when full. No checks (a malformed record is not found), no report, no placement: on
 * the bench's lane its 25 files are byte-identical to `laneway demux`'s (checked with cmp).
 *
 * Alone:    gcc -O2 -o floor header-index-floor.c && ./floor lane_R1.fastq sheet.csv OUTDIR
 * From Node (the cost of a native engine inside `node`, whose start it then pays):
 *           gcc -O2 -shared -fPIC -DNAPI_FLOOR -I/usr/include/node -o floor.node header-index-floor.c
 *           node -e "require('./floor.node').run('lane_R1.fastq', 'sheet.csv', 'OUTDIR')"
 * Figures: docs/benchmarks.md ("a floor for the header rows").
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK (4 << 20)
#define BLOCK (1 << 20)
#define MAX_SAMPLES 96
#define INDEX_LEN 8

static int base5[256];

static int code_of(const char *s) {
  int code = 0;
  for (int i = 0; i < INDEX_LEN; i++) code = code * 5 + base5[(unsigned char)s[i]];
  return code;
}

static int run(const char *r1, const char *sheet, const char *out) {
  for (int i = 0; i < 256; i++) base5[i] = 4;
  base5['A'] = 0, base5['C'] = 1, base5['G'] = 2, base5['T'] = 3;
  int *table = calloc(390625, sizeof(int)); /* 5^8 codes -> sample + 1 */
  char names[MAX_SAMPLES][64], line[512];
  int samples = 0;
  FILE *s = fopen(sheet, "r");
  if (!s || !table || !fgets(line, sizeof line, s)) return 1; /* the header row */
  while (samples < MAX_SAMPLES && fgets(line, sizeof line, s)) {
    char *comma = strchr(line, ',');
    if (!comma || strlen(comma + 1) < INDEX_LEN) continue;
    *comma = 0;
    snprintf(names[samples], sizeof names[0], "%.63s", line);
    for (int p = -1; p < INDEX_LEN; p++) {
      for (int b = 0; b < 5; b++) {
        char v[INDEX_LEN];
        memcpy(v, comma + 1, INDEX_LEN);
        if (p >= 0) v[p] = "ACGTN"[b];
        else if (b) continue;
        table[code_of(v)] = samples + 1;
      }
    }
    samples++;
  }
  fclose(s);
  int fds[MAX_SAMPLES + 1], lens[MAX_SAMPLES + 1];
  char *blocks[MAX_SAMPLES + 1];
  for (int k = 0; k <= samples; k++) {
    char path[1024];
    snprintf(path, sizeof path, "%.900s/%.63s.fastq", out, k < samples ? names[k] : "Undetermined");
    fds[k] = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    blocks[k] = malloc(BLOCK);
    lens[k] = 0;
    if (fds[k] < 0 || !blocks[k]) return 1;
  }
  int in = open(r1, O_RDONLY);
  char *buf = malloc(2 * CHUNK);
  if (in < 0 || !buf) return 1;
  size_t have = 0;
  long reads = 0;
  for (;;) {
    ssize_t n = read(in, buf + have, CHUNK);
    if (n < 0) return 1;
    have += (size_t)n;
    char *p = buf, *end = buf + have;
    for (;;) {
      char *h = memchr(p, '\n', (size_t)(end - p)), *sq, *plus, *q;
      if (!h || !(sq = memchr(h + 1, '\n', (size_t)(end - h - 1))) ||
          !(plus = memchr(sq + 1, '\n', (size_t)(end - sq - 1))) ||
          !(q = memchr(plus + 1, '\n', (size_t)(end - plus - 1))))
        break;
      char *c = h - 1;
      while (c > p && *c != ':') c--;
      int sample = h - c > INDEX_LEN ? table[code_of(c + 1)] : 0;
      int o = sample ? sample - 1 : samples;
      size_t len = (size_t)(q + 1 - p);
      if (lens[o] + len > BLOCK) {
        if (write(fds[o], blocks[o], (size_t)lens[o]) != lens[o]) return 1;
        lens[o] = 0;
      }
      memcpy(blocks[o] + lens[o], p, len);
      lens[o] += (int)len;
      p = q + 1;
      reads++;
    }
    have = (size_t)(end - p);
    memmove(buf, p, have);
    if (n == 0) break;
  }
  for (int k = 0; k <= samples; k++) {
    if (write(fds[k], blocks[k], (size_t)lens[k]) != lens[k]) return 1;
    close(fds[k]);
  }
  close(in);
  fprintf(stderr, "%ld reads\n", reads);
  return 0;
}

#ifdef NAPI_FLOOR
#include <node_api.h>

static napi_value Run(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  char args[3][1024];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  for (int i = 0; i < 3; i++) napi_get_value_string_utf8(env, argv[i], args[i], sizeof args[i], NULL);
  napi_value result;
  napi_create_int32(env, run(args[0], args[1], args[2]), &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "run", NAPI_AUTO_LENGTH, Run, NULL, &fn);
  napi_set_named_property(env, exports, "run", fn);
  return exports;
}
#else
int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s R1.fastq sheet.csv OUTDIR\n", argv[0]);
    return 2;
  }
  return run(argv[1], argv[2], argv[3]);
}
#endif

/* What the C callers of a Strata library share (docs/abi.md): the memref
 * descriptor of a row-major 2-D f32 tensor, and loading one entry point. */
#ifndef STRATA_ABI_H
#define STRATA_ABI_H

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} Desc2D;

static Desc2D describe(float *data, int64_t rows, int64_t cols) {
  Desc2D d = {data, data, 0, {rows, cols}, {cols, 1}};
  return d;
}

/* The C interface of function `name` in library `path`; NULL (with a
 * message on stderr) when either is missing. */
static void *loadEntry(const char *path, const char *name) {
  void *lib = dlopen(path, RTLD_NOW);
  if (!lib) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return NULL;
  }
  char symbol[256];
  snprintf(symbol, sizeof symbol, "_mlir_ciface_%s", name);
  void *entry = dlsym(lib, symbol);
  if (!entry)
    fprintf(stderr, "no %s\n", symbol);
  return entry;
}

typedef void (*MatmulEntry)(Desc2D *, Desc2D *, Desc2D *);

/* Row-major operands of C[m x n] = A[m x k] * B[k x n], filled with small
 * repeating patterns (exact in f32), and their descriptors. */
typedef struct {
  float *a, *b, *c;
  Desc2D da, db, dc;
} MatmulOperands;

static MatmulOperands matmulOperands(int64_t m, int64_t k, int64_t n) {
  MatmulOperands o;
  o.a = (float *)malloc(sizeof(float) * m * k);
  o.b = (float *)malloc(sizeof(float) * k * n);
  o.c = (float *)malloc(sizeof(float) * m * n);
  for (int64_t i = 0; i < m * k; ++i)
    o.a[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
  for (int64_t i = 0; i < k * n; ++i)
    o.b[i] = (float)((i * 5) % 11) / 11.0f - 0.5f;
  o.da = describe(o.a, m, k);
  o.db = describe(o.b, k, n);
  o.dc = describe(o.c, m, n);
  return o;
}

#endif

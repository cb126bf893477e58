/* What the C callers of a Strata library share (docs/abi.md): the memref
 * descriptor of a row-major 2-D f32 tensor, and loading one entry point. */
#ifndef STRATA_ABI_H
#define STRATA_ABI_H

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

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

#endif

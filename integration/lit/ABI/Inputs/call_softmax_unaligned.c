/* Calls a softmax library (docs/abi.md) with its output at a 64-byte
 * boundary and then 4 bytes past one, and its input likewise: the library
 * streams its stores (its buffers are larger than the description's caches)
 * and picks its aligned or its unaligned version at run time. Both must
 * match a double-precision reference. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "strata_abi.h"

enum { R = 64, C = 1024 };

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  void (*softmax)(Desc2D *, Desc2D *) =
      (void (*)(Desc2D *, Desc2D *))loadEntry(argv[1], "softmax");
  if (!softmax)
    return 1;
  float *in = aligned_alloc(64, sizeof(float) * (R * C + 16));
  float *out = aligned_alloc(64, sizeof(float) * (R * C + 16));
  for (int shift = 0; shift <= 1; ++shift) {
    float *x = in + shift, *y = out + shift;
    for (int i = 0; i < R * C; ++i)
      x[i] = (float)((i * 7919) % 1000) / 100.0f - 5.0f;
    for (int i = 0; i < R * C; ++i)
      y[i] = NAN;
    Desc2D dx = describe(x, R, C), dy = describe(y, R, C);
    softmax(&dx, &dy);
    double maxError = 0;
    for (int i = 0; i < R; ++i) {
      double top = -INFINITY, sum = 0;
      for (int j = 0; j < C; ++j)
        top = fmax(top, x[i * C + j]);
      for (int j = 0; j < C; ++j)
        sum += exp(x[i * C + j] - top);
      for (int j = 0; j < C; ++j) {
        double want = exp(x[i * C + j] - top) / sum;
        double error = fabs(y[i * C + j] - want) / want;
        if (!(error <= maxError)) /* NaN-safe */
          maxError = isnan(error) ? INFINITY : error;
      }
    }
    printf("offset %d bytes: max relative error %.2e %s\n", shift * 4, maxError,
           maxError < 1e-5 ? "PASS" : "FAIL");
  }
  return 0;
}

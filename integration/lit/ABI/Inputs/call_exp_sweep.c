/* Sweeps the library's exp over [-100, 100] and its edge cases against
 * libm's expf: within 2 ulp (relative 2.4e-7) where the result is a normal
 * float above 1.7e-38, flushed to zero or tiny below that, +inf above
 * FLT_MAX, NaN for NaN, 0 for -inf. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "strata_abi.h"

enum { N = 4096 };

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} Desc1D;

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  void (*expEntry)(Desc1D *, Desc1D *) =
      (void (*)(Desc1D *, Desc1D *))loadEntry(argv[1], "exp");
  if (!expEntry)
    return 1;
  static float x[N], y[N];
  const float special[] = {NAN,    INFINITY, -INFINITY, 0.0f,   -0.0f,
                           88.7f,  88.72f,   88.73f,    88.8f,  89.0f,
                           -86.9f, -87.0f,   -87.3f,    -87.5f, -103.0f};
  int nSpecial = sizeof special / sizeof special[0];
  for (int i = 0; i < N; ++i)
    x[i] = i < nSpecial ? special[i]
                        : -100.0f + 200.0f * (i - nSpecial) / (N - nSpecial);
  Desc1D dx = {x, x, 0, {N}, {1}}, dy = {y, y, 0, {N}, {1}};
  expEntry(&dx, &dy);
  double worst = 0;
  int bad = 0;
  for (int i = 0; i < N; ++i) {
    float want = expf(x[i]), got = y[i];
    if (isnan(want)) {
      bad += !isnan(got);
    } else if (isinf(want)) {
      bad += !(isinf(got) && got > 0);
    } else if (want < 1.7e-38f) {
      bad += !(got >= 0 && got < 1.7e-38f);
    } else {
      double rel = fabs((double)got - want) / want;
      if (!(rel <= worst))
        worst = isnan(rel) ? INFINITY : rel;
    }
  }
  int pass = bad == 0 && worst <= 2.4e-7;
  printf("exp: %d edge-case failures, max relative error %.2e: %s\n", bad,
         worst, pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}

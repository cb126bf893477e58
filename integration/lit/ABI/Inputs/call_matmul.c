/* A plain C program that dlopens a Strata library and calls matmul through
 * the C interface (docs/abi.md), checking it against a naive loop. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "strata_abi.h"

enum { M = 256, K = 512, N = 384 };

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  MatmulEntry matmul = (MatmulEntry)loadEntry(argv[1], "matmul");
  if (!matmul)
    return 1;
  MatmulOperands o = matmulOperands(M, K, N);
  float *a = o.a, *b = o.b, *c = o.c;
  for (int i = 0; i < M * N; ++i)
    c[i] = NAN;
  matmul(&o.da, &o.db, &o.dc);
  double maxError = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double want = 0;
      for (int k = 0; k < K; ++k)
        want += (double)a[i * K + k] * b[k * N + j];
      double error = fabs(c[i * N + j] - want);
      if (!(error <= maxError)) /* also catches NaN */
        maxError = isnan(error) ? INFINITY : error;
    }
  printf("max abs error %g\n", maxError);
  printf(maxError < 1e-3 ? "C caller: PASS\n" : "C caller: FAIL\n");
  return maxError < 1e-3 ? 0 : 1;
}

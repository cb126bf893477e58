/* Calls a small matmul repeatedly and counts the page faults of the calls
 * after the first few: a library that mallocs and frees its scratch
 * buffers on every call makes glibc hand the heap's top back to the system
 * and fault it in again each time (dozens of faults per call). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "strata_abi.h"

enum { M = 513, K = 129, N = 257, Warm = 5, Calls = 50 };

static long minorFaults(void) {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  MatmulEntry matmul = (MatmulEntry)loadEntry(argv[1], "matmul");
  if (!matmul)
    return 1;
  MatmulOperands o = matmulOperands(M, K, N);
  float *a = o.a, *b = o.b, *c = o.c;
  for (int i = 0; i < Warm; ++i)
    matmul(&o.da, &o.db, &o.dc);
  long before = minorFaults();
  for (int i = 0; i < Calls; ++i)
    matmul(&o.da, &o.db, &o.dc);
  double perCall = (double)(minorFaults() - before) / Calls;
  double maxError = 0;
  for (int i = 0; i < M; i += 37)
    for (int j = 0; j < N; ++j) {
      double want = 0;
      for (int k = 0; k < K; ++k)
        want += (double)a[i * K + k] * b[k * N + j];
      double error = fabs(c[i * N + j] - want);
      if (!(error <= maxError))
        maxError = isnan(error) ? INFINITY : error;
    }
  int pass = perCall < 1 && maxError < 1e-3;
  printf("page faults per call %.2f, max abs error %g: %s\n", perCall, maxError,
         pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}

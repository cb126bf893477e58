// --bench times --reps runs and relates them to the chip's roofline.
// RUN: strata-run %s --bench --reps=3 | FileCheck %s
// RUN: strata-run %s --bench --reps=2 --check --target=host-x86-avx2 | FileCheck %s --check-prefix=AVX2
// RUN: strata-run %s | FileCheck %s --check-prefix=PLAIN

// CHECK: add: ran on host
// CHECK-NEXT: add: median {{[0-9]+\.[0-9][0-9][0-9]}} ms over 3 runs, {{[0-9]+\.[0-9][0-9]}} GFLOP/s, {{[0-9]+\.[0-9][0-9]}} GB/s, {{[0-9]+\.[0-9]}}% of the roofline of host
// CHECK-NOT: check result

// AVX2: add: ran on host-x86-avx2
// AVX2-NEXT: add: check result #0 (64x128xf32): relative error {{.*}} PASS
// AVX2-NEXT: add: median {{.*}} ms over 2 runs, {{.*}} of the roofline of host-x86-avx2

// Without --check or --bench the function only runs.
// PLAIN: add: ran on host
// PLAIN-NOT: check result
// PLAIN-NOT: median

func.func @add(%a: tensor<64x128xf32>, %b: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<64x128xf32>
  %c = linalg.add ins(%a, %b : tensor<64x128xf32>, tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %c : tensor<64x128xf32>
}

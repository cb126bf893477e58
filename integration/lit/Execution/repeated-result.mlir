// A value returned twice fills both results.
// RUN: strata-run %s --check | FileCheck %s

// CHECK: twice: check result #0 (4x8xf32): relative error {{.*}} PASS
// CHECK-NEXT: twice: check result #1 (4x8xf32): relative error {{.*}} PASS
func.func @twice(%a: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %g = linalg.copy ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %g, %g : tensor<4x8xf32>, tensor<4x8xf32>
}

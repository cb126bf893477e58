// --bench with no timed run is refused with a message instead of a crash.
// RUN: not strata-run %s --bench --reps=0 2>&1 | FileCheck %s

// CHECK: error: {{.*}}--reps
func.func @add(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %c = linalg.add ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %c : tensor<8xf32>
}

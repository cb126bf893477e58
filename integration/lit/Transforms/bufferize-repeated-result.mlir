// A value returned twice fills both out-params.
// RUN: strata-opt %s --strata-bufferize | FileCheck %s

// CHECK-LABEL: func.func @twice
// CHECK-SAME: (%[[A:.*]]: memref<4xf32>, %[[R0:.*]]: memref<4xf32>, %[[R1:.*]]: memref<4xf32>) {
// CHECK-DAG: %[[R0]]
// CHECK-DAG: %[[R1]]
// CHECK: return{{$}}
func.func @twice(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %g = linalg.copy ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %g, %g : tensor<4xf32>, tensor<4xf32>
}

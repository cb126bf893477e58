// RUN: strata-opt %s --split-input-file --strata-prepare | FileCheck %s

// TOSA becomes linalg on tensors.
// CHECK-LABEL: func.func @tosa_linear
// CHECK-NOT: tosa.
// CHECK: linalg.fill
// CHECK: linalg.batch_matmul
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK: return
func.func @tosa_linear(%x: tensor<1x4x8xf32>, %w: tensor<1x8x2xf32>, %b: tensor<1x1x2xf32>) -> tensor<1x4x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %mm = tosa.matmul %x, %w, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x2xf32>
  %y = tosa.add %mm, %b : (tensor<1x4x2xf32>, tensor<1x1x2xf32>) -> tensor<1x4x2xf32>
  return %y : tensor<1x4x2xf32>
}

// -----

// Elementwise arith and math on whole tensors become one linalg.generic each.
// CHECK-LABEL: func.func @tensor_arith
// CHECK: linalg.generic
// CHECK: arith.mulf
// CHECK: linalg.generic
// CHECK: math.tanh
// CHECK-NOT: arith.mulf {{.*}} : tensor
// CHECK-NOT: math.tanh {{.*}} : tensor
// CHECK: return
func.func @tensor_arith(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = arith.mulf %x, %x : tensor<4x4xf32>
  %t = math.tanh %m : tensor<4x4xf32>
  return %t : tensor<4x4xf32>
}

// -----

// Aggregates are decomposed.
// CHECK-LABEL: func.func @softmax
// CHECK-NOT: linalg.softmax
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT: linalg.softmax
func.func @softmax(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

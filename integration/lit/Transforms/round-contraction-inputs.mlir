// The f32 inputs of a contraction are read with the leading mantissa bits
// a matrix unit keeps (10: tf32): each through an elementwise op that
// clears the other 13 (mask -8192). Elementwise ops, sums of one input and
// bf16 inputs are left alone; without mantissa-bits nothing changes.
// RUN: strata-opt %s --strata-round-contraction-inputs=mantissa-bits=10 | FileCheck %s
// RUN: strata-opt %s --strata-round-contraction-inputs | FileCheck %s --check-prefix=NONE

// CHECK-LABEL: func.func @matmul
// CHECK: %[[A:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<4x8xf32>)
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.constant -8192 : i32
// CHECK: arith.andi %{{.*}}, %{{.*}} : i32
// CHECK: arith.bitcast %{{.*}} : i32 to f32
// CHECK: %[[B:.*]] = linalg.generic {{.*}} ins(%arg1 : tensor<8x4xf32>)
// CHECK: linalg.matmul ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x4xf32>)
// NONE-LABEL: func.func @matmul
// NONE-NOT: arith.andi
// NONE: linalg.matmul ins(%arg0, %arg1
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %c = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %c : tensor<4x4xf32>
}

// CHECK-LABEL: func.func @untouched
// CHECK-NOT: arith.andi
// CHECK: linalg.exp
// CHECK: linalg.reduce
// CHECK: linalg.matmul ins(%arg1, %arg1 : tensor<4x4xbf16>, tensor<4x4xbf16>)
func.func @untouched(%x: tensor<4x4xf32>, %y: tensor<4x4xbf16>) -> (tensor<4x4xf32>, tensor<4xf32>, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %x2 = linalg.exp ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %er = tensor.empty() : tensor<4xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.reduce ins(%x : tensor<4x4xf32>) outs(%fr : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %p = linalg.matmul ins(%y, %y : tensor<4x4xbf16>, tensor<4x4xbf16>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %x2, %s, %p : tensor<4x4xf32>, tensor<4xf32>, tensor<4x4xf32>
}

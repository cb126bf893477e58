// RUN: strata-opt %s --split-input-file --strata-decompose-aggregates | FileCheck %s
// RUN: strata-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(strata-decompose-aggregates))' | FileCheck %s

// Softmax over the last dimension: max-reduce, sub+exp, sum-reduce, divide.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @softmax_last
// CHECK-SAME: (%[[X:.*]]: tensor<16x32xf32>) -> tensor<16x32xf32>
// CHECK-NOT: linalg.softmax
// CHECK: %[[MAX:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<16x32xf32>) outs(%{{.*}} : tensor<16xf32>)
// CHECK: arith.maxnumf
// CHECK: %[[EXP:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[MAX]] :
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32)
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[EXP]] : tensor<16x32xf32>) outs(%[[INIT]] : tensor<16xf32>)
// CHECK: arith.addf
// CHECK: %[[DIV:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[EXP]], %[[SUM]] :
// CHECK: arith.divf
// CHECK: return %[[DIV]] : tensor<16x32xf32>
// CHECK-NOT: linalg.softmax
func.func @softmax_last(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<16x32xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}

// -----

// Softmax over the first dimension reduces to a vector along d1.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[RED:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @softmax_first
// CHECK-NOT: linalg.softmax
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[RED]]], iterator_types = ["reduction", "parallel", "parallel"]} ins(%{{.*}} : tensor<4x8x2xf16>) outs(%{{.*}} : tensor<8x2xf16>)
// CHECK: arith.maxnumf %{{.*}}, %{{.*}} : f16
// CHECK: math.exp %{{.*}} : f16
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[RED]]], iterator_types = ["reduction", "parallel", "parallel"]}
// CHECK: arith.addf %{{.*}}, %{{.*}} : f16
// CHECK: arith.divf %{{.*}}, %{{.*}} : f16
// CHECK-NOT: linalg.softmax
func.func @softmax_first(%x: tensor<4x8x2xf16>) -> tensor<4x8x2xf16> {
  %e = tensor.empty() : tensor<4x8x2xf16>
  %y = linalg.softmax dimension(0) ins(%x : tensor<4x8x2xf16>) outs(%e : tensor<4x8x2xf16>) -> tensor<4x8x2xf16>
  return %y : tensor<4x8x2xf16>
}

// -----

// Other ops are left alone; two softmaxes both decompose.
// CHECK-LABEL: func.func @around
// CHECK: linalg.matmul
// CHECK-COUNT-8: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.softmax
// CHECK: return
func.func @around(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %s0 = linalg.softmax dimension(1) ins(%m : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %s1 = linalg.softmax dimension(0) ins(%m : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %s0, %s1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// Without an aggregate op nothing changes.
// CHECK-LABEL: func.func @nothing
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: return %[[E]]
func.func @nothing() -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  return %e : tensor<4xf32>
}
